"""How parts of a message read for people: media by source, citations, hosted tool calls.

Shared by ``format_message`` (``register_print_message``) and the command line's printing, so
an image, a document, audio or video reads the same in both, and a reply's citations and
hosted tools show wherever the reply does.
"""

from __future__ import annotations

import json
from typing import Final

from llmbridge._messages import (
    AudioMessage,
    Citation,
    DocumentMessage,
    HostedToolCall,
    ImageMessage,
    MediaPart,
    Message,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    VideoMessage,
)

__all__ = ["citation_label", "hosted_label", "media_label", "reply_metadata"]

_KINDS: Final[dict[type[MediaPart], str]] = {
    ImageMessage: "image",
    DocumentMessage: "document",
    AudioMessage: "audio",
    VideoMessage: "video",
}


def _kind(item: MediaPart) -> str:
    return next(name for kind, name in _KINDS.items() if isinstance(item, kind))


def media_label(item: MediaPart) -> str:
    """``<kind url>``, ``<kind provider file id>`` or ``<kind media_type, n bytes>`` (kind:
    image, document, audio or video; a document's filename after a comma); never the bytes."""
    match item:
        case ImageMessage(url=url) | DocumentMessage(url=url) | VideoMessage(url=url) if url:
            source = url
        case _ if item.file_id is not None:
            source = f"{item.file_provider} file {item.file_id}"
        case _:
            source = f"{item.media_type}, {len(item.data or b'')} bytes"
    if isinstance(item, DocumentMessage) and item.filename:
        source += f", {item.filename}"
    return f"<{_kind(item)} {source}>"


def citation_label(citation: Citation) -> str:
    """``[start:end]`` then what the source is: its title (quoted), URL, document index, file
    id and the quoted source text, those that are set."""
    parts = [f"[{citation.start}:{citation.end}]"]
    if citation.title:
        parts.append(json.dumps(citation.title, ensure_ascii=False))
    if citation.url:
        parts.append(citation.url)
    if citation.document_index is not None:
        parts.append(f"document {citation.document_index}")
    if citation.file_id:
        parts.append(f"file {citation.file_id}")
    if citation.cited_text:
        parts.append(f"quoting {json.dumps(citation.cited_text, ensure_ascii=False)}")
    return " ".join(parts)


def hosted_label(call: HostedToolCall) -> str:
    """``name(arguments) [id, provider]``: a tool the provider ran itself."""
    return f"{call.name}({call.arguments}) [{call.id}, {call.provider}]"


def reply_metadata(message: Message) -> tuple[tuple[HostedToolCall, ...], tuple[Citation, ...]]:
    """The hosted tool calls and citations of a reply (an aggregate's: of its call message);
    empty for any other message."""
    if isinstance(message, ToolCallAggregateMessage):
        message = message.tool_call_message
    if isinstance(message, TextMessage | ToolCallMessage):
        return message.hosted_tools, message.citations
    return (), ()
