"""Gemini code execution as hosted tool calls (API.md 19.5, 19.7): replies parsed by the real
google-genai SDK, streams equal to them, the parts replayed in place by to_gemini (sent through
the SDK over respx), other providers' hosted calls omitted, and the importer's round trip."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import (
    EmptyResponseError,
    HostedToolCall,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.gemini import GeminiChatAgent, from_gemini, from_gemini_contents, to_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.testing import (
    gemini_client,
    gemini_function_call_part,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    last_request_json,
)
from tests.corpus import AGENT
from tests.gemini.helpers import GENERATE, MODEL, STREAM
from tests.gemini.sending import sent_body
from tests.gemini.sending import snake as wire_snake
from tests.gemini.test_response import fetch
from tests.gemini.test_stream import stream_of

SIG = "c2lnLTE="  # base64 of b"sig-1"
CODE = {"language": "PYTHON", "code": "print(6 * 7)"}
OK = {"outcome": "OUTCOME_OK", "output": "42\n"}
HI = TextMessage(Role.USER, "Hi")
THANKS = TextMessage(Role.USER, "Thanks")


def code(record: dict[str, Any] = CODE, **extra: Any) -> dict[str, Any]:
    return {"executableCode": record, **extra}


def result(record: dict[str, Any] = OK, **extra: Any) -> dict[str, Any]:
    return {"codeExecutionResult": record, **extra}


def text(value: str, **extra: Any) -> dict[str, Any]:
    return {"text": value, **extra}


def snake(part: dict[str, Any]) -> dict[str, Any]:
    """A reply part as the snake_case dict the wing keeps and sends back."""
    names = {"executableCode": "executable_code", "codeExecutionResult": "code_execution_result"}
    names["thoughtSignature"] = "thought_signature"
    return {names.get(key, key): value for key, value in part.items()}


def hosted(
    parts: list[dict[str, Any]],
    offset: int,
    *,
    call_id: str = "code_execution_0",
    arguments: dict[str, Any] | None = CODE,
    result: str | None = "42\n",
    is_error: bool = False,
    tag: str = "gemini",
) -> HostedToolCall:
    return HostedToolCall(
        "code_execution",
        "{}" if arguments is None else json.dumps(arguments),
        id=call_id,
        result=result,
        is_error=is_error,
        provider=tag,
        provider_data={tag: {"parts": [snake(part) for part in parts], "offset": offset}},
    )


@dataclass(frozen=True)
class Reply:
    parts: list[dict[str, Any]]
    content: str
    hosted_tools: list[HostedToolCall]
    provider_data: dict[str, Any] = field(default_factory=dict)
    calls: list[ToolCall] = field(default_factory=list)


REPLIES = {
    "code, its result, then the answer": Reply(
        [code(), result(), text("It is 42.")], "It is 42.", [hosted([code(), result()], 0)]
    ),
    "text before the code sets the offset": Reply(
        [text("Let me compute. "), code(), result(), text("It is 42.")],
        "Let me compute. It is 42.",
        [hosted([code(), result()], 16)],
    ),
    "a failed run is an error with its output": Reply(
        [code(), result({"outcome": "OUTCOME_FAILED", "output": "Traceback"}), text("Oops.")],
        "Oops.",
        [
            hosted(
                [code(), result({"outcome": "OUTCOME_FAILED", "output": "Traceback"})],
                0,
                result="Traceback",
                is_error=True,
            )
        ],
    ),
    "a run past its deadline without output has no result": Reply(
        [code(), result({"outcome": "OUTCOME_DEADLINE_EXCEEDED"}), text("Too slow.")],
        "Too slow.",
        [
            hosted(
                [code(), result({"outcome": "OUTCOME_DEADLINE_EXCEEDED"})],
                0,
                result=None,
                is_error=True,
            )
        ],
    ),
    "code without a result (the reply stopped) has none": Reply(
        [text("Running: "), code()], "Running: ", [hosted([code()], 9, result=None)]
    ),
    "results answer the code of their id": Reply(
        [
            code({**CODE, "id": "a"}),
            code({"language": "PYTHON", "code": "print(1)", "id": "b"}),
            result({"outcome": "OUTCOME_OK", "output": "1\n", "id": "b"}),
            result({**OK, "id": "a"}),
            text("Done."),
        ],
        "Done.",
        [
            hosted([code({**CODE, "id": "a"}), result({**OK, "id": "a"})], 0, call_id="a"),
            hosted(
                [
                    code({"language": "PYTHON", "code": "print(1)", "id": "b"}),
                    result({"outcome": "OUTCOME_OK", "output": "1\n", "id": "b"}),
                ],
                0,
                call_id="b",
                arguments={"language": "PYTHON", "code": "print(1)"},
                result="1\n",
            ),
        ],
    ),
    "a thought pass's code keeps thought: true and its signature": Reply(
        [code(thought=True, thoughtSignature=SIG), result(thought=True), text("42.")],
        "42.",
        [hosted([code(thought=True, thoughtSignature=SIG), result(thought=True)], 0)],
    ),
    "a signed text before the code says which text part it signs": Reply(
        [text("A ", thoughtSignature=SIG), code(), result(), text("B")],
        "A B",
        [hosted([code(), result()], 2)],
        {"gemini": {"thought_signature": SIG, "signed_text": 0}},
    ),
    "a signed last text needs no index": Reply(
        [code(), result(), text("B", thoughtSignature=SIG)],
        "B",
        [hosted([code(), result()], 0)],
        {"gemini": {"thought_signature": SIG}},
    ),
    "code before a function call": Reply(
        [code(), result(), gemini_function_call_part("save", {"n": 42}, thought_signature=SIG)],
        "",
        [hosted([code(), result()], 0)],
        calls=[
            ToolCall(
                "save",
                '{"n": 42}',
                tool_call_id="save_0",
                provider_data={"gemini": {"thought_signature": SIG}},
            )
        ],
    ),
}


def expected(reply: Reply) -> Message:
    if reply.calls:
        return ToolCallMessage(
            reply.calls,
            AGENT,
            content=reply.content or None,
            finish_reason="tool_calls",
            usage=from_gemini(
                types.GenerateContentResponse.model_validate(gemini_response("x")),
                agent_name=AGENT,
            ).usage,
            hosted_tools=reply.hosted_tools,
            provider_data=reply.provider_data,
        )
    return TextMessage(
        Role.ASSISTANT,
        reply.content,
        AGENT,
        finish_reason="stop",
        usage=from_gemini(
            types.GenerateContentResponse.model_validate(gemini_response("x")), agent_name=AGENT
        ).usage,
        hosted_tools=reply.hosted_tools,
        provider_data=reply.provider_data,
    )


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
async def test_code_parts_are_hosted_tool_calls(
    reply: Reply, strict_mode: bool, router: respx.Router
) -> None:
    response = await fetch(router, gemini_response(reply.parts))

    assert from_gemini(response, agent_name=AGENT, strict_mode=strict_mode) == expected(reply)


@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
async def test_a_stream_ends_with_the_same_hosted_tool_calls(
    reply: Reply, router: respx.Router
) -> None:
    body = gemini_response(reply.parts)
    chunks, failure = await stream_of(router, gemini_stream_chunks(body, pieces=2))
    aggregator = GeminiStreamAggregator(AGENT)
    for chunk in chunks:
        aggregator.add(chunk)

    assert failure is None
    assert aggregator.finish() == from_gemini(
        types.GenerateContentResponse.model_validate(body), agent_name=AGENT
    )


async def test_the_partial_of_a_stream_holds_the_code_run_so_far(router: respx.Router) -> None:
    body = gemini_response([text("Let me see. "), code(), result(), text("It is 42.")])
    chunks, _ = await stream_of(router, gemini_stream_chunks(body, pieces=1)[:3])
    aggregator = GeminiStreamAggregator(AGENT)
    for chunk in chunks:
        aggregator.add(chunk)

    partial = aggregator.partial
    assert partial is not None
    assert (partial.get_content(), partial.hosted_tools) == (  # type: ignore[attr-defined]
        "Let me see. ",
        (hosted([code(), result()], 12),),
    )


async def test_a_reply_of_code_only_is_empty_as_4_3_says(router: respx.Router) -> None:
    response = await fetch(router, gemini_response([code(), result()]))

    with pytest.raises(EmptyResponseError):
        from_gemini(response, agent_name=AGENT)


async def test_the_vertex_tag_goes_on_the_hosted_calls(router: respx.Router) -> None:
    response = await fetch(router, gemini_response([code(), result(), text("42")]))

    reply = from_gemini(response, agent_name=AGENT, provider="vertex")

    assert reply.hosted_tools == (hosted([code(), result()], 0, tag="vertex"),)  # type: ignore[attr-defined]


# -- back to Gemini -------------------------------------------------------------------------

# Replies whose parts to_gemini sends back exactly as they came (the thought pass's parts carry
# thought: true, which tests/gemini/wire.py refuses on a non-text part: sent without the SDK).
IN_PLACE = [name for name in REPLIES if "thought" not in name and "their id" not in name]


@pytest.mark.parametrize("name", IN_PLACE)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
async def test_a_reply_goes_back_with_its_code_parts_in_place(
    name: str, strict_mode: bool, router: respx.Router
) -> None:
    reply = REPLIES[name]
    message = expected(reply)
    messages = [HI, message, THANKS]
    if reply.calls:
        answered = [ToolCall("save", "{}", tool_call_id="save_0", result="saved")]
        messages = [HI, message, ToolCallResultMessage(answered), THANKS]

    request = to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)

    parts = [snake(part) for part in reply.parts]
    for part in parts:  # a call is sent with the id the reply gave it
        if "functionCall" in part:
            part["function_call"] = {**part.pop("functionCall"), "id": "save_0"}
    assert request.contents[1] == {"role": "model", "parts": parts}
    assert [note.kind for note in request.notes if note.kind != "merged"] == []
    await sent_body(router, request)


def test_calls_at_one_offset_go_back_each_code_with_its_result() -> None:
    reply = REPLIES["results answer the code of their id"]

    request = to_gemini([HI, expected(reply), THANKS], agent_name=AGENT)

    first, second = reply.hosted_tools
    pairs = [
        dict(part) for call in (first, second) for part in call.provider_data["gemini"]["parts"]
    ]
    assert request.contents[1]["parts"] == [*pairs, {"text": "Done."}]


def test_the_thought_pass_goes_back_with_thought_true() -> None:
    reply = REPLIES["a thought pass's code keeps thought: true and its signature"]

    request = to_gemini([HI, expected(reply), THANKS], agent_name=AGENT)

    assert request.contents[1]["parts"] == [snake(part) for part in reply.parts]


@dataclass(frozen=True)
class Sent:
    message: Message
    parts: list[dict[str, Any]]
    notes: list[str] = field(default_factory=list)


ANTHROPIC_SEARCH = HostedToolCall(
    "web_search", '{"query": "x"}', id="srvtoolu_1", provider="anthropic"
)
SENT = {
    "another provider's hosted call is omitted and the text kept": Sent(
        TextMessage(Role.ASSISTANT, "Found it.", AGENT, hosted_tools=[ANTHROPIC_SEARCH]),
        [{"text": "Found it."}],
        ["omitted"],
    ),
    "a vertex call is foreign to the gemini tag": Sent(
        TextMessage(
            Role.ASSISTANT, "42", AGENT, hosted_tools=[hosted([code(), result()], 0, tag="vertex")]
        ),
        [{"text": "42"}],
        ["omitted"],
    ),
    "an own code call without recorded parts is rebuilt from its fields, after the text": Sent(
        TextMessage(
            Role.ASSISTANT,
            "42",
            AGENT,
            hosted_tools=[
                HostedToolCall(
                    "code_execution", json.dumps(CODE), id="x", result="42\n", provider="gemini"
                )
            ],
        ),
        [{"text": "42"}, snake(code()), snake(result())],
    ),
    "an own failed call without parts is rebuilt as failed": Sent(
        TextMessage(
            Role.ASSISTANT,
            "no",
            AGENT,
            hosted_tools=[
                HostedToolCall(
                    "code_execution", json.dumps(CODE), id="x", is_error=True, provider="gemini"
                )
            ],
        ),
        [{"text": "no"}, snake(code()), snake(result({"outcome": "OUTCOME_FAILED"}))],
    ),
    "an own call of another tool without parts is omitted": Sent(
        TextMessage(
            Role.ASSISTANT,
            "hm",
            AGENT,
            hosted_tools=[HostedToolCall("google_search", "{}", id="g", provider="gemini")],
        ),
        [{"text": "hm"}],
        ["omitted"],
    ),
    "an empty text with its code calls sends the code parts only": Sent(
        TextMessage(Role.ASSISTANT, "", AGENT, hosted_tools=[hosted([code(), result()], 0)]),
        [snake(code()), snake(result())],
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("case", SENT.values(), ids=SENT.keys())
async def test_hosted_calls_on_their_way_back(
    case: Sent, strict_mode: bool, router: respx.Router
) -> None:
    # "omitted" is never lossy: strict mode sends the same.
    request = to_gemini([HI, case.message, THANKS], agent_name=AGENT, strict_mode=strict_mode)

    assert request.contents[1] == {"role": "model", "parts": case.parts}
    assert [note.kind for note in request.notes] == case.notes
    await sent_body(router, request)


def test_another_agents_message_sends_no_hosted_call() -> None:
    message = TextMessage(
        Role.ASSISTANT, "42", "critic", hosted_tools=[hosted([code(), result()], 0)]
    )

    request = to_gemini([message], agent_name=AGENT)

    assert request.contents == [{"role": "user", "parts": [{"text": "42"}]}]
    assert sorted(note.kind for note in request.notes) == ["dropped", "omitted"]


BAD_DATA = {
    "parts that are not a list": {"parts": "x", "offset": 0},
    "a part of another kind": {"parts": [{"text": "x"}], "offset": 0},
    "a part with two code fields": {
        "parts": [{"executable_code": CODE, "code_execution_result": OK}],
        "offset": 0,
    },
    "a signature that is not base64": {
        "parts": [{"executable_code": CODE, "thought_signature": "no base64!"}],
        "offset": 0,
    },
    "an offset past the text": {"parts": [{"executable_code": CODE}], "offset": 99},
    "an offset that is not an integer": {"parts": [{"executable_code": CODE}], "offset": "0"},
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("data", BAD_DATA.values(), ids=BAD_DATA.keys())
def test_recorded_parts_the_wing_did_not_write_raise_in_both_modes(
    data: dict[str, Any], strict_mode: bool
) -> None:
    call = HostedToolCall(
        "code_execution", "{}", id="x", provider="gemini", provider_data={"gemini": data}
    )
    message = TextMessage(Role.ASSISTANT, "42", AGENT, hosted_tools=[call])

    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([HI, message, THANKS], agent_name=AGENT, strict_mode=strict_mode)
    assert (raised.value.index, raised.value.field) == (
        1,
        "hosted_tools[0].provider_data['gemini']",
    )


def test_a_signed_text_index_out_of_range_raises() -> None:
    message = TextMessage(
        Role.ASSISTANT,
        "42",
        AGENT,
        hosted_tools=[hosted([code(), result()], 0)],
        provider_data={"gemini": {"thought_signature": SIG, "signed_text": 5}},
    )
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([HI, message, THANKS], agent_name=AGENT)
    assert (raised.value.index, raised.value.field) == (1, "provider_data['gemini']")


# -- the importer ---------------------------------------------------------------------------


@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
def test_every_payload_with_code_parts_imports_back_exactly(reply: Reply) -> None:
    messages: list[Message] = [HI, expected(reply), THANKS]
    if reply.calls:
        answered = [ToolCall("save", "{}", tool_call_id="save_0", result="saved")]
        messages = [HI, expected(reply), ToolCallResultMessage(answered), THANKS]
    request = to_gemini(messages, agent_name=AGENT)

    imported = from_gemini_contents(request.contents, agent_name=AGENT)
    strict = from_gemini_contents(request.contents, agent_name=AGENT, strict_mode=True)

    assert not any(isinstance(message, MessageEnvelope) for message in imported)
    assert strict == imported
    assert to_gemini(imported, agent_name=AGENT).contents == request.contents


def test_imported_code_parts_are_the_hosted_calls_of_their_text() -> None:
    contents = [
        {"role": "user", "parts": [{"text": "Hi"}]},
        {"role": "model", "parts": [text("Let me see. "), code(), result(), text("It is 42.")]},
        {"role": "user", "parts": [{"text": "Thanks"}]},
    ]

    imported = from_gemini_contents(contents, agent_name=AGENT)

    assert imported[1:3] == [
        TextMessage(
            Role.ASSISTANT, "Let me see. ", AGENT, hosted_tools=[hosted([code(), result()], 12)]
        ),
        TextMessage(Role.ASSISTANT, "It is 42.", AGENT),
    ]


@pytest.mark.parametrize(
    "part",
    [
        pytest.param(code({"language": "PYTHON", "code": 7}), id="code that is not text"),
        pytest.param(result({"outcome": 1}), id="an outcome that is not text"),
        pytest.param({"executableCode": "print(1)"}, id="a record that is not an object"),
        pytest.param(code(video_metadata={}), id="an unknown modifier"),
    ],
)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_a_malformed_code_part_is_an_envelope_or_raises_strict(
    part: dict[str, Any], strict_mode: bool
) -> None:
    contents = [{"role": "user", "parts": [{"text": "Hi"}]}, {"role": "model", "parts": [part]}]
    if strict_mode:
        with pytest.raises(InvalidMessageError) as raised:
            from_gemini_contents(contents, agent_name=AGENT, strict_mode=True)
        assert raised.value.index == 1
        return
    assert from_gemini_contents(contents, agent_name=AGENT)[1] == MessageEnvelope(contents[1])


# -- through the agent and its connector ----------------------------------------------------


async def test_the_agent_replays_its_code_run_in_the_next_request(router: respx.Router) -> None:
    body = gemini_response([text("Let me compute. "), code(), result(), text("It is 42.")])
    route = router.post(url__regex=GENERATE).respond(json=body)
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(gemini_stream_chunks(body))
    )
    agent = GeminiChatAgent(gemini_client(router), name=AGENT, model=MODEL)
    connected = agent.register_message_connector()

    reply = await connected.send("What is 6 * 7?")
    streamed = [message async for message in connected.stream("What is 6 * 7?")]
    await connected.send(chat_history=[HI, reply, THANKS])

    assert streamed[-1] == reply
    assert reply.hosted_tools == (hosted([code(), result()], 16),)  # type: ignore[attr-defined]
    sent = wire_snake(last_request_json(route))
    assert sent["contents"][1]["parts"] == [
        snake(part) for part in body["candidates"][0]["content"]["parts"]
    ]
