"""The conversion's plain paths agree with its general ones.

A message with nothing recorded for this wing, and a turn without reasoning, go out without
the turn entries and id lookups of the general path (``ItemIds.assistant_entries``,
``place_reasoning``). Forcing the general path on the same conversation changes nothing: an
empty entry of this wing's tag on every message and call gives the same request (items,
indices, notes) or the same error; a foreign reasoning on every turn gives the same items and
indices (and only adds its "omitted" notes) on every turn that had none.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import (
    LLMBridgeError,
    Message,
    Reasoning,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import to_openai_responses
from tests.strategies import AGENT, conversations

TAG = "openai-responses"
EMPTY_ENTRY = {TAG: {}}
FOREIGN_REASONING = Reasoning("thinking", signature="sig", provider="anthropic")


def _calls(calls: tuple[ToolCall, ...]) -> tuple[ToolCall, ...]:
    return tuple(dataclasses.replace(call, provider_data=EMPTY_ENTRY) for call in calls)


def with_empty_entry(message: Message) -> Message:
    """``message`` with an empty entry of this wing's tag on it and on each of its calls."""
    match message:
        case TextMessage():
            return dataclasses.replace(message, provider_data=EMPTY_ENTRY)
        case ToolCallMessage():
            calls = _calls(message.tool_calls)
            return dataclasses.replace(message, provider_data=EMPTY_ENTRY, tool_calls=calls)
        case ToolCallResultMessage():
            return dataclasses.replace(message, tool_calls=_calls(message.tool_calls))
        case ToolCallAggregateMessage():
            return dataclasses.replace(
                message,
                tool_call_message=with_empty_entry(message.tool_call_message),
                tool_call_result_message=with_empty_entry(message.tool_call_result_message),
            )
        case _:
            return message


def with_reasoning(message: Message) -> Message:
    """``message`` with a foreign reasoning when it can carry one and has none (a turn with
    reasoning takes the general path already)."""
    match message:
        case TextMessage() | ToolCallMessage() if not message.reasoning:
            return dataclasses.replace(message, reasoning=(FOREIGN_REASONING,))
        case ToolCallAggregateMessage():
            calls = with_reasoning(message.tool_call_message)
            return dataclasses.replace(message, tool_call_message=calls)
        case _:
            return message


def outcome(messages: list[Message], **options: Any) -> object:
    try:
        request = to_openai_responses(messages, agent_name=AGENT, **options)
    except LLMBridgeError as error:
        return (type(error), str(error), getattr(error, "index", None))
    return request.input, request.indices, request.notes


@settings(max_examples=150, deadline=None)
@given(
    conversation=conversations(envelopes=True),
    strict=st.booleans(),
    name_policy=st.sampled_from(["drop", "prefix"]),
)
def test_an_empty_entry_of_the_tag_takes_the_general_path_to_the_same_request(
    conversation: list[Message], strict: bool, name_policy: str
) -> None:
    tagged = [with_empty_entry(message) for message in conversation]
    options = {"strict_mode": strict, "name_policy": name_policy}

    assert outcome(tagged, **options) == outcome(conversation, **options)


@settings(max_examples=150, deadline=None)
@given(conversation=conversations(envelopes=True))
def test_a_turn_through_the_reasoning_placement_sends_the_same_items(
    conversation: list[Message],
) -> None:
    plain = outcome(conversation)
    placed = outcome([with_reasoning(message) for message in conversation])

    if not isinstance(plain, tuple) or isinstance(plain[0], type):
        assert placed == plain
        return
    assert isinstance(placed, tuple)
    assert placed[:2] == plain[:2]
    assert all(note in placed[2] for note in plain[2])
