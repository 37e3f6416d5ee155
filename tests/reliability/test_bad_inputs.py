"""The 50 bad inputs of wire-rules.md section 6, one case per row and applicable provider.

Each case states what llmbridge does in lenient and in strict mode: a typed error naming the
message index and field, or the payload it sends and the notes it records. Rows outside the
neutral model are checked where they arise: agent options, replies, streams, the function
runner. The documentation's "Rules for bad input" page (docs/bad-inputs.md) lists the same
policies.
"""

from __future__ import annotations

import base64
import inspect
import json
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import respx

from llmbridge import (
    BadRequestError,
    ContentFilteredError,
    EmptyResponseError,
    FunctionCallMiddleware,
    FunctionContract,
    GenerateReplyOptions,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    RefusalError,
    Role,
    StreamInterruptedError,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicStreamAggregator, from_anthropic
from llmbridge.openai import OpenAIChatAgent, OpenAIStreamAggregator, from_openai
from llmbridge.testing import (
    EchoAgent,
    anthropic_client,
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_tool_use_block,
    openai_chunk,
    openai_client,
    openai_completion,
    openai_error_event,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
    openai_usage_chunk,
)
from tests.corpus import AGENT, PNG
from tests.reliability.helpers import (
    ANTHROPIC_URL,
    OPENAI_URL,
    PROVIDERS,
    Provider,
    Raises,
    Sends,
    a_assistant,
    a_result,
    a_text,
    a_use,
    a_user,
    anthropic_event_models,
    anthropic_message_model,
    anthropic_tool_stream,
    convert,
    drain,
    expect,
    messages_of,
    o_calls,
    o_tool,
    o_user,
    openai_chunk_models,
    openai_completion_model,
    system_of,
)

PNG_B64 = base64.b64encode(PNG).decode()
USER = TextMessage(Role.USER, "Hi")
WEATHER = FunctionContract("get_weather", "Weather in a city.", {"type": "object"})
BOTH = PROVIDERS

CASES: dict[str, Callable[[], Any]] = {}


def row(number: int, slug: str, *providers: Provider) -> Callable[[Callable[..., Any]], None]:
    """Register ``check(provider)`` as the case ``rowNN-slug-provider`` of each provider."""

    def register(check: Callable[..., Any]) -> None:
        for provider in providers:
            CASES[f"row{number:02d}-{slug}-{provider}"] = lambda p=provider: check(p)

    return register


def per(provider: Provider, *, openai: Any, anthropic: Any) -> Any:
    return openai if provider == "openai" else anthropic


def call(call_id: str, arguments: str = "{}", name: str = "get_weather") -> ToolCall:
    return ToolCall(name, arguments, tool_call_id=call_id)


def answer(call_id: str, result: Any = "18C", **kwargs: Any) -> ToolCall:
    return ToolCall("get_weather", "{}", tool_call_id=call_id, result=result, **kwargs)


def calls(*items: ToolCall, **kwargs: Any) -> ToolCallMessage:
    return ToolCallMessage(items, AGENT, **kwargs)


def results(*items: ToolCall) -> ToolCallResultMessage:
    return ToolCallResultMessage(items)


def round_trip(arguments: str = "{}", name: str = "get_weather") -> list[Message]:
    return [USER, calls(call("c1", arguments, name)), results(answer("c1"))]


def first_call(provider: Provider) -> Callable[[Any], Any]:
    """Probe: the first call of the second request message (name and arguments or input)."""
    if provider == "openai":
        return lambda request: request.messages[1]["tool_calls"][0]["function"]
    return lambda request: request.messages[1]["content"][0]


def call_ids(request: Any) -> list[str]:
    """Probe: every tool-call id in the request, calls and results, in order."""
    ids: list[str] = []
    for message in request.messages:
        if "tool_call_id" in message:
            ids.append(message["tool_call_id"])
        ids += [c["id"] for c in message.get("tool_calls") or ()]
        if isinstance(message.get("content"), list):
            for block in message["content"]:
                ids += [block[k] for k in ("id", "tool_use_id") if k in block]
    return ids


async def assert_not_run(reply: Message) -> None:
    """``FunctionCallMiddleware`` answers every call of ``reply`` with an error, runs none."""
    ran: list[str] = []

    def get_weather(city: str) -> str:
        ran.append(city)
        return "18C"

    agent = EchoAgent(AGENT).register_middleware(FunctionCallMiddleware([get_weather]))
    answered = await agent.send(reply)
    assert isinstance(answered, ToolCallResultMessage)
    assert ran == []
    assert all(result.is_error for result in answered.tool_calls)


def openai_final(data: list[dict[str, Any]]) -> Message:
    aggregator = OpenAIStreamAggregator(AGENT)
    for chunk in openai_chunk_models(data):
        aggregator.add(chunk)
    return aggregator.finish()


def anthropic_final(events: list[dict[str, Any]], *, strict_mode: bool = False) -> Message:
    aggregator = AnthropicStreamAggregator(AGENT, strict_mode=strict_mode)
    for event in anthropic_event_models(events):
        aggregator.add(event)
    return aggregator.finish()


def reply_of(provider: Provider, body: dict[str, Any], *, strict_mode: bool = False) -> Message:
    if provider == "openai":
        return from_openai(openai_completion_model(body), agent_name=AGENT, strict_mode=strict_mode)
    return from_anthropic(anthropic_message_model(body), agent_name=AGENT, strict_mode=strict_mode)


def final_of(provider: Provider, events: list[dict[str, Any]]) -> Message:
    return openai_final(events) if provider == "openai" else anthropic_final(events)


def openai_agent(router: respx.Router, **kwargs: Any) -> OpenAIChatAgent:
    return OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-test", **kwargs)


def anthropic_agent(router: respx.Router, **kwargs: Any) -> AnthropicChatAgent:
    return AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test", **kwargs)


def agent_of(provider: Provider, router: respx.Router | None = None, **kwargs: Any) -> Any:
    router = router or respx.Router()
    return per(provider, openai=openai_agent, anthropic=anthropic_agent)(router, **kwargs)


RAW_USER = [MessageEnvelope({"role": "user", "content": "Hi"})]


# -- rows 1-11: roles, pairing, arguments, empty content -----------------------------------


@row(1, "image-from-the-assistant", *BOTH)
def _row01(p: Provider) -> None:
    image = ImageMessage(Role.ASSISTANT, "https://x.test/a.png", AGENT)
    expect(p, [USER, image], Raises(InvalidMessageError, 1, "from_"))


@row(2, "tool-result-without-a-call", *BOTH)
def _row02(p: Provider) -> None:
    expect(p, [USER, results(answer("c9"))], Raises(InvalidMessageError, 1, "tool_calls"))


@row(3, "tool-call-without-result-then-more", *BOTH)
def _row03(p: Provider) -> None:
    later = [TextMessage(Role.USER, "And?"), TextMessage(Role.ASSISTANT, "Done.", AGENT)]
    expect(p, [USER, calls(call("c1")), *later], Raises(InvalidMessageError, 1, "tool_calls"))


@row(4, "arguments-not-valid-json", *BOTH)
def _row04(p: Provider) -> None:
    sent = Sends(first_call(p), {"name": "get_weather", "arguments": "{not json"})
    field = "tool_calls[0].function_arguments"
    expect(
        p,
        round_trip("{not json"),
        per(p, openai=sent, anthropic=Raises(InvalidMessageError, 1, field)),
    )


@row(5, "arguments-json-but-not-an-object", *BOTH)
def _row05(p: Provider) -> None:
    sent = Sends(first_call(p), {"name": "get_weather", "arguments": "[1, 2]"})
    field = "tool_calls[0].function_arguments"
    expect(
        p,
        round_trip("[1, 2]"),
        per(p, openai=sent, anthropic=Raises(InvalidMessageError, 1, field)),
    )


@row(6, "empty-arguments-string", *BOTH)
def _row06(p: Provider) -> None:
    openai = Sends(first_call(p), {"name": "get_weather", "arguments": ""})
    anthropic = Sends(first_call(p), a_use("c1", "get_weather", {}))
    expect(p, round_trip(""), per(p, openai=openai, anthropic=anthropic))


@row(7, "stream-args-never-valid-json", *BOTH)
async def _row07(p: Provider) -> None:
    truncated = '{"city": "Par'
    for strict_mode in (False, True):
        if p == "openai":
            chunks = openai_tool_call_chunks(
                [ToolCall("get_weather", truncated, tool_call_id="c1")]
            )
            final = openai_final(chunks)
        else:
            final = anthropic_final(
                anthropic_tool_stream(['{"city"', ': "Par'], "tool_use"), strict_mode=strict_mode
            )
        assert isinstance(final, ToolCallMessage)
        assert final.tool_calls[0].function_arguments == truncated  # raw text, never a half-object
        await assert_not_run(final)


@row(8, "length-stop-inside-a-tool-call", *BOTH)
async def _row08(p: Provider) -> None:
    cut = [call("c1", '{"city": "Paris"}'), call("c2", '{"city": "Ro')]
    body = per(
        p,
        openai=openai_completion(tool_calls=cut, finish_reason="length"),
        # The SDK trap: a cut-off input that still looks like a complete object.
        anthropic=anthropic_message(
            [anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris"})],
            stop_reason="max_tokens",
        ),
    )
    for strict_mode in (False, True):
        reply = reply_of(p, body, strict_mode=strict_mode)
        assert isinstance(reply, ToolCallMessage)
        assert reply.finish_reason == "length"
        await assert_not_run(reply)


@row(9, "empty-text", *BOTH)
def _row09(p: Provider) -> None:
    messages = [USER, TextMessage(Role.USER, "")]
    if p == "openai":
        expect(p, messages, Sends(messages_of, [o_user("Hi"), o_user("")]))
    else:
        dropped = Sends(messages_of, [a_user(a_text("Hi"))], [(1, "dropped")])
        expect(p, messages, dropped, Raises(InvalidMessageError, 1, "content"))


@row(10, "whitespace-only-text", *BOTH)
def _row10(p: Provider) -> None:
    messages = [TextMessage(Role.USER, " \n\t")]
    if p == "openai":
        expect(p, messages, Sends(messages_of, [o_user(" \n\t")]))
    else:  # dropped, and then nothing is left to send
        expect(
            p,
            messages,
            Raises(InvalidMessageError, None),
            Raises(InvalidMessageError, 0, "content"),
        )


@row(11, "assistant-message-with-nothing-in-it", *BOTH)
def _row11(p: Provider) -> None:
    messages = [USER, TextMessage(Role.ASSISTANT, "", AGENT), TextMessage(Role.USER, "And?")]
    if p == "openai":
        empty = {"role": "assistant", "content": "", "name": AGENT}
        expect(p, messages, Sends(messages_of, [o_user("Hi"), empty, o_user("And?")]))
    else:
        merged = Sends(
            messages_of, [a_user(a_text("Hi"), a_text("And?"))], [(1, "dropped"), (2, "merged")]
        )
        expect(p, messages, merged, Raises(InvalidMessageError, 1, "content"))


# -- rows 12-17: images ----------------------------------------------------------------------


@row(12, "unsupported-media-type", *BOTH)
def _row12(p: Provider) -> None:
    bmp = ImageMessage(Role.USER, data=b"BM\x00\x00", media_type="image/bmp")
    expect(p, [bmp], Raises(InvalidMessageError, 0, "media_type"))


def image_source(p: Provider) -> Callable[[Any], Any]:
    if p == "openai":
        return lambda request: request.messages[-1]["content"][0]["image_url"]["url"]
    return lambda request: request.messages[-1]["content"][-1]["source"]


@row(13, "declared-media-type-is-not-the-bytes", *BOTH)
def _row13(p: Provider) -> None:
    image = ImageMessage(Role.USER, data=PNG, media_type="image/jpeg")  # sniffed: png
    base64_source = {"type": "base64", "media_type": "image/png", "data": PNG_B64}
    expected = per(p, openai=f"data:image/png;base64,{PNG_B64}", anthropic=base64_source)
    expect(p, [image], Sends(image_source(p), expected))


@row(14, "undecodable-base64-or-data-prefix-left-in", *BOTH)
def _row14(p: Provider) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        ImageMessage(Role.USER, "data:image/png;base64,@@not base64@@")
    assert caught.value.field == "url"
    image = ImageMessage(Role.USER, f"data:image/png;base64,{PNG_B64}")
    base64_source = {"type": "base64", "media_type": "image/png", "data": PNG_B64}
    expected = per(p, openai=f"data:image/png;base64,{PNG_B64}", anthropic=base64_source)
    expect(p, [image], Sends(image_source(p), expected))


@row(15, "30-mb-image", *BOTH)
def _row15(p: Provider) -> None:
    huge = ImageMessage(Role.USER, data=PNG + bytes(30 * 1024 * 1024))
    expect(p, [USER, huge], Raises(InvalidMessageError, 1, "data"))


@row(16, "image-over-8000-px", *BOTH)
def _row16(p: Provider) -> None:
    header = struct.pack(">I4sIIBBBBB", 13, b"IHDR", 9000, 9000, 8, 6, 0, 0, 0)
    image = ImageMessage(Role.USER, data=PNG[:8] + header)
    expected = per(
        p,
        openai=image.data_url,
        anthropic={"type": "base64", "media_type": "image/png", "data": image.base64_data},
    )
    expect(p, [image], Sends(image_source(p), expected))  # sent as is: never decoded


@row(17, "too-many-images", *BOTH)
async def _row17(p: Provider) -> None:
    images = [ImageMessage(Role.USER, f"https://x.test/{i}.png") for i in range(601)]
    if p == "openai":
        expect(p, [USER, *images], Sends(lambda r: len(r.messages), 602))
    else:
        merged = [(i, "merged") for i in range(1, 602)]
        expect(p, [USER, *images], Sends(lambda r: len(r.messages[0]["content"]), 602, merged))
    router = respx.Router()
    too_large = per(
        p,
        openai=respx.MockResponse(413, json={"error": {"message": "too large", "type": "x"}}),
        anthropic=anthropic_error_response(413, "request_too_large"),
    )
    router.post(per(p, openai=OPENAI_URL, anthropic=ANTHROPIC_URL)).mock(return_value=too_large)
    with pytest.raises(BadRequestError) as caught:
        await agent_of(p, router).register_message_connector().send(chat_history=[USER, *images])
    assert (caught.value.status_code, caught.value.retryable) == (413, False)


# -- rows 18-23: names and ids ---------------------------------------------------------------


def name_case(p: Provider, sender: str, sanitized: str) -> None:
    messages = [USER, TextMessage(Role.USER, "Hello", sender)]
    if p == "openai":
        lenient = Sends(lambda r: r.messages[1], o_user("Hello", sanitized), [(1, "renamed")])
    else:
        both_texts = [a_user(a_text("Hi"), a_text("Hello"))]
        lenient = Sends(messages_of, both_texts, [(1, "dropped"), (1, "merged")])
    expect(p, messages, lenient, Raises(InvalidMessageError, 1, "from_"))


@row(18, "name-with-spaces-or-non-ascii", *BOTH)
def _row18(p: Provider) -> None:
    name_case(p, "Zoë Smith", "Zo__Smith_20d880d2")


@row(19, "name-longer-than-64", *BOTH)
def _row19(p: Provider) -> None:
    name_case(p, "a" * 70, "a" * 55 + "_6bd5e503")


@row(20, "tool-name-with-dots-or-too-long", *BOTH)
def _row20(p: Provider) -> None:
    sanitized = "web_search_15f83c80"
    expected = per(
        p,
        openai={"name": sanitized, "arguments": "{}"},
        anthropic=a_use("c1", sanitized, {}),
    )
    renamed = Sends(first_call(p), expected, [(1, "renamed")])
    field = "tool_calls[0].function_name"
    expect(p, round_trip(name="web.search"), renamed, Raises(InvalidMessageError, 1, field))


@row(21, "duplicate-tool-names", *BOTH)
def _row21(p: Provider) -> None:
    second = FunctionContract("get_weather", "Another weather tool.")
    agent = agent_of(p, functions=[WEATHER, second])
    tools = agent.create_arguments(RAW_USER)["tools"]
    described = [t.get("function", t)["description"] for t in tools]
    assert described == ["Weather in a city."]  # the first of a name wins


@row(22, "duplicate-tool-call-ids", *BOTH)
def _row22(p: Provider) -> None:
    messages = [*round_trip(), calls(call("c1")), results(answer("c1"))]
    expect(p, messages, Sends(call_ids, ["c1", "c1", "c1_1", "c1_1"], [(3, "repaired")]))


@row(23, "tool-call-id-with-forbidden-characters-or-too-long", *BOTH)
def _row23(p: Provider) -> None:
    odd = "functions.eval:301" + "x" * 30  # 48 characters, with "." and ":"
    messages = [USER, calls(call(odd)), results(answer(odd))]
    if p == "openai":  # OpenAI limits the length only
        short = "functions.eval:301xxxxxxxxxxxxx_b8c948a4"
        # One rule for every target: each message whose ids were rewritten has its note.
        expect(p, messages, Sends(call_ids, [short, short], [(1, "repaired"), (2, "repaired")]))
    else:  # Anthropic limits the characters only
        clean = "functions_eval_301" + "x" * 30 + "_b8c948a4"
        expect(p, messages, Sends(call_ids, [clean, clean], [(1, "repaired"), (2, "repaired")]))


# -- rows 24-31: system messages, turn order, tool results ---------------------------------


@row(24, "system-message-in-the-middle", *BOTH)
def _row24(p: Provider) -> None:
    messages = [USER, TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "And?")]
    if p == "openai":
        sent = [o_user("Hi"), {"role": "system", "content": "Be brief."}, o_user("And?")]
        expect(p, messages, Sends(messages_of, sent))
    else:
        hoisted = ([a_text("Be brief.")], [a_user(a_text("Hi"), a_text("And?"))])
        notes = [(1, "repaired"), (2, "merged")]
        expect(p, messages, Sends(lambda r: (r.system, r.messages), hoisted, notes))


@row(25, "two-system-messages", *BOTH)
def _row25(p: Provider) -> None:
    messages = [TextMessage(Role.SYSTEM, "One."), TextMessage(Role.SYSTEM, "Two."), USER]
    if p == "openai":
        sent = [{"role": "system", "content": t} for t in ("One.", "Two.")] + [o_user("Hi")]
        expect(p, messages, Sends(messages_of, sent))
    else:
        expect(p, messages, Sends(system_of, [a_text("One."), a_text("Two.")]))


@row(26, "only-system-messages", *BOTH)
def _row26(p: Provider) -> None:
    messages = [TextMessage(Role.SYSTEM, "Be brief.")]
    openai = Sends(messages_of, [{"role": "system", "content": "Be brief."}])
    expect(p, messages, per(p, openai=openai, anthropic=Raises(InvalidMessageError, None)))


@row(27, "assistant-message-last", *BOTH)
def _row27(p: Provider) -> None:
    messages = [USER, TextMessage(Role.ASSISTANT, "The answer is ", AGENT)]
    if p == "openai":  # history, not a prefill: sent as is
        last = {"role": "assistant", "content": "The answer is ", "name": AGENT}
        expect(p, messages, Sends(lambda r: r.messages[-1], last))
    else:  # a prefill: Anthropic refuses trailing whitespace
        last = a_assistant(a_text("The answer is"))
        expect(p, messages, Sends(lambda r: r.messages[-1], last, [(1, "repaired")]))


@row(28, "assistant-message-first", *BOTH)
def _row28(p: Provider) -> None:
    messages = [TextMessage(Role.ASSISTANT, "Hello!", AGENT), USER]
    if p == "openai":
        first = {"role": "assistant", "content": "Hello!", "name": AGENT}
        expect(p, messages, Sends(messages_of, [first, o_user("Hi")]))
    else:  # the first-party API accepts it; the strict validator wants a user turn first
        sent = [a_assistant(a_text("Hello!")), a_user(a_text("Hi"))]
        expect(p, messages, Sends(messages_of, sent, wire=False))


@row(29, "consecutive-same-role-messages", *BOTH)
def _row29(p: Provider) -> None:
    messages = [USER, TextMessage(Role.USER, "Anyone?")]
    if p == "openai":
        expect(p, messages, Sends(messages_of, [o_user("Hi"), o_user("Anyone?")]))
    else:
        merged = [a_user(a_text("Hi"), a_text("Anyone?"))]
        expect(p, messages, Sends(messages_of, merged, [(1, "merged")]))


@row(30, "user-text-between-call-and-result", *BOTH)
def _row30(p: Provider) -> None:
    messages = [USER, calls(call("c1")), TextMessage(Role.USER, "hurry"), results(answer("c1"))]
    if p == "openai":
        sent = [
            o_user("Hi"),
            o_calls(("c1", "get_weather", "{}")),
            o_tool("c1", "18C"),
            o_user("hurry"),
        ]
        expect(p, messages, Sends(messages_of, sent, [(2, "repaired")]))
    else:
        last = a_user(a_result("c1", "18C"), a_text("hurry"))
        expect(p, messages, Sends(lambda r: r.messages[-1], last, [(2, "repaired"), (2, "merged")]))


@row(31, "failed-tool-result-with-empty-content", *BOTH)
def _row31(p: Provider) -> None:
    messages = [USER, calls(call("c1")), results(answer("c1", "", is_error=True))]
    if p == "openai":
        # is_error has no field in a tool message: omitted, with a note.
        expect(p, messages, Sends(lambda r: r.messages[-1], o_tool("c1", ""), [(2, "omitted")]))
    else:
        text = "The tool failed without output."
        last = a_user(a_result("c1", text, is_error=True))
        expect(p, messages, Sends(lambda r: r.messages[-1], last, [(2, "repaired")]))


# -- rows 32-35: reasoning and request options -----------------------------------------------


@row(32, "thinking-blocks", *BOTH)
def _row32(p: Provider) -> None:
    thoughts = [
        Reasoning("plan", signature="sig", provider="anthropic"),
        Reasoning("other", provider="openai"),
        Reasoning("unverifiable", signature="", provider="anthropic"),
        Reasoning("", redacted_data="", provider="anthropic"),
    ]
    messages = [USER, calls(call("c1"), reasoning=thoughts), results(answer("c1"))]
    turn = per(
        p,
        openai=o_calls(("c1", "get_weather", "{}")),
        anthropic=a_assistant(
            {"type": "thinking", "thinking": "plan", "signature": "sig"},
            a_use("c1", "get_weather", {}),
        ),
    )
    expect(p, messages, Sends(lambda r: r.messages[1], turn, [(1, "omitted")]))


@row(33, "forced-tool-choice-with-thinking", "anthropic")
def _row33(p: Provider) -> None:
    agent = agent_of(p, functions=[WEATHER], thinking={"type": "enabled", "budget_tokens": 1024})
    for forced in ("required", "get_weather"):
        with pytest.raises(ValueError, match="thinking"):
            agent.create_arguments(RAW_USER, GenerateReplyOptions(tool_choice=forced))
    auto = agent.create_arguments(RAW_USER, GenerateReplyOptions(tool_choice="auto"))
    assert auto["tool_choice"] == {"type": "auto"}


@row(34, "tool-choice-naming-no-offered-tool", *BOTH)
def _row34(p: Provider) -> None:
    with pytest.raises(ValueError, match="names no offered function"):
        agent_of(p, functions=[WEATHER]).create_arguments(
            RAW_USER, GenerateReplyOptions(tool_choice="search")
        )
    bare = agent_of(p)
    with pytest.raises(ValueError, match="needs tools"):
        bare.create_arguments(RAW_USER, GenerateReplyOptions(tool_choice="required"))
    for harmless in ("auto", "none"):
        arguments = bare.create_arguments(RAW_USER, GenerateReplyOptions(tool_choice=harmless))
        assert "tool_choice" not in arguments


@row(35, "more-than-one-choice", "openai")
def _row35(p: Provider) -> None:
    for strict_mode in (False, True):
        with pytest.raises(ProviderResponseError, match="exactly one choice"):
            reply_of(p, openai_completion("Hi", choices=2), strict_mode=strict_mode)
    (second_choice,) = openai_chunk_models([openai_chunk({"content": "a"}, index=1)])
    with pytest.raises(ProviderResponseError, match="choice 1"):
        OpenAIStreamAggregator(AGENT).add(second_choice)


# -- rows 36-43: replies and streams ---------------------------------------------------------


@row(36, "content-filter", "openai")
def _row36(p: Provider) -> None:
    with pytest.raises(ContentFilteredError):
        reply_of(p, openai_completion("partial", finish_reason="content_filter"))
    aggregator = OpenAIStreamAggregator(AGENT)
    chunks = openai_chunk_models(openai_text_chunks(["part"], finish_reason="content_filter"))
    updates = [update for chunk in chunks for update in aggregator.add(chunk)]
    assert [u.get_content() for u in updates] == ["part"]  # what came before still streams
    with pytest.raises(ContentFilteredError):
        aggregator.finish()


@row(37, "refusal", *BOTH)
def _row37(p: Provider) -> None:
    if p == "openai":
        body = openai_completion(refusal="I can't help with that.")
        stream = openai_text_chunks([], refusal=["I can't", " help with that."])
        refusal = "I can't help with that."
    else:
        body = anthropic_message("Partial answer", stop_reason="refusal")
        stream = anthropic_stream_events(body)
        refusal = "Partial answer"  # the text produced before the refusal
    for produce in (lambda: reply_of(p, body), lambda: final_of(p, stream)):
        with pytest.raises(RefusalError) as caught:
            produce()
        assert caught.value.refusal == refusal


@row(38, "empty-response", *BOTH)
def _row38(p: Provider) -> None:
    if p == "openai":
        body, stream = openai_completion(""), openai_text_chunks([])
    else:
        body = anthropic_message([], stop_reason="end_turn")
        stream = anthropic_stream_events(body)
    for produce in (lambda: reply_of(p, body), lambda: final_of(p, stream)):
        with pytest.raises(EmptyResponseError):
            produce()


@row(39, "stream-ends-early", *BOTH)
def _row39(p: Provider) -> None:
    if p == "openai":
        stream = openai_text_chunks(["Hel", "lo"], finish_reason=None)
    else:
        events = anthropic_stream_events(anthropic_message("Hello"))
        stream = [e for e in events if e["type"] not in ("message_delta", "message_stop")]
    with pytest.raises(StreamInterruptedError) as caught:
        final_of(p, stream)
    assert caught.value.retryable is True
    partial = caught.value.partial
    assert isinstance(partial, TextMessage)
    assert (partial.content, partial.from_, partial.finish_reason) == ("Hello", AGENT, None)


@row(40, "error-event-mid-stream", *BOTH)
async def _row40(p: Provider) -> None:
    router = respx.Router()
    if p == "openai":
        events = [*openai_text_chunks(["Hel"], finish_reason=None), openai_error_event()]
        response = openai_sse_response(events, done=False)
        status = None
    else:
        events = anthropic_stream_events(anthropic_message("Hello"), pieces=2)
        cut = next(i for i, e in enumerate(events) if e["type"] == "content_block_delta") + 1
        response = anthropic_sse_response([*events[:cut], anthropic_error_event()])
        status = 529  # what overloaded_error stands for
    router.post(per(p, openai=OPENAI_URL, anthropic=ANTHROPIC_URL)).mock(return_value=response)
    received: list[Message] = []
    with pytest.raises(StreamInterruptedError) as caught:
        await drain(agent_of(p, router).register_message_connector().stream("Hi"), received)
    assert (caught.value.status_code, caught.value.retryable) == (status, True)
    partial = caught.value.partial
    assert isinstance(partial, TextMessage)
    assert (partial.content, partial.from_) == ("Hel", AGENT)
    assert "".join(m.get_content() or "" for m in received) == "Hel"  # already delivered


@row(41, "usage-chunk-and-azure-chunk-without-choices-or-delta", "openai")
async def _row41(p: Provider) -> None:
    filters = [{"prompt_index": 0, "content_filter_results": {}}]
    azure = {"id": "", "object": "", "created": 0, "model": "", "choices": []}
    azure["prompt_filter_results"] = filters
    events = [azure, *openai_text_chunks(["Hi"]), openai_usage_chunk(openai_usage(12, 2))]
    events.insert(2, {**openai_chunk(), "choices": [{"index": 0, "delta": None}]})  # the filter
    events.insert(3, {**openai_chunk(), "choices": None})  # some compatible servers
    router = respx.Router()
    router.post(OPENAI_URL).mock(return_value=openai_sse_response(events))
    received = [m async for m in agent_of(p, router).register_message_connector().stream("Hi")]
    final = received[-1]
    assert isinstance(final, TextMessage)
    assert final.content == "Hi"
    assert final.usage is not None
    assert final.usage.input_tokens == 12


@row(42, "id-and-name-repeated-in-every-delta", "openai")
def _row42(p: Provider) -> None:
    sent = [call("call_A", '{"city": "Paris"}'), call("call_B", '{"city": "Rome"}')]
    chunks = openai_tool_call_chunks(
        sent, fragment_size=3, interleave=True, repeat_id_and_name=True
    )
    final = openai_final(chunks)
    assert isinstance(final, ToolCallMessage)
    assert final.tool_calls == tuple(sent)


def tool_delta(index: int, call_id: str, city: str) -> dict[str, Any]:
    function = {"name": "get_weather", "arguments": json.dumps({"city": city})}
    head = {"index": index, "id": call_id, "type": "function", "function": function}
    return openai_chunk({"tool_calls": [head]})


@row(43, "index-gaps-and-out-of-order-indexes", "openai")
def _row43_openai(p: Provider) -> None:
    finish = openai_chunk({}, finish_reason="tool_calls")
    final = openai_final([tool_delta(2, "c2", "Rome"), tool_delta(0, "c0", "Paris"), finish])
    assert isinstance(final, ToolCallMessage)
    assert [c.tool_call_id for c in final.tool_calls] == ["c0", "c2"]


@row(43, "index-gaps-and-out-of-order-indexes", "anthropic")
def _row43_anthropic(p: Provider) -> None:
    tool = anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris"})
    body = anthropic_message([anthropic_text_block("Checking."), tool], stop_reason="tool_use")
    events = anthropic_stream_events(body)
    renumbered = {0: 2, 1: 0}  # the text block comes as index 2, after the tool's index 0
    moved = [{**e, "index": renumbered[e["index"]]} for e in events if "index" in e]
    head = [e for e in events if e["type"] in ("message_start", "ping")]
    tail = [e for e in events if e["type"] in ("message_delta", "message_stop")]
    final = anthropic_final([*head, *sorted(moved, key=lambda e: e["index"]), *tail])
    assert final == reply_of(p, body)


# -- rows 44-50: capabilities, limits, result shapes, stop reasons --------------------------


@row(44, "image-in-a-tool-result", *BOTH)
def _row44(p: Provider) -> None:
    chart = ImageMessage(Role.USER, "https://x.test/chart.png")
    messages = [USER, calls(call("c1")), chart, results(answer("c1"))]
    image_block = {"type": "image", "source": {"type": "url", "url": "https://x.test/chart.png"}}
    if p == "openai":  # tool messages are text: the image follows as a user message
        image = o_user([{"type": "image_url", "image_url": {"url": "https://x.test/chart.png"}}])
        expect(
            p,
            messages,
            Sends(lambda r: r.messages[2:], [o_tool("c1", "18C"), image], [(2, "repaired")]),
        )
    else:
        last = a_user(a_result("c1", "18C"), image_block)
        expect(p, messages, Sends(lambda r: r.messages[-1], last, [(2, "repaired"), (2, "merged")]))


@row(45, "audio-or-a-file-where-unsupported", *BOTH)
def _row45(p: Provider) -> None:
    wav = ImageMessage(Role.USER, data=b"RIFF\x00\x00\x00\x00WAVEfmt ", media_type="audio/wav")
    expect(p, [wav], Raises(InvalidMessageError, 0, "media_type"))


@row(46, "max-tokens-missing", *BOTH)
def _row46(p: Provider) -> None:
    arguments = agent_of(p).create_arguments(RAW_USER)
    if p == "openai":  # optional: left to the API
        assert not {"max_completion_tokens", "max_tokens"} & set(arguments)
    else:  # required: the agent's default
        assert arguments["max_tokens"] == 4096
    given = agent_of(p).create_arguments(RAW_USER, GenerateReplyOptions(max_tokens=10))
    assert given[per(p, openai="max_completion_tokens", anthropic="max_tokens")] == 10


@row(47, "more-than-four-stop-sequences", *BOTH)
def _row47(p: Provider) -> None:
    five = GenerateReplyOptions(stop_sequences=["a", "b", "c", "d", "e"])
    if p == "openai":
        with pytest.raises(ValueError, match="at most 4 stop sequences"):
            agent_of(p).create_arguments(RAW_USER, five)
        four = GenerateReplyOptions(stop_sequences=["a", "b", "c", "d"])
        assert agent_of(p).create_arguments(RAW_USER, four)["stop"] == ["a", "b", "c", "d"]
    else:
        assert agent_of(p).create_arguments(RAW_USER, five)["stop_sequences"] == list("abcde")


@row(48, "cache-breakpoints", "anthropic")
def _row48(p: Provider) -> None:
    block = {"type": "text", "text": "cached", "cache_control": {"type": "ephemeral"}}
    marked = {"role": "user", "content": [block]}
    messages = [*round_trip(), TextMessage(Role.ASSISTANT, "Done.", AGENT), MessageEnvelope(marked)]
    expect(p, messages, Sends(lambda r: r.messages[-1], marked, wire=False))
    produced = convert(p, messages).messages[:-1]
    assert "cache_control" not in str(produced)  # llmbridge adds no breakpoint of its own


@row(49, "tool-result-given-as-a-dict", *BOTH)
def _row49(p: Provider) -> None:
    messages = [USER, calls(call("c1")), results(answer("c1", {"temp": 18, "unit": "C"}))]
    text = '{"temp":18,"unit":"C"}'
    last = per(p, openai=o_tool("c1", text), anthropic=a_user(a_result("c1", text)))
    expect(p, messages, Sends(lambda r: r.messages[-1], last))


@row(50, "pause-context-window-and-stop-sequence", "anthropic")
def _row50(p: Provider) -> None:
    cases = {"pause_turn": "pause", "model_context_window_exceeded": "length"}
    cases["stop_sequence"] = "stop"  # which sequence stays on the raw reply
    for stop_reason, finish_reason in cases.items():
        body = anthropic_message("Hi", stop_reason=stop_reason, stop_sequence="END")
        for reply in (reply_of(p, body), anthropic_final(anthropic_stream_events(body))):
            assert reply.finish_reason == finish_reason
            assert reply.raw.stop_sequence == "END"  # type: ignore[attr-defined]


def test_every_row_has_a_case() -> None:
    rows = {int(case_id[3:5]) for case_id in CASES}
    assert rows == set(range(1, 51))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
async def test_bad_input(case: Callable[[], Any]) -> None:
    outcome = case()
    if inspect.isawaitable(outcome):
        await outcome


PAGE = Path(__file__).resolve().parents[2] / "docs" / "bad-inputs.md"


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_the_documented_table_has_one_row_per_case() -> None:
    rows = [int(match) for match in re.findall(r"^\| (\d+) \|", page_text(), re.M)]
    assert rows == list(range(1, 51))


def test_the_documented_snippet_runs(capsys: pytest.CaptureFixture[str]) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", page_text(), re.S)
    exec(compile(code, "docs/bad-inputs.md", "exec"), {"__name__": "docs"})
    assert capsys.readouterr().out.split() == ["0", "data", "5242880", "1"]
