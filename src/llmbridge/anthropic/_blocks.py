"""The blocks every handler of ``_convert.Converter`` builds from: text, thinking, media, the
parts of a tool result, the sender name policy, tool names; and the state of one conversion.

``BlockBuilder`` holds that state (the sink, the recorder, the limits, the cut-off calls, the
names already checked); ``Converter`` adds one handler per message type.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MultiModalMessage,
    Reasoning,
    TextMessage,
)
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._media import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES, media_block
from llmbridge.anthropic._merge import Block, Sink
from llmbridge.kit import (
    CutOffCalls,
    MediaPart,
    NoteRecorder,
    ToolResultPart,
    apply_name_policy,
    check_text,
    sanitize_identifier,
)

__all__ = ["MAX_TOOL_NAME_LENGTH", "BlockBuilder"]

MAX_TOOL_NAME_LENGTH: Final = 128
_TOOL_NAME_PATTERN: Final = re.compile(r"[a-zA-Z0-9_-]{1,128}")


class BlockBuilder:
    """The state of one conversion and the blocks its handlers share (see the module)."""

    __slots__ = (
        "agent_name",
        "cut",
        "max_document_bytes",
        "max_image_bytes",
        "name_policy",
        "recorder",
        "sink",
        "valid_names",
    )

    def __init__(
        self,
        agent_name: str,
        recorder: NoteRecorder,
        name_policy: str,
        sink: Sink,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
        max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    ) -> None:
        self.agent_name = agent_name
        self.recorder = recorder
        self.name_policy = name_policy
        self.sink = sink
        self.max_image_bytes = max_image_bytes
        self.max_document_bytes = max_document_bytes
        self.cut = CutOffCalls()
        # Function names that match the pattern: most calls repeat a few names, tested once.
        self.valid_names: set[str] = set()

    def _sender(self, blocks: list[Block], name: str, index: int) -> list[Block]:
        """Apply the name policy to the blocks of another agent's message."""
        prefix = apply_name_policy(
            name, self.name_policy, recorder=self.recorder, index=index, target="Anthropic"
        )
        return blocks if prefix is None else [{"type": "text", "text": prefix}, *blocks]

    def _text_block(self, text: str, index: int, field: str) -> Block | None:
        # The ASCII test inline, as at every hot check_text site: a call per text made
        # to_anthropic 9% slower (benchmark conversation); a lone surrogate is never ASCII.
        if not text.isascii():
            check_text(text, index=index, field=field)
        if text and not text.isspace():  # isspace: no copy, unlike strip
            return {"type": "text", "text": text}
        self.recorder.record(index, "dropped", "empty or whitespace-only text", field=field)
        return None

    def _empty(self, index: int) -> None:
        self.recorder.record(index, "dropped", "nothing left to send in this message")

    def _thinking(self, reasoning: Sequence[Reasoning], index: int) -> list[Block]:
        blocks: list[Block] = []
        omitted: list[str] = []
        for position, item in enumerate(reasoning):
            # Empty data or signature cannot be verified by the API: such blocks are omitted.
            if item.provider == PROVIDER and item.redacted_data:
                blocks.append({"type": "redacted_thinking", "data": item.redacted_data})
            elif item.provider == PROVIDER and item.signature:
                check_text(item.text, index=index, field=f"reasoning[{position}].text")
                blocks.append(
                    {"type": "thinking", "thinking": item.text, "signature": item.signature}
                )
            else:
                omitted.append(repr(item.provider) if item.provider != PROVIDER else "unsigned")
        if omitted:
            self.recorder.record(
                index, "omitted", f"reasoning not sent to Anthropic ({', '.join(omitted)})"
            )
        return blocks

    def _tool_name(self, name: str, position: int, index: int) -> str:
        if _TOOL_NAME_PATTERN.fullmatch(name):
            self.valid_names.add(name)
            return name
        check_text(name, index=index, field=f"tool_calls[{position}].function_name")
        cleaned = sanitize_identifier(name, max_length=MAX_TOOL_NAME_LENGTH)
        self.recorder.record(
            index,
            "renamed",
            f"function name {name!r} does not match ^[a-zA-Z0-9_-]{{1,128}}$: renamed {cleaned!r}",
            field=f"tool_calls[{position}].function_name",
        )
        return cleaned

    def _media_block(self, item: MediaPart, index: int, field_prefix: str) -> Block | None:
        return media_block(
            item,
            recorder=self.recorder,
            max_image_bytes=self.max_image_bytes,
            max_document_bytes=self.max_document_bytes,
            index=index,
            field_prefix=field_prefix,
        )

    def _part_blocks(
        self,
        parts: Sequence[ToolResultPart],
        field: str,
        index: int,
    ) -> list[Block]:
        """The blocks of a parts result or a multimodal message's items, in order (empty text
        and unsendable media left out)."""
        blocks: list[Block] = []
        for number, part in enumerate(parts):
            if isinstance(part, TextMessage):
                block = self._text_block(part.content, index, f"{field}[{number}]")
            else:
                block = self._media_block(part, index, f"{field}[{number}].")
            if block is not None:
                blocks.append(block)
        return blocks

    def _not_from_self(self, message: Message, index: int, what: str) -> None:
        if message.from_ == self.agent_name:
            produced = (
                "images"
                if isinstance(message, ImageMessage | MultiModalMessage)
                else ("documents or audio")
            )
            raise InvalidMessageError(
                f"{what} cannot come from the agent itself (models do not produce {produced})",
                index=index,
                field="from_",
            )
