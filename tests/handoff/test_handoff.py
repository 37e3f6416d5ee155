"""Cross-provider histories (API.md 16): replies one provider wrote, sent to another.

For every ordered pair (producer, target) of the registered wings (and a Gemini producer whose
calls carry no ids): histories whose replies the producer's connector wrote (its ids,
reasoning, ``provider_data``) convert for the target in both modes, the payload passes the
target's strict wire validator, the input is never mutated, foreign reasoning is omitted with
an ``"omitted"`` note, foreign ``provider_data`` (item ids among it) changes nothing in the
payload, and the target's own replies go back with their own reasoning, signatures and
``provider_data`` (OpenAI Chat, whose API takes no reasoning back, omits even its own, with a
note), also when another wing's replies came in between (a detour). ``make test`` runs a few
examples per pair; ``make fuzz`` 10,000 (marker ``fuzz``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
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
from tests.handoff.wings import DETOURS, PRODUCER_PAIRS, PRODUCERS, WINGS

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


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _strings(item)


def own_values(message: Message, tag: str) -> list[str]:
    """What a reply holds of ``tag``'s own: its reasoning's text, signature and redacted data,
    and the strings of its (and its calls') ``provider_data[tag]``."""
    reply = message.tool_call_message if isinstance(message, ToolCallAggregateMessage) else message
    assert isinstance(reply, TextMessage | ToolCallMessage)
    calls = reply.tool_calls if isinstance(reply, ToolCallMessage) else ()
    values = [
        value
        for item in reply.reasoning
        if item.provider == tag
        for value in (item.text, item.signature, item.redacted_data)
        if value
    ]
    for data in (reply.provider_data, *(call.provider_data for call in calls)):
        values += _strings(data.get(tag))
    return values


def check_own_replayed(target: str, history: History, kinds: set[tuple[int | None, str]]) -> None:
    """The target's own replies go back with what they hold of the target's own (its reasoning
    is omitted, with a note, when the target's API takes no reasoning back)."""
    request = WINGS[target].convert(history.messages)
    for index, writer in zip(history.replies, history.writers, strict=True):
        message = history.messages[index]
        if writer != target:
            continue
        if not WINGS[target].replays_reasoning:
            assert not reasoning_of(message) or (index, "omitted") in kinds, f"message {index}"
            continue
        # What the target sent for this reply: the payload items converted from it.
        sent = json.dumps(
            [m for m, i in zip(request.messages, request.indices, strict=True) if i == index]
        )
        for value in own_values(message, target):
            assert json.dumps(value)[1:-1] in sent, f"message {index}: {value!r} not replayed"


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
    check_own_replayed(target, history, kinds)
    assert convert(target, without_foreign(messages, target), strict_mode)[0] == payload
    assert messages == before, "the conversion mutated its input"


def check_pair(producer: str, target: str, data: st.DataObject, detour: str | None = None) -> None:
    for strict_mode in (False, True):
        history = data.draw(histories(producer, target, start=not strict_mode, detour=detour))
        check_handoff(target, history, strict_mode)


@pytest.mark.parametrize(("producer", "target"), PRODUCER_PAIRS)
@SHORT
@given(data=st.data())
def test_a_history_from_one_provider_converts_for_another(
    producer: str, target: str, data: st.DataObject
) -> None:
    check_pair(producer, target, data)


@pytest.mark.parametrize(("producer", "detour"), DETOURS)
@SHORT
@given(data=st.data())
def test_a_wing_replays_its_own_replies_after_a_detour(
    producer: str, detour: str, data: st.DataObject
) -> None:
    check_pair(producer, PRODUCERS[producer].tag, data, detour)


@pytest.mark.fuzz
@pytest.mark.parametrize(("producer", "target"), PRODUCER_PAIRS)
@given(data=st.data())
def test_handoff_fuzz(producer: str, target: str, data: st.DataObject) -> None:
    check_pair(producer, target, data)


@pytest.mark.fuzz
@pytest.mark.parametrize(("producer", "detour"), DETOURS)
@given(data=st.data())
def test_detour_fuzz(producer: str, detour: str, data: st.DataObject) -> None:
    check_pair(producer, PRODUCERS[producer].tag, data, detour)
