"""Neutral tool-call helpers shared by the providers: id fallback, stream accumulation, and the
send-back form of calls cut off at the token limit."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from llmbridge._messages import ToolCall, ToolCallMessage, ToolCallMessageUpdate

__all__ = [
    "CUT_ARGUMENTS_SHOWN",
    "CutOffCalls",
    "ToolCallAccumulator",
    "call_ids",
    "tool_call_id_or_fallback",
]

CUT_ARGUMENTS_SHOWN: Final = 1000
"""At most this many characters of a cut-off call's arguments go with the result answering it."""

_DECODE: Final = json.JSONDecoder().decode  # json.loads minus its per-call argument checks


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

    def add_arguments(
        self, index: int, arguments: str, from_: str | None = None
    ) -> ToolCallMessageUpdate:
        """``add(index, arguments=arguments, from_=from_)`` for a delta with nothing else: the
        many argument fragments of a stream take no keyword parsing and no id or name test."""
        call = self._calls.get(index)
        if call is None:
            call = self._calls[index] = _PendingCall(index)
        if arguments:
            call.fragments.append(arguments)
        return ToolCallMessageUpdate(
            call.name, arguments, from_, index=index, tool_call_id=call.tool_call_id
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


def _is_object(arguments: str) -> bool:
    try:
        value = _DECODE(arguments)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict)


class CutOffCalls:
    """The send-back form of tool calls cut off at the token limit, for one conversion.

    A call of a ``ToolCallMessage`` whose ``finish_reason`` is ``"length"`` and whose arguments
    are not a JSON object (``""`` aside, which means no arguments) is sent with empty arguments
    (``{}``): the APIs refuse, or may refuse, its cut text in history. The text goes with the
    result that answers the call instead, after the result's own text, as ``"[The call was cut
    off; its arguments were: <text>]"`` (at most ``CUT_ARGUMENTS_SHOWN`` characters of it), so
    nothing is lost and the conversation can go on after a ``max_tokens`` stop.
    """

    __slots__ = ("arguments",)

    def __init__(self) -> None:
        # sent call id -> the cut arguments, until the result answering that id is sent
        self.arguments: dict[str, str] = {}

    def take(self, message: ToolCallMessage, call: ToolCall, call_id: str) -> str | None:
        """If ``call`` (of ``message``, sent as ``call_id``) is such a call, remember its text and
        return the detail of its ``"repaired"`` note; else return ``None``."""
        arguments = call.function_arguments
        if message.finish_reason != "length" or arguments == "" or _is_object(arguments):
            return None
        self.arguments[call_id] = arguments
        return (
            f"tool call {call.function_name!r} ({call_id}) was cut off at the token limit: sent "
            "with empty arguments, its cut arguments go with the result that answers it"
        )

    def result(self, call_id: str, text: str) -> str:
        """The result text to send for ``call_id``: ``text``, plus the cut arguments of the call
        it answers (once) when that call was taken."""
        arguments = self.arguments.pop(call_id, None)
        if arguments is None:
            return text
        shown = arguments[:CUT_ARGUMENTS_SHOWN]
        more = len(arguments) - len(shown)
        rest = f" ... ({more} more characters)" if more else ""
        cut = f"[The call was cut off; its arguments were: {shown}{rest}]"
        return f"{text}\n{cut}" if text and not text.isspace() else cut
