"""The pairing scan of ``prepare_conversation``: one pass, resumable from a ``ScanState``.

A scan that went through every message of the exact neutral types without stopping returns the
state it ended in, so a caller that keeps it (``ScanCache``) can go on from there when the same
messages are sent again with more after them.
"""

from __future__ import annotations

import enum
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
    "IMMUTABLE",
    "PLAIN_TURNS",
    "REPAIR",
    "START",
    "Outcome",
    "ScanState",
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
IMMUTABLE: Final = frozenset(
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


START: Final = ScanState()


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
    state: ScanState = START,
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
            immutable = immutable and cls in IMMUTABLE
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
