"""The repairs of the tool-pairing step: moving interruptions and making ids unique.

Used by ``_pairing`` only when its one-pass scan finds something to repair.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Collection, Sequence
from dataclasses import replace

from llmbridge._messages import (
    Message,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge._names import shorten_identifier
from llmbridge._notes import ConversionNote
from llmbridge._tool_calls import call_ids
from llmbridge._turns import TurnKind, turn_kind

__all__ = ["move_interruptions", "rewrite_ids"]


class _IdRewriter:
    """Makes call ids unique in the request (and at most ``max_length`` long)."""

    def __init__(self, max_length: int | None) -> None:
        self.max_length = max_length
        self.used: set[str] = set()
        # original id -> the suffix its next repeat tries first (0: the id itself)
        self.next_suffix: dict[str, int] = {}
        # old id -> new ids of the current call group, consumed in order by its results
        self.group: dict[str, deque[str]] = {}

    def _fit(self, text: str) -> str:
        return text if self.max_length is None else shorten_identifier(text, self.max_length)

    def _unique(self, original: str) -> str:
        # The first free candidate of original, original_1, original_2, ... Candidates only
        # ever become used, so the search resumes after the last one taken: probing from the
        # start every time made a loop of calls without ids (fallback now_0 every round)
        # quadratic in its rounds, for the same ids.
        suffix = self.next_suffix.get(original, 0)
        candidate = self._fit(original if suffix == 0 else f"{original}_{suffix}")
        while candidate in self.used:
            suffix += 1
            candidate = self._fit(f"{original}_{suffix}")
        self.next_suffix[original] = suffix + 1
        self.used.add(candidate)
        return candidate

    def calls(self, message: ToolCallMessage) -> tuple[ToolCallMessage, list[str]]:
        self.group = {}
        renamed: list[str] = []
        new_calls: list[ToolCall] | None = None
        for position, (call, old) in enumerate(
            zip(message.tool_calls, call_ids(message.tool_calls), strict=True)
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
            zip(message.tool_calls, call_ids(message.tool_calls), strict=True)
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


def rewrite_ids(
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


def move_interruptions(
    messages: Sequence[Message], agent_name: str, envelope_roles: Collection[str] | None = None
) -> tuple[list[Message], list[int], list[ConversionNote]]:
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
        kind = turn_kind(message, agent_name, envelope_roles)
        if kind is TurnKind.MOVABLE and pending:
            deferred.append((message, index))
            continue
        if kind is TurnKind.RESULT and pending:
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
        if kind is not TurnKind.OPAQUE:
            flush()
            pending.clear()
        if kind is TurnKind.CALL:
            assert isinstance(message, ToolCallMessage)
            pending = Counter(call_ids(message.tool_calls))
            call_index = index
        out.append(message)
        out_indices.append(index)
    flush()
    return out, out_indices, notes
