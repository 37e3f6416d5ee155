"""One reply's content, gathered block by block: the same for a ``Message`` and a stream.

``from_anthropic`` feeds a ``Message``'s blocks to a ``ReplyContent`` in order, the stream
aggregator the blocks it assembled; both then ``reply()``, so the two paths build the same
neutral message by construction: text joined, thinking as ``Reasoning``, ``tool_use`` as calls,
text-block citations as ``Citation``s over their block's span, server and MCP tool blocks as
``HostedToolCall``s (API.md 19.4, 19.5, 19.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from llmbridge import (
    Citation,
    HostedToolCall,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.anthropic._citations import neutral_citation
from llmbridge.anthropic._hosted import HostedBlocks, reply_block
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, partial_reply

__all__ = ["FINISH_REASONS", "ReplyContent", "drop_blocks", "dumped", "neutral_usage"]

FINISH_REASONS: Final[dict[str, str]] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
    "pause_turn": "pause",
    "refusal": "refusal",
    # The context window filled up: the reply is cut off, as with max_tokens.
    "model_context_window_exceeded": "length",
}
"""Anthropic ``stop_reason`` -> neutral ``finish_reason``; other values pass through raw."""
_FINISH_PAUSE: Final = "pause"


def neutral_usage(
    input_tokens: int | None,
    output_tokens: int,
    cache_read: int | None,
    cache_creation: int | None,
    thinking_tokens: int | None,
) -> Usage:
    """Build ``Usage``: input counts every processed input token, cached ones included."""
    total_input = (input_tokens or 0) + (cache_read or 0) + (cache_creation or 0)
    return Usage(
        total_input,
        output_tokens,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_creation,
        reasoning_tokens=thinking_tokens,
    )


def drop_blocks(recorder: NoteRecorder, blocks: str) -> None:
    """The one lenient/strict decision for content blocks with no neutral form.

    Lenient: a ``"dropped"`` note (the reply's ``raw`` keeps the block); strict:
    ``UnsupportedMessageError``. Replies and streams both use it, so both paths agree.
    """
    recorder.record(
        None,
        "dropped",
        f"{blocks} have no neutral form (the reply's raw keeps them)",
        error=UnsupportedMessageError,
    )


def dumped(model: Any) -> dict[str, Any]:
    """An SDK block or citation as the JSON object the API sent (a dict is copied)."""
    if isinstance(model, Mapping):
        return dict(model)
    # warnings=False: a block type the SDK has no model for is a TextBlock of another type.
    value: dict[str, Any] = model.model_dump(mode="json", warnings=False)
    return value


class ReplyContent:
    """The neutral parts of one reply, gathered in block order (see the module)."""

    __slots__ = ("calls", "citations", "hosted", "length", "reasoning", "texts")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.length = 0  # of the text so far: where the next block's span starts
        self.reasoning: list[Reasoning] = []
        self.calls: list[ToolCall] = []
        self.citations: list[Citation] = []
        self.hosted: HostedBlocks | None = None  # made at the first hosted block: most have none

    def text(self, text: str, citations: Sequence[Any] = ()) -> None:
        """A text block; each of its citations (SDK objects or dicts) covers the whole block."""
        start = self.length
        self.texts.append(text)
        self.length += len(text)
        for citation in citations:
            self.citations.append(neutral_citation(dumped(citation), start, self.length))

    def hosted_block(self, block: Any) -> None:
        """A server or MCP tool block (an SDK object or its dict), at the current text offset."""
        if self.hosted is None:
            self.hosted = HostedBlocks()
        self.hosted.add(reply_block(dumped(block)), self.length)

    def parts(self, *, stop_reason: str | None, usage: Usage | None) -> ReplyParts:
        """The kit's ``ReplyParts``: ``stop_reason`` maps through ``FINISH_REASONS`` (others
        stay raw); a ``refusal`` stop is a refusal whose text is what came before it."""
        text = "".join(self.texts)
        finish = None if stop_reason is None else FINISH_REASONS.get(stop_reason, stop_reason)
        return ReplyParts(
            text=text,
            reasoning=tuple(self.reasoning),
            tool_calls=tuple(self.calls),
            finish_reason=finish,
            usage=usage,
            refusal=text if stop_reason == "refusal" else None,
        )

    def reply(self, parts: ReplyParts, *, agent_name: str, raw: Any) -> Message:
        """The reply: the kit's ``build_reply`` plus citations and hosted tools; a reply of
        hosted tools only that paused (``pause_turn``) is a ``TextMessage`` with ``""``."""
        hosted = () if self.hosted is None else self.hosted.calls()
        if hosted and _paused_without_text(parts):
            message: Message = TextMessage(
                Role.ASSISTANT,
                "",
                agent_name,
                reasoning=parts.reasoning,
                usage=parts.usage,
                finish_reason=parts.finish_reason,
                raw=raw,
            )
        else:
            message = build_reply(parts, agent_name=agent_name, raw=raw)
        return self._with_metadata(message, hosted)

    def partial(self, parts: ReplyParts, *, agent_name: str) -> Message | None:
        """What has arrived so far, unchecked (``None`` when nothing has)."""
        hosted = () if self.hosted is None else self.hosted.calls()
        message = partial_reply(parts, agent_name=agent_name)
        if message is None and hosted:
            message = TextMessage(Role.ASSISTANT, "", agent_name, usage=parts.usage)
        return None if message is None else self._with_metadata(message, hosted)

    def _with_metadata(self, message: Message, hosted: tuple[HostedToolCall, ...]) -> Message:
        if not (self.citations or hosted):
            return message
        if not isinstance(message, TextMessage | ToolCallMessage):
            return message
        return replace(message, citations=tuple(self.citations), hosted_tools=hosted)


def _paused_without_text(parts: ReplyParts) -> bool:
    return (
        parts.finish_reason == _FINISH_PAUSE
        and not parts.text
        and not parts.tool_calls
        and parts.refusal is None
        and not parts.content_filtered
    )
