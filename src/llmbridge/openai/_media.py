"""Documents, audio and media tool results -> OpenAI Chat Completions content parts.

Pure functions over one item and ``MediaBatch``, the
one user message that carries the media of a batch of tool results: tool messages take text
only, so their media follow the last tool message of the batch, each labelled with its call id.
"""

from __future__ import annotations

from typing import Final, Literal

from openai.types.chat import ChatCompletionContentPartParam, ChatCompletionUserMessageParam
from openai.types.chat.chat_completion_content_part_input_audio_param import (
    ChatCompletionContentPartInputAudioParam,
)
from openai.types.chat.chat_completion_content_part_param import File

from llmbridge import AudioMessage, DocumentMessage, UnsupportedMessageError
from llmbridge.kit import (
    TEXT_DOCUMENT_TYPES,
    NoteRecorder,
    check_document,
    document_text,
    unsupported_media_url,
)

__all__ = [
    "AUDIO_FORMATS",
    "DEFAULT_PDF_NAME",
    "DEFAULT_TEXT_NAME",
    "FILE_PROVIDERS",
    "MAX_DOCUMENT_BYTES",
    "MEDIA_PLACEHOLDER",
    "MediaBatch",
    "audio_part",
    "document_part",
]

MAX_DOCUMENT_BYTES: Final = 32 * 1024 * 1024
"""Default ``max_document_bytes``: the base64 text of one document (OpenAI's file inputs take
at most 32 MB of content per request)."""
AUDIO_FORMATS: Final[dict[str, Literal["wav", "mp3"]]] = {"audio/wav": "wav", "audio/mpeg": "mp3"}
"""The ``input_audio`` format of each audio type Chat Completions takes."""
FILE_PROVIDERS: Final = ("openai",)
"""The ``file_provider`` tags whose files the OpenAI wings send by id (API.md 19.1)."""
DEFAULT_PDF_NAME: Final = "document.pdf"
DEFAULT_TEXT_NAME: Final = "document.txt"
MEDIA_PLACEHOLDER: Final = "[media attached below]"
"""The tool message content of a result that is media only (the API refuses no content)."""
_PROVIDER: Final = "OpenAI Chat Completions"


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def document_part(
    document: DocumentMessage,
    *,
    recorder: NoteRecorder,
    max_bytes: int | None,
    index: int,
    field_prefix: str = "",
) -> ChatCompletionContentPartParam | None:
    """The content part of ``document``, or ``None`` when it cannot be sent (noted).

    An OpenAI file reference to a PDF: a ``file`` part ``{file_id}``; other file references are
    dropped as below. PDF bytes: a ``file`` part with a data URL (``filename`` defaults to
    ``"document.pdf"``); text, markdown and csv bytes: a text part ``"<filename>\\n<text>"``
    (default name ``"document.txt"``; a ``"repaired"`` note). A PDF URL or another type is
    dropped (strict mode: ``UnsupportedMessageError``). Raises ``InvalidMessageError`` for bytes
    over ``max_bytes`` of base64 and for text documents that are not UTF-8.
    """
    if (
        document.file_id is not None
        and document.file_provider in FILE_PROVIDERS
        and document.is_pdf
    ):
        file_part: File = {"type": "file", "file": {"file_id": document.file_id}}
        return file_part
    if document.file_id is not None:
        reason = unsupported_media_url(document, provider=_PROVIDER, field_prefix=field_prefix)
        recorder.record(index, "dropped", reason or "", error=UnsupportedMessageError)
        return None
    if document.data is None:
        recorder.record(
            index,
            "dropped",
            f"document URLs cannot be sent to {_PROVIDER}{_where(field_prefix)}: it takes PDF "
            "bytes (URLs are never downloaded)",
            error=UnsupportedMessageError,
        )
        return None
    if document.is_pdf:
        check_document(
            document,
            max_bytes=max_bytes,
            provider=_PROVIDER,
            index=index,
            field_prefix=field_prefix,
        )
        # data_url is cached on the message: the document is base64-encoded once.
        file: File = {
            "type": "file",
            "file": {
                "filename": document.filename or DEFAULT_PDF_NAME,
                "file_data": document.data_url,
            },
        }
        return file
    if document.media_type in TEXT_DOCUMENT_TYPES:
        text = document_text(document, index=index, field_prefix=field_prefix)
        recorder.record(
            index,
            "repaired",
            f"a {document.media_type} document is sent to {_PROVIDER} as a text part headed by "
            f"its file name{_where(field_prefix)}",
        )
        return {"type": "text", "text": f"{document.filename or DEFAULT_TEXT_NAME}\n{text}"}
    recorder.record(
        index,
        "dropped",
        f"{document.media_type} documents cannot be sent to {_PROVIDER}{_where(field_prefix)} "
        "(it takes PDF and text documents)",
        error=UnsupportedMessageError,
    )
    return None


def audio_part(
    audio: AudioMessage, *, recorder: NoteRecorder, index: int, field_prefix: str = ""
) -> ChatCompletionContentPartInputAudioParam | None:
    """The ``input_audio`` part of wav or mp3 ``audio``; other types and audio file references
    are dropped (noted; strict mode: ``UnsupportedMessageError``)."""
    if audio.file_id is not None:  # Chat takes audio as bytes only (API.md 19.7)
        reason = unsupported_media_url(audio, provider=_PROVIDER, field_prefix=field_prefix)
        recorder.record(index, "dropped", reason or "", error=UnsupportedMessageError)
        return None
    audio_format = AUDIO_FORMATS.get(audio.media_type or "")
    if audio_format is None:
        recorder.record(
            index,
            "dropped",
            f"{audio.media_type} audio cannot be sent to {_PROVIDER}{_where(field_prefix)} "
            "(it takes wav and mp3)",
            error=UnsupportedMessageError,
        )
        return None
    assert audio.base64_data is not None  # not a file reference: bytes
    return {
        "type": "input_audio",
        "input_audio": {"data": audio.base64_data, "format": audio_format},
    }


class MediaBatch:
    """The media of the tool results of one batch, until the batch's last tool message.

    ``add(call_id, parts, index)`` keeps the parts of one result, each after a text part
    ``"[result of <call_id>]"``; ``take()`` returns the one user message that carries them all
    (``None`` when there are none) and the neutral index of its first result, and empties the
    batch.
    """

    __slots__ = ("first_index", "parts")

    def __init__(self) -> None:
        self.parts: list[ChatCompletionContentPartParam] = []
        self.first_index = -1

    def add(self, call_id: str, parts: list[ChatCompletionContentPartParam], index: int) -> None:
        """Keep ``parts`` (the media of the result of ``call_id``, neutral index ``index``)."""
        if not self.parts:
            self.first_index = index
        label = f"[result of {call_id}]"
        for part in parts:
            self.parts.append({"type": "text", "text": label})
            self.parts.append(part)

    def take(self) -> tuple[ChatCompletionUserMessageParam, int] | None:
        """The user message of the batch's media and its index, or ``None``; empties it."""
        if not self.parts:
            return None
        message: ChatCompletionUserMessageParam = {"role": "user", "content": self.parts}
        self.parts = []
        return message, self.first_index
