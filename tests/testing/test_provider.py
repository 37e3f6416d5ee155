"""ScriptedProvider: the real SDK clients and the connected agents, answered turn by turn."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import anthropic
import httpx
import openai
import pytest

from llmbridge import (
    BadRequestError,
    Message,
    MiddlewareStreamingAgent,
    RateLimitError,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    Usage,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent, OpenAIResponsesAgent
from llmbridge.testing import ProviderRequest, ScriptedProvider, ScriptedReply, ScriptedRequest

AGENT = "assistant"
UPDATES = (TextMessageUpdate, ReasoningMessageUpdate, ToolCallMessageUpdate)
PROVIDERS = pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic"])
CALLS = (
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_a"),
    ToolCall("get_time", '{"tz": "Europe/Paris"}', tool_call_id="call_b"),
)
# One script item of each kind the provider renders.
REPLIES: dict[str, ScriptedReply] = {
    "plain string": "Hello there, traveller.",
    "text message": TextMessage(Role.ASSISTANT, "It is sunny in Paris today."),
    "text cut by length": TextMessage(Role.ASSISTANT, "It is", finish_reason="length"),
    "tool calls": ToolCallMessage(CALLS),
    "tool calls with text": ToolCallMessage(CALLS, content="Let me check."),
    "tool calls with reasoning": ToolCallMessage(CALLS, reasoning=[Reasoning("Two lookups.")]),
    "calls without ids": ToolCallMessage([ToolCall("now", ""), ToolCall("now", "{}")]),
    "given usage": TextMessage(Role.ASSISTANT, "Hi.", usage=Usage(40, 3)),
}


def agent_for(provider: str, scripted: ScriptedProvider) -> MiddlewareStreamingAgent:
    if provider == "openai":
        return OpenAIChatAgent(
            scripted.openai_client(), name=AGENT, model="gpt-test"
        ).register_message_connector()
    if provider == "openai-responses":
        return OpenAIResponsesAgent(
            scripted.openai_client(), name=AGENT, model="gpt-test"
        ).register_message_connector()
    return AnthropicChatAgent(
        scripted.anthropic_client(), name=AGENT, model="claude-test"
    ).register_message_connector()


async def reply_of(provider: str, item: ScriptedReply, *, stream: bool) -> list[Message]:
    agent = agent_for(provider, ScriptedProvider([item]))
    if stream:
        return [message async for message in agent.stream("Hi")]
    return [await agent.send("Hi")]


@PROVIDERS
@pytest.mark.parametrize("kind", list(REPLIES))
async def test_stream_ends_with_the_message_send_returns(provider: str, kind: str) -> None:
    (sent,) = await reply_of(provider, REPLIES[kind], stream=False)
    streamed = await reply_of(provider, REPLIES[kind], stream=True)

    assert streamed[-1] == sent  # raw is excluded from equality; usage and ids are not
    assert len(streamed) >= 2
    assert all(isinstance(m, UPDATES) for m in streamed[:-1])  # deltas first


@PROVIDERS
@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("plain string", TextMessage(Role.ASSISTANT, "Hello there, traveller.", AGENT)),
        ("text message", TextMessage(Role.ASSISTANT, "It is sunny in Paris today.", AGENT)),
    ],
    ids=["plain string", "text message"],
)
async def test_text_replies_become_the_scripted_text(
    provider: str, kind: str, expected: TextMessage
) -> None:
    (reply,) = await reply_of(provider, REPLIES[kind], stream=False)

    assert isinstance(reply, TextMessage)
    assert (reply.role, reply.content, reply.from_) == (
        expected.role,
        expected.content,
        expected.from_,
    )
    assert reply.finish_reason == "stop"
    assert reply.usage is not None
    assert reply.usage.output_tokens > 0


@PROVIDERS
async def test_finish_reason_and_usage_are_kept(provider: str) -> None:
    (cut,) = await reply_of(provider, REPLIES["text cut by length"], stream=False)
    *_, counted = await reply_of(provider, REPLIES["given usage"], stream=True)

    # via OpenAI "length" / Responses "incomplete" at max_output_tokens / Anthropic "max_tokens"
    assert cut.finish_reason == "length"
    assert isinstance(counted, TextMessage)
    # The Responses API always reports its cache and reasoning counts, zeros included.
    zeros = {"cache_read_tokens": 0, "cache_write_tokens": 0, "reasoning_tokens": 0}
    assert counted.usage == Usage(40, 3, **(zeros if provider == "openai-responses" else {}))


@PROVIDERS
async def test_tool_calls_keep_their_ids_text_and_order(provider: str) -> None:
    (reply,) = await reply_of(provider, REPLIES["tool calls with text"], stream=False)

    assert isinstance(reply, ToolCallMessage)
    assert tuple(replace(call, provider_data={}) for call in reply.tool_calls) == CALLS
    assert reply.content == "Let me check."
    assert reply.finish_reason == "tool_calls"


@pytest.mark.parametrize(
    ("provider", "prefix"),
    [("openai", "call_"), ("openai-responses", "call_"), ("anthropic", "toolu_01")],
    ids=["openai", "openai-responses", "anthropic"],
)
async def test_missing_ids_get_deterministic_provider_style_ids(provider: str, prefix: str) -> None:
    (first,) = await reply_of(provider, REPLIES["calls without ids"], stream=False)
    *_, again = await reply_of(provider, REPLIES["calls without ids"], stream=True)

    assert isinstance(first, ToolCallMessage)
    ids = [call.tool_call_id or "" for call in first.tool_calls]
    assert all(i.startswith(prefix) and len(i) == len(prefix) + 24 for i in ids)
    assert len(set(ids)) == 2  # same name, different positions
    assert again.get_tool_calls() == first.get_tool_calls()
    assert [call.function_arguments for call in first.tool_calls] == (
        ["{}", "{}"] if provider == "anthropic" else ["", "{}"]  # Anthropic sends objects
    )


@PROVIDERS
async def test_text_streams_in_word_sized_deltas(provider: str) -> None:
    streamed = await reply_of(provider, REPLIES["text message"], stream=True)

    deltas = [m.content for m in streamed if isinstance(m, TextMessageUpdate) and m.content]
    assert deltas == ["It", " is", " sunny", " in", " Paris", " today."]


@PROVIDERS
async def test_tool_call_arguments_stream_as_fragments(provider: str) -> None:
    streamed = await reply_of(provider, REPLIES["tool calls"], stream=True)

    updates = [m for m in streamed if isinstance(m, ToolCallMessageUpdate)]
    assert {u.tool_call_id for u in updates if u.tool_call_id} == {"call_a", "call_b"}
    by_call: dict[int, str] = {}
    for update in updates:
        by_call[update.index] = by_call.get(update.index, "") + update.function_arguments_update
    assert [json.loads(text) for text in by_call.values()] == [
        {"city": "Paris"},
        {"tz": "Europe/Paris"},
    ]


@pytest.mark.parametrize(
    ("provider", "signed"),
    [("openai", False), ("openai-responses", True), ("anthropic", True)],
    ids=["openai", "openai-responses", "anthropic"],
)
async def test_reasoning_is_sent_in_the_providers_form(provider: str, signed: bool) -> None:
    item = TextMessage(Role.ASSISTANT, "42.", reasoning=[Reasoning("Six times seven.")])

    (sent,) = await reply_of(provider, item, stream=False)
    streamed = await reply_of(provider, item, stream=True)

    assert isinstance(sent, TextMessage)
    assert [r.text for r in sent.reasoning] == ["Six times seven."]
    assert (sent.reasoning[0].signature is not None) is signed
    deltas = [m.content for m in streamed if isinstance(m, ReasoningMessageUpdate)]
    assert "".join(deltas) == "Six times seven."
    assert len(deltas) == 3
    assert streamed[-1] == sent


async def test_requests_are_recorded_in_order_across_providers() -> None:
    scripted = ScriptedProvider(["one", "two", "three"])

    await agent_for("openai", scripted).send("first")
    _ = [m async for m in agent_for("anthropic", scripted).stream("second")]
    await agent_for("openai", scripted).send(TextMessage(Role.USER, "third"))

    assert [(r.provider, r.stream) for r in scripted.requests] == [
        ("openai", False),
        ("anthropic", True),
        ("openai", False),
    ]
    assert scripted.requests[1].url == "https://api.anthropic.com/v1/messages"
    assert scripted.bodies("anthropic")[0]["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "second"}]}
    ]
    assert [b["messages"][-1]["content"] for b in scripted.bodies("openai")] == ["first", "third"]
    assert scripted.remaining == 0


@pytest.mark.parametrize("include_usage", [True, False], ids=["usage asked", "usage not asked"])
async def test_openai_usage_chunk_only_when_asked(include_usage: bool) -> None:
    client = ScriptedProvider(["Hi."]).openai_client()
    extra: dict[str, Any] = {"stream_options": {"include_usage": True}} if include_usage else {}

    stream = await client.chat.completions.create(
        model="gpt-test", messages=[{"role": "user", "content": "Hi"}], stream=True, **extra
    )
    chunks = [chunk async for chunk in stream]

    assert (chunks[-1].usage is not None) is include_usage
    assert chunks[-1].model == "gpt-test"  # echoed from the request


async def test_raw_sdk_clients_get_wire_shaped_bodies() -> None:
    scripted = ScriptedProvider([ToolCallMessage(CALLS, content="Checking."), "Done."])

    message = await scripted.anthropic_client().messages.create(
        model="claude-test", max_tokens=100, messages=[{"role": "user", "content": "Hi"}]
    )
    completion = await scripted.openai_client().chat.completions.create(
        model="gpt-test", messages=[{"role": "user", "content": "Hi"}]
    )

    assert isinstance(message, anthropic.types.Message)
    assert [block.type for block in message.content] == ["text", "tool_use", "tool_use"]
    assert message.stop_reason == "tool_use"
    assert message.model == "claude-test"
    assert isinstance(completion, openai.types.chat.ChatCompletion)
    assert completion.choices[0].message.content == "Done."


async def test_other_base_urls_are_answered_too() -> None:
    scripted = ScriptedProvider(["Hi from a gateway."])
    client = scripted.openai_client(base_url="https://gateway.example/openai/v1")

    agent = OpenAIChatAgent(client, name=AGENT, model="gpt-test").register_message_connector()

    assert (await agent.send("Hi")).get_content() == "Hi from a gateway."
    assert scripted.requests[0].url == "https://gateway.example/openai/v1/chat/completions"


@PROVIDERS
async def test_a_scripted_response_is_sent_as_it_is(provider: str) -> None:
    error = {"type": "rate_limit_error", "message": "slow down"}
    body = {"type": "error", "error": error} if provider == "anthropic" else {"error": error}
    scripted = ScriptedProvider(
        [httpx.Response(429, json=body, headers={"retry-after": "7"}), "Now it works."]
    )
    agent = agent_for(provider, scripted)

    with pytest.raises(RateLimitError) as caught:
        await agent.send("Hi")
    assert caught.value.retry_after == 7
    assert (await agent.send("Hi")).get_content() == "Now it works."


@PROVIDERS
async def test_running_out_of_script_is_a_readable_400(provider: str) -> None:
    scripted = ScriptedProvider(["only one"])
    agent = agent_for(provider, scripted)
    await agent.send("Hi")

    with pytest.raises(
        BadRequestError, match=r"no scripted reply left for request 2 \(the script has 1\)"
    ):
        await agent.send("Hi again")
    assert len(scripted.requests) == 2
    assert scripted.remaining == 0


async def test_anthropic_cannot_send_arguments_that_are_not_an_object() -> None:
    scripted = ScriptedProvider([ToolCallMessage([ToolCall("f", "[1, 2]")])])

    with pytest.raises(BadRequestError, match=r"'f'.*not a JSON object"):
        await agent_for("anthropic", scripted).send("Hi")


async def test_openai_sends_invalid_arguments_verbatim() -> None:
    scripted = ScriptedProvider([ToolCallMessage([ToolCall("f", '{"unclosed": ')])])

    reply = await agent_for("openai", scripted).send("Hi")

    assert isinstance(reply, ToolCallMessage)
    assert [call.function_arguments for call in reply.tool_calls] == ['{"unclosed": ']


@pytest.mark.parametrize("item", [42, None, ProviderRequest("openai", "u", {})], ids=repr)
def test_script_items_of_another_type_raise_type_error(item: Any) -> None:
    with pytest.raises(TypeError, match=r"script item 1: expected a TextMessage"):
        ScriptedProvider(["fine", item])


def test_repr_counts_replies_and_answers() -> None:
    assert repr(ScriptedProvider(["a", "b"])) == "ScriptedProvider(replies=2, answered=0)"


def test_requests_are_scripted_requests_and_the_old_name_still_works() -> None:
    assert ProviderRequest is ScriptedRequest
    request = ScriptedRequest("openai", "https://api.openai.com/v1/chat/completions", {})
    assert (request.provider, request.stream) == ("openai", False)


async def test_responses_requests_get_response_bodies_and_event_streams() -> None:
    scripted = ScriptedProvider(
        [ToolCallMessage(CALLS, content="Checking.", reasoning=[Reasoning("Two.")]), "Done."]
    )
    client = scripted.openai_client()
    request: dict[str, Any] = {"model": "gpt-test", "input": "Hi"}

    response = await client.responses.create(**request)
    events = [event async for event in await client.responses.create(**request, stream=True)]

    assert isinstance(response, openai.types.responses.Response)
    assert [(item.type, getattr(item, "id", None)) for item in response.output] == [
        ("reasoning", "rs_0001"),
        ("message", "msg_0001"),
        ("function_call", "fc_call_a"),
        ("function_call", "fc_call_b"),
    ]
    assert (response.status, response.model, response.id) == ("completed", "gpt-test", "resp_0001")
    assert [e.type for e in events][-1] == "response.completed"
    deltas = [e.delta for e in events if e.type == "response.output_text.delta"]
    assert deltas == ["Done."]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert [(r.provider, r.url, r.stream) for r in scripted.requests] == [
        ("openai-responses", "https://api.openai.com/v1/responses", False),
        ("openai-responses", "https://api.openai.com/v1/responses", True),
    ]
    assert scripted.bodies("openai-responses") == [request, {**request, "stream": True}]
    assert scripted.bodies("openai") == []
