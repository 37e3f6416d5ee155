"""from_openai_messages: OpenAI Chat request history -> neutral messages."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import from_openai_messages, to_openai
from tests.corpus import AGENT, CORPUS, PNG
from tests.strategies import PDF, WAV, conversations

CALL = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a":1}'}}
CALL_2 = {"id": "call_2", "type": "function", "function": {"name": "mul", "arguments": "{}"}}
PNG_URL = ImageMessage(Role.USER, data=PNG).data_url
PDF_URL = DocumentMessage(Role.USER, data=PDF).data_url
WAV_B64 = AudioMessage(Role.USER, data=WAV).base64_data

RULES: list[tuple[str, list[dict[str, Any]], list[Message]]] = [
    (
        "assistant-text-without-name-has-no-sender",
        [{"role": "assistant", "content": "hi"}],
        [TextMessage(Role.ASSISTANT, "hi")],
    ),
    (
        "assistant-named-agent-is-from-the-agent",
        [{"role": "assistant", "content": "hi", "name": AGENT}],
        [TextMessage(Role.ASSISTANT, "hi", from_=AGENT)],
    ),
    (
        "user-name-becomes-from",
        [{"role": "user", "content": "yo", "name": "critic"}],
        [TextMessage(Role.USER, "yo", from_="critic")],
    ),
    (
        "system-message-is-system-text",
        [{"role": "system", "content": "be brief"}],
        [TextMessage(Role.SYSTEM, "be brief")],
    ),
    (
        "tool-calls-are-from-the-agent-and-results-carry-name-and-arguments",
        [
            {"role": "assistant", "content": None, "tool_calls": [CALL, CALL_2]},
            {"role": "tool", "tool_call_id": "call_1", "content": "2"},
            {"role": "tool", "tool_call_id": "call_2", "content": "0"},
        ],
        [
            ToolCallMessage(
                [
                    ToolCall("add", '{"a":1}', tool_call_id="call_1"),
                    ToolCall("mul", "{}", tool_call_id="call_2"),
                ],
                from_=AGENT,
            ),
            ToolCallResultMessage(
                [
                    ToolCall("add", '{"a":1}', tool_call_id="call_1", result="2"),
                    ToolCall("mul", "{}", tool_call_id="call_2", result="0"),
                ]
            ),
        ],
    ),
    (
        "data-url-image-becomes-bytes",
        [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": PNG_URL}}]}],
        [ImageMessage(Role.USER, data=PNG)],
    ),
    (
        "text-and-image-parts-become-multimodal",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "look"},
                    {
                        "type": "image_url",
                        "image_url": {"url": "https://x.test/a.png", "detail": "low"},
                    },
                ],
                "name": "critic",
            }
        ],
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "look"),
                    ImageMessage(Role.USER, "https://x.test/a.png", detail="low"),
                ],
                from_="critic",
            )
        ],
    ),
    (
        "file-part-is-a-document-with-its-filename",
        [
            {
                "role": "user",
                "content": [{"type": "file", "file": {"filename": "a.pdf", "file_data": PDF_URL}}],
                "name": "critic",
            }
        ],
        [DocumentMessage(Role.USER, data=PDF, from_="critic", filename="a.pdf")],
    ),
    (
        "input-audio-is-audio",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "listen"},
                    {"type": "input_audio", "input_audio": {"data": WAV_B64, "format": "wav"}},
                ],
            }
        ],
        [
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, "listen"), AudioMessage(Role.USER, data=WAV)]
            )
        ],
    ),
    (
        "media-results-user-message-goes-back-into-the-results",
        [
            {"role": "assistant", "content": None, "tool_calls": [CALL, CALL_2]},
            {"role": "tool", "tool_call_id": "call_1", "content": "[media attached below]"},
            {"role": "tool", "tool_call_id": "call_2", "content": "Q3"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "[result of call_1]"},
                    {"type": "image_url", "image_url": {"url": PNG_URL}},
                    {"type": "text", "text": "[result of call_2]"},
                    {"type": "file", "file": {"filename": "q3.pdf", "file_data": PDF_URL}},
                ],
            },
        ],
        [
            ToolCallMessage(
                [
                    ToolCall("add", '{"a":1}', tool_call_id="call_1"),
                    ToolCall("mul", "{}", tool_call_id="call_2"),
                ],
                AGENT,
            ),
            ToolCallResultMessage(
                [
                    ToolCall(
                        "add",
                        '{"a":1}',
                        tool_call_id="call_1",
                        result=[ImageMessage(Role.USER, data=PNG)],
                    ),
                    ToolCall(
                        "mul",
                        "{}",
                        tool_call_id="call_2",
                        result=[
                            TextMessage(Role.TOOL, "Q3"),
                            DocumentMessage(Role.USER, data=PDF, filename="q3.pdf"),
                        ],
                    ),
                ]
            ),
        ],
    ),
    (
        "a_user_message_with_other_labels_stays_a_user_message",
        [
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "[result of call_9]"},
                    {"type": "image_url", "image_url": {"url": PNG_URL}},
                ],
            },
        ],
        [
            ToolCallMessage([ToolCall("add", '{"a":1}', tool_call_id="call_1")], AGENT),
            ToolCallResultMessage([ToolCall("add", '{"a":1}', tool_call_id="call_1", result="ok")]),
            MultiModalMessage(
                Role.USER,
                [TextMessage(Role.USER, "[result of call_9]"), ImageMessage(Role.USER, data=PNG)],
            ),
        ],
    ),
]


@pytest.mark.parametrize(("payload", "expected"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_rule_maps_a_request_message(
    payload: list[dict[str, Any]], expected: list[Message]
) -> None:
    before = copy.deepcopy(payload)
    assert from_openai_messages(payload, agent_name=AGENT) == expected
    assert payload == before, "the import mutated its input"
    assert to_openai(expected, agent_name=AGENT).messages == payload


UNKNOWN: list[tuple[str, dict[str, Any], str]] = [
    (
        "unknown-part-type",
        {"role": "user", "content": [{"type": "video_url", "video_url": {}}]},
        "content[0]",
    ),
    (
        "audio-part-without-data",
        {"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]},
        "input_audio",
    ),
    (
        "file-part-by-id-and-data",
        {
            "role": "user",
            "content": [{"type": "file", "file": {"file_id": "file-1", "file_data": "x"}}],
        },
        "file",
    ),
    ("unknown-role", {"role": "critic", "content": "x"}, "role"),
    (
        "tool-result-without-call",
        {"role": "tool", "tool_call_id": "nope", "content": "x"},
        "tool_call_id",
    ),
]


@pytest.mark.parametrize(
    ("message", "field"), [u[1:] for u in UNKNOWN], ids=[u[0] for u in UNKNOWN]
)
def test_an_unmappable_message_is_an_envelope_when_lenient(
    message: dict[str, Any], field: str
) -> None:
    imported = from_openai_messages([{"role": "user", "content": "a"}, message], agent_name=AGENT)
    assert imported[1] == MessageEnvelope(message)


@pytest.mark.parametrize(
    ("message", "field"), [u[1:] for u in UNKNOWN], ids=[u[0] for u in UNKNOWN]
)
def test_an_unmappable_message_raises_naming_its_index_when_strict(
    message: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_openai_messages(
            [{"role": "user", "content": "a"}, message], agent_name=AGENT, strict_mode=True
        )
    assert (caught.value.index, caught.value.field) == (1, field)


def _round_trip(messages: list[Message]) -> None:
    try:
        payload = to_openai(messages, agent_name=AGENT).messages
    except LLMBridgeError:
        return  # conversations to_openai refuses produce no payload to import
    before = copy.deepcopy(payload)
    imported = from_openai_messages(payload, agent_name=AGENT, strict_mode=False)
    assert payload == before, "the import mutated its input"
    assert to_openai(imported, agent_name=AGENT).messages == payload


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_round_trips_through_the_import(name: str) -> None:
    _round_trip([CORPUS[name]])


@settings(max_examples=60)
@given(messages=conversations(envelopes=True))
def test_every_payload_to_openai_produces_round_trips(messages: list[Message]) -> None:
    _round_trip(messages)
