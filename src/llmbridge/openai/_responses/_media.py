"""Documents, audio and media tool results -> OpenAI Responses content parts.

PDF bytes go as ``input_file`` with a data URL and a filename, PDF URLs as ``input_file``
``file_url``; text documents as ``input_text`` headed by their file name; audio is not taken in
Responses message content. Tool results with media are native here: ``function_call_output``'s
``output`` is a list of ``input_text`` / ``input_image`` / ``input_file`` parts.
"""

from __future__ import annotations

from typing import Any, Final

from llmbridge import DocumentMessage, UnsupportedMessageError
from llmbridge.kit import (
    TEXT_DOCUMENT_TYPES,
    NoteRecorder,
    check_document,
    document_text,
    unsupported_media_url,
)

# The same API family as Chat Completions: its file limit and default names.
from llmbridge.openai._media import (
    DEFAULT_PDF_NAME,
    DEFAULT_TEXT_NAME,
    FILE_PROVIDERS,
    MAX_DOCUMENT_BYTES,
)

__all__ = [
    "DEFAULT_PDF_NAME",
    "DEFAULT_TEXT_NAME",
    "FILE_PROVIDERS",
    "MAX_DOCUMENT_BYTES",
    "document_part",
]

_TITLE: Final = "OpenAI Responses"


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def document_part(
    document: DocumentMessage,
    *,
    recorder: NoteRecorder,
    max_bytes: int | None,
    index: int,
    field_prefix: str = "",
    detail: bool = False,
) -> dict[str, Any] | None:
    """The content part of ``document``, or ``None`` when it cannot be sent (noted).

    An OpenAI file reference: ``input_file`` ``{file_id}`` (another provider's: dropped as
    below); PDF bytes: ``input_file`` ``{filename, file_data}`` (a data URL; ``filename``
    defaults to ``"document.pdf"``); a PDF URL: ``input_file`` ``{file_url}`` (never downloaded;
    a URL the API cannot fetch, ``gs://`` or a Google Files API URI, is dropped as below); text,
    markdown and csv bytes: ``input_text`` ``"<filename>\\n<text>"`` (default name
    ``"document.txt"``; a ``"repaired"`` note). ``detail`` adds ``"detail": "auto"`` to a file
    part (tool outputs). Other documents are dropped (strict mode: ``UnsupportedMessageError``).
    Raises ``InvalidMessageError`` for bytes over ``max_bytes`` of base64 and for text documents
    that are not UTF-8.
    """
    unsupported = unsupported_media_url(
        document, provider=_TITLE, field_prefix=field_prefix, file_providers=FILE_PROVIDERS
    )
    if unsupported is not None:
        recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
        return None
    part: dict[str, Any]
    if document.file_id is not None:  # any file type: the API reads what the file holds
        part = {"type": "input_file", "file_id": document.file_id}
        if detail:
            part["detail"] = "auto"
        return part
    if document.is_pdf:
        if document.url is not None:
            part = {"type": "input_file", "file_url": document.url}
        else:
            check_document(
                document,
                max_bytes=max_bytes,
                provider=_TITLE,
                index=index,
                field_prefix=field_prefix,
            )
            # data_url is cached on the message: the document is base64-encoded once.
            part = {
                "type": "input_file",
                "filename": document.filename or DEFAULT_PDF_NAME,
                "file_data": document.data_url,
            }
        if detail:
            part["detail"] = "auto"
        return part
    if document.data is not None and document.media_type in TEXT_DOCUMENT_TYPES:
        text = document_text(document, index=index, field_prefix=field_prefix)
        recorder.record(
            index,
            "repaired",
            f"a {document.media_type} document is sent to {_TITLE} as input_text headed by its "
            f"file name{_where(field_prefix)}",
        )
        return {"type": "input_text", "text": f"{document.filename or DEFAULT_TEXT_NAME}\n{text}"}
    where = "URLs" if document.data is None else "documents"
    recorder.record(
        index,
        "dropped",
        f"{document.media_type} {where} cannot be sent to {_TITLE}{_where(field_prefix)} (it "
        "takes PDF bytes and URLs, and text documents as bytes)",
        error=UnsupportedMessageError,
    )
    return None
