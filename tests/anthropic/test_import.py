"""from_anthropic_messages: Anthropic Messages request history -> neutral messages."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest
from hypothesis import given, settings

from llmbridge import (
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import from_anthropic_messages, to_anthropic
from tests.corpus import AGENT, CORPUS, PNG
from tests.strategies import PDF, conversations

PNG_SOURCE = {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PNG).decode()}
USE = {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1}}
THINKING = {"type": "thinking", "thinking": "plan", "signature": "sig-1"}
ADD = ToolCall("add", '{"a": 1}', tool_call_id="toolu_1")
PDF_SOURCE = {
    "type": "base64",
    "media_type": "application/pdf",
    "data": base64.b64encode(PDF).decode(),
}
PDF_BLOCK = {"type": "document", "source": PDF_SOURCE, "title": "a.pdf"}


def _user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def _assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


RULES: list[tuple[str, list[dict[str, Any]], list[Message]]] = [
    ("user-text", [_user(_text("hi"))], [TextMessage(Role.USER, "hi")]),
    (
        "assistant-turn-is-from-the-agent",
        [_user(_text("hi")), _assistant(_text("yo"))],
        [TextMessage(Role.USER, "hi"), TextMessage(Role.ASSISTANT, "yo", from_=AGENT)],
    ),
    (
        "thinking-keeps-its-signature-and-text-before-calls-is-their-content",
        [
            _user(_text("go")),
            _assistant(THINKING, _text("calling"), USE),
            _user({"type": "tool_result", "tool_use_id": "toolu_1", "content": "2"}),
        ],
        [
            TextMessage(Role.USER, "go"),
            ToolCallMessage(
                [ADD],
                AGENT,
                content="calling",
                reasoning=[Reasoning("plan", signature="sig-1", provider="anthropic")],
            ),
            ToolCallResultMessage(
                [ToolCall("add", '{"a": 1}', tool_call_id="toolu_1", result="2")]
            ),
        ],
    ),
    (
        "thinking-goes-only-on-the-first-message-of-a-merged-turn",
        [_user(_text("go")), _assistant(THINKING, _text("a"), _text("b"))],
        [
            TextMessage(Role.USER, "go"),
            TextMessage(
                Role.ASSISTANT,
                "a",
                from_=AGENT,
                reasoning=[Reasoning("plan", signature="sig-1", provider="anthropic")],
            ),
            TextMessage(Role.ASSISTANT, "b", from_=AGENT),
        ],
    ),
    (
        "redacted-thinking-keeps-its-data",
        [_user(_text("go")), _assistant({"type": "redacted_thinking", "data": "xyz"}, _text("ok"))],
        [
            TextMessage(Role.USER, "go"),
            TextMessage(
                Role.ASSISTANT,
                "ok",
                from_=AGENT,
                reasoning=[Reasoning("", redacted_data="xyz", provider="anthropic")],
            ),
        ],
    ),
    (
        "tool-results-carry-the-calls-name-and-arguments-then-the-user-text",
        [
            _user(_text("go")),
            _assistant(USE),
            _user({"type": "tool_result", "tool_use_id": "toolu_1", "content": "2"}, _text("and?")),
        ],
        [
            TextMessage(Role.USER, "go"),
            ToolCallMessage([ADD], AGENT),
            ToolCallResultMessage(
                [ToolCall("add", '{"a": 1}', tool_call_id="toolu_1", result="2")]
            ),
            TextMessage(Role.USER, "and?"),
        ],
    ),
    (
        "error-result-keeps-is-error",
        [
            _user(_text("go")),
            _assistant(USE),
            _user(
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "boom",
                    "is_error": True,
                }
            ),
        ],
        [
            TextMessage(Role.USER, "go"),
            ToolCallMessage([ADD], AGENT),
            ToolCallResultMessage(
                [ToolCall("add", '{"a": 1}', tool_call_id="toolu_1", result="boom", is_error=True)]
            ),
        ],
    ),
    (
        "base64-image-becomes-bytes-and-mixed-blocks-multimodal",
        [_user(_text("see"), {"type": "image", "source": PNG_SOURCE})],
        [
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, "see"), ImageMessage(Role.USER, data=PNG)]
            )
        ],
    ),
    (
        "url-image",
        [_user({"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}})],
        [ImageMessage(Role.USER, "https://x.test/a.png")],
    ),
    (
        "pdf-document-title-is-its-filename",
        [_user(PDF_BLOCK)],
        [DocumentMessage(Role.USER, data=PDF, filename="a.pdf")],
    ),
    (
        "url-document",
        [_user({"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"}})],
        [DocumentMessage(Role.USER, "https://x.test/a.pdf")],
    ),
    (
        "text-document-is-text-plain-bytes",
        [
            _user(
                _text("read"),
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": "a,b\n"},
                },
            )
        ],
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "read"),
                    DocumentMessage(Role.USER, data=b"a,b\n", media_type="text/plain"),
                ],
            )
        ],
    ),
    (
        "tool-result-blocks-are-a-parts-result",
        [
            _user(_text("go")),
            _assistant(USE),
            _user(
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": [_text("chart"), {"type": "image", "source": PNG_SOURCE}, PDF_BLOCK],
                }
            ),
        ],
        [
            TextMessage(Role.USER, "go"),
            ToolCallMessage([ADD], AGENT),
            ToolCallResultMessage(
                [
                    ToolCall(
                        "add",
                        '{"a": 1}',
                        tool_call_id="toolu_1",
                        result=[
                            TextMessage(Role.TOOL, "chart"),
                            ImageMessage(Role.USER, data=PNG),
                            DocumentMessage(Role.USER, data=PDF, filename="a.pdf"),
                        ],
                    )
                ]
            ),
        ],
    ),
]


@pytest.mark.parametrize(("payload", "expected"), [r[1:] for r in RULES], ids=[r[0] for r in RULES])
def test_each_rule_maps_a_turn(payload: list[dict[str, Any]], expected: list[Message]) -> None:
    before = copy.deepcopy(payload)
    assert from_anthropic_messages(payload, agent_name=AGENT) == expected
    assert payload == before, "the import mutated its input"
    assert to_anthropic(expected, agent_name=AGENT).messages == payload


def test_system_blocks_become_system_messages_first() -> None:
    system = [_text("be brief"), _text("be kind")]
    imported = from_anthropic_messages([_user(_text("hi"))], agent_name=AGENT, system=system)
    assert imported == [
        TextMessage(Role.SYSTEM, "be brief"),
        TextMessage(Role.SYSTEM, "be kind"),
        TextMessage(Role.USER, "hi"),
    ]
    assert to_anthropic(imported, agent_name=AGENT).system == system


UNKNOWN: list[tuple[str, dict[str, Any], str]] = [
    ("unknown-block-type", _user({"type": "search_result", "source": {}}), "content[0]"),
    ("unknown-document-source", _user({"type": "document", "source": {}}), "source"),
    ("unknown-block-key", _user({"type": "text", "text": "x", "cache_control": {}}), "content[0]"),
    ("unknown-role", {"role": "critic", "content": "x"}, "role"),
    (
        "tool-result-without-call",
        _user({"type": "tool_result", "tool_use_id": "nope", "content": "x"}),
        "tool_use_id",
    ),
]


@pytest.mark.parametrize(
    ("message", "field"), [u[1:] for u in UNKNOWN], ids=[u[0] for u in UNKNOWN]
)
def test_an_unmappable_message_is_an_envelope_when_lenient(
    message: dict[str, Any], field: str
) -> None:
    imported = from_anthropic_messages([_user(_text("a")), message], agent_name=AGENT)
    assert imported[-1] == MessageEnvelope(message)


@pytest.mark.parametrize(
    ("message", "field"), [u[1:] for u in UNKNOWN], ids=[u[0] for u in UNKNOWN]
)
def test_an_unmappable_message_raises_naming_its_index_when_strict(
    message: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages([_user(_text("a")), message], agent_name=AGENT, strict_mode=True)
    assert (caught.value.index, caught.value.field) == (1, field)


def test_an_unknown_system_block_raises_when_strict_and_is_kept_when_lenient() -> None:
    block = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages([], agent_name=AGENT, system=[block], strict_mode=True)
    assert (caught.value.index, caught.value.field) == (None, "system[0]")
    imported = from_anthropic_messages([], agent_name=AGENT, system=[block])
    assert imported == [MessageEnvelope({"role": "system", "content": [block]})]


def _round_trip(messages: list[Message], **options: Any) -> None:
    try:
        request = to_anthropic(messages, agent_name=AGENT, **options)
    except LLMBridgeError:
        return  # conversations to_anthropic refuses produce no payload to import
    before = copy.deepcopy((request.messages, request.system))
    imported = from_anthropic_messages(request.messages, agent_name=AGENT, system=request.system)
    assert (request.messages, request.system) == before, "the import mutated its input"
    if not options and not any(isinstance(message, MessageEnvelope) for message in messages):
        # Every block to_anthropic writes for a whole conversation (a fragment's results may
        # answer no call in it) of neutral messages has a neutral form.
        strict = from_anthropic_messages(
            request.messages, agent_name=AGENT, system=request.system, strict_mode=True
        )
        assert strict == imported
    again = to_anthropic(imported, agent_name=AGENT, **options)
    assert (again.messages, again.system) == (request.messages, request.system)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_round_trips_through_the_import(name: str) -> None:
    # One message alone is a fragment (it may open with an assistant turn).
    _round_trip([CORPUS[name]], check_pairing=False)


@settings(max_examples=60)
# No envelopes: to_anthropic sends them as turns of their own, which the strict validator (run on
# every request here) refuses, as in tests/reliability/test_fuzz_conversations.py.
@given(messages=conversations(envelopes=False))
def test_every_payload_to_anthropic_produces_round_trips(messages: list[Message]) -> None:
    _round_trip(messages)
