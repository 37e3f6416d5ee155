"""Image bytes: magic-byte sniffing, ``data:`` URLs and media-type normalization."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Final
from urllib.parse import urlsplit

from llmbridge._errors import InvalidMessageError

__all__ = [
    "IMAGE_URL_SCHEMES",
    "check_image_url",
    "is_data_url",
    "normalize_media_type",
    "parse_data_url",
    "sniff_image_type",
    "url_scheme",
]

IMAGE_URL_SCHEMES: Final = frozenset({"http", "https", "gs"})
"""The schemes of image URLs some provider takes (``gs://``: Google Cloud Storage, for Gemini)."""

# URL schemes are case-insensitive (RFC 3986 3.1), and so is the "base64" token (RFC 2397's
# grammar is ABNF, whose quoted strings are case-insensitive).
_DATA_URL: Final = re.compile(
    r"^data:(?P<type>[^;,]*)(?P<params>(?:;[^;,]*)*),(?P<data>.*)$", re.S | re.I
)
_SHOWN_URL_LENGTH: Final = 80
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
    params = match["params"].lower().split(";")
    payload = match["data"]
    if "base64" not in params:
        raise InvalidMessageError("data: URL images must be base64-encoded", field="url")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InvalidMessageError(f"undecodable base64 in data: URL ({exc})", field="url") from None
    return data, match["type"] or None


def is_data_url(url: str) -> bool:
    """Whether ``url`` is a ``data:`` URL (the scheme in any case)."""
    return url[:5].lower() == "data:"


def url_scheme(url: str) -> str:
    """The lower-cased scheme of ``url`` (``""`` when it has none)."""
    scheme, separator, _ = url.partition(":")
    return scheme.lower() if separator else ""


def check_image_url(url: str) -> None:
    """Raise ``InvalidMessageError`` (field ``url``) unless ``url`` is an absolute image URL.

    Accepted: ``http://``, ``https://`` and ``gs://`` URLs with a host, the scheme in any case.
    Refused: other schemes (``file:``, ``ftp:``), relative references (``cat.png``,
    ``//host/x.png``), an empty host, and URLs that do not parse.
    """
    shown = url if len(url) <= _SHOWN_URL_LENGTH else url[:_SHOWN_URL_LENGTH] + "..."
    scheme = url_scheme(url)
    if scheme not in IMAGE_URL_SCHEMES:
        raise InvalidMessageError(
            f"image URLs must be absolute http://, https:// or gs:// URLs (or data: URLs); "
            f"{shown!r} is not (no provider API takes it, and URLs are never downloaded)",
            field="url",
        )
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        raise InvalidMessageError(f"malformed image URL {shown!r} ({exc})", field="url") from None
    if not url[len(scheme) :].startswith("://") or not host:
        raise InvalidMessageError(
            f"image URL {shown!r} has no host (expected {scheme}://host/...)", field="url"
        )


def normalize_media_type(media_type: str | None) -> str | None:
    """Lower-case and strip ``media_type``; ``image/jpg`` and ``image/pjpeg`` become jpeg."""
    if media_type is None:
        return None
    lowered = media_type.strip().lower()
    return _MEDIA_TYPE_ALIASES.get(lowered, lowered) or None
