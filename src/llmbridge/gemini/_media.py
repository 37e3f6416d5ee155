"""Images, documents and audio -> Gemini ``inline_data`` / ``file_data`` parts (API.md 13, 15).

Bytes go inline (their base64 text, computed once per message and cached by the message), up
to 20 MB of inline data per request; ``gs://`` and Files API URIs go as ``file_data``; no URL is
ever fetched. What Gemini cannot take is not supported: dropped with a note, strict mode
``UnsupportedMessageError``.
"""

from __future__ import annotations

import re
from typing import Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    UnsupportedMessageError,
    VideoMessage,
)
from llmbridge.gemini._contents import Part
from llmbridge.kit import NoteRecorder, omitted_detail

__all__ = [
    "INLINE_IMAGE_TYPES",
    "MAX_INLINE_BYTES",
    "RESULT_MEDIA_TYPES",
    "MediaParts",
    "file_uri",
    "is_file_uri",
]

INLINE_IMAGE_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/webp"})
"""The image types sent as ``inline_data`` (GIF is not a Gemini image type)."""
MAX_INLINE_BYTES: Final = 20 * 1024 * 1024
"""Gemini refuses a request whose inline data exceeds 20 MB (larger files go through the Files
API)."""
# Documents: PDF as it is; text, markdown and csv as text/plain (the type Gemini reads them as).
_DOCUMENT_TYPES: Final = {
    "application/pdf": "application/pdf",
    "text/plain": "text/plain",
    "text/markdown": "text/plain",
    "text/csv": "text/plain",
}
_AUDIO_TYPES: Final = frozenset(
    {"audio/wav", "audio/mpeg", "audio/mp3", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac"}
)
RESULT_MEDIA_TYPES: Final = frozenset({*INLINE_IMAGE_TYPES, "application/pdf", "text/plain"})
"""What a ``function_response`` may carry in its own ``parts`` (multimodal tool results)."""
# Files API URIs, on either API version the SDK uses.
_FILE_URI: Final = re.compile(
    r"^https://generativelanguage\.googleapis\.com/v1(beta)?/files/[^/]+$"
)
_SUFFIX_TYPES: Final = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"} | {
    ".webp": "image/webp",
    ".pdf": "application/pdf",
}

Media = ImageMessage | DocumentMessage | AudioMessage | VideoMessage
_FILES_API: Final = "https://generativelanguage.googleapis.com/v1beta/"


def file_uri(file_id: str) -> str:
    """The Files API URI of a Gemini file id: a bare ``files/<name>`` is expanded (API.md 19.7),
    a full URI kept."""
    return _FILES_API + file_id if file_id.startswith("files/") else file_id


def is_file_uri(url: str) -> bool:
    """Whether ``url`` is one Gemini reads as ``file_data``: ``gs://`` or a Files API URI."""
    return url.startswith("gs://") or _FILE_URI.match(url) is not None


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def _kind(item: Media) -> str:
    return type(item).__name__.removesuffix("Message").lower()


class MediaParts:
    """Builds media parts for one request, counting its inline bytes against the 20 MB limit."""

    __slots__ = ("inline_bytes", "recorder")

    def __init__(self, recorder: NoteRecorder) -> None:
        self.recorder = recorder
        self.inline_bytes = 0

    def _unsupported(self, index: int, what: str) -> None:
        self.recorder.record(
            index, "dropped", f"{what} cannot be sent to Gemini", error=UnsupportedMessageError
        )

    def part(
        self,
        item: Media,
        index: int,
        field_prefix: str = "",
        allowed: frozenset[str] | None = None,
    ) -> Part | None:
        """The part of one image, document or audio, or ``None`` when it is not supported
        (``allowed``: the media types the place takes, e.g. in a tool result). Raises
        ``InvalidMessageError`` for image bytes of an unknown type and past the size limit."""
        if isinstance(item, ImageMessage) and item.detail is not None:
            omitted = omitted_detail(item, provider="Gemini", field_prefix=field_prefix)
            if omitted is not None:
                self.recorder.record(index, "omitted", omitted)
        if isinstance(item, VideoMessage):  # video parts come with their own rules (19.2)
            self._unsupported(index, f"video{_where(field_prefix)}")
            return None
        if item.file_id is not None:
            return self._file_reference(item, index, field_prefix, allowed)
        url = None if isinstance(item, AudioMessage) else item.url
        if url is not None:
            if not is_file_uri(url):
                where = _where(field_prefix)
                self._unsupported(
                    index, f"{_kind(item)} URLs other than gs:// and Files API URIs{where}"
                )
                return None
            media_type = item.media_type or _SUFFIX_TYPES.get(url[url.rfind(".") :].lower())
            if media_type is None and isinstance(item, DocumentMessage):
                media_type = "application/pdf"  # a document URL without a type is a PDF
            file_data = {"file_uri": url}
            if media_type is not None:
                file_data["mime_type"] = media_type
            return {"file_data": file_data}
        mime = self._inline_type(item, index, field_prefix)
        if mime is None or (allowed is not None and mime not in allowed):
            where = _where(field_prefix)
            self._unsupported(index, f"{_kind(item)} of type {item.media_type!r}{where}")
            return None
        self.inline_bytes += len(item.data or b"")
        if self.inline_bytes > MAX_INLINE_BYTES:
            raise InvalidMessageError(
                f"the request's inline data passes the {MAX_INLINE_BYTES}-byte limit of Gemini "
                f"with this {_kind(item)}; send large files through the Files API (a file_data "
                "URI)",
                index=index,
                field=f"{field_prefix}data",
            )
        return {"inline_data": {"mime_type": mime, "data": item.base64_data}}

    def _file_reference(
        self, item: Media, index: int, field_prefix: str, allowed: frozenset[str] | None
    ) -> Part | None:
        """A Gemini file as ``file_data``; another provider's file is not supported."""
        assert item.file_id is not None
        where = _where(field_prefix)
        if item.file_provider != "gemini":
            self._unsupported(index, f"{item.file_provider} file references{where}")
            return None
        if allowed is not None and item.media_type not in allowed:
            self._unsupported(index, f"{_kind(item)} files of type {item.media_type!r}{where}")
            return None
        # A Gemini file reference always has a media type (checked when it is built).
        return {"file_data": {"file_uri": file_uri(item.file_id), "mime_type": item.media_type}}

    @staticmethod
    def _inline_type(item: Media, index: int, field_prefix: str) -> str | None:
        media_type = item.media_type
        if isinstance(item, ImageMessage):
            if media_type in INLINE_IMAGE_TYPES or media_type == "image/gif":
                return media_type if media_type != "image/gif" else None
            raise InvalidMessageError(
                f"Gemini accepts image/png, image/jpeg or image/webp images, got {media_type!r}",
                index=index,
                field=f"{field_prefix}media_type",
            )
        if isinstance(item, DocumentMessage):
            return _DOCUMENT_TYPES.get(media_type or "")
        return media_type if media_type in _AUDIO_TYPES else None
