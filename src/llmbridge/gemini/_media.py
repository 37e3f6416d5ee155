"""Images, documents, audio and video -> Gemini ``inline_data`` / ``file_data`` parts (API.md
13, 15, 19.1, 19.2).

Bytes go inline (their base64 text, computed once per message and cached by the message), up
to 20 MB of inline data per request; ``gs://`` and Files API URIs (and, for video, YouTube
watch URLs) go as ``file_data``; no URL is ever fetched. What Gemini cannot take is not
supported: dropped with a note, strict mode ``UnsupportedMessageError``; a tool result's own
parts take images, PDFs and text only (19.7), so audio and video there are not supported.
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
from llmbridge.kit import NoteRecorder, media_kind, omitted_detail

__all__ = [
    "INLINE_IMAGE_TYPES",
    "MAX_INLINE_BYTES",
    "RESULT_MEDIA_TYPES",
    "VIDEO_TYPES",
    "YOUTUBE_WATCH",
    "MediaParts",
    "file_uri",
    "is_file_uri",
    "is_video_uri",
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
VIDEO_TYPES: Final = {
    "video/mp4": "video/mp4",
    "video/mpeg": "video/mpeg",
    "video/mov": "video/mov",
    "video/quicktime": "video/mov",  # the IANA name of what Gemini's list calls video/mov
    "video/avi": "video/avi",
    "video/x-flv": "video/x-flv",
    "video/mpg": "video/mpg",
    "video/webm": "video/webm",
    "video/wmv": "video/wmv",
    "video/3gpp": "video/3gpp",
}
"""Video media type -> the type sent: Gemini's documented video formats."""
RESULT_MEDIA_TYPES: Final = frozenset({*INLINE_IMAGE_TYPES, "application/pdf", "text/plain"})
"""What a ``function_response`` may carry in its own ``parts`` (multimodal tool results)."""
YOUTUBE_WATCH: Final = "https://www.youtube.com/watch?v="
"""The start of the YouTube URLs Gemini reads as a video ``file_data`` (API.md 19.2)."""
# Files API URIs, on either API version the SDK uses.
_FILE_URI: Final = re.compile(
    r"^https://generativelanguage\.googleapis\.com/v1(beta)?/files/[^/]+$"
)
_SUFFIX_TYPES: Final = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"} | {
    ".webp": "image/webp",
    ".pdf": "application/pdf",
}
_VIDEO_SUFFIX_TYPES: Final = {
    ".mp4": "video/mp4",
    ".mpeg": "video/mpeg",
    ".mpg": "video/mpg",
    ".mov": "video/mov",
    ".avi": "video/avi",
    ".flv": "video/x-flv",
    ".webm": "video/webm",
    ".wmv": "video/wmv",
    ".3gp": "video/3gpp",
}

Media = ImageMessage | DocumentMessage | AudioMessage | VideoMessage
# What function_response.parts never take (API.md 19.7); a tuple: ``A | B`` is built per call.
_NOT_IN_RESULTS: Final = (AudioMessage, VideoMessage)
_FILES_API: Final = "https://generativelanguage.googleapis.com/v1beta/"


def file_uri(file_id: str) -> str:
    """The Files API URI of a Gemini file id: a bare ``files/<name>`` is expanded (API.md 19.7),
    a full URI kept."""
    return _FILES_API + file_id if file_id.startswith("files/") else file_id


def is_file_uri(url: str) -> bool:
    """Whether ``url`` is one Gemini reads as ``file_data``: ``gs://`` or a Files API URI."""
    return url.startswith("gs://") or _FILE_URI.match(url) is not None


def is_video_uri(url: str) -> bool:
    """Whether ``url`` is a video URL Gemini reads as ``file_data``: ``gs://``, a Files API
    URI or a YouTube watch URL (``https://www.youtube.com/watch?v=...``)."""
    return (url.startswith(YOUTUBE_WATCH) and len(url) > len(YOUTUBE_WATCH)) or is_file_uri(url)


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def _suffix(url: str) -> str:
    path = url.partition("?")[0]
    return path[path.rfind(".") :].lower()


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
        """The part of one image, document, audio or video, or ``None`` when it is not
        supported (``allowed``: the media types the place takes, given for a tool result, where
        audio and video are never taken). Raises ``InvalidMessageError`` for image bytes of an
        unknown type and past the size limit."""
        if isinstance(item, ImageMessage) and item.detail is not None:
            omitted = omitted_detail(item, provider="Gemini", field_prefix=field_prefix)
            if omitted is not None:
                self.recorder.record(index, "omitted", omitted)
        if allowed is not None and isinstance(item, _NOT_IN_RESULTS):
            # function_response.parts take images, PDFs and text only (API.md 19.7).
            self._unsupported(index, f"{media_kind(item)} in a tool result{_where(field_prefix)}")
            return None
        if item.file_id is not None:
            return self._file_reference(item, index, field_prefix, allowed)
        if not isinstance(item, AudioMessage) and item.url is not None:
            return self._url_part(item, item.url, index, field_prefix)
        mime = self._inline_type(item, index, field_prefix)
        if mime is None or (allowed is not None and mime not in allowed):
            where = _where(field_prefix)
            self._unsupported(index, f"{media_kind(item)} of type {item.media_type!r}{where}")
            return None
        self.inline_bytes += len(item.data or b"")
        if self.inline_bytes > MAX_INLINE_BYTES:
            raise InvalidMessageError(
                f"the request's inline data passes the {MAX_INLINE_BYTES}-byte limit of Gemini "
                f"with this {media_kind(item)}; send large files through the Files API (a "
                "file_data URI)",
                index=index,
                field=f"{field_prefix}data",
            )
        return {"inline_data": {"mime_type": mime, "data": item.base64_data}}

    def _url_part(
        self, item: ImageMessage | DocumentMessage | VideoMessage, url: str, index: int, prefix: str
    ) -> Part | None:
        """A ``file_data`` part for a URL Gemini reads (``mime_type`` when known), else
        ``None`` (not supported)."""
        if isinstance(item, VideoMessage):
            if not is_video_uri(url):
                self._unsupported(
                    index,
                    "video URLs other than gs://, Files API and YouTube watch URLs"
                    + _where(prefix),
                )
                return None
            media_type = item.media_type
            if media_type is not None and media_type not in VIDEO_TYPES:
                self._unsupported(index, f"video of type {media_type!r}{_where(prefix)}")
                return None
            if media_type is None:
                media_type = _VIDEO_SUFFIX_TYPES.get(_suffix(url))
            else:
                media_type = VIDEO_TYPES[media_type]
        elif is_file_uri(url):
            media_type = item.media_type or _SUFFIX_TYPES.get(url[url.rfind(".") :].lower())
            if media_type is None and isinstance(item, DocumentMessage):
                media_type = "application/pdf"  # a document URL without a type is a PDF
        else:
            where = _where(prefix)
            self._unsupported(
                index, f"{media_kind(item)} URLs other than gs:// and Files API URIs{where}"
            )
            return None
        file_data = {"file_uri": url}
        if media_type is not None:
            file_data["mime_type"] = media_type
        return {"file_data": file_data}

    def _file_reference(
        self, item: Media, index: int, field_prefix: str, allowed: frozenset[str] | None
    ) -> Part | None:
        """A Gemini file as ``file_data``; another provider's file is not supported."""
        assert item.file_id is not None
        where = _where(field_prefix)
        if item.file_provider != "gemini":
            self._unsupported(index, f"{item.file_provider} file references{where}")
            return None
        media_type = item.media_type
        if allowed is not None and media_type not in allowed:
            self._unsupported(index, f"{media_kind(item)} files of type {media_type!r}{where}")
            return None
        if isinstance(item, VideoMessage):
            media_type = VIDEO_TYPES.get(media_type or "", media_type)
        # A Gemini file reference always has a media type (checked when it is built).
        return {"file_data": {"file_uri": file_uri(item.file_id), "mime_type": media_type}}

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
        if isinstance(item, VideoMessage):
            return VIDEO_TYPES.get(media_type or "")
        return media_type if media_type in _AUDIO_TYPES else None
