"""The request-level tool-pairing step: repair what is safe, then check every call is answered.

Both providers run it on the neutral conversation before converting it. The repairs never
raise: a message that does not become an assistant turn is moved from between a tool call and
its results to after them, and tool-call ids are made unique in the request (and, for
providers that need it, short). The check then finds the first unanswered call or orphan
result, which ``validate_tool_pairing`` raises as ``InvalidMessageError``.

Most conversations need no repair, and the step sits on every request of an agent loop: one
scan both checks the conversation and notices whether a repair applies, and only then are the
repairs run (and the repaired conversation scanned again).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final, Literal, cast, overload

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    ImageMessage,
    Message,
    MultiModalMessage,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallResultMessage,
)
from llmbridge._notes import ConversionNote
from llmbridge._pairing_repair import move_interruptions, rewrite_ids
from llmbridge._tool_calls import call_ids, tool_call_id_or_fallback
from llmbridge._turns import ASSISTANT, CALL, MOVABLE, OPAQUE, RESULT, turn_kind

__all__ = [
    "RepairedConversation",
    "check_tool_pairing",
    "repair_tool_pairing",
    "validate_tool_pairing",
]


@dataclass(frozen=True, slots=True)
class RepairedConversation:
    """The repaired conversation: ``indices[i]`` is the original index of ``messages[i]``.

    ``violation`` is the pairing error of the repaired conversation (``None`` when it pairs),
    raised by ``validate_tool_pairing`` once the messages themselves have been converted.
    """

    messages: tuple[Message, ...]
    indices: tuple[int, ...]
    notes: tuple[ConversionNote, ...]
    violation: InvalidMessageError | None


class _Scan(enum.Enum):
    """What the scan finds besides a violation."""

    # A repair applies. A plain result, not an exception: a raised instance would carry (and
    # keep alive) the frames, and so the conversations, of every scan that raised it.
    NEEDS_REPAIR = "needs repair"


_NEEDS_REPAIR: Final = _Scan.NEEDS_REPAIR
# Types that always become an assistant or a movable turn, never a call or results.
_PLAIN_TURNS: Final = frozenset({TextMessage, ImageMessage, MultiModalMessage})
_NO_GROUP: Final[set[str]] = set()  # never mutated: results after a plain turn answer nothing


def _unanswered(ids: list[str], pending: set[str], index: int) -> InvalidMessageError:
    call_id = next(call_id for call_id in ids if call_id in pending)
    return InvalidMessageError(
        f"tool call {call_id!r} is not answered by a tool result before the next assistant "
        "turn or the end of the conversation",
        index=index,
        field="tool_calls",
    )


def _bad_result(call_id: str, answered: bool, index: int) -> InvalidMessageError:
    if answered:
        # Providers reject a second result for one call (OpenAI: "Duplicate value for
        # 'tool_call_id'"), so the check must not pass it.
        reason = f"tool result {call_id!r} answers a call that already has a result"
    else:
        reason = (
            f"tool result {call_id!r} answers no call of the closest preceding tool-call message"
        )
    return InvalidMessageError(reason, index=index, field="tool_calls")


@overload
def _scan(
    messages: Sequence[Message],
    indices: Sequence[int] | None,
    agent_name: str,
    *,
    repairs: Literal[False],
    max_id_length: int | None = None,
    envelope_roles: Collection[str] | None = None,
) -> InvalidMessageError | None: ...
@overload
def _scan(
    messages: Sequence[Message],
    indices: Sequence[int] | None,
    agent_name: str,
    *,
    repairs: Literal[True],
    max_id_length: int | None = None,
    envelope_roles: Collection[str] | None = None,
) -> InvalidMessageError | _Scan | None: ...
def _scan(
    messages: Sequence[Message],
    indices: Sequence[int] | None,
    agent_name: str,
    *,
    repairs: bool,
    max_id_length: int | None = None,
    envelope_roles: Collection[str] | None = None,
) -> InvalidMessageError | _Scan | None:
    """Return the first pairing violation, or ``None``.

    With ``repairs``, return ``_NEEDS_REPAIR`` where a repair would apply before any violation:
    repairs only change what follows that point, so a violation found first stands.
    """
    # This runs on every request: one pass, no per-message allocation beyond a set per call
    # message; the ordered ids of a call are rebuilt only to word an error.
    pending: set[str] = set()
    group: set[str] = set()
    calls: Sequence[ToolCall] = ()
    call_index = 0
    used: set[str] = set()
    for position, message in enumerate(messages):
        if not pending and type(message) in _PLAIN_TURNS:
            # Outside a call region an assistant turn and a movable one act alike: skip the
            # classification for the most common messages.
            group = _NO_GROUP
            continue
        kind = turn_kind(message, agent_name, envelope_roles)
        if kind is ASSISTANT or kind is MOVABLE:
            if pending:
                if repairs and kind is MOVABLE:
                    return _NEEDS_REPAIR
                return _unanswered(call_ids(calls), pending, call_index)
            group = _NO_GROUP
            continue
        if kind is OPAQUE:
            continue
        if kind is RESULT:
            results = cast(ToolCallResultMessage, message)
        else:  # a call, alone or with its results
            if pending:
                return _unanswered(call_ids(calls), pending, call_index)
            calls = message.get_tool_calls() or ()
            group = set()
            for call_position, call in enumerate(calls):
                call_id = call.tool_call_id or tool_call_id_or_fallback(call, call_position)
                if repairs and (
                    call_id in used
                    or call_id in group
                    or (max_id_length is not None and len(call_id) > max_id_length)
                ):
                    return _NEEDS_REPAIR
                group.add(call_id)
            if repairs:
                used |= group
            pending = set(group)
            call_index = position if indices is None else indices[position]
            if kind is CALL:
                continue
            results = cast(ToolCallAggregateMessage, message).tool_call_result_message
        for result_position, call in enumerate(results.tool_calls):
            if call.result is None:
                continue  # not sent, so it answers nothing
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, result_position)
            if call_id in pending:
                pending.discard(call_id)
            else:
                index = position if indices is None else indices[position]
                return _bad_result(call_id, call_id in group, index)
    return _unanswered(call_ids(calls), pending, call_index) if pending else None


def repair_tool_pairing(
    messages: Sequence[Message],
    *,
    agent_name: str,
    max_id_length: int | None = None,
    envelope_roles: Collection[str] | None = None,
) -> RepairedConversation:
    """Apply the safe repairs of the pairing step; never raises, never mutates ``messages``.

    Messages that do not become assistant turns are moved from between a tool call and its
    results to after them; ids (after the ``f"{name}_{i}"`` fallback) that repeat an earlier
    id of the request get a suffix ``_{k}`` in the call and its results, and ids longer than
    ``max_id_length`` are shortened with a hash suffix. Each change is a ``"repaired"`` note.
    Raw provider messages whose role is not in ``envelope_roles`` (the target drops them) are
    left alone (``None``: every role is the target's). The result's ``violation`` is what
    ``validate_tool_pairing`` will raise.
    """
    roles = envelope_roles
    found = _scan(
        messages, None, agent_name, repairs=True, max_id_length=max_id_length, envelope_roles=roles
    )
    if found is not _NEEDS_REPAIR:
        return RepairedConversation(tuple(messages), tuple(range(len(messages))), (), found)
    moved, indices, move_notes = move_interruptions(messages, agent_name, roles)
    rewritten, id_notes = rewrite_ids(moved, indices, agent_name, max_id_length)
    notes = sorted([*move_notes, *id_notes], key=lambda note: note.index or 0)
    violation = _scan(rewritten, indices, agent_name, repairs=False, envelope_roles=roles)
    return RepairedConversation(tuple(rewritten), tuple(indices), tuple(notes), violation)


def validate_tool_pairing(repaired: RepairedConversation) -> None:
    """Raise ``InvalidMessageError`` at the first unanswered tool call or orphan result.

    Indices in the error are those of the original conversation.
    """
    if repaired.violation is not None:
        violation = repaired.violation
        raise InvalidMessageError(violation.reason, index=violation.index, field=violation.field)


def check_tool_pairing(messages: Sequence[Message], *, agent_name: str) -> None:
    """Raise ``InvalidMessageError`` exactly when the request-level pairing step would.

    The step tolerates what it repairs (interrupting user turns, repeated ids). It raises for a
    tool call not answered before the next assistant turn or the end, for a result that answers
    no call of the closest preceding tool-call message or a call already answered (the error's
    ``index`` names that message), and for an empty conversation (``index`` is ``None``).
    Returns ``None`` otherwise.
    """
    if not messages:
        raise InvalidMessageError("the conversation has no message to send")
    validate_tool_pairing(repair_tool_pairing(messages, agent_name=agent_name))
