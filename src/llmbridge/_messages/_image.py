"""``ImageMessage``: an image by URL or as bytes, with its construction rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._media import (
    FileField,
    MediaBytes,
    media_source,
    set_media_fields,
    sniff_image_type,
)
from llmbridge._messages._values import Role

__all__ = ["ImageDetail", "ImageMessage"]

ImageDetail = Literal["auto", "low", "high"]
"""How closely a provider should look at an image (a hint; ``None``: the provider's default)."""
_DETAILS: Final = frozenset({"auto", "low", "high"})


@dataclass(frozen=True, slots=True, init=False)
class ImageMessage(MediaBytes):
    """An image, by URL, as bytes, or as a file in a provider's Files API.

    Rules: exactly one of ``url`` / ``data`` / ``file_id``; a ``file_id`` needs
    ``file_provider``, the tag of the provider that holds it (and, for ``"gemini"``, a
    ``media_type``), and is sent only to that provider's wings; a ``data:`` URL (any case) is
    parsed into ``data`` and ``media_type``; any other URL must be an absolute ``http://``,
    ``https://`` or ``gs://`` URL with a host (scheme in any case); png, jpeg, gif and webp
    bytes are recognised by their magic bytes and that type wins over a conflicting declared
    one; ``image/jpg`` becomes ``image/jpeg``; other bytes need a declared ``media_type``.
    Breaking a rule raises ``InvalidMessageError``. ``base64_data`` and ``data_url`` are
    computed once per image and cached.
    """

    role: Role
    url: str | None
    from_: str | None
    data: bytes | None
    media_type: str | None
    detail: ImageDetail | None
    file_id: FileField
    file_provider: FileField
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
        file_id: str | None = None,
        file_provider: str | None = None,
    ) -> None:
        if detail is not None and detail not in _DETAILS:
            raise InvalidMessageError(
                f"detail must be 'auto', 'low' or 'high', got {detail!r}", field="detail"
            )
        url, data, media_type = media_source(
            url, data, media_type, what="image", file_id=file_id, file_provider=file_provider
        )
        if data is not None:
            media_type = sniff_image_type(data) or media_type
            if media_type is None:
                raise InvalidMessageError(
                    "unrecognised image bytes need a declared media_type", field="media_type"
                )
        set_media_fields(
            self,
            role,
            from_,
            data,
            media_type,
            url=url,
            detail=detail,
            file_id=file_id,
            file_provider=file_provider,
        )
