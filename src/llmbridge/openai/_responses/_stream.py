"""OpenAI Responses stream events -> live neutral updates and one final reply.

State is kept apart from I/O: feed ``OpenAIResponsesStreamAggregator.add`` an SDK stream event,
get the updates it carries; ``finish`` builds the complete reply from the terminal event's
response by the same code as ``from_openai_responses``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from openai.types.responses import Response, ResponseStreamEvent

from llmbridge import (
    Citation,
    Message,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessageUpdate,
)
from llmbridge.kit import ReplyParts, ToolCallAccumulator, partial_reply
from llmbridge.openai._errors import RESPONSES_PROVIDER, responses_error
from llmbridge.openai._responses._annotations import Annotated
from llmbridge.openai._responses._hosted import HOSTED_ITEMS, hosted_call
from llmbridge.openai._responses._response import reply_from_items, with_metadata

__all__ = ["OpenAIResponsesStreamAggregator"]

_TEXT_DELTAS: Final = frozenset({"response.output_text.delta"})
_REASONING_DELTAS: Final = frozenset(
    {"response.reasoning_summary_text.delta", "response.reasoning_text.delta"}
)
_PART_EVENTS: Final = frozenset(
    {"response.output_text.delta", "response.output_text.annotation.added"}
)


class OpenAIResponsesStreamAggregator:
    """Turns Responses stream events into neutral updates and, at the end, the complete reply.

    ``add(event)`` returns a ``TextMessageUpdate`` per ``response.output_text.delta``, a
    ``ReasoningMessageUpdate`` per ``response.reasoning_summary_text.delta`` and
    ``response.reasoning_text.delta``, and a ``ToolCallMessageUpdate`` when a function call's
    ``response.output_item.added`` arrives (its name and ``call_id``, no arguments) and per
    ``response.function_call_arguments.delta``. A call's ``index`` counts function-call items
    only (0, 1, ... in output order), whatever their output index; argument deltas of an item
    that was never added (a resumed stream) carry no update, the final reply still has them.
    Unknown event types are ignored. ``response.failed`` and the ``error`` event raise
    ``StreamInterruptedError`` (``.partial`` set; retryable for ``server_error`` and
    ``rate_limit_exceeded``). ``finish()`` returns ``from_openai_responses`` of the terminal
    response (``response.completed`` or ``response.incomplete``): its output items win; when its
    output is empty or null, the ``output_item.done`` items in output order stand in (their
    annotations are the ones the ``response.output_text.annotation.added`` events add up to, so
    the citations and hosted tool calls are the non-streamed reply's either way). It raises
    what ``from_openai_responses`` raises, and ``StreamInterruptedError`` (retryable,
    ``.partial`` set) when the stream ended before a terminal event. ``partial`` is what arrived.
    """

    __slots__ = (
        "_calls",
        "_done",
        "_events",
        "_open",
        "_strict_mode",
        "_terminal",
        "agent_name",
    )

    def __init__(self, agent_name: str, *, strict_mode: bool = False) -> None:
        self.agent_name = agent_name
        self._strict_mode = strict_mode
        # The calls' names, ids and arguments; the text and reasoning deltas are kept only in
        # ``_events``: ``partial`` joins them, so that a delta does little more than build its
        # update.
        self._calls = ToolCallAccumulator()
        # output index of a function-call item -> its neutral index
        self._open: dict[int, int] = {}
        self._done: dict[int, Any] = {}
        self._terminal: Response | None = None
        self._events: list[ResponseStreamEvent] = []

    def add(self, event: ResponseStreamEvent) -> list[Message]:
        """Record one event and return the updates it carries (possibly none).

        Raises ``StreamInterruptedError`` for ``response.failed`` and ``error`` events.
        """
        self._events.append(event)
        # Dispatch on the type tag, not on classes: class patterns over the SDK's pydantic
        # events cost 25% of a stream's aggregation in the Anthropic wing (make bench). The
        # deltas come first: they are nearly every event of a stream.
        match event.type:
            case "response.output_text.delta":
                return [TextMessageUpdate(Role.ASSISTANT, event.delta, self.agent_name)]
            case "response.function_call_arguments.delta":
                return self._arguments(event.output_index, event.delta)
            case "response.reasoning_summary_text.delta" | "response.reasoning_text.delta":
                return [ReasoningMessageUpdate(event.delta, self.agent_name)]
            case "response.output_item.added":
                return self._item_added(event.output_index, event.item)
            case "response.output_item.done":
                if event.item is not None:
                    self._done[event.output_index] = event.item
                return []
            case "response.completed" | "response.incomplete":
                self._terminal = event.response
                return []
            case "response.failed":
                error = event.response.error
                raise responses_error(
                    None if error is None else error.code,
                    None if error is None else error.message,
                    in_stream=True,
                    partial=self.partial,
                )
            case "error":
                raise responses_error(
                    event.code, event.message, in_stream=True, partial=self.partial
                )
            case _:  # lifecycle, part framing, *.done and event types to come
                return []

    def _arguments(self, output_index: int, delta: str) -> list[Message]:
        index = self._open.get(output_index)
        if index is None:
            return []
        return [self._calls.add_arguments(index, delta, self.agent_name)]

    def _item_added(self, output_index: int, item: Any) -> list[Message]:
        # The SDK skips items that are null here ("stream indexes can have gaps").
        if item is None or item.type != "function_call":
            return []
        index = self._open.setdefault(output_index, len(self._open))
        # The accumulator keeps the first name and id given: the deltas carry those.
        update = self._calls.add(
            index,
            tool_call_id=item.call_id,
            function_name=item.name,
            arguments=item.arguments or None,
            from_=self.agent_name,
        )
        return [update]

    @property
    def partial(self) -> Message | None:
        """The reply assembled so far from the deltas, or ``None`` when nothing arrived.

        Its citations come from the ``response.output_text.annotation.added`` events so far,
        its hosted tool calls from the hosted items done so far. Never raises: a refusal seen
        so far does not stop it.
        """
        reasoning = _joined(self._events, _REASONING_DELTAS)
        parts = ReplyParts(
            text=_joined(self._events, _TEXT_DELTAS),
            reasoning=(Reasoning(reasoning, provider=RESPONSES_PROVIDER),) if reasoning else (),
            tool_calls=tuple(self._calls.tool_calls()),
        )
        message = partial_reply(parts, agent_name=self.agent_name, raw=tuple(self._events))
        if message is None:
            return None
        hosted = tuple(
            hosted_call(item if isinstance(item, dict) else item.to_dict(), index)
            for index, item in sorted(self._done.items())
            if isinstance(item.type, str) and item.type in HOSTED_ITEMS
        )
        return with_metadata(message, _streamed_citations(self._events), hosted)

    def finish(self) -> Message:
        """Return the complete reply; ``raw`` is the terminal event's response.

        Raises as ``from_openai_responses`` does for that response, and
        ``StreamInterruptedError`` when no terminal event arrived.
        """
        terminal = self._terminal
        if terminal is None:
            raise StreamInterruptedError(
                "the OpenAI Responses stream ended before its terminal event (the reply is "
                "incomplete)",
                provider=RESPONSES_PROVIDER,
                retryable=True,
                partial=self.partial,
            )
        items = terminal.output or [self._done[index] for index in sorted(self._done)]
        return reply_from_items(
            terminal,
            items,
            agent_name=self.agent_name,
            strict_mode=self._strict_mode,
            source="OpenAIResponsesStreamAggregator",
        )


def _streamed_citations(events: Sequence[ResponseStreamEvent]) -> tuple[Citation, ...]:
    """The citations of the ``response.output_text.annotation.added`` events so far, over the
    text streamed so far (an annotation past it is kept within it)."""
    annotated = Annotated()
    parts: dict[tuple[int, int], tuple[list[Any], list[str]]] = {}  # annotations, deltas
    messages: dict[int, int] = {}  # output index -> the position of its message item
    for event in events:
        if event.type in _PART_EVENTS:
            key = (event.output_index, event.content_index)  # type: ignore[union-attr]
            messages.setdefault(key[0], len(messages))
            annotations, deltas = parts.setdefault(key, ([], []))
            if event.type == "response.output_text.delta":
                deltas.append(event.delta)
            elif event.annotation:  # type: ignore[union-attr]
                annotations.append(event.annotation)  # type: ignore[union-attr]
    for (output_index, _), (annotations, deltas) in parts.items():
        annotated.part(annotations, "".join(deltas), messages[output_index])
    return annotated.citations(len(messages))


def _joined(events: Sequence[ResponseStreamEvent], kinds: frozenset[str]) -> str:
    """The deltas of the events of ``kinds``, joined."""
    # The type tag names a delta event, as in ``add``: each of these has a str ``delta``.
    return "".join(event.delta for event in events if event.type in kinds)  # type: ignore[union-attr,misc]
