"""``kit.ScanCache`` (kit/_scan_cache.py): never stale, bounded, released, shared safely.

Every property converts with scans kept from earlier calls and compares with the same call
without a cache (a scan from scratch): payloads, notes, ids and errors agree. The other tests
watch where each scan starts (``scan``'s ``start``), the one thing a kept scan changes.
"""

from __future__ import annotations

import asyncio
import gc
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import llmbridge.kit._scan_cache as scan_cache
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
from llmbridge.anthropic import AnthropicMessageConnector, to_anthropic
from llmbridge.gemini import GeminiMessageConnector, to_gemini
from llmbridge.kit import (
    MessageConnector,
    ScanCache,
    ToolIdRule,
    clear_recent_scans,
    prepare_conversation,
)
from llmbridge.openai import (
    OpenAIChatRequestMessageConnector,
    OpenAIResponsesConnector,
    to_openai,
    to_openai_responses,
)
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


def _prepared(
    messages: list[Message], agent_name: str, rule: ToolIdRule | None, scans: ScanCache | None
) -> Any:
    prepared = prepare_conversation(messages, agent_name=agent_name, tool_id_rule=rule, scans=scans)
    violation = prepared.violation
    error = None if violation is None else (violation.reason, violation.index, violation.field)
    return prepared.messages, prepared.indices, prepared.notes, dict(prepared.tool_ids), error


def _outcome(convert: Callable[[], Any]) -> Any:
    try:
        return "ok", convert()
    except InvalidMessageError as exc:  # the same error, whichever scan found it
        return type(exc).__name__, str(exc), exc.index, exc.field


def _payloads(messages: list[Message], scans: ScanCache | None) -> Any:
    return (
        _outcome(lambda: to_openai(messages, agent_name=AGENT, scans=scans)),
        _outcome(lambda: to_openai_responses(messages, agent_name=AGENT, scans=scans)),
        _outcome(lambda: to_anthropic(messages, agent_name=AGENT, scans=scans)),
        _outcome(lambda: to_gemini(messages, agent_name=AGENT, scans=scans)),
    )


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Where each detecting scan of the cache starts (0: from the first message)."""
    seen: list[int] = []
    real = scan_cache.scan

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("start", 0))
        return real(*args, **kwargs)

    monkeypatch.setattr(scan_cache, "scan", watched)
    return seen


# -- never stale ---------------------------------------------------------------------------


@given(any_history, st.data())
def test_a_grown_history_scans_as_from_scratch(history: list[Message], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(history)))
    rule = data.draw(st.sampled_from(RULES))
    scans = ScanCache()
    _prepared(history[:cut], AGENT, rule, scans)
    assert _prepared(history, AGENT, rule, scans) == _prepared(history, AGENT, rule, None)


@given(histories(), st.data())
def test_a_grown_history_converts_as_from_scratch(
    history: list[Message], data: st.DataObject
) -> None:
    cut = data.draw(st.integers(1, len(history)))
    scans = ScanCache()
    _payloads(history[:cut], scans)
    assert len(scans) > 0, "a history that pairs is kept"
    assert _payloads(history, scans) == _payloads(history, None)


@given(any_history, neutral_messages, st.data())
def test_a_replaced_message_never_reuses_the_kept_scan(
    history: list[Message], other: Message, data: st.DataObject
) -> None:
    position = data.draw(st.integers(0, len(history) - 1))
    changed = [*history[:position], other, *history[position + 1 :]]
    if data.draw(st.booleans()):
        changed.append(TextMessage(Role.USER, "and then?"))
    scans = ScanCache()
    _payloads(history, scans)
    _prepared(history, AGENT, RULES[1], scans)
    kept = (_payloads(changed, scans), _prepared(changed, AGENT, RULES[1], scans))
    assert kept == (_payloads(changed, None), _prepared(changed, AGENT, RULES[1], None))


@given(any_history, st.sampled_from(RULES), st.sampled_from(RULES), st.sampled_from([AGENT, "x"]))
def test_other_options_never_share_a_kept_scan(
    history: list[Message], warm_rule: ToolIdRule | None, rule: ToolIdRule | None, agent: str
) -> None:
    scans = ScanCache()
    _prepared(history, AGENT, warm_rule, scans)
    assert _prepared(history, agent, rule, scans) == _prepared(history, agent, rule, None)


def test_each_caller_gets_a_violation_of_its_own() -> None:
    scans = ScanCache()
    history = [
        TextMessage(Role.USER, "Start."),
        ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT),
    ]
    first = prepare_conversation(history, agent_name=AGENT, scans=scans).violation
    assert isinstance(first, InvalidMessageError)
    try:
        raise first
    except InvalidMessageError as raised:
        raised.add_note("a caller's note")
    again = prepare_conversation(history, agent_name=AGENT, scans=scans).violation
    assert isinstance(again, InvalidMessageError)
    assert again is not first
    assert (again.reason, again.index, again.field) == (first.reason, first.index, first.field)
    assert again.__traceback__ is None
    assert not hasattr(again, "__notes__")


# -- what is kept, and where a scan starts -------------------------------------------------


def _growing(turns: int) -> Iterator[list[Message]]:
    history: list[Message] = [TextMessage(Role.USER, "Start.")]
    for number in range(turns):
        history.append(TextMessage(Role.ASSISTANT, f"answer {number}", AGENT))
        history.append(TextMessage(Role.USER, f"turn {number}"))
        yield history


def test_a_history_sent_again_is_scanned_past_what_was_scanned(starts: list[int]) -> None:
    scans = ScanCache()
    for history in _growing(10):
        to_openai(history, agent_name=AGENT, scans=scans)
    assert starts == [0, *range(3, 21, 2)]
    # Each turn's scan replaces the one of the prefix it went on from.
    assert len(scans) == 1


def test_the_pure_functions_keep_nothing(starts: list[int]) -> None:
    for history in _growing(3):
        to_openai(history, agent_name=AGENT)
        to_anthropic(history, agent_name=AGENT)
    assert starts == [0] * 6


def test_a_step_longer_than_the_lookback_is_scanned_from_the_start(starts: list[int]) -> None:
    scans = ScanCache()
    history = next(_growing(1))
    to_openai(history, agent_name=AGENT, scans=scans)
    longer = [*history, *(TextMessage(Role.USER, f"more {n}") for n in range(100))]
    kept = to_openai(longer, agent_name=AGENT, scans=scans)
    assert starts == [0, 0]
    assert kept == to_openai(longer, agent_name=AGENT)


def test_the_agents_of_a_group_chat_each_keep_their_scan(starts: list[int]) -> None:
    scans = ScanCache()
    for history in _growing(3):
        for agent in ("planner", "critic"):
            prepare_conversation(history, agent_name=agent, scans=scans)
    assert starts == [0, 0, 3, 3, 5, 5]


def test_an_envelope_keeps_the_conversation_out() -> None:
    # An envelope's dict can change between two calls: its classification is never kept.
    scans = ScanCache()
    prepare_conversation(
        [MessageEnvelope({"role": "user", "content": "hi"})], agent_name=AGENT, scans=scans
    )
    assert len(scans) == 0


def test_the_least_recently_sent_conversation_goes_first(starts: list[int]) -> None:
    scans = ScanCache(max_conversations=3)
    a, b, c, d = ([TextMessage(Role.USER, name)] for name in "abcd")
    for conversation in (a, b, c, a, d):  # a is sent again: b is now the oldest
        prepare_conversation(conversation, agent_name=AGENT, scans=scans)
    starts.clear()
    grown = [[*conversation, TextMessage(Role.USER, "more")] for conversation in (a, c, d, b)]
    for conversation in grown:
        prepare_conversation(conversation, agent_name=AGENT, scans=scans)
    assert starts == [1, 1, 1, 0]
    assert len(scans) == 3


def test_a_conversation_dropped_by_its_owner_is_released() -> None:
    scans = ScanCache()
    history = list(next(_growing(1)))
    to_openai(history, agent_name=AGENT, scans=scans)
    assert len(scans) == 1
    watched = [weakref.ref(message) for message in history]
    enabled = gc.isenabled()
    gc.disable()  # at once: no reference cycle waits for the collector
    try:
        del history
        assert all(ref() is None for ref in watched), "the cache holds no message alive"
    finally:
        if enabled:
            gc.enable()
    assert len(scans) == 0


def test_taking_the_last_message_out_releases_the_scan(starts: list[int]) -> None:
    scans = ScanCache()
    history = list(next(_growing(2)))
    prepare_conversation(history, agent_name=AGENT, scans=scans)
    history.pop()
    assert len(scans) == 0
    prepare_conversation(history, agent_name=AGENT, scans=scans)
    assert starts == [0, 0]


def test_clear_forgets_every_scan(starts: list[int]) -> None:
    scans = ScanCache()
    history = next(_growing(1))
    prepare_conversation(history, agent_name=AGENT, scans=scans)
    scans.clear()
    assert len(scans) == 0
    prepare_conversation([*history, TextMessage(Role.USER, "more")], agent_name=AGENT, scans=scans)
    assert starts == [0, 0]


def test_a_cache_bound_below_one_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="max_conversations must be at least 1, not 0"):
        ScanCache(0)


def test_clear_recent_scans_is_deprecated_and_does_nothing() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clear_recent_scans()
    assert [warning.category for warning in caught] == [DeprecationWarning]
    assert "ScanCache" in str(caught[0].message)


# -- one owner, many conversations, threads and tasks --------------------------------------


def _conversations(count: int, turns: int) -> list[list[list[Message]]]:
    """``count`` conversations, each as the histories an agent loop sends turn by turn."""
    result = []
    for number in range(count):
        history: list[Message] = [TextMessage(Role.USER, f"conversation {number}")]
        sent = []
        for turn in range(turns):
            call_id = f"call_{number}_{turn}"
            history.append(ToolCallMessage([ToolCall("f", "{}", tool_call_id=call_id)], AGENT))
            sent.append(list(history))  # the last one waits for its result: a violation
            history.append(
                ToolCallResultMessage([ToolCall("f", "{}", tool_call_id=call_id, result="ok")])
            )
            history.append(TextMessage(Role.USER, f"turn {turn}"))
            sent.append(list(history))
        result.append(sent)
    return result


def test_eight_threads_converting_at_once_get_a_fresh_scans_results() -> None:
    conversations = _conversations(16, 6)
    expected = [[_payloads(history, None) for history in sent] for sent in conversations]
    scans = ScanCache(max_conversations=8)  # fewer than the conversations: evictions too
    barrier = threading.Barrier(8)
    failures: list[str] = []

    def work(worker: int) -> None:
        barrier.wait()
        for turn in range(len(conversations[0])):
            # Each worker walks the conversations in its own order, all of them turn by turn.
            for number in (*range(worker, 16), *range(worker)):
                got = _payloads(conversations[number][turn], scans)
                if got != expected[number][turn]:
                    failures.append(f"worker {worker}, conversation {number}, turn {turn}")

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    # At most 8 conversations, each with a scan per wing (their options differ).
    assert 0 < len(scans) <= 8 * 4


def test_a_connector_keeps_one_scan_per_conversation_across_tasks(starts: list[int]) -> None:
    connector = OpenAIChatRequestMessageConnector()
    conversations = _conversations(20, 3)

    async def agent_loop(sent: list[list[Message]]) -> None:
        for history in sent[1::2]:  # the histories that pair
            connector.convert_request(history, agent_name=AGENT, check_pairing=True)
            await asyncio.sleep(0)  # the other conversations go on in between

    async def main() -> None:
        await asyncio.gather(*(agent_loop(sent) for sent in conversations))

    asyncio.run(main())
    assert len(connector.scans) == 20
    assert starts.count(0) == 20, "each conversation is scanned from the start only once"


@pytest.mark.parametrize(
    "connector_type",
    [
        OpenAIChatRequestMessageConnector,
        OpenAIResponsesConnector,
        AnthropicMessageConnector,
        GeminiMessageConnector,
    ],
)
def test_every_connector_goes_on_from_its_own_kept_scans(
    connector_type: type[MessageConnector], starts: list[int]
) -> None:
    connector, other = connector_type(), connector_type()
    for history in _growing(3):
        connector.convert_request(history, agent_name=AGENT, check_pairing=True)
    other.convert_request(history, agent_name=AGENT, check_pairing=True)
    assert starts == [0, 3, 5, 0]  # the other connector has not seen the conversation
    assert (len(connector.scans), len(other.scans)) == (1, 1)
