"""``prepare_conversation``: the request-level tool-pairing step and tool-id mapping (4.5, 16).

One scan (``_scan``) checks the conversation and notices whether anything must change: a turn
that interrupts a tool call and its results, an id used twice in the request, an id the target's
``ToolIdRule`` does not accept, a call without an id. Most conversations need nothing, and the
step runs on every request of an agent loop, so then the messages come back as they are (and,
with a ``ScanCache``, the scan of a history sent again goes on from where the last one left
off); only otherwise are
the repairs applied (and the result scanned again for the check).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    Message,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit._notes import ConversionNote
from llmbridge.kit._repair import IdAssigner, move_interruptions
from llmbridge.kit._scan import PLAIN_TURNS, REPAIR, scan
from llmbridge.kit._scan_cache import ScanCache, detect_repairs
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import RawTurnHook, generic_raw_turn

__all__ = ["PreparedConversation", "check_tool_pairing", "prepare_conversation"]


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


def _needs_ids(messages: Sequence[Message], rule: ToolIdRule | None) -> bool:
    """Whether a call or result lacks an id, or has one ``rule`` does not accept."""
    for message in messages:
        if type(message) in PLAIN_TURNS:
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
    scans: ScanCache | None = None,
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

    ``scans`` keeps the pairing scan of a conversation that pairs, or needs nothing repaired,
    so that the same messages sent again with more after them are scanned only past what was
    scanned (an agent loop's history); without it the scan starts from the first message.
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
    outcome, in_order = detect_repairs(given, agent_name, hook, tool_id_rule, scans)
    if outcome is not REPAIR:
        return PreparedConversation(given, in_order, violation=outcome)
    moved, indices, move_notes = move_interruptions(given, agent_name, hook)
    assigner = IdAssigner(tool_id_rule, unique=True)
    assigned, id_notes = assigner.assign(moved, indices, agent_name, hook)
    violation, _ = scan(assigned, indices, agent_name, hook, rule=None, detect=False)
    assert violation is not REPAIR  # only a detecting scan asks for repairs
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
