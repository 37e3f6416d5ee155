"""Anthropic stream events -> live neutral updates and one final message.

State only, no I/O: feed each ``RawMessageStreamEvent`` to ``add`` and get the updates it
produces; ``finish`` returns the complete message, built from the same ``reply_parts`` by the
kit's ``build_reply`` as ``from_anthropic``, so that it equals the non-streaming result.
"""

from __future__ import annotations

import json
from typing import Any, Final

from anthropic.types import ContentBlock, RawMessageStreamEvent
from anthropic.types import Message as AnthropicMessage

from llmbridge import (
    Message,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessageUpdate,
    ToolCall,
)
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._response import (
    arguments_json,
    drop_blocks,
    neutral_usage,
    reply_parts,
)
from llmbridge.kit import (
    NoteRecorder,
    ReplyParts,
    ToolCallAccumulator,
    build_reply,
    log_notes,
    partial_reply,
)

__all__ = ["AnthropicStreamAggregator"]

_ASSISTANT: Final = Role.ASSISTANT


class _Block:
    """One content block being streamed: its start object, the text or thinking so far, and
    the input fragments of a block that is not a client ``tool_use`` (server or MCP tools)."""

    __slots__ = ("input_json", "parts", "signature", "start")

    def __init__(self, start: ContentBlock | None) -> None:
        self.start = start
        self.parts: list[str] = []
        self.signature = ""
        self.input_json: list[str] = []


def _canonical_arguments(arguments: str) -> tuple[str, dict[str, Any] | None]:
    """Re-serialize complete JSON like ``from_anthropic`` does; keep anything else verbatim."""
    try:
        value = json.loads(arguments)
        if not isinstance(value, dict):
            return arguments, None
        return arguments_json(value), value
    except ValueError:
        return arguments, None  # truncated (e.g. a max_tokens stop): never guess the rest
    except RecursionError:
        return arguments, None  # nested deeper than a recursive parser goes: kept as text


class AnthropicStreamAggregator:
    """Turns one Anthropic event stream into neutral updates and a final message.

    ``add(event)`` returns the updates the event produces, live: ``TextMessageUpdate`` per text
    delta, ``ReasoningMessageUpdate`` per thinking delta, ``ToolCallMessageUpdate`` when a
    ``tool_use`` block starts and per ``input_json_delta`` of that block (``index`` is the
    content-block index). Only ``tool_use`` blocks are calls: the input of ``server_tool_use``
    and ``mcp_tool_use`` blocks (tools the API runs itself) goes into the raw snapshot only, and
    such blocks, like every block with no neutral form, are dropped with a note (strict mode:
    ``UnsupportedMessageError``) exactly as ``from_anthropic`` drops them. Usage from
    ``message_delta`` replaces earlier counts (they are running totals). ``ping`` and unknown
    events are ignored. ``finish()`` returns the final message (see ``from_anthropic``; a tool
    that got no argument delta has ``"{}"``), raising what ``from_anthropic`` raises, or
    ``StreamInterruptedError`` (retryable, ``.partial`` set) when the stream ended before a
    stop reason arrived. ``partial`` is what has arrived so far, or ``None``.
    """

    def __init__(self, agent_name: str, *, strict_mode: bool = False) -> None:
        self.agent_name = agent_name
        self._strict_mode = strict_mode
        self._start: AnthropicMessage | None = None
        self._blocks: dict[int, _Block] = {}
        self._tools = ToolCallAccumulator(empty_arguments="{}")
        self._tool_indices: set[int] = set()
        self._stop: dict[str, Any] = {}
        self._usage: dict[str, Any] = {}

    def add(self, event: RawMessageStreamEvent) -> list[Message]:
        """Apply one event; return the neutral updates it produces (often none)."""
        # Matched on the type tag, not with class patterns: the SDK's events are pydantic models,
        # whose metaclass makes each isinstance check an ABC check (class patterns cost 25% of
        # the whole stream's aggregation in make bench). Nearly every event is a block delta:
        # handled here, without a further call.
        if event.type != "content_block_delta":
            return self._other_event(event)
        index: int = event.index
        delta: Any = event.delta  # its type tag says which fields it has
        kind = delta.type
        state = self._blocks.get(index)
        if state is None:  # a delta without its start: keep what it says anyway
            state = self._blocks[index] = _Block(None)
        # The two kinds nearly every delta is, first: each test is a string comparison.
        if kind == "text_delta":
            text = delta.text
            state.parts.append(text)
            return [TextMessageUpdate(_ASSISTANT, text, self.agent_name)]
        if kind == "input_json_delta":
            fragment = delta.partial_json
            if not fragment:
                return []
            if index in self._tool_indices:
                return [self._tools.add_arguments(index, fragment, self.agent_name)]
            # A server or MCP tool's input: the API runs that tool, so it is no call of ours.
            state.input_json.append(fragment)
        elif kind == "thinking_delta":
            state.parts.append(delta.thinking)
            return [ReasoningMessageUpdate(delta.thinking, self.agent_name)]
        elif kind == "signature_delta":
            state.signature = delta.signature  # replaces, never appends
        return []

    def _other_event(self, event: Any) -> list[Message]:
        match event.type:
            case "content_block_start":
                return self._block_start(event)
            case "message_start":
                return self._message_start(event)
            case "message_delta":
                return self._message_delta(event)
            case _:  # content_block_stop, message_stop, ping, and event types to come
                return []

    # -- event handlers ------------------------------------------------------------------

    def _message_start(self, event: Any) -> list[Message]:
        message: AnthropicMessage = event.message
        self._start = message
        self._usage = {
            name: getattr(message.usage, name)
            for name in _USAGE_FIELDS
            if getattr(message.usage, name) is not None
        }
        return []

    def _block_start(self, event: Any) -> list[Message]:
        index: int = event.index
        block: ContentBlock = event.content_block
        state = self._blocks[index] = _Block(block)
        match block.type:
            case "text" if block.text:
                state.parts.append(block.text)
                return [TextMessageUpdate(_ASSISTANT, block.text, self.agent_name)]
            case "thinking":
                state.signature = block.signature
                if block.thinking:
                    state.parts.append(block.thinking)
                    return [ReasoningMessageUpdate(block.thinking, self.agent_name)]
            case "tool_use":
                self._tool_indices.add(index)
                return [
                    self._tools.add(
                        index,
                        tool_call_id=block.id,
                        function_name=block.name,
                        from_=self.agent_name,
                    )
                ]
        return []

    def _message_delta(self, event: Any) -> list[Message]:
        delta = event.delta
        self._stop = {
            "stop_reason": delta.stop_reason,
            "stop_sequence": delta.stop_sequence,
            "stop_details": delta.stop_details,
        }
        for name in _USAGE_FIELDS:
            value = getattr(event.usage, name, None)
            if value is not None:
                self._usage[name] = value
        return []

    # -- results -------------------------------------------------------------------------

    def _calls(self) -> tuple[list[ToolCall], dict[int, dict[str, Any]]]:
        calls: list[ToolCall] = []
        inputs: dict[int, dict[str, Any]] = {}
        indices = sorted(self._tool_indices)
        for index, call in zip(indices, self._tools.tool_calls(), strict=True):
            arguments, parsed = _canonical_arguments(call.function_arguments)
            inputs[index] = {} if parsed is None else parsed
            calls.append(ToolCall(call.function_name, arguments, tool_call_id=call.tool_call_id))
        return calls, inputs

    def _parts(self, recorder: NoteRecorder) -> tuple[ReplyParts, dict[int, dict[str, Any]]]:
        texts: list[str] = []
        reasoning: list[Reasoning] = []
        for index in sorted(self._blocks):
            if index in self._tool_indices:
                continue
            state = self._blocks[index]
            kind = "text" if state.start is None else state.start.type
            match kind:
                case "text":
                    texts.append("".join(state.parts))
                case "thinking":
                    text = "".join(state.parts)
                    reasoning.append(Reasoning(text, signature=state.signature, provider=PROVIDER))
                case "redacted_thinking":
                    data = getattr(state.start, "data", "")
                    reasoning.append(Reasoning("", redacted_data=data, provider=PROVIDER))
                case _:
                    drop_blocks(recorder, f"{kind} blocks")
        calls, inputs = self._calls()
        usage = None
        if "output_tokens" in self._usage:
            u = self._usage
            usage = neutral_usage(
                u.get("input_tokens"),
                u["output_tokens"],
                u.get("cache_read_input_tokens"),
                u.get("cache_creation_input_tokens"),
                getattr(u.get("output_tokens_details"), "thinking_tokens", None),
            )
        stop_reason = self._stop.get("stop_reason")
        parts = reply_parts(
            text="".join(texts),
            reasoning=reasoning,
            tool_calls=calls,
            stop_reason=stop_reason,
            usage=usage,
        )
        return parts, inputs

    @property
    def partial(self) -> Message | None:
        """What has arrived so far as a neutral message (unchecked), or ``None``."""
        parts, _ = self._parts(NoteRecorder(strict_mode=False))
        return partial_reply(parts, agent_name=self.agent_name)

    def _snapshot(self, inputs: dict[int, dict[str, Any]]) -> AnthropicMessage | None:
        """The streamed message as an SDK ``Message`` (the final reply's ``raw``)."""
        if self._start is None:
            return None
        content = []
        for index in sorted(self._blocks):
            state = self._blocks[index]
            start = state.start
            if start is None:
                continue
            update: dict[str, Any] = {}
            if start.type == "text":
                update = {"text": "".join(state.parts)}
            elif start.type == "thinking":
                update = {"thinking": "".join(state.parts), "signature": state.signature}
            elif start.type == "tool_use":
                update = {"input": inputs.get(index, {})}
            elif state.input_json:
                _, parsed = _canonical_arguments("".join(state.input_json))
                if parsed is not None:
                    update = {"input": parsed}
            content.append(start.model_copy(update=update))
        usage = self._start.usage.model_copy(update=self._usage)
        return self._start.model_copy(update={"content": content, "usage": usage, **self._stop})

    def finish(self) -> Message:
        """Return the complete message; raise if the stream ended early (see the class)."""
        if self._start is None or self._stop.get("stop_reason") is None:
            raise StreamInterruptedError(
                "the Anthropic stream ended before the message was complete (no stop reason)",
                provider=PROVIDER,
                retryable=True,
                partial=self.partial,
            )
        recorder = NoteRecorder(strict_mode=self._strict_mode)
        parts, inputs = self._parts(recorder)
        log_notes(recorder.notes, source="AnthropicStreamAggregator")
        return build_reply(parts, agent_name=self.agent_name, raw=self._snapshot(inputs))


_USAGE_FIELDS: Final = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
    "output_tokens_details",
)
