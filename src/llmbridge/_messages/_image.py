"""``ImageMessage``: an image by URL or as bytes, with its construction rules."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Final, Literal

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._media import (
    check_image_url,
    is_data_url,
    normalize_media_type,
    parse_data_url,
    sniff_image_type,
)
from llmbridge._messages._values import Message, Role, as_role, set_field

__all__ = ["ImageDetail", "ImageMessage"]

ImageDetail = Literal["auto", "low", "high"]
"""How closely a provider should look at an image (a hint; ``None``: the provider's default)."""
_DETAILS: Final = frozenset({"auto", "low", "high"})


@dataclass(frozen=True, slots=True, init=False)
class ImageMessage(Message):
    """An image, by URL or as bytes.

    Rules: exactly one of ``url`` / ``data``; a ``data:`` URL (any case) is parsed into ``data``
    and ``media_type``; any other URL must be an absolute ``http://``, ``https://`` or ``gs://``
    URL with a host (scheme in any case); png, jpeg, gif and webp bytes are recognised by their
    magic bytes and that type wins over a conflicting declared one; ``image/jpg`` becomes
    ``image/jpeg``; other bytes need a declared ``media_type``. Breaking a rule raises
    ``InvalidMessageError``.
    ``base64_data`` and ``data_url`` are computed once per image and cached.
    """

    role: Role
    url: str | None
    from_: str | None
    data: bytes | None
    media_type: str | None
    detail: ImageDetail | None
    # Caches, not constructor arguments: dataclasses.replace() builds a new image without them.
    _base64: str | None = field(init=False, compare=False, repr=False, hash=False)
    _data_url: str | None = field(init=False, compare=False, repr=False, hash=False)

    def __init__(
        self,
        role: Role | str,
        url: str | None = None,
        from_: str | None = None,
        *,
        data: bytes | None = None,
        media_type: str | None = None,
        detail: ImageDetail | None = None,
    ) -> None:
        if (url is None) == (data is None):
            raise InvalidMessageError("exactly one of url and data must be given", field="url")
        if detail is not None and detail not in _DETAILS:
            raise InvalidMessageError(
                f"detail must be 'auto', 'low' or 'high', got {detail!r}", field="detail"
            )
        if url is not None:
            if not isinstance(url, str) or not url.strip():
                raise InvalidMessageError("url must be a non-empty string", field="url")
            if is_data_url(url):
                data, declared = parse_data_url(url)
                media_type = media_type or declared
                url = None
            else:
                check_image_url(url)
        if data is not None:
            if not isinstance(data, bytes | bytearray | memoryview):
                raise InvalidMessageError(
                    f"data must be bytes, got {type(data).__name__}", field="data"
                )
            data = bytes(data)
            if not data:
                raise InvalidMessageError("image data is empty", field="data")
            media_type = sniff_image_type(data) or normalize_media_type(media_type)
            if media_type is None:
                raise InvalidMessageError(
                    "unrecognised image bytes need a declared media_type", field="media_type"
                )
        elif media_type is not None:
            media_type = normalize_media_type(media_type)
        set_field(self, "role", as_role(role))
        set_field(self, "url", url)
        set_field(self, "from_", from_)
        set_field(self, "data", data)
        set_field(self, "media_type", media_type)
        set_field(self, "detail", detail)
        set_field(self, "_base64", None)
        set_field(self, "_data_url", None)

    @property
    def base64_data(self) -> str | None:
        """The image bytes as base64 text (no ``data:`` prefix), or ``None`` for URL images."""
        if self.data is None:
            return None
        if self._base64 is None:
            set_field(self, "_base64", base64.b64encode(self.data).decode("ascii"))
        return self._base64

    @property
    def data_url(self) -> str:
        """The image as a URL: its ``url``, or a ``data:<media_type>;base64,...`` URL.

        Built once per image and cached, like ``base64_data``.
        """
        if self.url is not None:
            return self.url
        if self._data_url is None:
            # From the cached base64 when there is one; else straight from the bytes, so that
            # an image sent only as a data URL is not held twice.
            encoded = self._base64
            if encoded is None:
                assert self.data is not None
                encoded = base64.b64encode(self.data).decode("ascii")
            set_field(self, "_data_url", f"data:{self.media_type};base64,{encoded}")
        assert self._data_url is not None
        return self._data_url
