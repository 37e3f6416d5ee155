"""Shared pieces of the reliability tests: one conversion entry point per provider, expected
outcomes in both modes, payload builders, and SDK objects built from the test kit's JSON."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from anthropic.types import Message as AnthropicMessage
from anthropic.types import RawMessageStreamEvent
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from pydantic import TypeAdapter

from llmbridge import LLMBridgeError, Message
from llmbridge.anthropic import to_anthropic
from llmbridge.openai import to_openai
from llmbridge.testing import anthropic_message, anthropic_stream_events, anthropic_tool_use_block
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.openai import wire as openai_wire

Provider = Literal["openai", "anthropic"]
PROVIDERS: tuple[Provider, ...] = ("openai", "anthropic")
OPENAI_URL = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"

_EVENT: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)


def convert(provider: Provider, messages: Sequence[Message], **kwargs: Any) -> Any:
    """``to_openai`` or ``to_anthropic`` for ``AGENT``."""
    if provider == "openai":
        return to_openai(messages, agent_name=AGENT, **kwargs)
    return to_anthropic(messages, agent_name=AGENT, **kwargs)


def check_wire(provider: Provider, request: Any) -> None:
    """Put a whole converted request through that provider's strict wire validator."""
    if provider == "openai":
        openai_wire.check_messages(request.messages)
    else:
        assert_valid_request(request)


def note_kinds(request: Any) -> list[tuple[int | None, str]]:
    """The notes of a converted request as ``(index, kind)`` pairs."""
    return [(note.index, note.kind) for note in request.notes]


@dataclass(frozen=True)
class Raises:
    """The conversion raises ``error`` naming message ``index`` and ``field``."""

    error: type[LLMBridgeError]
    index: int | None
    field: str | None = None


@dataclass(frozen=True)
class Sends:
    """The conversion succeeds: ``probe(request) == expected``, with exactly these notes.

    ``wire=False`` skips the strict validator for payloads it is stricter about than the API.
    """

    probe: Callable[[Any], Any]
    expected: Any
    notes: Sequence[tuple[int | None, str]] = field(default=())
    wire: bool = True


Outcome = Raises | Sends


def expect(
    provider: Provider,
    messages: Sequence[Message],
    lenient: Outcome,
    strict: Outcome | None = None,
    **kwargs: Any,
) -> None:
    """Convert ``messages`` in lenient then strict mode (``strict`` defaults to ``lenient``)
    and check each outcome; the input must come out unchanged."""
    before = copy.deepcopy(list(messages))
    for strict_mode, outcome in ((False, lenient), (True, strict or lenient)):
        mode = "strict" if strict_mode else "lenient"
        if isinstance(outcome, Raises):
            with pytest.raises(outcome.error) as caught:
                convert(provider, messages, strict_mode=strict_mode, **kwargs)
            where = (caught.value.index, getattr(caught.value, "field", None))  # type: ignore[attr-defined]
            assert where == (outcome.index, outcome.field), mode
        else:
            request = convert(provider, messages, strict_mode=strict_mode, **kwargs)
            if outcome.wire:
                check_wire(provider, request)
            assert outcome.probe(request) == outcome.expected, mode
            assert note_kinds(request) == list(outcome.notes), mode
    assert list(messages) == before, "the conversion mutated its input"


def messages_of(request: Any) -> Any:
    """The ``messages`` of a converted request."""
    return request.messages


def system_of(request: Any) -> Any:
    """The top-level ``system`` blocks of an Anthropic request."""
    return request.system


# -- payload builders --------------------------------------------------------------------


def o_user(content: Any, name: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"role": "user", "content": content}
    if name is not None:
        payload["name"] = name
    return payload


def o_calls(*calls: tuple[str, str, str]) -> dict[str, Any]:
    """An assistant message of ``(id, name, arguments)`` calls."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ],
    }


def o_tool(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def a_text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def a_user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def a_assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def a_use(tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def a_result(tool_id: str, content: str, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, **extra, "content": content}


# -- SDK objects from the test kit's JSON --------------------------------------------------


def openai_completion_model(data: dict[str, Any]) -> ChatCompletion:
    return ChatCompletion.model_validate(data)


def openai_chunk_models(data: Sequence[dict[str, Any]]) -> list[ChatCompletionChunk]:
    return [ChatCompletionChunk.model_validate(item) for item in data]


def anthropic_message_model(data: dict[str, Any]) -> AnthropicMessage:
    return AnthropicMessage.model_validate(data)


def anthropic_event_models(events: Sequence[dict[str, Any]]) -> list[Any]:
    """SDK event objects, pings dropped (the SDK drops them too)."""
    return [_EVENT.validate_python(event) for event in events if event["type"] != "ping"]


def anthropic_tool_stream(partial_json: list[str], stop_reason: str) -> list[dict[str, Any]]:
    """Anthropic events of one ``tool_use`` block (``toolu_1``, ``get_weather``) whose arguments
    arrive as ``partial_json``."""
    body = anthropic_message(
        [anthropic_tool_use_block("toolu_1", "get_weather")], stop_reason=stop_reason
    )
    events = anthropic_stream_events(body)
    start = next(i for i, e in enumerate(events) if e["type"] == "content_block_start")
    deltas = [
        {"type": "content_block_delta", "index": 0, "delta": delta}
        for delta in ({"type": "input_json_delta", "partial_json": p} for p in partial_json)
    ]
    return events[: start + 1] + deltas + events[start + 1 :]


async def drain(stream: AsyncIterator[Any], into: list[Any]) -> None:
    """Consume ``stream`` into ``into`` (what arrived stays there when the stream raises)."""
    async for item in stream:
        into.append(item)
