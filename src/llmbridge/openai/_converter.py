"""The state of one OpenAI Chat Completions conversion, and the content parts it builds.

``Converter`` holds the output, the neutral index of each output message, the notes, the names
it sanitized and the media waiting for the end of a batch of tool results; its ``*_part``
methods build the content parts of images, documents and audio after the neutral checks.
"""

from __future__ import annotations

from typing import Final

from openai.types.chat import (
    ChatCompletionContentPartParam,
    ChatCompletionMessageParam,
    ChatCompletionUserMessageParam,
)
from openai.types.chat.chat_completion_content_part_image_param import (
    ChatCompletionContentPartImageParam,
    ImageURL,
)

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    TextMessage,
    ToolCallMessage,
    UnsupportedMessageError,
    VideoMessage,
)
from llmbridge.kit import (
    NAME_PATTERN,
    CutOffCalls,
    NoteRecorder,
    check_image,
    check_text,
    own_hosted_tools,
    sanitize_identifier,
    unsupported_media_url,
    unsupported_medium,
)
from llmbridge.openai._media import MAX_DOCUMENT_BYTES, MediaBatch, audio_part, document_part

__all__ = ["Converter", "user_message"]

_PROVIDER: Final = "OpenAI"
_TITLE: Final = "OpenAI Chat Completions"
_TAG: Final = "openai"
_REASONING_OMITTED: Final = f"reasoning is not sent to {_TITLE}"


class Converter:
    """The state of one conversion: output, the original index of each output, the notes."""

    __slots__ = (
        "agent_name",
        "batch",
        "cut",
        "indices",
        "max_document_bytes",
        "max_image_bytes",
        "messages",
        "names",
        "recorder",
        "valid_names",
    )

    def __init__(
        self,
        agent_name: str,
        strict_mode: bool,
        max_image_bytes: int | None,
        max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    ) -> None:
        self.agent_name = agent_name
        self.max_image_bytes = max_image_bytes
        self.max_document_bytes = max_document_bytes
        self.batch = MediaBatch()
        self.recorder = NoteRecorder(strict_mode=strict_mode)
        self.cut = CutOffCalls()
        self.messages: list[ChatCompletionMessageParam] = []
        self.indices: list[int] = []
        # A name repeats on most messages of a conversation: sanitize each one once.
        self.names: dict[str, str] = {}
        # The names sent as they are (no note): hot sites test this set before calling ``name``
        # or ``function_name`` (calling them every time made to_openai 9% slower, benchmark
        # conversation).
        self.valid_names: set[str] = set()

    def _sanitized(self, text: str, index: int, field: str) -> str:
        # Senders and function names repeat on most messages: check each distinct one once (a
        # name that is no valid text raises the first time, so it never enters the cache).
        cleaned = self.names.get(text)
        if cleaned is None:
            check_text(text, index=index, field=field)
            cleaned = text if NAME_PATTERN.match(text) else sanitize_identifier(text)
            self.names[text] = cleaned
            if cleaned == text:
                self.valid_names.add(text)
        return cleaned

    def name(self, sender: str, index: int) -> str:
        """The ``name`` field for ``sender``, sanitized to ``^[a-zA-Z0-9_-]{1,64}$`` (noted)."""
        cleaned = self._sanitized(sender, index, "from_")
        if cleaned != sender:
            self.recorder.record(
                index,
                "renamed",
                f"name {sender!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$: renamed {cleaned!r}",
                field="from_",
            )
        return cleaned

    def function_name(self, name: str, index: int, position: int) -> str:
        """A history call's function name, sanitized to the pattern tools must match (noted)."""
        field = f"tool_calls[{position}].function_name"
        cleaned = self._sanitized(name, index, field)
        if cleaned != name:
            self.recorder.record(
                index,
                "renamed",
                f"function name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$: renamed "
                f"{cleaned!r}",
                field=field,
            )
        return cleaned

    def image_part(
        self, image: ImageMessage, index: int, field_prefix: str = ""
    ) -> ChatCompletionContentPartImageParam | None:
        """The ``image_url`` part of ``image``, after the neutral image checks.

        ``None`` for a URL Chat Completions cannot fetch (``gs://``, a Google Files API URI):
        dropped with a note, strict mode raises ``UnsupportedMessageError``.
        """
        unsupported = unsupported_media_url(image, provider=_PROVIDER, field_prefix=field_prefix)
        if unsupported is not None:
            self.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
            return None
        check_image(
            image,
            max_bytes=self.max_image_bytes,
            provider=_PROVIDER,
            index=index,
            field_prefix=field_prefix,
        )
        return _image_part(image)

    def media_part(
        self,
        item: ImageMessage | DocumentMessage | AudioMessage | VideoMessage,
        index: int,
        field_prefix: str = "",
    ) -> ChatCompletionContentPartParam | None:
        """The content part of an image, document or audio item (``None``: dropped, noted;
        video is not supported)."""
        match item:
            case ImageMessage():
                return self.image_part(item, index, field_prefix)
            case DocumentMessage():
                return document_part(
                    item,
                    recorder=self.recorder,
                    max_bytes=self.max_document_bytes,
                    index=index,
                    field_prefix=field_prefix,
                )
            case AudioMessage():
                return audio_part(
                    item, recorder=self.recorder, index=index, field_prefix=field_prefix
                )
            case VideoMessage():
                reason = unsupported_medium(item, provider=_PROVIDER, field_prefix=field_prefix)
                self.recorder.record(index, "dropped", reason, error=UnsupportedMessageError)
                return None

    def flush_media(self) -> None:
        """Send the media of the tool results before, in one user message (after them)."""
        taken = self.batch.take()
        if taken is not None:
            self.messages.append(taken[0])
            self.indices.append(taken[1])

    def omit_reasoning(self, index: int) -> None:
        """Note that the reasoning of message ``index`` is not sent."""
        self.recorder.record(index, "omitted", _REASONING_OMITTED)

    def omit_hosted_tools(self, message: TextMessage | ToolCallMessage, index: int) -> None:
        """Note that the hosted tool calls of message ``index`` are not sent (API.md 19.5).

        Chat Completions has no item for a tool the provider ran, so none is ever sent, not
        even one tagged ``"openai"``: those of other providers get the kit's note, those
        tagged ``"openai"`` one more saying so. Never raises; the visible text is unchanged.
        """
        own = own_hosted_tools(
            message, index, provider=_TAG, provider_title=_TITLE, recorder=self.recorder
        )
        if own:
            names = ", ".join(call.name for call in own)
            self.recorder.record(
                index,
                "omitted",
                f"hosted tool calls of {_TAG} ({names}) are not sent to {_TITLE}: its "
                "messages have no place for tools the provider ran",
            )


def user_message(
    content: str | list[ChatCompletionContentPartParam], name: str | None
) -> ChatCompletionUserMessageParam:
    """A user message of ``content``, with ``name`` when it is not ``None``."""
    payload: ChatCompletionUserMessageParam = {"role": "user", "content": content}
    if name is not None:
        payload["name"] = name
    return payload


def _image_part(image: ImageMessage) -> ChatCompletionContentPartImageParam:
    # data_url is cached on the message: the image is base64-encoded once, not per request.
    image_url: ImageURL = {"url": image.data_url}
    if image.detail is not None:
        image_url["detail"] = image.detail
    return {"type": "image_url", "image_url": image_url}
