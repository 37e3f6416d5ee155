"""Connectors read only their own ``provider_data`` tag: data under other tags changes nothing.

Neither the OpenAI Chat nor the Anthropic wing reads any tag yet, so for both a conversation
whose messages carry other providers' data converts to exactly what it gives without it: the
same payload, indices, notes and tool ids, or the same error, in lenient and strict mode.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings

from llmbridge import (
    LLMBridgeError,
    Message,
    MultiModalMessage,
    Reasoning,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from tests.anthropic import helpers as anthropic
from tests.corpus import CORPUS
from tests.openai import helpers as openai
from tests.strategies import valid_conversations

FOREIGN = {
    "gemini": {"thought_signature": b"\x01sig", "parts": [{"thought": True}, None]},
    "openai-responses": {"item_id": "rs_1", "phase": "commentary", "encrypted": "x" * 40},
}


def _reasoning(items: Sequence[Reasoning], data: dict[str, Any]) -> tuple[Reasoning, ...]:
    return tuple(dataclasses.replace(item, provider_data=data) for item in items)


def _calls(calls: Sequence[ToolCall], data: dict[str, Any]) -> tuple[ToolCall, ...]:
    return tuple(dataclasses.replace(call, provider_data=data) for call in calls)


def with_data(message: Message, data: dict[str, Any]) -> Message:
    """``message`` with ``data`` as the provider_data of everything in it that carries one."""
    match message:
        case TextMessage():
            reasoning = _reasoning(message.reasoning, data)
            return dataclasses.replace(message, provider_data=data, reasoning=reasoning)
        case ToolCallMessage():
            return dataclasses.replace(
                message,
                provider_data=data,
                tool_calls=_calls(message.tool_calls, data),
                reasoning=_reasoning(message.reasoning, data),
            )
        case ToolCallResultMessage():
            return dataclasses.replace(message, tool_calls=_calls(message.tool_calls, data))
        case ToolCallAggregateMessage():
            return dataclasses.replace(
                message,
                tool_call_message=with_data(message.tool_call_message, data),
                tool_call_result_message=with_data(message.tool_call_result_message, data),
            )
        case MultiModalMessage():
            items = tuple(with_data(item, data) for item in message.content)
            return dataclasses.replace(message, content=items)
        case _:
            return message


def _openai(messages: list[Message], strict: bool, check_pairing: bool) -> object:
    return openai.convert(messages, strict_mode=strict, check_pairing=check_pairing)


def _anthropic(messages: list[Message], strict: bool, check_pairing: bool) -> object:
    return anthropic.convert(messages, strict=strict, check_pairing=check_pairing)


# Each wing also ignores the other wing's tag.
WINGS: dict[str, tuple[Callable[[list[Message], bool, bool], object], dict[str, Any]]] = {
    "openai-chat": (_openai, {**FOREIGN, "anthropic": {"signature": "sig"}}),
    "anthropic": (_anthropic, {**FOREIGN, "openai": {"id": "chatcmpl_1"}}),
}
wings = pytest.mark.parametrize(("convert", "data"), WINGS.values(), ids=WINGS.keys())
modes = pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])


def outcome(convert: Callable[..., object], messages: list[Message], **options: Any) -> object:
    """The whole conversion result (an equal-comparing request), or the error it raised."""
    try:
        return convert(messages, **options)
    except LLMBridgeError as error:
        return (type(error), str(error), getattr(error, "index", None))


@wings
@modes
@pytest.mark.parametrize("name", list(CORPUS))
def test_corpus_converts_alike_with_other_tags(
    convert: Callable[..., object], data: dict[str, Any], strict: bool, name: str
) -> None:
    plain = [CORPUS[name]]
    tagged = [with_data(CORPUS[name], data)]
    assert tagged != plain or tagged[0] is plain[0]
    expected = outcome(convert, plain, strict=strict, check_pairing=False)
    assert outcome(convert, tagged, strict=strict, check_pairing=False) == expected


@wings
@modes
@settings(max_examples=40, deadline=None)
@given(conversation=valid_conversations(envelopes=True))
def test_whole_conversations_convert_alike_with_other_tags(
    convert: Callable[..., object], data: dict[str, Any], strict: bool, conversation: list[Message]
) -> None:
    tagged = [with_data(message, data) for message in conversation]
    expected = outcome(convert, conversation, strict=strict, check_pairing=True)
    assert outcome(convert, tagged, strict=strict, check_pairing=True) == expected
