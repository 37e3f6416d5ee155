"""``prepare_conversation``: the request-level tool-pairing step and tool-id mapping (4.5, 16).

One scan checks the conversation and notices whether anything must change: a turn that
interrupts a tool call and its results, an id used twice in the request, an id the target's
``ToolIdRule`` does not accept, a call without an id. Most conversations need nothing, and the
step runs on every request of an agent loop, so then the messages come back as they are; only
otherwise are the repairs applied (and the result scanned again for the check).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    ImageMessage,
    Message,
    MultiModalMessage,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit._notes import ConversionNote
from llmbridge.kit._repair import IdAssigner, move_interruptions
from llmbridge.kit._tool_calls import call_ids
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import (
    ASSISTANT,
    CALL,
    MOVABLE,
    OPAQUE,
    RESULT,
    RawTurnHook,
    generic_raw_turn,
    turn_kind,
)

__all__ = ["PreparedConversation", "check_tool_pairing", "prepare_conversation"]


class _Scan(enum.Enum):
    REPAIR = "repair"  # something must change before the check can be made


_REPAIR: Final = _Scan.REPAIR
# Types that always become an assistant or a movable turn, never a call or results.
_PLAIN_TURNS: Final = frozenset({TextMessage, ImageMessage, MultiModalMessage})
_NO_IDS: Final[Mapping[str, str]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class PreparedConversation:
    """A conversation ready for one target: ``messages`` carry the ids to send.

    ``indices[i]`` is the original index of ``messages[i]``; ``notes`` are the repairs made;
    ``tool_ids`` (read-only) maps a neutral id to the id sent, for ids the target's rule
    changed; ``violation`` is the pairing error (``None``: the conversation pairs), raised by
    ``raise_violation()`` once the provider has converted the single messages, so that their
    own errors come first.
    """

    messages: tuple[Message, ...]
    indices: tuple[int, ...]
    notes: tuple[ConversionNote, ...] = ()
    tool_ids: Mapping[str, str] = field(default_factory=lambda: _NO_IDS)
    violation: InvalidMessageError | None = None

    def raise_violation(self) -> None:
        """Raise ``InvalidMessageError`` at the first unanswered call or orphan result."""
        violation = self.violation
        if violation is not None:
            raise InvalidMessageError(
                violation.reason, index=violation.index, field=violation.field
            )


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


def _scan(
    messages: Sequence[Message],
    indices: Sequence[int] | None,
    agent_name: str,
    raw_turn: RawTurnHook,
    *,
    rule: ToolIdRule | None,
    detect: bool,
) -> InvalidMessageError | _Scan | None:
    """Return the first pairing violation, ``None``, or (with ``detect``) ``_REPAIR`` where a
    change applies before any violation: changes only affect what follows that point, so a
    violation found first stands."""
    # One pass and no allocation per message: ``pending`` (the ids of the closest call message
    # still waiting for a result) is one set, emptied by the results and refilled by the next
    # call message; the ids of a call message are rebuilt from ``calls`` only to word an error.
    pending: set[str] = set()
    calls: Sequence[ToolCall] = ()
    call_index = 0
    used: set[str] = set()
    for position, message in enumerate(messages):
        cls = type(message)
        if cls is ToolCallResultMessage:
            kind = RESULT
        elif not pending and cls in _PLAIN_TURNS:
            # Outside a call region an assistant turn and a movable one act alike.
            calls = ()
            continue
        else:
            kind = turn_kind(message, agent_name, raw_turn)
        if kind is ASSISTANT or kind is MOVABLE:
            if pending:
                if detect and kind is MOVABLE:
                    return _REPAIR
                return _unanswered(call_ids(calls), pending, call_index)
            calls = ()
            continue
        if kind is OPAQUE:
            continue
        if kind is RESULT:
            assert isinstance(message, ToolCallResultMessage)
            results = message
        else:  # a call, alone or with its results
            if pending:
                return _unanswered(call_ids(calls), pending, call_index)
            if isinstance(message, ToolCallAggregateMessage):
                calls = message.tool_call_message.tool_calls
            else:
                assert isinstance(message, ToolCallMessage)
                calls = message.tool_calls
            for call in calls:
                call_id = call.tool_call_id
                if detect:
                    # ``used`` holds this message's earlier ids too: a repeat within it counts.
                    if (
                        call_id is None
                        or call_id in used
                        or (rule is not None and not rule.is_valid(call_id))
                    ):
                        return _REPAIR
                    used.add(call_id)
                pending.add(call_id)  # type: ignore[arg-type]  # repaired ids are never None
            call_index = position if indices is None else indices[position]
            if kind is CALL:
                continue
            assert isinstance(message, ToolCallAggregateMessage)
            results = message.tool_call_result_message
        for call in results.tool_calls:
            if call.result is None:
                continue  # not sent, so it answers nothing
            call_id = call.tool_call_id
            if call_id is None:
                if detect:
                    return _REPAIR
                call_id = ""
            if call_id in pending:
                pending.discard(call_id)
            else:
                index = position if indices is None else indices[position]
                return _bad_result(call_id, calls, index)
    return _unanswered(call_ids(calls), pending, call_index) if pending else None


def _needs_ids(messages: Sequence[Message], rule: ToolIdRule | None) -> bool:
    """Whether a call or result lacks an id, or has one ``rule`` does not accept."""
    for message in messages:
        if type(message) in _PLAIN_TURNS:
            continue
        calls = _calls_of(message)
        for call in calls:
            call_id = call.tool_call_id
            if call_id is None or (rule is not None and not rule.is_valid(call_id)):
                return True
    return False


def _calls_of(message: Message) -> Sequence[ToolCall]:
    if isinstance(message, ToolCallMessage | ToolCallResultMessage):
        return message.tool_calls
    if isinstance(message, ToolCallAggregateMessage):
        return (
            *message.tool_call_message.tool_calls,
            *message.tool_call_result_message.tool_calls,
        )
    return ()


def prepare_conversation(
    messages: Sequence[Message],
    *,
    agent_name: str,
    check_pairing: bool = True,
    tool_id_rule: ToolIdRule | None = None,
    raw_turn: RawTurnHook | None = None,
) -> PreparedConversation:
    """Run the pairing step and the tool-id mapping for one target; never mutates ``messages``.

    With ``check_pairing``: turns that do not become assistant turns are moved from between a
    tool call and its results to after them; every call and result gets the id to send (its
    own, or the fallback ``f"{function_name}_{i}"``, mapped by ``tool_id_rule``, and an id used
    earlier in the request gets a suffix ``_{k}`` in the call and its results); each change is
    a ``"repaired"`` note. Then every call must be answered by the results that follow it before
    any other assistant turn and the end, and every result must answer a call of the closest
    preceding tool-call message: ``.violation`` holds the first breach. Without
    ``check_pairing`` only the ids are assigned (fallback and rule; no suffix, no check).

    ``raw_turn`` classifies the provider's own raw messages (envelope contents); without it
    the common chat convention applies (``generic_raw_turn``). These repairs never raise.
    """
    hook = raw_turn or generic_raw_turn
    given = tuple(messages)
    if not check_pairing:
        if not _needs_ids(given, tool_id_rule):
            return PreparedConversation(given, tuple(range(len(given))))
        assigner = IdAssigner(tool_id_rule, unique=False)
        assigned, notes = assigner.assign(given, range(len(given)), agent_name, hook)
        return PreparedConversation(
            tuple(assigned),
            tuple(range(len(given))),
            tuple(notes),
            MappingProxyType(assigner.tool_ids) if assigner.tool_ids else _NO_IDS,
        )
    outcome = _scan(given, None, agent_name, hook, rule=tool_id_rule, detect=True)
    if outcome is not _REPAIR:
        return PreparedConversation(given, tuple(range(len(given))), violation=outcome)
    moved, indices, move_notes = move_interruptions(given, agent_name, hook)
    assigner = IdAssigner(tool_id_rule, unique=True)
    assigned, id_notes = assigner.assign(moved, indices, agent_name, hook)
    violation = _scan(assigned, indices, agent_name, hook, rule=None, detect=False)
    assert violation is not _REPAIR  # only a detecting scan asks for repairs
    notes = sorted([*move_notes, *id_notes], key=lambda note: note.index or 0)
    return PreparedConversation(
        tuple(assigned),
        tuple(indices),
        tuple(notes),
        MappingProxyType(assigner.tool_ids) if assigner.tool_ids else _NO_IDS,
        violation,
    )


def check_tool_pairing(messages: Sequence[Message], *, agent_name: str) -> None:
    """Raise ``InvalidMessageError`` exactly when the request-level pairing step would.

    The step tolerates what it repairs (interrupting user turns, repeated ids). It raises for a
    tool call not answered before the next assistant turn or the end, for a result that answers
    no call of the closest preceding tool-call message or a call already answered (the error's
    ``index`` names that message), and for an empty conversation (``index`` is ``None``).
    Returns ``None`` otherwise. Raw provider messages are classified by the common chat
    convention (``generic_raw_turn``).
    """
    if not messages:
        raise InvalidMessageError("the conversation has no message to send")
    prepare_conversation(messages, agent_name=agent_name).raise_violation()
