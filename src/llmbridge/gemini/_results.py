"""A tool result -> the ``response`` object and media parts of a Gemini ``function_response``
(API.md 15, 19.3)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from llmbridge import TextMessage
from llmbridge.gemini._contents import Part
from llmbridge.gemini._media import RESULT_MEDIA_TYPES, MediaParts
from llmbridge.kit import ToolResult, check_text, structured_text

__all__ = ["result_answer", "result_parts"]


def result_answer(
    media: MediaParts, result: ToolResult, is_error: bool, index: int, position: int
) -> tuple[dict[str, Any], list[Part] | None]:
    """A result as ``function_response.response`` and its media parts: a structured result is
    the object itself (an error one ``{"error": its JSON text}``), text and parts
    ``{"output": text}`` (``{"error": text}`` for an error). Raises ``InvalidMessageError`` for
    text that cannot be sent and media past the size limit."""
    parts = None
    if isinstance(result, str):
        if not result.isascii():  # as in _text_part: the field is named only when needed
            check_text(result, index=index, field=f"tool_calls[{position}].result")
        text = result
    elif isinstance(result, Mapping):
        text = structured_text(result)
        if not is_error:
            answer: dict[str, Any] = json.loads(text)  # a plain dict, new for each request
            return answer, None
    else:
        text, parts = result_parts(media, result, index, f"tool_calls[{position}].result")
    return {"error" if is_error else "output": text}, parts


def result_parts(
    media: MediaParts, result: Sequence[Any], index: int, field: str
) -> tuple[str, list[Part]]:
    """The text (text parts joined with ``"\\n"``) and the media parts of a parts result (at
    ``field``)."""
    texts: list[str] = []
    parts: list[Part] = []
    for position, item in enumerate(result):
        if isinstance(item, TextMessage):
            check_text(item.content, index=index, field=f"{field}[{position}]")
            texts.append(item.content)
            continue
        part = media.part(item, index, f"{field}[{position}].", RESULT_MEDIA_TYPES)
        if part is not None:
            parts.append(part)
    return "\n".join(texts), parts
