"""Images, documents and audio -> Anthropic blocks.

Pure functions over one item: an image becomes an ``image`` block, a PDF a ``document`` block
with a base64 or URL source, a text, markdown or csv document one with a ``text/plain`` text
source, an Anthropic Files API reference either with a ``file`` source; audio has no block type
in the Messages API and is not supported. Lossy changes go through the ``NoteRecorder``.
"""

from __future__ import annotations

from typing import Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    UnsupportedMessageError,
    VideoMessage,
)
from llmbridge.anthropic._merge import Block
from llmbridge.kit import (
    TEXT_DOCUMENT_TYPES,
    MediaPart,
    NoteRecorder,
    check_document,
    check_image,
    document_text,
    omitted_detail,
    unsupported_media_url,
    unsupported_medium,
)

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE_BYTES",
    "document_block",
    "image_block",
    "media_block",
]

MAX_IMAGE_BYTES: Final = 5 * 1024 * 1024
"""Default ``max_image_bytes``: Anthropic refuses an image whose base64 text exceeds 5 MB."""
MAX_DOCUMENT_BYTES: Final = 32 * 1024 * 1024
"""Default ``max_document_bytes``: the base64 text of one document (Anthropic refuses a request
over 32 MB, PDFs included)."""
_NAME: Final = "Anthropic"
# The provider whose file references (file_id) this wing sends: its own Files API.
_FILE_PROVIDERS: Final = ("anthropic",)


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def document_block(
    document: DocumentMessage,
    *,
    recorder: NoteRecorder,
    max_bytes: int | None,
    index: int,
    field_prefix: str = "",
) -> Block | None:
    """The ``document`` block of ``document``, or ``None`` when it cannot be sent (noted).

    An Anthropic file reference (``file_provider="anthropic"``): a ``file`` source (another
    provider's file is dropped, strict mode: ``UnsupportedMessageError``). PDF bytes: a base64
    source (their base64 text at most ``max_bytes`` long, else ``InvalidMessageError`` naming
    field ``data``); a PDF URL Anthropic can fetch (http or https, not a Google Files API URI):
    a URL source; text, markdown and csv bytes: a ``text/plain`` text source (not UTF-8:
    ``InvalidMessageError``). ``filename`` becomes the block's ``title``. Anything else is
    dropped (strict mode: ``UnsupportedMessageError``).
    """
    unsupported = unsupported_media_url(
        document, provider=_NAME, field_prefix=field_prefix, file_providers=_FILE_PROVIDERS
    )
    if unsupported is not None:  # gs://, a Google Files API URI, another provider's file
        recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
        return None
    source: Block | None = None
    if document.file_id is not None:
        source = {"type": "file", "file_id": document.file_id}
    elif document.url is not None:
        if document.is_pdf:
            source = {"type": "url", "url": document.url}
    elif document.is_pdf:
        check_document(
            document,
            max_bytes=max_bytes,
            provider=_NAME,
            index=index,
            field_prefix=field_prefix,
        )
        # base64_data is cached on the message: the document is encoded once.
        source = {"type": "base64", "media_type": "application/pdf", "data": document.base64_data}
    elif document.media_type in TEXT_DOCUMENT_TYPES:
        text = document_text(document, index=index, field_prefix=field_prefix)
        source = {"type": "text", "media_type": "text/plain", "data": text}
    if source is None:
        what = "a document URL" if document.url is not None else f"a {document.media_type} document"
        recorder.record(
            index,
            "dropped",
            f"{what} cannot be sent to {_NAME}{_where(field_prefix)} (it takes PDF bytes, http(s) "
            "PDF URLs and text documents)",
            error=UnsupportedMessageError,
        )
        return None
    block: Block = {"type": "document", "source": source}
    if document.filename is not None:
        block["title"] = document.filename
    return block


def media_block(
    item: MediaPart,
    *,
    recorder: NoteRecorder,
    max_image_bytes: int | None,
    max_document_bytes: int | None,
    index: int,
    field_prefix: str = "",
) -> Block | None:
    """The block of an image or document (``image_block`` / ``document_block``); audio and
    video are dropped with a note (strict mode: ``UnsupportedMessageError``): the Messages API
    has no audio or video block."""
    match item:
        case ImageMessage():
            return image_block(
                item,
                recorder=recorder,
                max_bytes=max_image_bytes,
                index=index,
                field_prefix=field_prefix,
            )
        case DocumentMessage():
            return document_block(
                item,
                recorder=recorder,
                max_bytes=max_document_bytes,
                index=index,
                field_prefix=field_prefix,
            )
        case AudioMessage():
            _drop_audio(item, recorder=recorder, index=index, field_prefix=field_prefix)
            return None
        case VideoMessage():
            reason = unsupported_medium(item, provider=_NAME, field_prefix=field_prefix)
            recorder.record(index, "dropped", reason, error=UnsupportedMessageError)
            return None


def image_block(
    image: ImageMessage,
    *,
    recorder: NoteRecorder,
    max_bytes: int | None,
    index: int,
    field_prefix: str = "",
) -> Block | None:
    """The ``image`` block of ``image`` (base64, URL or, for an Anthropic file reference, ``file``
    source), or ``None`` for a URL Anthropic cannot fetch (``gs://``, a Google Files API URI) or
    another provider's file (dropped with a note; strict mode: ``UnsupportedMessageError``).
    Raises as ``check_image`` does; a ``detail`` is omitted (noted)."""
    unsupported = unsupported_media_url(
        image, provider=_NAME, field_prefix=field_prefix, file_providers=_FILE_PROVIDERS
    )
    if unsupported is not None:  # gs://, a Google Files API URI, another provider's file
        recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
        return None
    omitted = omitted_detail(image, provider=_NAME, field_prefix=field_prefix)
    if omitted is not None:
        recorder.record(index, "omitted", omitted)
    if image.file_id is not None:
        return {"type": "image", "source": {"type": "file", "file_id": image.file_id}}
    if image.url is not None:
        return {"type": "image", "source": {"type": "url", "url": image.url}}
    check_image(image, max_bytes=max_bytes, provider=_NAME, index=index, field_prefix=field_prefix)
    source = {"type": "base64", "media_type": image.media_type, "data": image.base64_data}
    return {"type": "image", "source": source}


def _drop_audio(
    audio: AudioMessage, *, recorder: NoteRecorder, index: int, field_prefix: str
) -> None:
    recorder.record(
        index,
        "dropped",
        f"{audio.media_type or 'file reference'} audio cannot be sent to {_NAME}"
        f"{_where(field_prefix)} (the Messages API has no audio input)",
        error=UnsupportedMessageError,
    )
