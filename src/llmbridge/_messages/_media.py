"""Media bytes (images, documents, audio): magic-byte sniffing, ``data:`` URLs, media-type
normalization, the url/data construction rules the media messages share, and their base64 cache."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Annotated, Final, TypeAlias
from urllib.parse import urlsplit

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._values import Message, Role, as_role, set_field

__all__ = [
    "IMAGE_URL_SCHEMES",
    "OMITTED_WHEN_EMPTY",
    "FileField",
    "MediaBytes",
    "check_file_reference",
    "check_media_url",
    "is_data_url",
    "media_source",
    "normalize_media_type",
    "parse_data_url",
    "set_media_fields",
    "sniff_audio_type",
    "sniff_image_type",
    "sniff_video_type",
    "url_scheme",
]

OMITTED_WHEN_EMPTY: Final = "omitted when empty"
"""Marks a field that ``dump_messages`` leaves out when empty, so that JSON written before the
field existed loads unchanged and dumps byte-identical."""
FileField: TypeAlias = Annotated[str | None, OMITTED_WHEN_EMPTY]
"""The type of ``file_id`` and ``file_provider`` (API.md 19.1)."""

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
_MEDIA_TYPE_ALIASES: Final = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "audio/mp3": "audio/mpeg",
    "audio/x-mp3": "audio/mpeg",
}
PDF_MAGIC: Final = b"%PDF-"
"""The first bytes of every PDF file."""


def sniff_image_type(data: bytes) -> str | None:
    """Return the media type of png, jpeg, gif or webp bytes by their magic bytes, else ``None``."""
    for magic, media_type in _MAGIC:
        if data.startswith(magic):
            return media_type
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def sniff_audio_type(data: bytes) -> str | None:
    """Return ``audio/wav`` (RIFF....WAVE) or ``audio/mpeg`` (an ID3 tag or an MPEG frame sync,
    eleven set bits) for such bytes, else ``None``."""
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "audio/wav"
    if data.startswith(b"ID3") or (len(data) >= 2 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0):
        return "audio/mpeg"
    return None


# ISO base media files (mp4) open with a box ``....ftyp<major brand>``; these brands are mp4.
_MP4_BRANDS: Final = frozenset({b"isom", b"iso2", b"mp41", b"mp42", b"avc1", b"dash"})


def sniff_video_type(data: bytes) -> str | None:
    """Return ``video/mp4`` for bytes whose ``ftyp`` box names an mp4 major brand (``isom``,
    ``iso2``, ``mp41``, ``mp42``, ``avc1``, ``dash``), else ``None``."""
    if len(data) >= 12 and data[4:8] == b"ftyp" and data[8:12] in _MP4_BRANDS:
        return "video/mp4"
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
        raise InvalidMessageError("data: URLs must be base64-encoded", field="url")
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


def check_media_url(url: str, what: str = "image") -> None:
    """Raise ``InvalidMessageError`` (field ``url``) unless ``url`` is an absolute media URL.

    ``what`` names the medium in the error (``"image"``, ``"document"``).

    Accepted: ``http://``, ``https://`` and ``gs://`` URLs with a host, the scheme in any case.
    Refused: other schemes (``file:``, ``ftp:``), relative references (``cat.png``,
    ``//host/x.png``), an empty host, and URLs that do not parse.
    """
    shown = url if len(url) <= _SHOWN_URL_LENGTH else url[:_SHOWN_URL_LENGTH] + "..."
    scheme = url_scheme(url)
    if scheme not in IMAGE_URL_SCHEMES:
        raise InvalidMessageError(
            f"{what} URLs must be absolute http://, https:// or gs:// URLs (or data: URLs); "
            f"{shown!r} is not (no provider API takes it, and URLs are never downloaded)",
            field="url",
        )
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as exc:  # e.g. an unclosed IPv6 bracket
        raise InvalidMessageError(f"malformed {what} URL {shown!r} ({exc})", field="url") from None
    if not url[len(scheme) :].startswith("://") or not host:
        raise InvalidMessageError(
            f"{what} URL {shown!r} has no host (expected {scheme}://host/...)", field="url"
        )


def normalize_media_type(media_type: str | None) -> str | None:
    """Lower-case and strip ``media_type``; ``image/jpg`` and ``image/pjpeg`` become jpeg."""
    if media_type is None:
        return None
    lowered = media_type.strip().lower()
    return _MEDIA_TYPE_ALIASES.get(lowered, lowered) or None


def check_file_reference(
    file_id: str | None, file_provider: str | None, media_type: str | None
) -> None:
    """Raise ``InvalidMessageError`` unless ``file_id`` / ``file_provider`` are a valid pair.

    A provider file reference (API.md 19.1) is a non-empty ``file_id`` with the tag of the
    provider whose Files API holds it (``file_provider``); Gemini's needs a ``media_type`` (its
    ``file_data`` part names one). ``file_provider`` without ``file_id`` is refused.
    """
    if file_id is None:
        if file_provider is not None:
            raise InvalidMessageError(
                "file_provider is given only with a file_id", field="file_provider"
            )
        return
    if not isinstance(file_id, str) or not file_id.strip():
        raise InvalidMessageError("file_id must be a non-empty string", field="file_id")
    if not isinstance(file_provider, str) or not file_provider.strip():
        raise InvalidMessageError(
            "a file_id needs the provider tag of the Files API that holds it (file_provider)",
            field="file_provider",
        )
    if file_provider == "gemini" and media_type is None:
        raise InvalidMessageError(
            "a Gemini file reference needs its media_type (Gemini's file_data names one)",
            field="media_type",
        )


def media_source(
    url: str | None,
    data: bytes | None,
    media_type: str | None,
    *,
    what: str,
    file_id: str | None = None,
    file_provider: str | None = None,
) -> tuple[str | None, bytes | None, str | None]:
    """Apply the url/data rules every media message shares; return ``(url, data, media_type)``.

    Exactly one of ``url`` / ``data`` / ``file_id``; a ``data:`` URL is parsed into bytes and
    its declared type (``url`` then ``None``); another URL must pass ``check_media_url``;
    bytes-like data becomes ``bytes`` and must not be empty; a file reference must pass
    ``check_file_reference``. ``media_type`` is returned normalized (the declared one, or the
    data URL's). Raises ``InvalidMessageError`` naming the field; ``what`` names the medium.
    """
    if (url is not None) + (data is not None) + (file_id is not None) != 1:
        sources = "url, data and file_id" if file_id is not None else "url and data"
        raise InvalidMessageError(
            f"exactly one of {sources} must be given (or a file_id with its file_provider)",
            field="url",
        )
    media_type = normalize_media_type(media_type)
    check_file_reference(file_id, file_provider, media_type)
    if url is not None:
        if not isinstance(url, str) or not url.strip():
            raise InvalidMessageError("url must be a non-empty string", field="url")
        if is_data_url(url):
            data, declared = parse_data_url(url)
            media_type = media_type or normalize_media_type(declared)
            url = None
        else:
            check_media_url(url, what)
    if data is not None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise InvalidMessageError(
                f"data must be bytes, got {type(data).__name__}", field="data"
            )
        data = bytes(data)
        if not data:
            raise InvalidMessageError(f"{what} data is empty", field="data")
    return url, data, media_type


class MediaBytes(Message):
    """Base of the media messages: ``base64_data`` and ``data_url``, each computed once.

    A subclass declares ``url``, ``data``, ``media_type`` and the two cache fields ``_base64``
    and ``_data_url`` (``init=False``: ``dataclasses.replace`` builds a new object without them,
    so the caches always belong to the bytes they were computed from).
    """

    __slots__ = ()
    url: str | None
    data: bytes | None
    media_type: str | None
    file_id: str | None
    file_provider: str | None
    _base64: str | None
    _data_url: str | None

    @property
    def base64_data(self) -> str | None:
        """The bytes as base64 text (no ``data:`` prefix), or ``None`` for a URL."""
        if self.data is None:
            return None
        if self._base64 is None:
            set_field(self, "_base64", base64.b64encode(self.data).decode("ascii"))
        return self._base64

    @property
    def data_url(self) -> str:
        """The medium as a URL: its ``url``, or a ``data:<media_type>;base64,...`` URL.

        Built once per object and cached, like ``base64_data``.
        """
        if self.url is not None:
            return self.url
        if self.data is None:
            raise InvalidMessageError(
                f"a file reference ({self.file_provider} file {self.file_id!r}) has no data URL: "
                "only a wing of its provider can send it",
                field="file_id",
            )
        if self._data_url is None:
            # From the cached base64 when there is one; else straight from the bytes, so that
            # bytes sent only as a data URL are not held twice.
            encoded = self._base64
            if encoded is None:
                encoded = base64.b64encode(self.data).decode("ascii")
            set_field(self, "_data_url", f"data:{self.media_type};base64,{encoded}")
        assert self._data_url is not None
        return self._data_url


def set_media_fields(
    message: MediaBytes,
    role: Role | str,
    from_: str | None,
    data: bytes | None,
    media_type: str | None,
    **fields: object,
) -> None:
    """Set a media message's fields once its constructor has checked them; caches start empty.

    ``role`` is normalised (``ValueError`` for an unknown one); ``fields`` are the type's own
    (``url``, ``detail``, ``filename``, ``file_id``, ``file_provider``), set as given.
    """
    set_field(message, "role", as_role(role))
    set_field(message, "from_", from_)
    set_field(message, "data", data)
    set_field(message, "media_type", media_type)
    for name, value in fields.items():
        set_field(message, name, value)
    set_field(message, "_base64", None)
    set_field(message, "_data_url", None)
