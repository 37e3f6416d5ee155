"""The parts of a Gemini request history, read for ``from_gemini_contents`` (``_import``).

Each part is checked and brought to the SDK's snake_case names first (the REST API and other
tools write ``functionCall``, ``inlineData``, ``thoughtSignature``...; both spellings read
alike), then its media and results are read. A part that has no neutral form gives an
``Unmapped`` (why, and where), never an exception: the importer makes the content an envelope
(lenient) or raises ``InvalidMessageError`` naming its index (strict).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    VideoMessage,
)
from llmbridge.gemini._media import YOUTUBE_WATCH, is_video_uri
from llmbridge.kit import Unmapped

__all__ = [
    "Part",
    "decoded_base64",
    "media",
    "merged_model_contents",
    "part_problem",
    "result_parts",
    "snake_part",
    "user_content",
]

Part = Mapping[str, Any]


# The camelCase names of the part fields the importer reads (REST API JSON), by snake_case
# name; any other key stays as it is (and is then an unknown field).
_SNAKE: Final[Mapping[str, str]] = {
    "functionCall": "function_call",
    "functionResponse": "function_response",
    "inlineData": "inline_data",
    "fileData": "file_data",
    "thoughtSignature": "thought_signature",
    "mimeType": "mime_type",
    "fileUri": "file_uri",
    "displayName": "display_name",
    "willContinue": "will_continue",
    "partialArgs": "partial_args",
    "videoMetadata": "video_metadata",
    "executableCode": "executable_code",
    "codeExecutionResult": "code_execution_result",
}
# The fields whose value is a record of such names (not user data, as args and response are).
_RECORDS: Final = frozenset({"inline_data", "file_data", "function_call", "function_response"})

# The keys of each part kind to_gemini writes; a part with any other key (video_metadata, a
# Gemini 3 server-side tool_call) has no neutral form and keeps its content as an envelope.
_PART_KEYS: Final[Mapping[str, frozenset[str]]] = {
    "text": frozenset({"text", "thought", "thought_signature"}),
    "function_call": frozenset({"function_call", "thought_signature"}),
    "function_response": frozenset({"function_response"}),
    "inline_data": frozenset({"inline_data"}),
    "file_data": frozenset({"file_data"}),
    # Code execution (API.md 19.5): a reply's thought pass runs code too (thought: true).
    "executable_code": frozenset({"executable_code", "thought", "thought_signature"}),
    "code_execution_result": frozenset({"code_execution_result", "thought", "thought_signature"}),
}
ROLE_KINDS: Final[Mapping[str, frozenset[str]]] = {
    "user": frozenset({"text", "function_response", "inline_data", "file_data"}),
    "model": frozenset({"text", "function_call", "executable_code", "code_execution_result"}),
}
# What each code part's record holds, by the type its values must have (None: absent).
_CODE_FIELDS: Final[Mapping[str, Mapping[str, type]]] = {
    "executable_code": {"code": str, "language": str, "id": str},
    "code_execution_result": {"outcome": str, "output": str, "id": str},
}


def _snake_keys(record: Mapping[Any, Any], where: str) -> Mapping[Any, Any] | Unmapped:
    """``record`` with its camelCase field names in snake_case (itself when it has none)."""
    if not any(key in _SNAKE for key in record if isinstance(key, str)):
        return record
    out: dict[Any, Any] = {}
    for key, value in record.items():
        name = _SNAKE.get(key, key) if isinstance(key, str) else key
        if name in out:
            return Unmapped(where, f"both spellings of {name!r}")
        out[name] = value
    return out


def snake_part(part: Any, where: str) -> Part | Unmapped:
    """One part (at ``where``) with snake_case field names at every level the importer reads:
    the part, its ``function_call`` / ``function_response`` / ``inline_data`` / ``file_data``
    record and the media parts of a ``function_response`` (never inside ``args`` or
    ``response``, which are user data). A part that is not an object is ``Unmapped``."""
    if not isinstance(part, Mapping):
        return Unmapped(where, f"a part must be an object, got {type(part).__name__}")
    snaked = _snake_keys(part, where)
    if isinstance(snaked, Unmapped):
        return snaked
    changed = snaked is not part
    out = dict(snaked)
    for name in _RECORDS.intersection(out):
        record = out[name]
        if not isinstance(record, Mapping):
            continue  # reported by part_problem and the readers, with the field named
        inner = _snake_keys(record, f"{where}.{name}")
        if isinstance(inner, Unmapped):
            return inner
        if name == "function_response" and isinstance(inner.get("parts"), list):
            items = [snake_part(item, f"{where}.{name}.parts") for item in inner["parts"]]
            bad = next((item for item in items if isinstance(item, Unmapped)), None)
            if bad is not None:
                return bad
            if any(new is not old for new, old in zip(items, inner["parts"], strict=True)):
                inner = {**inner, "parts": items}
        if inner is not record:
            out[name] = inner
            changed = True
    return out if changed else part


def _kind(part: Part) -> str | None:
    return next((kind for kind in _PART_KEYS if kind in part), None)


def part_problem(role: str, part: Part, position: int) -> Unmapped | None:
    """Why ``part`` (snake_case) cannot be a part of a ``role`` content, or ``None``."""
    kind = _kind(part)
    if kind is None or kind not in ROLE_KINDS[role] or not _PART_KEYS[kind].issuperset(part):
        return Unmapped(f"parts[{position}]", f"unknown {role} part {sorted(map(str, part))}")
    if kind == "text" and not isinstance(part["text"], str):
        return Unmapped(f"parts[{position}].text", "text must be a string")
    if (part.get("thought") and role != "model") or part.get("thought") not in (None, True):
        return Unmapped(f"parts[{position}].thought", "thought: true only on model parts")
    if kind in _CODE_FIELDS:
        record = part[kind]
        fields = _CODE_FIELDS[kind]
        if not isinstance(record, Mapping) or not all(
            isinstance(record.get(key), kind_type | None) for key, kind_type in fields.items()
        ):
            return Unmapped(f"parts[{position}].{kind}", f"{kind} fields are text")
    if not isinstance(part.get("thought_signature", ""), str):
        return Unmapped(f"parts[{position}].thought_signature", "a signature is base64 text")
    return None


def decoded_base64(text: str) -> bytes | None:
    """The bytes of base64 text in either alphabet (standard, or URL-safe as google-genai sends
    and ``model_dump(mode="json")`` writes it), padding optional; ``None`` when it is not."""
    try:
        normal = text.replace("-", "+").replace("_", "/")
        return base64.b64decode(normal + "=" * (-len(normal) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


_DOCUMENT_TYPES: Final = frozenset({"application/pdf", "text/plain"})
Media = ImageMessage | DocumentMessage | AudioMessage | VideoMessage


def _inline(blob: Any) -> Media | Unmapped:
    if not (isinstance(blob, Mapping) and set(blob) == {"mime_type", "data"}):
        return Unmapped("inline_data", "inline_data needs exactly mime_type and data")
    mime, data = blob["mime_type"], blob["data"]
    if not (isinstance(mime, str) and isinstance(data, str)):
        return Unmapped("inline_data", "mime_type and data must be text")
    kind = mime.partition("/")[0]
    if kind not in ("image", "audio", "video") and mime not in _DOCUMENT_TYPES:
        return Unmapped("inline_data", f"no neutral form for inline {mime!r}")
    raw = decoded_base64(data)
    if raw is None:
        return Unmapped("inline_data.data", "data is not base64")
    if kind == "image":
        return ImageMessage(Role.USER, data=raw, media_type=mime)
    if kind == "audio":
        return AudioMessage(Role.USER, data=raw, media_type=mime)
    if kind == "video":
        return VideoMessage(Role.USER, data=raw, media_type=mime)
    return DocumentMessage(Role.USER, data=raw, media_type=mime)


def _file(file_data: Any) -> Media | Unmapped:
    """A ``file_data`` part: video by the URLs ``to_gemini`` sends for a video (``gs://``,
    Files API, YouTube watch), audio as a Gemini file reference (the URI its ``file_id``),
    images and documents by URL."""
    if isinstance(file_data, Mapping) and set(file_data) <= {"file_uri", "mime_type"}:
        uri, mime = file_data.get("file_uri"), file_data.get("mime_type")
        if not (isinstance(uri, str) and (mime is None or isinstance(mime, str))):
            return Unmapped("file_data", "file_uri and mime_type must be text")
        if (mime is None and uri.startswith(YOUTUBE_WATCH)) or (mime or "").startswith("video/"):
            if not is_video_uri(uri):
                return Unmapped("file_data", "a video URL to_gemini does not send (no fetching)")
            return VideoMessage(Role.USER, uri, media_type=mime)
        if mime is not None and mime.startswith("audio/"):
            return AudioMessage(Role.USER, file_id=uri, file_provider="gemini", media_type=mime)
        if mime is None or mime.startswith("image/"):
            return ImageMessage(Role.USER, uri, media_type=mime)
        if mime in _DOCUMENT_TYPES:
            return DocumentMessage(Role.USER, uri, media_type=mime)
    return Unmapped("file_data", "only image, document, audio and video file_data have a form")


def media(part: Part) -> Media | Unmapped:
    """An ``inline_data`` or ``file_data`` part as an image, document, audio or video message;
    media the neutral model refuses (empty bytes, a bad URL) are ``Unmapped``."""
    try:
        return _inline(part["inline_data"]) if "inline_data" in part else _file(part["file_data"])
    except InvalidMessageError as error:
        return Unmapped("inline_data" if "inline_data" in part else "file_data", error.reason)


ResultPart = TextMessage | ImageMessage | DocumentMessage


def result_parts(text: str, parts: Any) -> str | tuple[ResultPart, ...] | Unmapped:
    """A response's result: its text, or text and media parts (``function_response.parts``)."""
    if parts is None:
        return text
    if not isinstance(parts, list) or not parts:
        return Unmapped("function_response.parts", "parts must be a non-empty list")
    items: list[ResultPart] = [TextMessage(Role.TOOL, text)] if text else []
    for part in parts:
        kinds = set(part) if isinstance(part, Mapping) else set()
        if len(kinds) != 1 or not kinds <= {"inline_data", "file_data"}:
            return Unmapped("function_response.parts", "a part holds one inline_data or file_data")
        item = media(part)
        if isinstance(item, Unmapped):
            return item
        if isinstance(item, AudioMessage | VideoMessage):
            # to_gemini never sends them there: function_response.parts take images, PDFs, text.
            return Unmapped(
                "function_response.parts", "a Gemini tool result holds no audio or video"
            )
        items.append(item)
    return tuple(items)


def user_content(parts: Sequence[Part]) -> Message | Unmapped:
    """User parts other than responses: one text or media message, or a multimodal one."""
    items: list[TextMessage | Media] = []
    for part in parts:
        if "text" in part:
            items.append(TextMessage(Role.USER, part["text"]))
            continue
        item = media(part)
        if isinstance(item, Unmapped):
            return item
        items.append(item)
    return items[0] if len(items) == 1 else MultiModalMessage(Role.USER, items)


def merged_model_contents(contents: Sequence[Any]) -> list[tuple[Any, int]]:
    """``contents`` with each run of consecutive ``model`` contents as one (new dict), each
    with the index of its first content."""
    out: list[tuple[Any, int]] = []
    for index, content in enumerate(contents):
        previous: Any = out[-1][0] if out else None
        if (
            _is_model(content)
            and _is_model(previous)
            and isinstance(content.get("parts"), list)
            and isinstance(previous.get("parts"), list)
        ):
            merged = {"role": "model", "parts": [*previous["parts"], *content["parts"]]}
            out[-1] = (merged, out[-1][1])
        else:
            out.append((content, index))
    return out


def _is_model(content: Any) -> bool:
    return isinstance(content, Mapping) and content.get("role") == "model"
