"""A reply's text, citations and hosted tools -> the blocks of its assistant turn, in place.

The inverse of ``_content.ReplyContent`` for what a request takes back (API.md 19.4, 19.5): the
text is cut where a cited block starts and ends and where hosted blocks sat (their ``offset``);
each cited span is one text block with its ``citations`` as ``provider_data`` keeps them; each
hosted tool's exact blocks go at its offset (a result right after its use). Only this wing's
citations and hosted tools are replayed: another provider's hosted tools are omitted with one
note (``kit.own_hosted_tools``), its citations silently (they are reply metadata).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import Citation, HostedToolCall, TextMessage, ToolCallMessage
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._hosted import HOSTED_TYPES
from llmbridge.anthropic._merge import Block
from llmbridge.kit import NoteRecorder, check_text, own_hosted_tools, plain_json

__all__ = ["reply_blocks"]

_TITLE: Final = "Anthropic"
# Sort keys: at one offset, hosted blocks go before a cited block that starts there.
_HOSTED, _CITED = 0, 1


def _hosted_blocks(call: HostedToolCall) -> tuple[int | None, list[Block]] | None:
    """The offset and blocks ``provider_data`` keeps for ``call``, or ``None`` without them."""
    entry = call.provider_data.get(PROVIDER)
    blocks = entry.get("blocks") if isinstance(entry, Mapping) else None
    if not isinstance(blocks, Sequence) or isinstance(blocks, str) or not blocks:
        return None
    if not all(isinstance(b, Mapping) and b.get("type") in HOSTED_TYPES for b in blocks):
        return None
    offset = entry.get("offset") if isinstance(entry, Mapping) else None
    return (offset if type(offset) is int else None), [plain_json(block) for block in blocks]


def _spans(citations: Sequence[Citation]) -> list[tuple[int, int, list[Any]]]:
    """This wing's citations as cited blocks ``(start, end, citations)``, in order: citations
    of one span form one block; a span that overlaps an earlier one is left out."""
    spans: list[tuple[int, int, list[Any]]] = []
    for citation in citations:
        entry = citation.provider_data.get(PROVIDER) if citation.provider == PROVIDER else None
        raw = entry.get("citation") if isinstance(entry, Mapping) else None
        if not isinstance(raw, Mapping) or citation.start == citation.end:
            continue
        if spans and (citation.start, citation.end) == spans[-1][:2]:
            spans[-1][2].append(plain_json(raw))
        elif not spans or citation.start >= spans[-1][1]:
            spans.append((citation.start, citation.end, [plain_json(raw)]))
    return spans


def reply_blocks(
    message: TextMessage | ToolCallMessage, index: int, recorder: NoteRecorder
) -> list[Block]:
    """The text and hosted blocks of ``message``'s assistant turn (no thinking, no
    ``tool_use``), in reply order.

    Text between two hosted or cited blocks that is only whitespace is left out (a
    ``"repaired"`` note: the API refuses a turn whose text is all whitespace, and such a block
    shows nothing); empty text never makes a block. Raises ``InvalidMessageError`` for
    text with a lone surrogate.
    """
    content = message.content or ""
    if not content.isascii():
        check_text(content, index=index, field="content")
    items: list[tuple[int, int, int, Any]] = []
    missing: list[str] = []
    own = own_hosted_tools(
        message, index, provider=PROVIDER, provider_title=_TITLE, recorder=recorder
    )
    for position, call in enumerate(own):
        found = _hosted_blocks(call)
        if found is None:
            missing.append(call.name)
            continue
        offset, blocks = found
        at = len(content) if offset is None else min(max(offset, 0), len(content))
        items.append((at, _HOSTED, position, blocks))
    if missing:
        recorder.record(
            index,
            "omitted",
            f"hosted tool calls without their Anthropic blocks ({', '.join(missing)}) cannot be "
            "replayed",
        )
    for position, (start, end, cited) in enumerate(_spans(message.citations)):
        if end <= len(content):
            items.append((start, _CITED, position, (end, cited)))
    items.sort(key=lambda item: item[:3])
    return _Walk(content, index, recorder).blocks(items)


class _Walk:
    """Cuts ``content`` into text blocks around the hosted and cited items."""

    __slots__ = ("blocks_out", "content", "index", "position", "recorder")

    def __init__(self, content: str, index: int, recorder: NoteRecorder) -> None:
        self.content = content
        self.index = index
        self.recorder = recorder
        self.position = 0
        self.blocks_out: list[Block] = []

    def _text_to(self, end: int) -> None:
        piece = self.content[self.position : end]
        self.position = max(self.position, end)
        if not piece:
            return
        if piece.isspace():
            self.recorder.record(
                self.index, "repaired", "whitespace-only text beside hosted tool blocks left out"
            )
            return
        self.blocks_out.append({"type": "text", "text": piece})

    def blocks(self, items: list[tuple[int, int, int, Any]]) -> list[Block]:
        for at, kind, _, payload in items:
            if kind == _HOSTED:
                if at > self.position:
                    self._text_to(at)
                self.blocks_out.extend(payload)
                continue
            end, cited = payload
            if at < self.position:  # inside text already sent (a hosted offset within it)
                continue
            self._text_to(at)
            self.blocks_out.append(
                {"type": "text", "text": self.content[at:end], "citations": cited}
            )
            self.position = end
        self._text_to(len(self.content))
        return self.blocks_out
