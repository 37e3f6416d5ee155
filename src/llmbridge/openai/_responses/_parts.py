"""Content parts of user items and tool outputs: text, images, documents (audio refused).

``PartBuilder`` is the part of the ``Converter`` (``_convert``) that turns one item of a
multimodal message or of a tool result of parts into an ``input_text`` / ``input_image`` /
``input_file`` part, through the one lenient/strict decision point (its ``recorder``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    TextMessage,
    UnsupportedMessageError,
    VideoMessage,
)
from llmbridge.kit import (
    NoteRecorder,
    check_image,
    check_text,
    unsupported_media_url,
    unsupported_medium,
)
from llmbridge.openai._responses._media import FILE_PROVIDERS, document_part

__all__ = ["IMAGE_URL_SCHEMES", "PartBuilder"]

IMAGE_URL_SCHEMES: Final = frozenset({"https"})
"""``input_image.image_url`` takes an https URL or a data URL."""
_TITLE: Final = "OpenAI Responses"


class PartBuilder:
    """Builds content parts; the subclass provides the ``recorder`` and the size limits."""

    __slots__ = ()

    recorder: NoteRecorder
    max_image_bytes: int | None
    max_document_bytes: int | None

    def _text(self, text: str, index: int, field: str) -> str | None:
        if not text.isascii():
            check_text(text, index=index, field=field)
        if text and not text.isspace():
            return text
        self.recorder.record(index, "dropped", "empty or whitespace-only text", field=field)
        return None

    def _image_part(
        self, image: ImageMessage, index: int, prefix: str = ""
    ) -> dict[str, Any] | None:
        unsupported = unsupported_media_url(
            image,
            schemes=IMAGE_URL_SCHEMES,
            provider=_TITLE,
            field_prefix=prefix,
            file_providers=FILE_PROVIDERS,
        )
        if unsupported is not None:
            self.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
            return None
        if image.file_id is not None:
            return {
                "type": "input_image",
                "file_id": image.file_id,
                "detail": image.detail or "auto",
            }
        check_image(
            image, max_bytes=self.max_image_bytes, provider=_TITLE, index=index, field_prefix=prefix
        )
        url = image.url if image.url is not None else image.data_url
        return {"type": "input_image", "image_url": url, "detail": image.detail or "auto"}

    def _audio(self, index: int, where: str = "") -> None:
        self.recorder.record(
            index,
            "dropped",
            f"audio cannot be sent to {_TITLE}{where} (its message content takes text, images "
            "and files)",
            error=UnsupportedMessageError,
        )

    def _part(
        self, item: Message, index: int, field: str, *, detail: bool = False
    ) -> dict[str, Any] | None:
        """The content part of one item of a multimodal message or a parts result."""
        prefix = f"{field}." if field else ""
        match item:
            case ImageMessage():
                return self._image_part(item, index, prefix)
            case DocumentMessage():
                return document_part(
                    item,
                    recorder=self.recorder,
                    max_bytes=self.max_document_bytes,
                    index=index,
                    field_prefix=prefix,
                    detail=detail,
                )
            case AudioMessage():
                self._audio(index, f" ({field})" if field else "")
                return None
            case VideoMessage():
                reason = unsupported_medium(item, provider=_TITLE, field_prefix=prefix)
                self.recorder.record(index, "dropped", reason, error=UnsupportedMessageError)
                return None
            case TextMessage():
                text = self._text(item.content, index, field or "content")
                return None if text is None else {"type": "input_text", "text": text}
            case _:
                raise InvalidMessageError(
                    f"{type(item).__name__} cannot be a part", index=index, field=field
                )

    def _output_parts(
        self, result: Sequence[Message], index: int, field: str, *, detail: bool = True
    ) -> list[dict[str, Any]]:
        """The parts of a parts result; ``detail``: files carry ``"detail": "auto"`` and text
        goes as it is (in a ``function_call_output``); else the parts of a user item (no detail
        on files, as a document's; empty text dropped, as in a multimodal message)."""
        parts: list[dict[str, Any]] = []
        for position, item in enumerate(result):
            where = f"{field}[{position}]"
            if isinstance(item, TextMessage) and detail:
                # In an output, text parts go as they are: an empty one is part of the output.
                if not item.content.isascii():
                    check_text(item.content, index=index, field=where)
                part: dict[str, Any] | None = {"type": "input_text", "text": item.content}
            else:
                part = self._part(item, index, where, detail=detail)
            if part is not None:
                parts.append(part)
        return parts
