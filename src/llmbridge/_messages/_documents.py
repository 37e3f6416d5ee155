"""``DocumentMessage`` and ``AudioMessage``: documents (PDF, text) and audio, with the url/data
/file rules they share with ``ImageMessage`` (``_media``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._media import (
    PDF_MAGIC,
    FileField,
    MediaBytes,
    media_source,
    set_media_fields,
    sniff_audio_type,
)
from llmbridge._messages._values import Role

__all__ = ["MAPPED_DOCUMENT_TYPES", "PDF", "AudioMessage", "DocumentMessage"]

PDF: Final = "application/pdf"
"""The media type of PDF documents."""

MAPPED_DOCUMENT_TYPES: Final = frozenset({PDF, "text/plain", "text/markdown", "text/csv"})
"""The document types every provider is mapped for (others may be unsupported)."""


@dataclass(frozen=True, slots=True, init=False)
class DocumentMessage(MediaBytes):
    """A document (a PDF, a text, markdown or csv file), by URL, as bytes, or as a file in a
    provider's Files API (``file_id`` and ``file_provider``, the rules of ``ImageMessage``).

    Rules: those of ``ImageMessage`` for ``url`` / ``data`` / ``file_id`` (exactly one; a
    ``data:`` URL is parsed into ``data`` and ``media_type``; other URLs absolute ``http(s)://`` or ``gs://``;
    empty data refused). Bytes starting with ``%PDF-`` are ``application/pdf`` whatever type was
    declared; other bytes need a declared ``media_type``. A URL's ``media_type`` may stay
    ``None`` (connectors take it for a PDF). ``filename`` is sent where a provider has a field
    for it. ``get_content()`` is ``None``. Breaking a rule raises ``InvalidMessageError``.
    ``base64_data`` and ``data_url`` are computed once per document and cached.
    """

    role: Role
    url: str | None
    from_: str | None
    data: bytes | None
    media_type: str | None
    filename: str | None
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
        media_type: str | None = None,
        filename: str | None = None,
        file_id: str | None = None,
        file_provider: str | None = None,
    ) -> None:
        if filename is not None and (not isinstance(filename, str) or not filename.strip()):
            raise InvalidMessageError(
                "filename must be a non-empty string or None", field="filename"
            )
        url, data, media_type = media_source(
            url, data, media_type, what="document", file_id=file_id, file_provider=file_provider
        )
        if data is not None:
            if data.startswith(PDF_MAGIC):
                media_type = PDF
            elif media_type is None:
                raise InvalidMessageError(
                    "document bytes that are not a PDF need a declared media_type (for example "
                    "text/plain, text/markdown or text/csv)",
                    field="media_type",
                )
        set_media_fields(
            self,
            role,
            from_,
            data,
            media_type,
            url=url,
            filename=filename,
            file_id=file_id,
            file_provider=file_provider,
        )

    @property
    def is_pdf(self) -> bool:
        """Whether this is a PDF: PDF bytes, or a URL or file declared PDF or of no declared
        type."""
        return self.media_type == PDF or (self.data is None and self.media_type is None)


@dataclass(frozen=True, slots=True, init=False)
class AudioMessage(MediaBytes):
    """Audio, as bytes or as a file in a provider's Files API (audio is never sent by URL).

    Rules: exactly one of ``data`` (non-empty bytes; a ``data:`` URL is not accepted here: pass
    its bytes) and ``file_id`` (with its ``file_provider``, the rules of ``ImageMessage``).
    ``audio/wav`` (RIFF....WAVE) and ``audio/mpeg`` (an ID3 tag or an MPEG frame sync) are
    sniffed and win over a declared type; other bytes need a declared ``media_type``
    (``audio/x-wav`` and ``audio/mp3`` are normalized). ``get_content()`` is ``None``. Breaking a
    rule raises ``InvalidMessageError``. ``base64_data`` is computed once and cached.
    """

    role: Role
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
        from_: str | None = None,
        *,
        data: bytes | None = None,
        media_type: str | None = None,
        file_id: str | None = None,
        file_provider: str | None = None,
    ) -> None:
        if data is None and file_id is None:
            raise InvalidMessageError(
                "audio needs its bytes (data) or a provider file (file_id)", field="data"
            )
        _, checked, media_type = media_source(
            None, data, media_type, what="audio", file_id=file_id, file_provider=file_provider
        )
        if checked is not None:
            media_type = sniff_audio_type(checked) or media_type
            if media_type is None:
                raise InvalidMessageError(
                    "unrecognised audio bytes need a declared media_type", field="media_type"
                )
        set_media_fields(
            self, role, from_, checked, media_type, file_id=file_id, file_provider=file_provider
        )

    @property
    def url(self) -> None:  # type: ignore[override]
        """Always ``None``: audio is carried as bytes or as a provider file."""
        return None
