"""Gemini media parts: inline bytes, file URIs, their MIME types, and video metadata.

``inline_data`` is base64 of a documented type (wave2.md 2.6 rule 7; video: API.md 19.2, the
``video/*`` types Gemini's video understanding documents); ``file_data`` a ``gs://``, Files API
or YouTube URI, typed when it has a type (a YouTube URI is always a video). ``video_metadata``
(``google/genai/types.py`` ``VideoMetadata``) belongs to a video part only: offsets as
durations (``"1.5s"``), ``fps`` in (0, 24], ``content_layers`` of its enum.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from typing import Any, Final

from tests.gemini.wire_fields import fail, read_fields

__all__ = [
    "MAX_INLINE_BYTES",
    "MIME_TYPES",
    "TOOL_RESULT_MIME_TYPES",
    "VIDEO_TYPES",
    "base64_size",
    "check_media",
    "check_video_metadata",
    "is_video",
]

MAX_INLINE_BYTES: Final = 20 * 1024 * 1024
# The video types Gemini documents (video understanding, "supported video formats").
VIDEO_TYPES: Final = frozenset(
    {
        "video/mp4",
        "video/mpeg",
        "video/mpg",
        "video/mov",
        "video/avi",
        "video/x-flv",
        "video/webm",
        "video/wmv",
        "video/3gpp",
    }
)
# Gemini's documented input types; GIF is not one (wave2.md 2.6 rule 7).
MIME_TYPES: Final = (
    frozenset(
        {
            "image/png",
            "image/jpeg",
            "image/webp",
            "image/heic",
            "image/heif",
            "application/pdf",
            "text/plain",
            "audio/wav",
            "audio/mp3",
            "audio/mpeg",
            "audio/aiff",
            "audio/aac",
            "audio/ogg",
            "audio/flac",
        }
    )
    | VIDEO_TYPES
)
# What a function_response may carry in its own parts (Gemini 3 multimodal tool results).
TOOL_RESULT_MIME_TYPES: Final = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
YOUTUBE_URI: Final = re.compile(r"^https://((www\.)?youtube\.com/watch\?v=|youtu\.be/)[\w-]+$")
VIDEO_METADATA: Final = frozenset({"start_offset", "end_offset", "fps", "content_layers"})
DURATION: Final = re.compile(r"^\d+(\.\d{1,9})?s$")
CONTENT_LAYERS: Final = frozenset({"FRAMES", "AUDIO", "TRANSCRIPT"})
FILE_URI: Final = re.compile(
    r"^(gs://[^/]+/.+|https://generativelanguage\.googleapis\.com/v1(beta)?/files/[^/]+"
    r"|https://(www\.)?youtube\.com/watch\?v=[\w-]+|https://youtu\.be/[\w-]+)$"
)


def base64_size(value: Any, path: str, rule: str) -> int:
    """The byte count of base64 ``value``, else a ``WireError`` naming ``rule``."""
    if not isinstance(value, str) or not value:
        fail(path, rule, "expected non-empty base64 text")
    try:
        # The API takes standard and URL-safe base64 (the protobuf JSON mapping of bytes), and
        # the SDK sends URL-safe: it re-encodes every bytes field it was given as base64 text.
        return len(base64.b64decode(value.replace("-", "+").replace("_", "/"), validate=True))
    except binascii.Error:
        fail(path, rule, "not valid base64")


def check_media(value: Any, path: str, kind: str, mime_types: frozenset[str]) -> int:
    """Check an ``inline_data`` / ``file_data`` object; return its inline byte count."""
    if kind == "inline_data":
        fields = read_fields(
            value, path, frozenset({"mime_type", "data", "display_name"}), ("mime_type", "data")
        )
        size = base64_size(fields["data"], f"{path}.data", "inline_data")
    else:
        fields = read_fields(
            value, path, frozenset({"file_uri", "mime_type", "display_name"}), ("file_uri",)
        )
        uri = fields["file_uri"]
        if not isinstance(uri, str) or not FILE_URI.match(uri):
            fail(path, "file_data uri", f"{uri!r} is neither gs://, a Files API URI nor YouTube")
        size = 0
    mime = fields.get("mime_type")
    if (kind == "inline_data" or mime is not None) and mime not in mime_types:
        fail(path, "G7 mime type", f"mime type {mime!r} is not supported")
    if kind == "file_data" and YOUTUBE_URI.match(fields["file_uri"]) and not is_video(fields):
        fail(path, "G7 mime type", f"a YouTube URI is a video, not {mime!r}")
    return size


def is_video(media: Mapping[str, Any]) -> bool:
    """Whether snake_case ``inline_data`` / ``file_data`` fields are a video (or an untyped
    YouTube URI, which can be nothing else)."""
    mime = media.get("mime_type")
    if mime is None:
        return YOUTUBE_URI.match(str(media.get("file_uri", ""))) is not None
    return isinstance(mime, str) and mime.startswith("video/")


def check_video_metadata(value: Any, path: str) -> None:
    """Check a ``video_metadata`` object (the part's kind is checked by the caller)."""
    metadata = read_fields(value, path, VIDEO_METADATA)
    for key in ("start_offset", "end_offset"):
        if key in metadata and not (
            isinstance(metadata[key], str) and DURATION.match(metadata[key])
        ):
            fail(
                f"{path}.{key}",
                "video_metadata",
                f"{metadata[key]!r} is not a duration like '1.5s'",
            )
    fps = metadata.get("fps")
    if fps is not None and (
        isinstance(fps, bool) or not isinstance(fps, int | float) or not 0 < fps <= 24
    ):
        fail(f"{path}.fps", "video_metadata", f"fps {fps!r} is not in (0, 24]")
    layers = metadata.get("content_layers", [])
    if not isinstance(layers, list) or not set(layers) <= CONTENT_LAYERS:
        fail(
            f"{path}.content_layers",
            "video_metadata",
            f"{layers!r} are not {sorted(CONTENT_LAYERS)}",
        )
