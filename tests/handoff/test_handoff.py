"""Cross-provider histories (API.md 16): replies one provider wrote, sent to another.

For every ordered pair (producer, target) of the registered wings: histories whose replies the
producer's connector wrote (its ids, reasoning, ``provider_data``) convert for the target in
both modes, the payload passes the target's strict wire validator, the input is never mutated,
foreign reasoning is omitted with an ``"omitted"`` note, and foreign ``provider_data`` (item ids
among it) changes nothing in the payload. ``make test`` runs a few examples per pair; ``make
fuzz`` 10,000 (marker ``fuzz``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import (
    ConversionNote,
    Message,
    Reasoning,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
)
from llmbridge.kit import load_provider
from tests.corpus import AGENT
from tests.handoff.histories import FOREIGN, History, histories
from tests.handoff.wings import PAIRS, WINGS

SHORT = settings(max_examples=15)


def convert(
    target: str, messages: list[Message], strict_mode: bool
) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """The payload and notes ``llmbridge convert --to target`` writes."""
    return load_provider(target).request_payload(
        messages, agent_name=AGENT, strict_mode=strict_mode, name_policy="drop"
    )


def reasoning_of(message: Message) -> tuple[Reasoning, ...]:
    """The reasoning a reply carries (an aggregate's is its call message's)."""
    if isinstance(message, ToolCallAggregateMessage):
        return message.tool_call_message.reasoning
    if isinstance(message, TextMessage | ToolCallMessage):
        return message.reasoning
    return ()


def _own(message: TextMessage | ToolCallMessage, target: str) -> Any:
    data = {tag: value for tag, value in message.provider_data.items() if tag == target}
    reasoning = tuple(r for r in message.reasoning if r.provider == target)
    if isinstance(message, TextMessage):
        return replace(message, reasoning=reasoning, provider_data=data)
    calls = tuple(
        replace(c, provider_data={t: v for t, v in c.provider_data.items() if t == target})
        for c in message.tool_calls
    )
    return replace(message, tool_calls=calls, reasoning=reasoning, provider_data=data)


def without_foreign(messages: list[Message], target: str) -> list[Message]:
    """``messages`` with every reasoning and ``provider_data`` foreign to ``target`` removed."""
    out: list[Message] = []
    for message in messages:
        if isinstance(message, ToolCallAggregateMessage):
            message = replace(message, tool_call_message=_own(message.tool_call_message, target))
        elif isinstance(message, TextMessage | ToolCallMessage):
            message = _own(message, target)
        out.append(message)
    return out


def check_handoff(target: str, history: History, strict_mode: bool) -> None:
    messages = history.messages
    before = copy.deepcopy(messages)

    payload, notes = convert(target, messages, strict_mode)

    WINGS[target].check(payload)
    assert FOREIGN not in json.dumps(payload), "foreign provider_data reached the wire"
    kinds = {(note.index, note.kind) for note in notes}
    for index in history.replies:
        if any(r.provider != target for r in reasoning_of(messages[index])):
            assert (index, "omitted") in kinds, f"foreign reasoning of message {index}"
    assert convert(target, without_foreign(messages, target), strict_mode)[0] == payload
    assert messages == before, "the conversion mutated its input"


def check_pair(producer: str, target: str, data: st.DataObject) -> None:
    for strict_mode in (False, True):
        history = data.draw(histories(producer, target, start=not strict_mode))
        check_handoff(target, history, strict_mode)


@pytest.mark.parametrize(("producer", "target"), PAIRS)
@SHORT
@given(data=st.data())
def test_a_history_from_one_provider_converts_for_another(
    producer: str, target: str, data: st.DataObject
) -> None:
    check_pair(producer, target, data)


@pytest.mark.fuzz
@pytest.mark.parametrize(("producer", "target"), PAIRS)
@given(data=st.data())
def test_handoff_fuzz(producer: str, target: str, data: st.DataObject) -> None:
    check_pair(producer, target, data)
