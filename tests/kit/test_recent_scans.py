"""The kept pairing scans of recent conversations (kit/_scan.py): never stale, always bounded.

Every property converts with scans kept from earlier calls and compares with the same call
after ``clear_recent_scans()`` (a scan from scratch): payloads, notes, ids and errors agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    InvalidMessageError,
    Message,
    MessageEnvelope,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import to_anthropic
from llmbridge.kit import ToolIdRule, prepare_conversation
from llmbridge.kit._scan import _RECENT, MAX_RECENT_SCANS, clear_recent_scans
from llmbridge.openai import to_openai
from tests.strategies import AGENT, conversations, neutral_messages

RULES = (None, ToolIdRule(max_length=12), ToolIdRule(pattern=r"^[a-zA-Z0-9_-]+$"))


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    """A history that pairs (unique ids), maybe with a call waiting for results at the end."""
    messages: list[Message] = [TextMessage(Role.USER, "Start.")]
    for number in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            messages.append(TextMessage(Role.USER, f"turn {number}"))
            messages.append(TextMessage(Role.ASSISTANT, f"answer {number}", AGENT))
            continue
        ids = [f"call_{number}_{k}" for k in range(draw(st.integers(1, 3)))]
        messages.append(ToolCallMessage([ToolCall("f", "{}", tool_call_id=i) for i in ids], AGENT))
        results = [ToolCall("f", "{}", tool_call_id=i, result="ok") for i in ids]
        messages.append(ToolCallResultMessage(results))
    if draw(st.booleans()):
        messages.append(ToolCallMessage([ToolCall("f", "{}", tool_call_id="last")], AGENT))
    return messages


any_history = st.one_of(histories(), conversations(envelopes=True))


def _prepared(messages: list[Message], agent_name: str, rule: ToolIdRule | None) -> Any:
    prepared = prepare_conversation(messages, agent_name=agent_name, tool_id_rule=rule)
    violation = prepared.violation
    error = None if violation is None else (violation.reason, violation.index, violation.field)
    return prepared.messages, prepared.indices, prepared.notes, dict(prepared.tool_ids), error


def _outcome(convert: Callable[[], Any]) -> Any:
    try:
        return "ok", convert()
    except InvalidMessageError as exc:  # the same error, whichever scan found it
        return type(exc).__name__, str(exc), exc.index, exc.field


def _payloads(messages: list[Message]) -> Any:
    openai = _outcome(lambda: to_openai(messages, agent_name=AGENT))
    anthropic = _outcome(lambda: to_anthropic(messages, agent_name=AGENT))
    return openai, anthropic


def _fresh(compute: Callable[[], Any]) -> Any:
    clear_recent_scans()
    return compute()


@given(any_history, st.data())
def test_a_grown_history_scans_as_from_scratch(history: list[Message], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(history)))
    rule = data.draw(st.sampled_from(RULES))
    clear_recent_scans()
    _prepared(history[:cut], AGENT, rule)
    kept = _prepared(history, AGENT, rule)
    assert kept == _fresh(lambda: _prepared(history, AGENT, rule))


@given(histories(), st.data())
def test_a_grown_history_converts_as_from_scratch(
    history: list[Message], data: st.DataObject
) -> None:
    cut = data.draw(st.integers(1, len(history)))
    clear_recent_scans()
    _payloads(history[:cut])
    kept = _payloads(history)
    assert _RECENT.kept, "a history that pairs is kept"
    assert kept == _fresh(lambda: _payloads(history))


@given(any_history, neutral_messages, st.data())
def test_a_replaced_message_never_reuses_the_kept_scan(
    history: list[Message], other: Message, data: st.DataObject
) -> None:
    position = data.draw(st.integers(0, len(history) - 1))
    changed = [*history[:position], other, *history[position + 1 :]]
    grown = data.draw(st.booleans())
    if grown:
        changed.append(TextMessage(Role.USER, "and then?"))
    clear_recent_scans()
    _payloads(history)
    _prepared(history, AGENT, RULES[1])
    kept = (_payloads(changed), _prepared(changed, AGENT, RULES[1]))
    assert kept == _fresh(lambda: (_payloads(changed), _prepared(changed, AGENT, RULES[1])))


@given(any_history, st.sampled_from(RULES), st.sampled_from(RULES), st.sampled_from([AGENT, "x"]))
def test_other_options_never_share_a_kept_scan(
    history: list[Message], warm_rule: ToolIdRule | None, rule: ToolIdRule | None, agent: str
) -> None:
    clear_recent_scans()
    _prepared(history, AGENT, warm_rule)
    kept = _prepared(history, agent, rule)
    assert kept == _fresh(lambda: _prepared(history, agent, rule))


def test_an_envelope_keeps_the_conversation_out() -> None:
    # An envelope's dict can change between two calls: its classification is never kept.
    clear_recent_scans()
    payload = {"role": "user", "content": "hi"}
    prepare_conversation([MessageEnvelope(payload)], agent_name=AGENT)
    assert _RECENT.kept == ()


def test_the_kept_scans_stay_few() -> None:
    clear_recent_scans()
    first = [TextMessage(Role.USER, "conversation 0")]
    prepare_conversation(first, agent_name=AGENT)
    for number in range(1, 50):
        prepare_conversation([TextMessage(Role.USER, f"conversation {number}")], agent_name=AGENT)
    assert len(_RECENT.kept) == MAX_RECENT_SCANS
    # The oldest conversation is pushed out: nothing of it is held any longer.
    assert all(message is not first[0] for kept in _RECENT.kept for message in kept.messages)


def test_a_history_sent_again_grows_one_kept_scan() -> None:
    clear_recent_scans()
    history: list[Message] = [TextMessage(Role.USER, "Start.")]
    for number in range(10):
        history.append(TextMessage(Role.USER, f"turn {number}"))
        prepare_conversation(history, agent_name=AGENT)
    # Each turn's scan replaces the one of the prefix it went on from.
    assert len(_RECENT.kept) == 1
    assert len(_RECENT.kept[0].messages) == len(history)


def test_each_caller_gets_a_violation_of_its_own() -> None:
    clear_recent_scans()
    history = [
        TextMessage(Role.USER, "Start."),
        ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT),
    ]
    first = prepare_conversation(history, agent_name=AGENT).violation
    assert isinstance(first, InvalidMessageError)
    try:
        raise first
    except InvalidMessageError as raised:
        raised.add_note("a caller's note")
    again = prepare_conversation(history, agent_name=AGENT).violation
    assert isinstance(again, InvalidMessageError)
    assert again is not first
    assert (again.reason, again.index, again.field) == (first.reason, first.index, first.field)
    assert again.__traceback__ is None
    assert not hasattr(again, "__notes__")
