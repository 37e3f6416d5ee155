"""Message content: never recorded unless ``capture_content=True``, then in the conventions'
JSON form; media as their type and size only; API keys never, in any case."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
import respx
from opentelemetry.sdk.trace import ReadableSpan

from llmbridge import (
    ImageMessage,
    LLMBridgeError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge._tracing._content import input_messages, output_messages
from tests.corpus import PNG
from tests.tracing.helpers import AGENT, PROVIDERS, SENTINEL, WINGS, Provider, Telemetry, traced

INPUT = "gen_ai.input.messages"
OUTPUT = "gen_ai.output.messages"
ARGUMENTS = "gen_ai.tool.call.arguments"
URL = "https://example.com/cat.png?signature=secret-token"
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
RESULT = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1", result="18C")
CALL_PART = {
    "type": "tool_call",
    "id": "call_1",
    "name": "get_weather",
    "arguments": {"city": "Paris"},
}
PNG_PART = {"type": "blob", "modality": "image", "mime_type": "image/png", "size": len(PNG)}

INPUTS = [
    pytest.param(
        TextMessage(Role.SYSTEM, "Be brief."),
        [{"role": "system", "parts": [{"type": "text", "content": "Be brief."}]}],
        id="system_text",
    ),
    pytest.param(
        TextMessage(Role.USER, "Hi", "critic"),
        [{"role": "user", "parts": [{"type": "text", "content": "Hi"}], "name": "critic"}],
        id="text_from_another_agent_keeps_its_name",
    ),
    pytest.param(
        TextMessage(Role.ASSISTANT, "Sure.", AGENT, reasoning=[Reasoning("hm", signature="sig")]),
        [
            {
                "role": "assistant",
                "parts": [
                    {"type": "reasoning", "content": "hm"},
                    {"type": "text", "content": "Sure."},
                ],
                "name": AGENT,
            }
        ],
        id="reasoning_text_without_its_signature",
    ),
    pytest.param(
        ImageMessage(Role.USER, data=PNG),
        [{"role": "user", "parts": [PNG_PART]}],
        id="image_bytes_as_media_type_and_size",
    ),
    pytest.param(
        ImageMessage(Role.USER, URL),
        [{"role": "user", "parts": [{"type": "uri", "modality": "image", "mime_type": None}]}],
        id="image_url_without_the_url",
    ),
    pytest.param(
        MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "Look"), ImageMessage(Role.USER, data=PNG)]
        ),
        [{"role": "user", "parts": [{"type": "text", "content": "Look"}, PNG_PART]}],
        id="multimodal_parts_in_order",
    ),
    pytest.param(
        ToolCallMessage(
            [CALL, ToolCall("f", "not json", tool_call_id="c2")], AGENT, content="On it."
        ),
        [
            {
                "role": "assistant",
                "parts": [
                    {"type": "text", "content": "On it."},
                    CALL_PART,
                    {"type": "tool_call", "id": "c2", "name": "f", "arguments": "not json"},
                ],
                "name": AGENT,
            }
        ],
        id="tool_calls_with_arguments_parsed_when_json",
    ),
    pytest.param(
        ToolCallResultMessage([RESULT, ToolCall("f", "{}", tool_call_id="c2")]),
        [
            {
                "role": "tool",
                "parts": [{"type": "tool_call_response", "id": "call_1", "response": "18C"}],
            }
        ],
        id="tool_results_answered_only",
    ),
    pytest.param(
        ToolCallAggregateMessage(ToolCallMessage([CALL]), ToolCallResultMessage([RESULT])),
        [
            {
                "role": "assistant",
                "parts": [CALL_PART],
            },
            {
                "role": "tool",
                "parts": [{"type": "tool_call_response", "id": "call_1", "response": "18C"}],
            },
        ],
        id="aggregate_as_call_then_results",
    ),
    pytest.param(
        MessageEnvelope({"role": "user", "content": "Hi"}, "critic"),
        [{"role": "user", "parts": [{"type": "text", "content": "Hi"}], "name": "critic"}],
        id="envelope_role_and_plain_text",
    ),
    pytest.param(
        MessageEnvelope(
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": URL}}]}
        ),
        [{"role": "user", "parts": []}],
        id="envelope_blocks_left_out",
    ),
    pytest.param(TextMessageUpdate(Role.ASSISTANT, "Hel"), [], id="updates_are_never_input"),
]


@pytest.mark.parametrize(("message", "entries"), INPUTS)
def test_input_messages_follow_the_conventions_schema(
    message: Message, entries: list[dict[str, Any]]
) -> None:
    assert json.loads(input_messages([message])) == entries


OUTPUTS = [
    pytest.param(
        TextMessage(Role.ASSISTANT, "Hello.", AGENT, finish_reason="stop"),
        [
            {
                "role": "assistant",
                "parts": [{"type": "text", "content": "Hello."}],
                "finish_reason": "stop",
            }
        ],
        id="text_stop",
    ),
    pytest.param(
        ToolCallMessage([CALL], AGENT, finish_reason="tool_calls"),
        [
            {
                "role": "assistant",
                "parts": [CALL_PART],
                "finish_reason": "tool_call",
            }
        ],
        id="tool_calls_spelled_as_the_schema_does",
    ),
    pytest.param(
        TextMessage(Role.ASSISTANT, "Hel", AGENT),
        [
            {
                "role": "assistant",
                "parts": [{"type": "text", "content": "Hel"}],
                "finish_reason": "error",
            }
        ],
        id="partial_without_finish_reason_is_error",
    ),
    pytest.param(
        ToolCallAggregateMessage(
            ToolCallMessage([CALL], finish_reason="length"), ToolCallResultMessage([RESULT])
        ),
        [
            {
                "role": "assistant",
                "parts": [CALL_PART],
                "finish_reason": "length",
            }
        ],
        id="aggregate_records_the_model_calls",
    ),
]


@pytest.mark.parametrize(("reply", "entries"), OUTPUTS)
def test_output_messages_follow_the_conventions_schema(
    reply: Message, entries: list[dict[str, Any]]
) -> None:
    assert json.loads(output_messages(reply) or "null") == entries


def test_a_reply_without_a_model_message_has_no_output_messages() -> None:
    assert output_messages(MessageEnvelope({"id": "chatcmpl-1"})) is None
    assert output_messages(ToolCallResultMessage([RESULT])) is None


def test_text_an_exporter_cannot_encode_is_escaped() -> None:
    recorded = input_messages([TextMessage(Role.USER, "caf\u00e9 \ud800")])

    assert recorded.isascii()
    assert json.loads(recorded)[0]["parts"][0]["content"] == "caf\u00e9 \ud800"


CONVERSATION: list[Message] = [
    TextMessage(Role.SYSTEM, "Be brief."),
    MultiModalMessage(
        Role.USER, [TextMessage(Role.USER, "What is this?"), ImageMessage(Role.USER, data=PNG)]
    ),
    ImageMessage(Role.USER, URL),
]


def everything_recorded(telemetry: Telemetry) -> str:
    """Every span's name, attributes, events, status and resource, and every metric point's
    attributes, as one text."""
    texts: list[str] = []
    for span in telemetry.spans():
        texts += [span.name, str(span.status.description), str(span.resource.attributes)]
        texts.append(repr(dict(span.attributes or {})))
        texts += [f"{event.name} {dict(event.attributes or {})!r}" for event in span.events]
    data = telemetry.reader.get_metrics_data()
    for resource in data.resource_metrics if data else ():
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                texts += [repr(dict(p.attributes or {})) for p in metric.data.data_points]
    return "\n".join(texts)


def content_attributes(span: ReadableSpan) -> dict[str, Any]:
    attributes = dict(span.attributes or {})
    found = {key: attributes[key] for key in (INPUT, OUTPUT) if key in attributes}
    arguments = [(e.attributes or {}).get(ARGUMENTS) for e in span.events]
    if any(arguments):
        found[ARGUMENTS] = arguments
    return found


REPLIES = [
    pytest.param("text_reply", False, id="text_send"),
    pytest.param("text_stream", True, id="text_stream"),
    pytest.param("tool_call_reply", False, id="tool_calls_send"),
    pytest.param("tool_call_stream", True, id="tool_calls_stream"),
]


async def run(agent: Any, streaming: bool) -> Message:
    if streaming:
        return [m async for m in agent.stream(chat_history=CONVERSATION)][-1]
    result: Message = await agent.send(chat_history=CONVERSATION)
    return result


@pytest.mark.parametrize(("reply", "streaming"), REPLIES)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_no_content_is_recorded_by_default(
    provider: Provider, reply: str, streaming: bool, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=getattr(WINGS[provider], reply)())

    final = await run(traced(provider, router, telemetry), streaming)

    assert content_attributes(telemetry.span()) == {}
    recorded = everything_recorded(telemetry)
    texts = ["Be brief", "What is this", "Hello there", "Paris", "cat.png"]
    assert [text for text in texts if text in recorded] == []
    assert final.get_content() or final.get_tool_calls()


@pytest.mark.parametrize(("reply", "streaming"), REPLIES)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_content_is_recorded_when_asked_with_media_as_type_and_size(
    provider: Provider, reply: str, streaming: bool, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=getattr(WINGS[provider], reply)())

    final = await run(traced(provider, router, telemetry, capture_content=True), streaming)

    recorded = content_attributes(telemetry.span())
    assert json.loads(recorded[INPUT]) == json.loads(input_messages(CONVERSATION))
    assert json.loads(recorded[OUTPUT]) == json.loads(output_messages(final) or "")
    calls = final.get_tool_calls() or []
    assert recorded.get(ARGUMENTS, []) == [call.function_arguments for call in calls]
    everything = everything_recorded(telemetry)
    assert base64.b64encode(PNG).decode()[:16] not in everything
    assert "cat.png" not in everything


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_interrupted_stream_records_its_partial_message_when_asked(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].interrupted_stream())

    with pytest.raises(StreamInterruptedError) as caught:
        _ = [
            m async for m in traced(provider, router, telemetry, capture_content=True).stream("Hi")
        ]

    (entry,) = json.loads((telemetry.span().attributes or {})[OUTPUT])  # type: ignore[arg-type]
    assert caught.value.partial is not None
    assert entry["parts"] == [{"type": "text", "content": caught.value.partial.get_content()}]
    assert entry["finish_reason"] == "error"


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_key_appears_nowhere_in_spans_events_or_metrics(
    provider: Provider, telemetry: Telemetry
) -> None:
    wing = WINGS[provider]
    router = respx.Router()
    route = router.post(wing.url)
    route.side_effect = [
        wing.text_reply(),
        wing.tool_call_stream(),
        wing.status_error(401, f"Incorrect API key provided: {SENTINEL}"),
        wing.interrupted_stream(f"overloaded while serving {SENTINEL}"),
    ]
    agent = traced(provider, router, telemetry, capture_content=True)

    await agent.send("Hi")
    _ = [m async for m in agent.stream("Hi")]
    with pytest.raises(LLMBridgeError):
        await agent.send("Hi")
    with pytest.raises(LLMBridgeError):
        _ = [m async for m in agent.stream("Hi")]

    assert route.call_count == 4
    assert len(telemetry.spans()) == 4
    assert SENTINEL not in everything_recorded(telemetry)
    assert SENTINEL[3:20] not in everything_recorded(telemetry)
