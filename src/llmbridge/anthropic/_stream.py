"""Anthropic stream events -> live neutral updates and one final message.

State only, no I/O: feed each ``RawMessageStreamEvent`` to ``add`` and get the updates it
produces; ``finish`` returns the complete message, built by the same ``_content.ReplyContent``
from the blocks in the same order as ``from_anthropic``, so that it equals the non-streaming
result (citations and hosted tools included).
"""

from __future__ import annotations

import json
from typing import Any, Final

from anthropic.types import ContentBlock, RawMessageStreamEvent
from anthropic.types import Message as AnthropicMessage

from llmbridge import (
    InvalidMessageError,
    Message,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessageUpdate,
    ToolCall,
)
from llmbridge.anthropic._arguments import arguments_json
from llmbridge.anthropic._content import ReplyContent, drop_blocks, dumped, neutral_usage
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._hosted import HOSTED_TYPES, USE_TYPES
from llmbridge.anthropic._response import unreadable
from llmbridge.kit import NoteRecorder, ReplyParts, ToolCallAccumulator, log_notes

__all__ = ["AnthropicStreamAggregator"]

_ASSISTANT: Final = Role.ASSISTANT


class _Block:
    """One content block being streamed: its start object, the text or thinking so far, the
    citations of a text block, and the input fragments of a block that is not a client
    ``tool_use`` (server or MCP tools)."""

    __slots__ = ("citations", "input_json", "parts", "signature", "start")

    def __init__(self, start: ContentBlock | None) -> None:
        self.start = start
        self.parts: list[str] = []
        self.signature = ""
        self.input_json: list[str] = []
        self.citations: list[Any] = []


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


def _hosted_block(state: _Block) -> dict[str, Any]:
    """A streamed server or MCP tool block as the reply holds it: a use block's ``input`` is
    its ``input_json_delta`` fragments parsed (the start carries ``{}``)."""
    block = dumped(state.start)
    if block.get("type") in USE_TYPES and state.input_json:
        _, parsed = _canonical_arguments("".join(state.input_json))
        if parsed is not None:
            block["input"] = parsed
    return block


class AnthropicStreamAggregator:
    """Turns one Anthropic event stream into neutral updates and a final message.

    ``add(event)`` returns the updates the event produces, live: ``TextMessageUpdate`` per text
    delta, ``ReasoningMessageUpdate`` per thinking delta, ``ToolCallMessageUpdate`` when a
    ``tool_use`` block starts and per ``input_json_delta`` of that block (``index`` is the
    content-block index). Only ``tool_use`` blocks are calls: the input of ``server_tool_use``
    and ``mcp_tool_use`` blocks (tools the API runs itself) makes no update; those blocks and
    their result blocks end as the final message's ``hosted_tools``, and ``citations_delta``
    events as its ``citations``, exactly as ``from_anthropic`` reads them; blocks with no neutral
    form are dropped with a note (strict mode: ``UnsupportedMessageError``), as there. Usage from
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
        elif kind == "citations_delta":
            state.citations.append(delta.citation)
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
            case "text":
                state.citations.extend(block.citations or ())
                if block.text:
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

    def _content(self, recorder: NoteRecorder) -> tuple[ReplyContent, dict[int, Any]]:
        """The blocks so far, in order, fed to ``ReplyContent`` as ``from_anthropic`` feeds a
        ``Message``'s; and the parsed input of each ``tool_use`` block, by index."""
        content = ReplyContent()
        calls, inputs = self._calls()
        content.calls.extend(calls)
        for index in sorted(self._blocks):
            if index in self._tool_indices:
                continue
            state = self._blocks[index]
            kind = "text" if state.start is None else state.start.type
            if kind in HOSTED_TYPES:
                content.hosted_block(_hosted_block(state))
                continue
            match kind:
                case "text":
                    content.text("".join(state.parts), state.citations)
                case "thinking":
                    text = "".join(state.parts)
                    content.reasoning.append(
                        Reasoning(text, signature=state.signature, provider=PROVIDER)
                    )
                case "redacted_thinking":
                    data = getattr(state.start, "data", "")
                    content.reasoning.append(Reasoning("", redacted_data=data, provider=PROVIDER))
                case _:
                    drop_blocks(recorder, f"{kind} blocks")
        return content, inputs

    def _parts(self, content: ReplyContent) -> ReplyParts:
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
        return content.parts(stop_reason=self._stop.get("stop_reason"), usage=usage)

    @property
    def partial(self) -> Message | None:
        """What has arrived so far as a neutral message (unchecked), or ``None``."""
        content, _ = self._content(NoteRecorder(strict_mode=False))
        return content.partial(self._parts(content), agent_name=self.agent_name)

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
                update = {"text": "".join(state.parts), "citations": state.citations or None}
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
        content, inputs = self._content(recorder)
        log_notes(recorder.notes, source="AnthropicStreamAggregator")
        raw = self._snapshot(inputs)
        try:
            return content.reply(self._parts(content), agent_name=self.agent_name, raw=raw)
        except InvalidMessageError as error:
            raise unreadable(raw, error) from None


_USAGE_FIELDS: Final = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
    "output_tokens_details",
)
