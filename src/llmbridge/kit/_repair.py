"""The repairs of the pairing step: interruptions moved after results, ids assigned.

Used by ``_conversation`` only when its one-pass scan finds something to change.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import replace

from llmbridge._messages import (
    Message,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit._notes import ConversionNote
from llmbridge.kit._tool_calls import call_ids
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import AGGREGATE, CALL, MOVABLE, OPAQUE, RESULT, RawTurnHook, turn_kind

__all__ = ["IdAssigner", "move_interruptions"]


class IdAssigner:
    """Gives every call and result of a request the id to send.

    The id is the call's own, or the position fallback; then the target's ``rule`` maps it;
    with ``unique``, an id already used earlier in the request gets the first free suffix
    ``_{k}`` (remembered per id, so many rounds of one fallback id stay linear). Results get
    the ids of the calls they answer, in order. ``tool_ids`` records the ids the rule changed.
    """

    __slots__ = ("_group", "_next_suffix", "_used", "rule", "tool_ids", "unique")

    def __init__(self, rule: ToolIdRule | None, *, unique: bool) -> None:
        self.rule = rule
        self.unique = unique
        self.tool_ids: dict[str, str] = {}
        self._used: set[str] = set()
        self._next_suffix: dict[str, int] = {}
        # original id -> ids sent for the current call group, consumed in order by its results
        self._group: dict[str, deque[str]] = {}

    def _mapped(self, tool_id: str, given: bool, changes: list[str]) -> str:
        if self.rule is None or self.rule.is_valid(tool_id):
            return tool_id
        mapped = self.rule.map(tool_id)
        if given:
            self.tool_ids[tool_id] = mapped
        changes.append(f"{tool_id!r} -> {mapped!r}")
        return mapped

    def _unique(self, original: str, first: str) -> str:
        candidate, suffix = first, self._next_suffix.get(original, 1)
        if candidate in self._used:
            candidate = self._fit(f"{original}_{suffix}")
            while candidate in self._used:
                suffix += 1
                candidate = self._fit(f"{original}_{suffix}")
            self._next_suffix[original] = suffix + 1
        self._used.add(candidate)
        return candidate

    def _fit(self, tool_id: str) -> str:
        return tool_id if self.rule is None else self.rule.map(tool_id)

    def calls(self, message: ToolCallMessage, notes: list[str]) -> ToolCallMessage:
        self._group = {}
        mapped_changes: list[str] = []
        suffixed: list[str] = []
        new_calls: list[ToolCall] | None = None
        for position, (call, original) in enumerate(
            zip(message.tool_calls, call_ids(message.tool_calls), strict=True)
        ):
            sent = self._mapped(original, call.tool_call_id is not None, mapped_changes)
            if self.unique:
                unique = self._unique(original, sent)
                if unique != sent:
                    suffixed.append(f"{original} -> {unique}")
                sent = unique
            self._group.setdefault(original, deque()).append(sent)
            if sent != call.tool_call_id:
                if new_calls is None:
                    new_calls = list(message.tool_calls)
                new_calls[position] = replace(call, tool_call_id=sent)
        if mapped_changes:
            notes.append(f"tool call ids rewritten for the target: {', '.join(mapped_changes)}")
        if suffixed:
            notes.append(f"tool call ids made unique: {', '.join(suffixed)}")
        return message if new_calls is None else _with_calls(message, new_calls)

    def results(self, message: ToolCallResultMessage, notes: list[str]) -> ToolCallResultMessage:
        mapped_changes: list[str] = []
        new_calls: list[ToolCall] | None = None
        for position, (call, original) in enumerate(
            zip(message.tool_calls, call_ids(message.tool_calls), strict=True)
        ):
            queue = self._group.get(original)
            if queue:
                sent = queue.popleft() if len(queue) > 1 else queue[0]
                if self.rule is not None and not self.rule.is_valid(original):
                    mapped_changes.append(f"{original!r} -> {self.rule.map(original)!r}")
            else:  # answers no call of the group: the check reports it; map it all the same
                sent = self._mapped(original, call.tool_call_id is not None, mapped_changes)
            if sent != call.tool_call_id:
                if new_calls is None:
                    new_calls = list(message.tool_calls)
                new_calls[position] = replace(call, tool_call_id=sent)
        if mapped_changes:
            notes.append(f"tool call ids rewritten for the target: {', '.join(mapped_changes)}")
        if new_calls is None:
            return message
        return ToolCallResultMessage(new_calls, message.from_)

    def assign(
        self,
        messages: Sequence[Message],
        indices: Sequence[int],
        agent_name: str,
        raw_turn: RawTurnHook,
    ) -> tuple[list[Message], list[ConversionNote]]:
        """The messages with their ids assigned, and a ``"repaired"`` note per changed message."""
        out: list[Message] = []
        notes: list[ConversionNote] = []
        for message, index in zip(messages, indices, strict=True):
            kind = turn_kind(message, agent_name, raw_turn)
            details: list[str] = []
            if kind is CALL:
                assert isinstance(message, ToolCallMessage)
                message = self.calls(message, details)
            elif kind is AGGREGATE:
                assert isinstance(message, ToolCallAggregateMessage)
                calls = self.calls(message.tool_call_message, details)
                results = self.results(message.tool_call_result_message, details)
                if (
                    calls is not message.tool_call_message
                    or results is not message.tool_call_result_message
                ):
                    message = ToolCallAggregateMessage(calls, results, message.from_)
            elif kind is RESULT:
                assert isinstance(message, ToolCallResultMessage)
                message = self.results(message, details)
            for detail in details:
                notes.append(ConversionNote(index, "repaired", detail))
            out.append(message)
        return out, notes


def _with_calls(message: ToolCallMessage, calls: list[ToolCall]) -> ToolCallMessage:
    # replace() keeps every other field, provider_data among them (a reply's item ids).
    return replace(message, tool_calls=tuple(calls))


def move_interruptions(
    messages: Sequence[Message], agent_name: str, raw_turn: RawTurnHook
) -> tuple[list[Message], list[int], list[ConversionNote]]:
    """Move turns that interrupt a tool call and its results to after those results.

    Returns the reordered messages, the original index of each, and a ``"repaired"`` note per
    moved message. Turns are moved only when every call of the group gets its results.
    """
    out: list[Message] = []
    out_indices: list[int] = []
    notes: list[ConversionNote] = []
    # A count per id: a call message may repeat an id, and each repeat needs its own result.
    pending: Counter[str] = Counter()
    call_index = 0
    deferred: list[tuple[Message, int]] = []

    def flush() -> None:
        for moved, moved_index in deferred:
            out.append(moved)
            out_indices.append(moved_index)
        deferred.clear()

    for index, message in enumerate(messages):
        kind = turn_kind(message, agent_name, raw_turn)
        if kind is MOVABLE and pending:
            deferred.append((message, index))
            continue
        if kind is RESULT and pending:
            assert isinstance(message, ToolCallResultMessage)
            for call_id, call in zip(call_ids(message.tool_calls), message.tool_calls, strict=True):
                if call.result is not None and pending[call_id] > 0:
                    pending[call_id] -= 1
            pending = +pending  # keep only the ids still waiting for a result
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
        if kind is not OPAQUE:
            flush()
            pending.clear()
        if kind is CALL:
            assert isinstance(message, ToolCallMessage)
            pending = Counter(call_ids(message.tool_calls))
            call_index = index
        out.append(message)
        out_indices.append(index)
    flush()
    return out, out_indices, notes
