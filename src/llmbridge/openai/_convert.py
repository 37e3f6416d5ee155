"""One neutral message at a time -> OpenAI Chat Completions request messages (the From/Role table).

``convert_messages`` dispatches each message on its type (``match`` with class patterns) into a
``Converter``, which holds the output, the neutral index of each output message and the notes;
``_request.to_openai`` runs the tool-pairing step around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionContentPartParam,
    ChatCompletionMessageFunctionToolCallParam,
    ChatCompletionMessageParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionToolMessageParam,
    ChatCompletionUserMessageParam,
)
from openai.types.chat.chat_completion_content_part_image_param import (
    ChatCompletionContentPartImageParam,
    ImageURL,
)
from openai.types.chat.chat_completion_message_function_tool_call_param import Function

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.kit import (
    NAME_PATTERN,
    WEB_URL_SCHEMES,
    CutOffCalls,
    NoteRecorder,
    check_image,
    check_text,
    sanitize_identifier,
    tool_call_id_or_fallback,
    unsupported_envelope,
    unsupported_image_url,
)

__all__ = ["ENVELOPE_ROLES", "Converter", "convert_messages"]

ENVELOPE_ROLES: Final = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
"""The roles of the request messages Chat Completions takes, passed through in envelopes."""

_PROVIDER: Final = "OpenAI"

_REASONING_OMITTED: Final = "reasoning is not sent to OpenAI Chat Completions"
_IS_ERROR_OMITTED: Final = (
    "is_error is not sent to OpenAI Chat Completions; the result text carries the error"
)


class Converter:
    """The state of one conversion: output, the original index of each output, the notes."""

    __slots__ = (
        "agent_name",
        "cut",
        "indices",
        "max_image_bytes",
        "messages",
        "names",
        "recorder",
    )

    def __init__(self, agent_name: str, strict_mode: bool, max_image_bytes: int | None) -> None:
        self.agent_name = agent_name
        self.max_image_bytes = max_image_bytes
        self.recorder = NoteRecorder(strict_mode=strict_mode)
        self.cut = CutOffCalls()
        self.messages: list[ChatCompletionMessageParam] = []
        self.indices: list[int] = []
        # A name repeats on most messages of a conversation: sanitize each one once.
        self.names: dict[str, str] = {}

    def _sanitized(self, text: str, index: int, field: str) -> str:
        # Senders and function names repeat on most messages: check each distinct one once (a
        # name that is no valid text raises the first time, so it never enters the cache).
        cleaned = self.names.get(text)
        if cleaned is None:
            check_text(text, index=index, field=field)
            cleaned = text if NAME_PATTERN.match(text) else sanitize_identifier(text)
            self.names[text] = cleaned
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

        ``None`` for a URL Chat Completions cannot fetch (``gs://``): dropped with a note,
        strict mode raises ``UnsupportedMessageError``.
        """
        unsupported = unsupported_image_url(
            image, schemes=WEB_URL_SCHEMES, provider=_PROVIDER, field_prefix=field_prefix
        )
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

    def omit_reasoning(self, index: int) -> None:
        self.recorder.record(index, "omitted", _REASONING_OMITTED)


def _user(
    content: str | list[ChatCompletionContentPartParam], name: str | None
) -> ChatCompletionUserMessageParam:
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


def _convert_text(conv: Converter, message: TextMessage, index: int) -> None:
    # The ASCII test is inlined at every check_text site: calling check_text for each string
    # made to_openai 30% slower (benchmark conversation); a lone surrogate is never ASCII.
    if not message.content.isascii():
        check_text(message.content, index=index, field="content")
    if message.reasoning:
        conv.omit_reasoning(index)
    sender = message.from_
    if message.role == Role.SYSTEM:
        system: ChatCompletionSystemMessageParam = {"role": "system", "content": message.content}
        if sender is not None:
            system["name"] = conv.name(sender, index)
        conv.messages.append(system)
    elif sender == conv.agent_name:
        assistant: ChatCompletionAssistantMessageParam = {
            "role": "assistant",
            "content": message.content,
            "name": conv.name(sender, index),
        }
        conv.messages.append(assistant)
    elif sender is not None:
        conv.messages.append(_user(message.content, conv.name(sender, index)))
    elif message.role == Role.USER:
        conv.messages.append({"role": "user", "content": message.content})
    elif message.role == Role.ASSISTANT:
        conv.messages.append({"role": "assistant", "content": message.content})
    else:
        raise InvalidMessageError(
            f"a text message with no sender must have role 'system', 'user' or 'assistant', "
            f"not {str(message.role)!r}",
            index=index,
            field="role",
        )


def _reject_self(conv: Converter, message: ImageMessage | MultiModalMessage, index: int) -> None:
    if message.from_ == conv.agent_name:
        raise InvalidMessageError(
            f"{type(message).__name__} from the agent itself ({conv.agent_name!r}) cannot be "
            "sent: OpenAI assistant messages carry no images",
            index=index,
            field="from_",
        )


def _sender_name(conv: Converter, message: Message, index: int) -> str | None:
    return None if message.from_ is None else conv.name(message.from_, index)


def _convert_image(conv: Converter, message: ImageMessage, index: int) -> None:
    _reject_self(conv, message, index)
    part = conv.image_part(message, index)
    if part is not None:
        conv.messages.append(_user([part], _sender_name(conv, message, index)))


def _convert_multimodal(conv: Converter, message: MultiModalMessage, index: int) -> None:
    _reject_self(conv, message, index)
    parts: list[ChatCompletionContentPartParam] = []
    for position, item in enumerate(message.content):
        if isinstance(item, TextMessage):
            if not item.content.isascii():
                check_text(item.content, index=index, field=f"content[{position}]")
            parts.append({"type": "text", "text": item.content})
        else:
            part = conv.image_part(item, index, f"content[{position}].")
            if part is not None:
                parts.append(part)
    if parts:  # else every part was an image URL it cannot send, each noted
        conv.messages.append(_user(parts, _sender_name(conv, message, index)))


def _check_call_texts(call_id: str, text: str, text_field: str, index: int, position: int) -> None:
    """``check_text`` for one call's id and its arguments or result (sent verbatim)."""
    check_text(call_id, index=index, field=f"tool_calls[{position}].tool_call_id")
    check_text(text, index=index, field=f"tool_calls[{position}].{text_field}")


def _emit_tool_calls(conv: Converter, message: ToolCallMessage, index: int) -> None:
    if not message.tool_calls:
        raise InvalidMessageError(
            "a tool-call message needs at least one tool call (OpenAI rejects an empty "
            "tool_calls list)",
            index=index,
            field="tool_calls",
        )
    if message.reasoning:
        conv.omit_reasoning(index)
    content = message.content
    if content and not content.isascii():
        check_text(content, index=index, field="content")
    calls: list[ChatCompletionMessageFunctionToolCallParam] = []
    for position, call in enumerate(message.tool_calls):
        call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
        arguments = call.function_arguments
        if not (call_id.isascii() and arguments.isascii()):
            _check_call_texts(call_id, arguments, "function_arguments", index, position)
        name = conv.function_name(call.function_name, index, position)
        function: Function = {"name": name, "arguments": arguments}
        calls.append({"id": call_id, "type": "function", "function": function})
    if message.finish_reason == "length":
        # Cut-off arguments: OpenAI-compatible servers parse history arguments and refuse
        # invalid JSON, so they go with the result instead (CutOffCalls).
        for payload, call in zip(calls, message.tool_calls, strict=True):
            repaired = conv.cut.take(message, call, payload["id"])
            if repaired is not None:
                payload["function"]["arguments"] = "{}"
                conv.recorder.record(index, "repaired", repaired)
    # Never a `name` here: named tool-call messages made the API fail (AutoGen #3437).
    conv.messages.append({"role": "assistant", "content": content or None, "tool_calls": calls})


def _emit_results(conv: Converter, message: ToolCallResultMessage, index: int) -> None:
    error_omitted = False
    for position, call in enumerate(message.tool_calls):
        if call.result is None:
            continue
        if call.is_error and not error_omitted:
            # A tool message has no error flag: one note per result message.
            conv.recorder.record(index, "omitted", _IS_ERROR_OMITTED)
            error_omitted = True
        # The fallback counts positions in the original list, skipped calls included.
        call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
        if not (call_id.isascii() and call.result.isascii()):
            _check_call_texts(call_id, call.result, "result", index, position)
        content = conv.cut.result(call_id, call.result) if conv.cut.arguments else call.result
        tool: ChatCompletionToolMessageParam = {
            "role": "tool",
            "tool_call_id": call_id,
            "content": content,
        }
        conv.messages.append(tool)


def _is_own(conv: Converter, sender: str | None) -> bool:
    return sender is None or sender == conv.agent_name


def _convert_tool_calls(conv: Converter, message: ToolCallMessage, index: int) -> None:
    if not _is_own(conv, message.from_):
        raise InvalidMessageError(
            f"a tool-call message from another agent ({message.from_!r}) cannot be sent as a "
            f"call of {conv.agent_name!r}; send a ToolCallAggregateMessage instead",
            index=index,
            field="from_",
        )
    _emit_tool_calls(conv, message, index)


def _convert_aggregate(conv: Converter, message: ToolCallAggregateMessage, index: int) -> None:
    if _is_own(conv, message.from_):
        _emit_tool_calls(conv, message.tool_call_message, index)
        _emit_results(conv, message.tool_call_result_message, index)
        return
    assert message.from_ is not None  # _is_own covers None
    name = conv.name(message.from_, index)
    for position, call in enumerate(message.tool_call_result_message.tool_calls):
        result = call.result
        if result is not None:
            if not result.isascii():
                check_text(result, index=index, field=f"tool_calls[{position}].result")
            conv.messages.append(_user(result, name))


def _convert_envelope(conv: Converter, message: MessageEnvelope[Any], index: int) -> None:
    unsupported = unsupported_envelope(
        message,
        roles=ENVELOPE_ROLES,
        target="an OpenAI request message",
        expected="a ChatCompletionMessageParam dict",
    )
    if unsupported is not None:
        conv.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
        return
    # Already a ChatCompletionMessageParam: sent as the caller built it.
    conv.messages.append(message.content)


def convert_messages(conv: Converter, messages: Sequence[Message], indices: Sequence[int]) -> None:
    """Convert ``messages`` (of neutral indices ``indices``) into ``conv``, one at a time."""
    out = conv.messages
    out_indices = conv.indices
    for message, index in zip(messages, indices, strict=True):
        # Class patterns: subclasses of the neutral types convert as their nearest base.
        match message:
            case TextMessage():
                _convert_text(conv, message, index)
            case ToolCallMessage():
                _convert_tool_calls(conv, message, index)
            case ToolCallResultMessage():
                _emit_results(conv, message, index)
            case ToolCallAggregateMessage():
                _convert_aggregate(conv, message, index)
            case ImageMessage():
                _convert_image(conv, message, index)
            case MultiModalMessage():
                _convert_multimodal(conv, message, index)
            case MessageEnvelope():
                _convert_envelope(conv, message, index)
            case _:
                conv.recorder.record(
                    index,
                    "dropped",
                    f"{type(message).__name__} cannot be sent to OpenAI Chat Completions",
                    error=UnsupportedMessageError,
                )
                continue
        # Handlers only append payloads; each new payload comes from this message.
        added = len(out) - len(out_indices)
        if added == 1:
            out_indices.append(index)
        elif added:
            out_indices.extend([index] * added)
