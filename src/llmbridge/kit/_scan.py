"""The pairing scan of ``prepare_conversation``, resumable, and the scans of recent conversations.

An agent loop sends the same history every turn, grown by a few messages. Neutral messages are
immutable, so the outcome of scanning a prefix holds for as long as the same message objects
are sent again: ``detect_repairs`` keeps the last few scans (the messages themselves, compared
by identity, never by value) and scans only the messages after the latest kept prefix. A
conversation that holds anything else than the exact neutral types (an envelope's dict can
change, a subclass may) is scanned every time and never kept.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MultiModalMessage,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit._tool_calls import call_ids
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import ASSISTANT, CALL, MOVABLE, OPAQUE, RESULT, RawTurnHook, turn_kind

__all__ = [
    "PLAIN_TURNS",
    "REPAIR",
    "Outcome",
    "ScanState",
    "clear_recent_scans",
    "detect_repairs",
    "scan",
]


class _Scan(enum.Enum):
    REPAIR = "repair"  # something must change before the check can be made


REPAIR: Final = _Scan.REPAIR
Outcome: TypeAlias = InvalidMessageError | _Scan | None
"""A scan's result: the first pairing violation, ``REPAIR`` (detecting scans), or ``None``."""

# Types that always become an assistant or a movable turn, never a call or results.
PLAIN_TURNS: Final = frozenset({TextMessage, ImageMessage, MultiModalMessage})
# The types whose every field the scan reads is immutable: only these conversations are kept.
_IMMUTABLE: Final = frozenset(
    {
        TextMessage,
        ImageMessage,
        MultiModalMessage,
        DocumentMessage,
        AudioMessage,
        ToolCallMessage,
        ToolCallResultMessage,
        ToolCallAggregateMessage,
    }
)
# A handful of conversations: agents of one process converse side by side, and each kept scan
# holds its messages (their bytes too) alive until it is pushed out.
MAX_RECENT_SCANS: Final = 4


@dataclass(frozen=True, slots=True)
class ScanState:
    """Where a scan went through its messages with nothing to stop for: enough to go on.

    ``pending`` are the ids of the closest call message still waiting for results, ``calls``
    its calls, ``call_index`` its index; ``used`` every call id so far (detecting scans).
    """

    pending: frozenset[str] = frozenset()
    calls: Sequence[ToolCall] = ()
    call_index: int = 0
    used: frozenset[str] = frozenset()


_START: Final = ScanState()


def _unanswered(ids: list[str], pending: set[str], index: int) -> InvalidMessageError:
    call_id = next(call_id for call_id in ids if call_id in pending)
    return InvalidMessageError(
        f"tool call {call_id!r} is not answered by a tool result before the next assistant "
        "turn or the end of the conversation",
        index=index,
        field="tool_calls",
    )


def _bad_result(call_id: str, calls: Sequence[ToolCall], index: int) -> InvalidMessageError:
    if call_id in call_ids(calls):
        # Providers reject a second result for one call (OpenAI: "Duplicate value for
        # 'tool_call_id'"), so the check must not pass it.
        reason = f"tool result {call_id!r} answers a call that already has a result"
    else:
        reason = (
            f"tool result {call_id!r} answers no call of the closest preceding tool-call message"
        )
    return InvalidMessageError(reason, index=index, field="tool_calls")


def _add_calls(
    calls: Sequence[ToolCall],
    pending: set[str],
    used: set[str],
    rule: ToolIdRule | None,
    *,
    detect: bool,
) -> bool:
    """Add the ids of ``calls`` to ``pending`` (and, detecting, to ``used``); ``False`` when
    one needs a repair first (missing, used before, or not valid under ``rule``)."""
    for call in calls:
        call_id = call.tool_call_id
        if detect:
            # ``used`` holds this message's earlier ids too: a repeat within it counts.
            if (
                call_id is None
                or call_id in used
                or (rule is not None and not rule.is_valid(call_id))
            ):
                return False
            used.add(call_id)
        pending.add(call_id)  # type: ignore[arg-type]  # repaired ids are never None
    return True


def _answer(
    results: ToolCallResultMessage,
    pending: set[str],
    calls: Sequence[ToolCall],
    index: int,
    *,
    detect: bool,
) -> Outcome:
    """Take the ids ``results`` answers out of ``pending``; ``REPAIR`` (detecting) for a result
    without an id, the violation for one that answers no pending call, else ``None``."""
    for call in results.tool_calls:
        if call.result is None:
            continue  # not sent, so it answers nothing
        call_id = call.tool_call_id
        if call_id is None:
            if detect:
                return REPAIR
            call_id = ""
        if call_id in pending:
            pending.discard(call_id)
        else:
            return _bad_result(call_id, calls, index)
    return None


def scan(
    messages: Sequence[Message],
    indices: Sequence[int] | None,
    agent_name: str,
    raw_turn: RawTurnHook,
    *,
    rule: ToolIdRule | None,
    detect: bool,
    start: int = 0,
    state: ScanState = _START,
) -> tuple[Outcome, ScanState | None]:
    """Scan ``messages[start:]``, going on from ``state`` (that of ``messages[:start]``).

    Returns the first pairing violation, ``None``, or (with ``detect``) ``REPAIR`` where a
    change applies before any violation: changes only affect what follows that point, so a
    violation found first stands. With it, the state at the end when the scan went through
    every message of the exact neutral types without stopping (else ``None``); an unanswered
    call at the end is then the outcome, and a later message may still answer it.
    """
    # One pass and no allocation per message: ``pending`` (the ids of the closest call message
    # still waiting for a result) is one set, emptied by the results and refilled by the next
    # call message; the ids of a call message are rebuilt from ``calls`` only to word an error.
    pending = set(state.pending)
    calls = state.calls
    call_index = state.call_index
    used = set(state.used)
    immutable = True
    for position, message in enumerate(messages[start:] if start else messages, start):
        cls = type(message)
        if cls is ToolCallResultMessage:
            kind = RESULT
        elif not pending and cls in PLAIN_TURNS:
            # Outside a call region an assistant turn and a movable one act alike.
            calls = ()
            continue
        else:
            kind = turn_kind(message, agent_name, raw_turn)
            immutable = immutable and cls in _IMMUTABLE
        if kind is ASSISTANT or kind is MOVABLE:
            if pending:
                if detect and kind is MOVABLE:
                    return REPAIR, None
                return _unanswered(call_ids(calls), pending, call_index), None
            calls = ()
            continue
        if kind is OPAQUE:
            continue
        if kind is RESULT:
            assert isinstance(message, ToolCallResultMessage)
            results = message
        else:  # a call, alone or with its results
            if pending:
                return _unanswered(call_ids(calls), pending, call_index), None
            if isinstance(message, ToolCallAggregateMessage):
                calls = message.tool_call_message.tool_calls
            else:
                assert isinstance(message, ToolCallMessage)
                calls = message.tool_calls
            if not _add_calls(calls, pending, used, rule, detect=detect):
                return REPAIR, None
            call_index = position if indices is None else indices[position]
            if kind is CALL:
                continue
            assert isinstance(message, ToolCallAggregateMessage)
            results = message.tool_call_result_message
        index = position if indices is None else indices[position]
        answered = _answer(results, pending, calls, index, detect=detect)
        if answered is not None:
            return answered, None
    outcome = _unanswered(call_ids(calls), pending, call_index) if pending else None
    end = ScanState(frozenset(pending), calls, call_index, frozenset(used)) if immutable else None
    return outcome, end


@dataclass(frozen=True, slots=True)
class _Kept:
    """One conversation scanned to its end without a stop, and how it was scanned."""

    messages: tuple[Message, ...]
    agent_name: str
    rule: ToolIdRule | None
    raw_turn: RawTurnHook
    outcome: Outcome
    state: ScanState
    indices: tuple[int, ...]  # ``range(len(messages))``: sent again with the messages


class _RecentScans:
    """The last ``MAX_RECENT_SCANS`` kept scans, the latest first.

    A module-level object, deliberately: the conversions are pure functions, and the history
    an agent resends (whatever calls the conversion) is what makes a scan worth keeping.
    ``kept`` is only ever replaced by a new tuple (never changed in place), so threads
    converting at once may push out each other's scans but never see a half-made one.
    """

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: tuple[_Kept, ...] = ()

    def find(
        self,
        messages: tuple[Message, ...],
        agent_name: str,
        rule: ToolIdRule | None,
        hook: RawTurnHook,
    ) -> _Kept | None:
        """The latest kept scan of a prefix of ``messages`` (the same objects), same options."""
        for kept in self.kept:
            if (
                len(kept.messages) <= len(messages)
                and kept.raw_turn is hook
                and kept.agent_name == agent_name
                and kept.rule == rule
                and all(map(operator.is_, kept.messages, messages))
            ):
                return kept
        return None

    def keep(self, kept: _Kept, replaced: _Kept | None) -> None:
        """Put ``kept`` first; ``replaced`` (the prefix it grew from) goes."""
        others = tuple(other for other in self.kept if other is not replaced)
        self.kept = (kept, *others[: MAX_RECENT_SCANS - 1])


_RECENT: Final = _RecentScans()


def clear_recent_scans() -> None:
    """Forget the pairing scans kept of recent conversations, and so release their messages.

    ``prepare_conversation`` (every ``to_*`` and connector) keeps the scans of the last
    ``MAX_RECENT_SCANS`` (4) conversations it went through without a stop, by their message
    objects, to scan only what was added when the same history is sent again. Those messages
    (image and document bytes included) stay in memory until newer conversations push them
    out; call this when a finished conversation's data must go at once. Results never depend
    on what is kept.
    """
    _RECENT.kept = ()


def _own_copy(outcome: Outcome) -> Outcome:
    # A violation is handed out to be raised: each caller gets an error of its own, so that no
    # traceback or note one caller attaches is kept, or reaches the next caller.
    if isinstance(outcome, InvalidMessageError):
        assert outcome.index is not None  # a pairing violation names its message
        return outcome.at(outcome.index)
    return outcome


def detect_repairs(
    messages: tuple[Message, ...], agent_name: str, raw_turn: RawTurnHook, rule: ToolIdRule | None
) -> tuple[Outcome, tuple[int, ...]]:
    """The detecting scan of ``messages`` (see ``scan``), from where a kept scan of a prefix
    of them left off, and the indices ``0 .. len(messages) - 1``; a scan that went through
    every message is kept."""
    found = _RECENT.find(messages, agent_name, rule, raw_turn)
    if found is not None and len(found.messages) == len(messages):
        _RECENT.keep(found, found)
        return _own_copy(found.outcome), found.indices
    start, state = (0, _START) if found is None else (len(found.messages), found.state)
    outcome, end = scan(
        messages, None, agent_name, raw_turn, rule=rule, detect=True, start=start, state=state
    )
    indices = tuple(range(len(messages)))
    if end is not None and messages:  # an empty prefix saves nothing
        kept = _Kept(messages, agent_name, rule, raw_turn, _own_copy(outcome), end, indices)
        _RECENT.keep(kept, found)
    return outcome, indices
