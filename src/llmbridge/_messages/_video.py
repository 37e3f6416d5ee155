"""``VideoMessage``: a video by URL, as bytes, or as a provider file (API.md 19.2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._media import (
    FileField,
    MediaBytes,
    media_source,
    set_media_fields,
    sniff_video_type,
)
from llmbridge._messages._values import Role

__all__ = ["VideoMessage"]


@dataclass(frozen=True, slots=True, init=False)
class VideoMessage(MediaBytes):
    """A video, by URL, as bytes, or as a file in a provider's Files API.

    Rules: those of ``ImageMessage`` for ``url`` / ``data`` / ``file_id`` (exactly one; a
    ``data:`` URL is parsed into ``data`` and ``media_type``; other URLs absolute
    ``http(s)://`` or ``gs://``, a YouTube ``https://www.youtube.com/watch?v=`` URL among them;
    empty data refused; a ``file_id`` needs its ``file_provider``). mp4 bytes (an ``ftyp`` box
    of brand ``isom``, ``iso2``, ``mp41``, ``mp42``, ``avc1`` or ``dash``) are ``video/mp4``
    whatever type was declared; other bytes need a declared ``media_type``. Only Gemini takes
    video; every other wing drops it with a note (strict: ``UnsupportedMessageError``).
    ``get_content()`` is ``None``. Breaking a rule raises ``InvalidMessageError``.
    """

    role: Role
    url: str | None
    from_: str | None
    data: bytes | None
    media_type: str | None
    file_id: FileField
    file_provider: FileField
    # Caches, not constructor arguments: dataclasses.replace() builds a new one without them.
    _base64: str | None = field(init=False, compare=False, repr=False, hash=False)
    _data_url: str | None = field(init=False, compare=False, repr=False, hash=False)

    def __init__(
        self,
        role: Role | str,
        url: str | None = None,
        from_: str | None = None,
        *,
        data: bytes | None = None,
        file_id: str | None = None,
        file_provider: str | None = None,
        media_type: str | None = None,
    ) -> None:
        url, data, media_type = media_source(
            url, data, media_type, what="video", file_id=file_id, file_provider=file_provider
        )
        if data is not None:
            media_type = sniff_video_type(data) or media_type
            if media_type is None:
                raise InvalidMessageError(
                    "video bytes that are not mp4 need a declared media_type (for example "
                    "video/webm or video/quicktime)",
                    field="media_type",
                )
        set_media_fields(
            self,
            role,
            from_,
            data,
            media_type,
            url=url,
            file_id=file_id,
            file_provider=file_provider,
        )
