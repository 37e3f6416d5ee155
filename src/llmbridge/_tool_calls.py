"""Neutral tool-call helpers shared by the providers: id fallback and stream accumulation."""

from __future__ import annotations

from collections.abc import Sequence

from llmbridge._messages import ToolCall, ToolCallMessageUpdate

__all__ = ["ToolCallAccumulator", "call_ids", "tool_call_id_or_fallback"]


def tool_call_id_or_fallback(call: ToolCall, position: int) -> str:
    """Return the call's id, or ``f"{function_name}_{position}"`` when it has none.

    ``position`` is the call's place in its message's original list of calls.
    """
    return call.tool_call_id or f"{call.function_name}_{position}"


def call_ids(calls: Sequence[ToolCall]) -> list[str]:
    """The ids of ``calls``, each with the fallback of ``tool_call_id_or_fallback``."""
    return [tool_call_id_or_fallback(call, position) for position, call in enumerate(calls)]


class _PendingCall:
    __slots__ = ("fragments", "index", "name", "tool_call_id")

    def __init__(self, index: int) -> None:
        self.index = index
        self.tool_call_id: str | None = None
        self.name = ""
        self.fragments: list[str] = []


class ToolCallAccumulator:
    """Joins streamed tool-call deltas into complete calls, keyed by the provider's index only.

    Ids and names may be repeated in every delta or sent once; the first non-empty value wins.
    Interleaved deltas of parallel calls are fine. ``tool_calls()`` returns the calls in index
    order, with arguments joined; a call that got no argument fragment gets ``empty_arguments``
    (Anthropic's non-streaming ``input`` of such a call is ``{}``, hence ``"{}"`` there).
    """

    __slots__ = ("_calls", "_empty_arguments")

    def __init__(self, *, empty_arguments: str = "") -> None:
        self._calls: dict[int, _PendingCall] = {}
        self._empty_arguments = empty_arguments

    def __bool__(self) -> bool:
        return bool(self._calls)

    def add(
        self,
        index: int,
        *,
        tool_call_id: str | None = None,
        function_name: str | None = None,
        arguments: str | None = None,
        from_: str | None = None,
    ) -> ToolCallMessageUpdate:
        """Record one delta of call ``index`` and return it as a ``ToolCallMessageUpdate``."""
        call = self._calls.get(index)
        if call is None:
            call = self._calls[index] = _PendingCall(index)
        if tool_call_id and call.tool_call_id is None:
            call.tool_call_id = tool_call_id
        if function_name and not call.name:
            call.name = function_name
        if arguments:
            call.fragments.append(arguments)
        return ToolCallMessageUpdate(
            call.name, arguments or "", from_, index=index, tool_call_id=call.tool_call_id
        )

    def tool_calls(self) -> list[ToolCall]:
        """The calls assembled so far, in index order."""
        return [
            ToolCall(
                call.name,
                "".join(call.fragments) or self._empty_arguments,
                tool_call_id=call.tool_call_id,
            )
            for call in sorted(self._calls.values(), key=lambda pending: pending.index)
        ]
