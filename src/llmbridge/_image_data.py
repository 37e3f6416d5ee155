"""Image bytes: magic-byte sniffing, ``data:`` URLs and media-type normalization."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final

from llmbridge._errors import InvalidMessageError

__all__ = ["normalize_media_type", "parse_data_url", "sniff_image_type"]

_DATA_URL: Final = re.compile(r"^data:(?P<type>[^;,]*)(?P<params>(?:;[^;,]*)*),(?P<data>.*)$", re.S)
_MAGIC: Final[tuple[tuple[bytes, str], ...]] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
_MEDIA_TYPE_ALIASES: Final = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg"}


def sniff_image_type(data: bytes) -> str | None:
    """Return the media type of png, jpeg, gif or webp bytes by their magic bytes, else ``None``."""
    for magic, media_type in _MAGIC:
        if data.startswith(magic):
            return media_type
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def parse_data_url(url: str) -> tuple[bytes, str | None]:
    """Return the bytes and declared media type of a base64 ``data:`` URL.

    Raises ``InvalidMessageError`` (field ``url``) for a malformed URL, a URL that is not
    base64, or base64 that does not decode.
    """
    match = _DATA_URL.match(url)
    if match is None:
        raise InvalidMessageError(
            "malformed data: URL (expected data:<type>;base64,<data>)", field="url"
        )
    params = match["params"].split(";")
    payload = match["data"]
    if "base64" not in params:
        raise InvalidMessageError("data: URL images must be base64-encoded", field="url")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidMessageError(f"undecodable base64 in data: URL ({exc})", field="url") from None
    return data, match["type"] or None


def normalize_media_type(media_type: str | None) -> str | None:
    """Lower-case and strip ``media_type``; ``image/jpg`` and ``image/pjpeg`` become jpeg."""
    if media_type is None:
        return None
    lowered = media_type.strip().lower()
    return _MEDIA_TYPE_ALIASES.get(lowered, lowered) or None
