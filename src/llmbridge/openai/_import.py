"""OpenAI Chat Completions request messages -> neutral messages (payload import).

The inverse of ``to_openai`` for every payload it produces: ``to_openai(from_openai_messages(p),
agent_name=...).messages == p``. Pure functions over the request dicts; the input is not
mutated.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit import ToolResultPart, Unmapped
from llmbridge.openai._media import MEDIA_PLACEHOLDER

__all__ = ["from_openai_messages"]

_TEXT_ROLES: Final = {"system": Role.SYSTEM, "user": Role.USER, "assistant": Role.ASSISTANT}
_AUDIO_TYPES: Final = {"wav": "audio/wav", "mp3": "audio/mpeg"}
_Media = ImageMessage | DocumentMessage | AudioMessage
_LABEL: Final = re.compile(r"\[result of (.+)\]", re.S)


def _image(part: Mapping[str, Any], from_: str | None) -> ImageMessage | Unmapped:
    image_url = part.get("image_url")
    if not isinstance(image_url, Mapping) or not isinstance(image_url.get("url"), str):
        return Unmapped("image_url", "an image_url part needs an image_url.url string")
    return ImageMessage(Role.USER, image_url["url"], from_, detail=image_url.get("detail"))


def _file(part: Mapping[str, Any], from_: str | None) -> DocumentMessage | Unmapped:
    file = part.get("file")
    if isinstance(file, Mapping) and set(file) == {"file_id"} and isinstance(file["file_id"], str):
        # to_openai sends an OpenAI file reference only for a PDF (API.md 19.7).
        return DocumentMessage(
            Role.USER, None, from_, file_id=file["file_id"], file_provider="openai"
        )
    if not isinstance(file, Mapping) or not isinstance(file.get("file_data"), str):
        return Unmapped("file", "a file part needs file.file_data or only a file.file_id")
    filename = file.get("filename")
    if not (filename is None or isinstance(filename, str)) or set(file) - {"file_data", "filename"}:
        return Unmapped("file", "a file part holds only file_data and a filename")
    return DocumentMessage(Role.USER, file["file_data"], from_, filename=filename)


def _audio(part: Mapping[str, Any], from_: str | None) -> AudioMessage | Unmapped:
    audio = part.get("input_audio")
    data = audio.get("data") if isinstance(audio, Mapping) else None
    audio_format = audio.get("format") if isinstance(audio, Mapping) else None
    media_type = _AUDIO_TYPES.get(audio_format) if isinstance(audio_format, str) else None
    if not isinstance(data, str) or media_type is None:
        return Unmapped("input_audio", "an input_audio part needs base64 data and a format")
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return Unmapped("input_audio", "undecodable base64 audio data")
    return AudioMessage(Role.USER, from_, data=decoded, media_type=media_type)


_MEDIA_PARTS: Final = {"image_url": _image, "file": _file, "input_audio": _audio}


def _user_parts(parts: Sequence[Any], from_: str | None) -> Message | Unmapped:
    items: list[TextMessage | _Media] = []
    for position, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, Mapping) else None
        media = _MEDIA_PARTS.get(kind) if isinstance(kind, str) else None
        if kind == "text" and isinstance(part.get("text"), str):
            items.append(TextMessage(Role.USER, part["text"]))
        elif media is not None:
            # The sender goes on the message, not on its items (unless the item is alone).
            item = media(part, from_ if len(parts) == 1 else None)
            if isinstance(item, Unmapped):
                return item
            items.append(item)
        else:
            return Unmapped(f"content[{position}]", f"unknown content part type {kind!r}")
    if len(items) == 1 and not isinstance(items[0], TextMessage):
        return items[0]
    return MultiModalMessage(Role.USER, items, from_)


def _tool_calls(calls: Any) -> tuple[ToolCall, ...] | Unmapped:
    out: list[ToolCall] = []
    for position, call in enumerate(calls):
        function = call.get("function") if isinstance(call, Mapping) else None
        if (
            call.get("type", "function") != "function"
            or not isinstance(function, Mapping)
            or not isinstance(function.get("name"), str)
            or not isinstance(function.get("arguments"), str)
            or not isinstance(call.get("id"), str)
        ):
            return Unmapped(f"tool_calls[{position}]", "not a function tool call")
        out.append(ToolCall(function["name"], function["arguments"], tool_call_id=call["id"]))
    return tuple(out)


def _with_media(
    results: ToolCallResultMessage, message: MultiModalMessage
) -> ToolCallResultMessage | None:
    """``results`` with the media of ``message`` (the user message ``to_openai`` puts after the
    tool messages of a batch: ``"[result of <id>]"`` then one image or document, repeated) put
    back into the results they belong to; ``None`` when ``message`` is not such a message."""
    items = message.content
    answered = {call.tool_call_id for call in results.tool_calls}
    media: dict[str, list[ToolResultPart]] = {}
    if message.from_ is not None or len(items) % 2:
        return None
    for label, item in zip(items[::2], items[1::2], strict=True):
        found = _LABEL.fullmatch(label.content) if isinstance(label, TextMessage) else None
        if found is None or found[1] not in answered:
            return None
        if not isinstance(item, ImageMessage | DocumentMessage):
            return None
        media.setdefault(found[1], []).append(item)
    calls = []
    for call in results.tool_calls:
        extra = media.get(call.tool_call_id or "")
        if extra is None or not isinstance(call.result, str):
            calls.append(call)
            continue
        text = [] if call.result == MEDIA_PLACEHOLDER else [TextMessage(Role.TOOL, call.result)]
        calls.append(
            ToolCall(
                call.function_name,
                call.function_arguments,
                tool_call_id=call.tool_call_id,
                result=(*text, *extra),
            )
        )
    return ToolCallResultMessage(calls)


class _Importer:
    """The state of one import: the output and the calls seen so far, by id."""

    __slots__ = ("agent_name", "calls", "out", "strict_mode")

    def __init__(self, agent_name: str, strict_mode: bool) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self.out: list[Message] = []
        self.calls: dict[str, ToolCall] = {}

    def _assistant(self, message: Mapping[str, Any]) -> Message | Unmapped:
        content = message.get("content")
        calls = message.get("tool_calls")
        if calls:
            if content is not None and not isinstance(content, str):
                return Unmapped("content", "assistant content must be text")
            parsed = _tool_calls(calls)
            if isinstance(parsed, Unmapped):
                return parsed
            self.calls.update((call.tool_call_id or "", call) for call in parsed)
            return ToolCallMessage(parsed, from_=self.agent_name, content=content or None)
        if not isinstance(content, str):
            return Unmapped("content", "assistant content must be text")
        name = message.get("name")
        if name is None:
            return TextMessage(Role.ASSISTANT, content)
        return TextMessage(Role.ASSISTANT, content, from_=name)

    def _result(self, message: Mapping[str, Any]) -> ToolCall | Unmapped:
        call_id = message.get("tool_call_id")
        content = message.get("content")
        call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None or not isinstance(content, str):
            return Unmapped("tool_call_id", "a tool message must answer an earlier tool call")
        return ToolCall(
            call.function_name, call.function_arguments, tool_call_id=call_id, result=content
        )

    def _message(self, message: Any) -> Message | ToolCall | Unmapped:
        if not isinstance(message, Mapping):
            return Unmapped("role", "a request message must be a dict")
        role = message.get("role")
        if role == "assistant":
            return self._assistant(message)
        if role == "tool":
            return self._result(message)
        if role not in _TEXT_ROLES:
            return Unmapped("role", f"unknown role {role!r}")
        name = message.get("name")
        content = message.get("content")
        if isinstance(content, str):
            return TextMessage(_TEXT_ROLES[role], content, from_=name)
        if role == "user" and isinstance(content, list) and content:
            return _user_parts(content, name)
        return Unmapped("content", f"unknown {role} content")

    def add(self, message: Any, index: int) -> None:
        try:
            item = self._message(message)
        except InvalidMessageError as error:  # a bad image: the same error, naming the index
            raise error.at(index) from error
        if isinstance(item, Unmapped):
            if self.strict_mode:
                raise InvalidMessageError(
                    f"OpenAI request message {index} cannot be imported: {item.reason}",
                    index=index,
                    field=item.field,
                )
            self.out.append(MessageEnvelope(message))
            return
        last = self.out[-1] if self.out else None
        if isinstance(item, MultiModalMessage) and isinstance(last, ToolCallResultMessage):
            with_media = _with_media(last, item)
            if with_media is not None:  # the media of the results before: back in them
                self.out[-1] = with_media
                return
        if not isinstance(item, ToolCall):
            self.out.append(item)
            return
        # Consecutive tool messages answer one assistant message: one result message.
        if isinstance(last, ToolCallResultMessage):
            self.out[-1] = ToolCallResultMessage((*last.tool_calls, item))
        else:
            self.out.append(ToolCallResultMessage((item,)))


def from_openai_messages(
    messages: Sequence[Any], *, agent_name: str, strict_mode: bool = False
) -> list[Message]:
    """Neutral messages for an OpenAI Chat Completions request history.

    An assistant message with tool calls, or whose ``name`` is ``agent_name``, gets
    ``from_=agent_name``; an assistant text without a name is ``TextMessage(Role.ASSISTANT,
    text)``; other ``name`` fields become ``from_``; consecutive tool messages become one
    ``ToolCallResultMessage`` with the names and arguments of the calls they answer; ``data:``
    image URLs become image bytes, ``file`` parts ``DocumentMessage``s (their ``filename``
    kept), ``input_audio`` parts ``AudioMessage``s; the user message after a batch of tool
    messages that holds only ``"[result of <id>]"`` labels, each followed by an image or a
    document, goes back into those results as parts (the tool text, unless it is
    ``"[media attached below]"``, then the media). A text document's part stays a text part.
    A message that cannot be mapped (an unknown role or part type, a tool message answering no
    earlier call) becomes ``MessageEnvelope(message)``; with ``strict_mode`` it raises
    ``InvalidMessageError`` naming its index.
    ``to_openai(from_openai_messages(p), agent_name=...).messages == p`` for every payload
    ``to_openai`` produces. The input is not mutated.
    """
    importer = _Importer(agent_name, strict_mode)
    for index, message in enumerate(messages):
        importer.add(message, index)
    return importer.out
