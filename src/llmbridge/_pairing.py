"""The request-level tool-pairing step: repair what is safe, then check every call is answered.

Both providers run it on the neutral conversation before converting it. The repairs never
raise: a message that does not become an assistant turn is moved from between a tool call and
its results to after them, and tool-call ids are made unique in the request (and, for
providers that need it, short). The check then raises ``InvalidMessageError`` at the first
unanswered call or orphan result.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    ImageMessage,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge._names import shorten_identifier
from llmbridge._notes import ConversionNote
from llmbridge._tool_calls import tool_call_id_or_fallback

__all__ = [
    "RepairedConversation",
    "TurnKind",
    "check_tool_pairing",
    "repair_tool_pairing",
    "turn_kind",
    "validate_tool_pairing",
]


class TurnKind(enum.Enum):
    """How a neutral message takes part in tool pairing."""

    CALL = "call"  # becomes an assistant turn with tool calls
    AGGREGATE = "aggregate"  # a call and its results in one message
    RESULT = "result"  # becomes tool results
    ASSISTANT = "assistant"  # becomes an assistant turn without tool calls
    MOVABLE = "movable"  # any other turn: may be moved after the results it interrupts
    OPAQUE = "opaque"  # raw envelopes and types the conversion drops or rejects: left alone


def _is_self(from_: str | None, agent_name: str) -> bool:
    return from_ is None or from_ == agent_name


def turn_kind(message: Message, agent_name: str) -> TurnKind:
    """Classify ``message`` as the pairing step sees it, for the agent named ``agent_name``."""
    match message:
        case ToolCallMessage(from_=from_) if _is_self(from_, agent_name):
            return TurnKind.CALL
        case ToolCallAggregateMessage(from_=from_) if _is_self(from_, agent_name):
            return TurnKind.AGGREGATE
        case ToolCallResultMessage():
            return TurnKind.RESULT
        case TextMessage(role=role, from_=from_) if role != Role.SYSTEM and (
            from_ == agent_name or (from_ is None and role == Role.ASSISTANT)
        ):
            return TurnKind.ASSISTANT
        case TextMessage() | ImageMessage() | MultiModalMessage() | ToolCallAggregateMessage():
            return TurnKind.MOVABLE
        case _:
            return TurnKind.OPAQUE


@dataclass(frozen=True, slots=True)
class RepairedConversation:
    """The repaired conversation: ``indices[i]`` is the original index of ``messages[i]``."""

    messages: tuple[Message, ...]
    indices: tuple[int, ...]
    notes: tuple[ConversionNote, ...]


def _call_ids(calls: Sequence[ToolCall]) -> list[str]:
    return [tool_call_id_or_fallback(call, position) for position, call in enumerate(calls)]


class _IdRewriter:
    """Makes call ids unique in the request (and at most ``max_length`` long)."""

    def __init__(self, max_length: int | None) -> None:
        self.max_length = max_length
        self.used: set[str] = set()
        # old id -> new ids of the current call group, consumed in order by its results
        self.group: dict[str, deque[str]] = {}

    def _fit(self, text: str) -> str:
        return text if self.max_length is None else shorten_identifier(text, self.max_length)

    def _unique(self, original: str) -> str:
        candidate = self._fit(original)
        suffix = 1
        while candidate in self.used:
            candidate = self._fit(f"{original}_{suffix}")
            suffix += 1
        self.used.add(candidate)
        return candidate

    def calls(self, message: ToolCallMessage) -> tuple[ToolCallMessage, list[str]]:
        self.group = {}
        renamed: list[str] = []
        new_calls: list[ToolCall] | None = None
        for position, (call, old) in enumerate(
            zip(message.tool_calls, _call_ids(message.tool_calls), strict=True)
        ):
            new = self._unique(old)
            self.group.setdefault(old, deque()).append(new)
            if new != old:
                renamed.append(f"{old} -> {new}")
                if new_calls is None:
                    new_calls = list(message.tool_calls)
                new_calls[position] = replace(call, tool_call_id=new)
        if new_calls is None:
            return message, renamed
        return _with_calls(message, new_calls), renamed

    def results(self, message: ToolCallResultMessage) -> ToolCallResultMessage:
        new_calls: list[ToolCall] | None = None
        for position, (call, old) in enumerate(
            zip(message.tool_calls, _call_ids(message.tool_calls), strict=True)
        ):
            queue = self.group.get(old)
            if not queue:
                continue
            new = queue.popleft() if len(queue) > 1 else queue[0]
            if new != old:
                if new_calls is None:
                    new_calls = list(message.tool_calls)
                new_calls[position] = replace(call, tool_call_id=new)
        if new_calls is None:
            return message
        return ToolCallResultMessage(new_calls, message.from_)


def _with_calls(message: ToolCallMessage, calls: list[ToolCall]) -> ToolCallMessage:
    return ToolCallMessage(
        calls,
        message.from_,
        content=message.content,
        reasoning=message.reasoning,
        usage=message.usage,
        finish_reason=message.finish_reason,
        raw=message.raw,
    )


def _rewrite_ids(
    messages: Sequence[Message], indices: Sequence[int], agent_name: str, max_id_length: int | None
) -> tuple[list[Message], list[ConversionNote]]:
    rewriter = _IdRewriter(max_id_length)
    out: list[Message] = []
    notes: list[ConversionNote] = []
    for message, index in zip(messages, indices, strict=True):
        kind = turn_kind(message, agent_name)
        renamed: list[str] = []
        if kind is TurnKind.CALL:
            assert isinstance(message, ToolCallMessage)
            message, renamed = rewriter.calls(message)
        elif kind is TurnKind.AGGREGATE:
            assert isinstance(message, ToolCallAggregateMessage)
            calls, renamed = rewriter.calls(message.tool_call_message)
            results = rewriter.results(message.tool_call_result_message)
            if renamed:
                message = ToolCallAggregateMessage(calls, results, message.from_)
        elif kind is TurnKind.RESULT:
            assert isinstance(message, ToolCallResultMessage)
            message = rewriter.results(message)
        if renamed:
            notes.append(
                ConversionNote(
                    index, "repaired", f"tool call ids made unique: {', '.join(renamed)}"
                )
            )
        out.append(message)
    return out, notes


def _move_interruptions(
    messages: Sequence[Message], agent_name: str
) -> tuple[list[Message], list[int], list[ConversionNote]]:
    out: list[Message] = []
    out_indices: list[int] = []
    notes: list[ConversionNote] = []
    pending: set[str] = set()
    call_index = 0
    deferred: list[tuple[Message, int]] = []

    def flush() -> None:
        for moved, moved_index in deferred:
            out.append(moved)
            out_indices.append(moved_index)
        deferred.clear()

    for index, message in enumerate(messages):
        kind = turn_kind(message, agent_name)
        if kind is TurnKind.MOVABLE and pending:
            deferred.append((message, index))
            continue
        if kind is TurnKind.RESULT and pending:
            assert isinstance(message, ToolCallResultMessage)
            pending.difference_update(
                call_id
                for call_id, call in zip(
                    _call_ids(message.tool_calls), message.tool_calls, strict=True
                )
                if call.result is not None
            )
            out.append(message)
            out_indices.append(index)
            if not pending:
                for _, moved_index in deferred:
                    notes.append(
                        ConversionNote(
                            moved_index,
                            "repaired",
                            f"moved after the results of the tool calls of message {call_index}",
                        )
                    )
                flush()
            continue
        if kind is not TurnKind.OPAQUE:
            flush()
            pending.clear()
        if kind is TurnKind.CALL:
            assert isinstance(message, ToolCallMessage)
            pending = set(_call_ids(message.tool_calls))
            call_index = index
        out.append(message)
        out_indices.append(index)
    flush()
    return out, out_indices, notes


def repair_tool_pairing(
    messages: Sequence[Message], *, agent_name: str, max_id_length: int | None = None
) -> RepairedConversation:
    """Apply the safe repairs of the pairing step; never raises, never mutates ``messages``.

    Messages that do not become assistant turns are moved from between a tool call and its
    results to after them; ids (after the ``f"{name}_{i}"`` fallback) that repeat an earlier
    id of the request get a suffix ``_{k}`` in the call and its results, and ids longer than
    ``max_id_length`` are shortened with a hash suffix. Each change is a ``"repaired"`` note.
    """
    moved, indices, move_notes = _move_interruptions(messages, agent_name)
    rewritten, id_notes = _rewrite_ids(moved, indices, agent_name, max_id_length)
    notes = sorted([*move_notes, *id_notes], key=lambda note: note.index or 0)
    return RepairedConversation(tuple(rewritten), tuple(indices), tuple(notes))


def validate_tool_pairing(repaired: RepairedConversation, *, agent_name: str) -> None:
    """Raise ``InvalidMessageError`` at the first unanswered tool call or orphan result.

    Indices in the error are those of the original conversation.
    """
    pending: dict[str, int] = {}
    group: set[str] = set()

    def unanswered() -> InvalidMessageError:
        call_id, index = next(iter(pending.items()))
        return InvalidMessageError(
            f"tool call {call_id!r} is not answered by a tool result before the next assistant "
            "turn or the end of the conversation",
            index=index,
            field="tool_calls",
        )

    for message, index in zip(repaired.messages, repaired.indices, strict=True):
        kind = turn_kind(message, agent_name)
        if kind is TurnKind.OPAQUE:
            continue
        if kind in (TurnKind.CALL, TurnKind.AGGREGATE):
            if pending:
                raise unanswered()
            calls = message.get_tool_calls() or []
            group = set(_call_ids(calls))
            pending = dict.fromkeys(_call_ids(calls), index)
        if kind in (TurnKind.RESULT, TurnKind.AGGREGATE):
            results = (
                message.tool_call_result_message
                if isinstance(message, ToolCallAggregateMessage)
                else message
            )
            assert isinstance(results, ToolCallResultMessage)
            for call_id, call in zip(
                _call_ids(results.tool_calls), results.tool_calls, strict=True
            ):
                if call.result is None:
                    continue
                if call_id not in group:
                    raise InvalidMessageError(
                        f"tool result {call_id!r} answers no call of the closest preceding "
                        "tool-call message",
                        index=index,
                        field="tool_calls",
                    )
                if call_id not in pending:
                    # Providers reject a second result for one call (OpenAI: "Duplicate value
                    # for 'tool_call_id'"), so the check must not pass it.
                    raise InvalidMessageError(
                        f"tool result {call_id!r} answers a call that already has a result",
                        index=index,
                        field="tool_calls",
                    )
                del pending[call_id]
        elif kind in (TurnKind.ASSISTANT, TurnKind.MOVABLE):
            if pending:
                raise unanswered()
            group = set()
    if pending:
        raise unanswered()


def check_tool_pairing(messages: Sequence[Message], *, agent_name: str) -> None:
    """Raise ``InvalidMessageError`` exactly when the request-level pairing step would.

    The step tolerates what it repairs (interrupting user turns, repeated ids). It raises for a
    tool call not answered before the next assistant turn or the end, a result that answers no
    call of the closest preceding tool-call message or a call already answered (the error's
    ``index`` names that message),
    and for an empty conversation (``index`` is ``None``). Returns ``None`` otherwise.
    """
    if not messages:
        raise InvalidMessageError("the conversation has no message to send")
    validate_tool_pairing(
        repair_tool_pairing(messages, agent_name=agent_name), agent_name=agent_name
    )
