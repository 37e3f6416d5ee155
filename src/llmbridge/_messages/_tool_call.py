"""``ToolCall``: one function call and its result (text, text / image / document parts, or a
structured result: a JSON object)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._documents import AudioMessage, DocumentMessage
from llmbridge._messages._image import ImageMessage
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    JsonObject,
    ProviderData,
    freeze_json_object,
    freeze_provider_data,
    thaw,
)
from llmbridge._messages._text import TextMessage
from llmbridge._messages._values import Message, as_json_text, set_field
from llmbridge._messages._video import VideoMessage

__all__ = [
    "RESULT_PART_TYPES",
    "MediaPart",
    "ToolCall",
    "ToolResult",
    "ToolResultPart",
    "describe_result",
    "joined_results",
    "result_text",
    "split_result",
    "structured_text",
    "text_or_parts",
]

ToolResultPart: TypeAlias = (
    TextMessage | ImageMessage | DocumentMessage | AudioMessage | VideoMessage
)
"""One part of a tool result given as parts."""
MediaPart: TypeAlias = ImageMessage | DocumentMessage | AudioMessage | VideoMessage
"""The media parts of a tool result."""
ToolResult: TypeAlias = str | tuple[ToolResultPart, ...] | Mapping[str, Any]
"""A tool result: text, a non-empty tuple of parts, or a structured result (a read-only JSON
object)."""
RESULT_PART_TYPES: Final = (TextMessage, ImageMessage, DocumentMessage, AudioMessage, VideoMessage)
_MEDIA_PART_TYPES: Final = RESULT_PART_TYPES[1:]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One function call requested by a model, and (on result messages) its result.

    ``function_arguments`` is the JSON text the model produced, kept verbatim even when invalid.
    ``result`` is text, a non-empty sequence of ``TextMessage`` / ``ImageMessage`` /
    ``DocumentMessage`` / ``AudioMessage`` / ``VideoMessage`` parts (stored as a tuple; a single
    part is taken as a one-part sequence), a *structured result* (a mapping with ``str`` keys and
    JSON values, stored read-only at every level with its key order, compared by value; lists read
    back as tuples), or ``None``. Arguments, or a result given as something else (a list of values,
    a number), are JSON-serialized. ``provider_data`` (provider tag -> JSON-compatible mapping,
    frozen) is read only by the connector of that tag. Raises ``InvalidMessageError`` for a value
    that cannot be serialized, for an empty sequence, one mixing parts with other values, a
    structured result with a non-``str`` key or a non-JSON value, and a message that is not a result
    part (field ``result``), for a ``function_name`` that is not a ``str`` and for ``provider_data``
    that is not JSON-compatible.
    """

    function_name: str
    function_arguments: str
    tool_call_id: str | None = field(default=None, kw_only=True)
    result: (
        str
        | tuple[TextMessage | ImageMessage | DocumentMessage | AudioMessage | VideoMessage, ...]
        | Mapping[str, Any]
        | None
    ) = field(default=None, kw_only=True)
    is_error: bool = field(default=False, kw_only=True)
    provider_data: ProviderData = field(default=NO_PROVIDER_DATA, kw_only=True)

    def __post_init__(self) -> None:
        # Text is the normal case and costs two type checks; anything else is a caller's
        # mistake (a dict result, parsed arguments) repaired once here, not in every provider,
        # or a parts result (checked once here too).
        if type(self.function_arguments) is not str:
            set_field(
                self,
                "function_arguments",
                as_json_text(self.function_arguments, "function_arguments"),
            )
        result = self.result
        if result is not None and type(result) is not str:
            set_field(self, "result", _as_result(result))
        if not isinstance(self.function_name, str):
            raise InvalidMessageError(
                f"function_name must be a str, got {type(self.function_name).__name__}",
                field="function_name",
            )
        if self.provider_data is not NO_PROVIDER_DATA:
            set_field(self, "provider_data", freeze_provider_data(self.provider_data))


def _as_result(value: object) -> ToolResult:
    """A non-text result as stored: parts as a tuple, a mapping frozen (a structured result),
    anything else as JSON text."""
    if type(value) is JsonObject:  # frozen already (dataclasses.replace, a loaded message)
        return value
    if isinstance(value, Mapping):
        return freeze_json_object(value, "result")
    if isinstance(value, RESULT_PART_TYPES):
        return (value,)
    if isinstance(value, Message):
        raise _not_a_part(value, "result")
    if isinstance(value, list | tuple):
        parts = [isinstance(item, RESULT_PART_TYPES) for item in value]
        if not value:
            raise InvalidMessageError(
                "result must be text or a non-empty sequence of parts, got an empty "
                f"{type(value).__name__}",
                field="result",
            )
        if all(parts):
            return tuple(value)
        for position, item in enumerate(value):
            if isinstance(item, Message) and not parts[position]:
                raise _not_a_part(item, f"result[{position}]")
        if any(parts):
            position = parts.index(False)
            raise InvalidMessageError(
                f"result item {position} is a {type(value[position]).__name__}; a result of "
                "parts holds only TextMessage, ImageMessage, DocumentMessage, AudioMessage and "
                "VideoMessage items",
                field=f"result[{position}]",
            )
    return as_json_text(value, "result")


def _not_a_part(item: Message, where: str) -> InvalidMessageError:
    # Rev. 2 turned such a message into JSON text, which no model could use (issue 26).
    name = type(item).__name__
    article = "an" if name[0] in "AEIOU" else "a"
    return InvalidMessageError(
        f"{where} is {article} {name}; a tool result holds only TextMessage, ImageMessage, "
        "DocumentMessage, AudioMessage and VideoMessage parts",
        field=where,
    )


def structured_text(result: Mapping[str, Any]) -> str:
    """A structured result as the compact JSON text the wings without structured results send
    (``ensure_ascii=False``, no spaces)."""
    return json.dumps(thaw(result), ensure_ascii=False, separators=(",", ":"))


def text_or_parts(result: ToolResult) -> str | tuple[ToolResultPart, ...]:
    """A result as a wing whose tool results are text or parts sends it: a structured result
    as its ``structured_text``; text and parts as they are."""
    # Text and parts by their exact type first: the Mapping ABC's isinstance cost a tenth of
    # a to_openai_responses conversion when it came first.
    if type(result) is str or type(result) is tuple:
        return result
    if isinstance(result, Mapping):
        return structured_text(result)
    return result


def result_text(result: ToolResult | None) -> str | None:
    """The text of a result: the text itself, its text parts joined with ``"\\n"``, or a
    structured result's ``structured_text``.

    ``None`` for no result and for a parts result without text parts.
    """
    if result is None or isinstance(result, str):
        return result
    if type(result) is not tuple and isinstance(result, Mapping):
        return structured_text(result)
    texts = [part.content for part in result if isinstance(part, TextMessage)]
    return "\n".join(texts) if texts else None


def split_result(result: ToolResult) -> tuple[str | None, tuple[MediaPart, ...]]:
    """A result as ``(text, media)``: its text (``result_text``) and its media parts in order.

    Text and structured results have no media: ``(result_text(result), ())``. Connectors whose
    tool messages carry text only send the text there and the media elsewhere.
    """
    if isinstance(result, str):
        return result, ()
    if type(result) is not tuple and isinstance(result, Mapping):
        return structured_text(result), ()
    media = tuple(part for part in result if isinstance(part, _MEDIA_PART_TYPES))
    return result_text(result), media


def describe_result(result: ToolResult | None) -> str | None:
    """A result for people to read (printing, logs, traces): the text (a structured result's
    JSON text), with each media part shown as ``[image <type>]``, ``[audio <type>]``,
    ``[video <type>]`` or ``[document <type> <filename>]`` where it stands."""
    if result is None or isinstance(result, str):
        return result
    if isinstance(result, Mapping):
        return structured_text(result)
    return "\n".join(_describe_part(part) for part in result)


def _describe_part(part: ToolResultPart) -> str:
    match part:
        case TextMessage():
            return part.content
        case ImageMessage():
            return f"[image {part.media_type or part.url or part.file_id}]"
        case DocumentMessage():
            name = f" {part.filename}" if part.filename else ""
            return f"[document {part.media_type or part.url or part.file_id}{name}]"
        case AudioMessage():
            return f"[audio {part.media_type or part.file_id}]"
        case VideoMessage():
            return f"[video {part.media_type or part.url or part.file_id}]"


def joined_results(results: Sequence[ToolCall]) -> str | None:
    """The texts of the calls' results (``result_text``) joined with ``"\\n"``, or ``None``."""
    texts = [text for call in results if (text := result_text(call.result)) is not None]
    return "\n".join(texts) if texts else None
