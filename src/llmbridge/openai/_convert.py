"""One neutral message at a time -> OpenAI Chat Completions request messages (the From/Role table).

``convert_messages`` dispatches each message on its type (``match`` with class patterns) into a
``Converter`` (``_converter``), which holds the output, the neutral index of each output message
and the notes; ``_request.to_openai`` runs the tool-pairing step around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionContentPartParam,
    ChatCompletionMessageFunctionToolCallParam,
    ChatCompletionSystemMessageParam,
    ChatCompletionToolMessageParam,
)
from openai.types.chat.chat_completion_message_function_tool_call_param import Function

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
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.kit import (
    MediaPart,
    check_text,
    split_result,
    tool_call_id_or_fallback,
    unsupported_envelope,
)
from llmbridge.openai._converter import Converter, user_message
from llmbridge.openai._media import MEDIA_PLACEHOLDER

__all__ = ["ENVELOPE_ROLES", "Converter", "convert_messages"]

ENVELOPE_ROLES: Final = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
"""The roles of the request messages Chat Completions takes, passed through in envelopes."""

_CARRIED: Final[dict[type[Message], str]] = {DocumentMessage: "documents", AudioMessage: "audio"}
_SYSTEM: Final = Role.SYSTEM
_USER: Final = Role.USER
_ASSISTANT: Final = Role.ASSISTANT
_IS_ERROR_OMITTED: Final = (
    "is_error is not sent to OpenAI Chat Completions; the result text carries the error"
)


def _convert_text(conv: Converter, message: TextMessage, index: int) -> None:
    # The ASCII test is inlined at every check_text site: calling check_text for each string
    # made to_openai 30% slower (benchmark conversation); a lone surrogate is never ASCII.
    content = message.content
    if not content.isascii():
        check_text(content, index=index, field="content")
    if message.reasoning:
        conv.omit_reasoning(index)
    if message.hosted_tools:
        conv.omit_hosted_tools(message, index)
    sender = message.from_
    role = message.role
    if role == _SYSTEM:
        system: ChatCompletionSystemMessageParam = {"role": "system", "content": content}
        if sender is not None:
            system["name"] = conv.name(sender, index)
        conv.messages.append(system)
    elif sender == conv.agent_name:
        assistant: ChatCompletionAssistantMessageParam = {
            "role": "assistant",
            "content": content,
            "name": sender if sender in conv.valid_names else conv.name(sender, index),
        }
        conv.messages.append(assistant)
    elif sender is not None:
        conv.messages.append(user_message(content, conv.name(sender, index)))
    elif role == _USER:
        conv.messages.append({"role": "user", "content": content})
    elif role == _ASSISTANT:
        conv.messages.append({"role": "assistant", "content": content})
    else:
        raise InvalidMessageError(
            f"a text message with no sender must have role 'system', 'user' or 'assistant', "
            f"not {str(role)!r}",
            index=index,
            field="role",
        )


def _reject_self(conv: Converter, message: Message, index: int) -> None:
    if message.from_ == conv.agent_name:
        raise InvalidMessageError(
            f"{type(message).__name__} from the agent itself ({conv.agent_name!r}) cannot be "
            f"sent: OpenAI assistant messages carry no {_carried(message)}",
            index=index,
            field="from_",
        )


def _carried(message: Message) -> str:
    return next((what for kind, what in _CARRIED.items() if isinstance(message, kind)), "images")


def _sender_name(conv: Converter, message: Message, index: int) -> str | None:
    return None if message.from_ is None else conv.name(message.from_, index)


def _convert_media(
    conv: Converter, message: ImageMessage | DocumentMessage | AudioMessage, index: int
) -> None:
    _reject_self(conv, message, index)
    part = conv.media_part(message, index)
    if part is not None:
        conv.messages.append(user_message([part], _sender_name(conv, message, index)))


def _convert_multimodal(conv: Converter, message: MultiModalMessage, index: int) -> None:
    _reject_self(conv, message, index)
    parts: list[ChatCompletionContentPartParam] = []
    for position, item in enumerate(message.content):
        if isinstance(item, TextMessage):
            if not item.content.isascii():
                check_text(item.content, index=index, field=f"content[{position}]")
            parts.append({"type": "text", "text": item.content})
        else:
            part = conv.media_part(item, index, f"content[{position}].")
            if part is not None:
                parts.append(part)
    if parts:  # else every part was an item it cannot send, each noted
        conv.messages.append(user_message(parts, _sender_name(conv, message, index)))


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
    if message.hosted_tools:
        conv.omit_hosted_tools(message, index)
    content = message.content
    if content and not content.isascii():
        check_text(content, index=index, field="content")
    calls: list[ChatCompletionMessageFunctionToolCallParam] = []
    for position, call in enumerate(message.tool_calls):
        call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
        arguments = call.function_arguments
        if not (call_id.isascii() and arguments.isascii()):
            _check_call_texts(call_id, arguments, "function_arguments", index, position)
        name = call.function_name
        if name not in conv.valid_names:
            name = conv.function_name(name, index, position)
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
    cut = conv.cut
    for position, call in enumerate(message.tool_calls):
        result = call.result
        if result is None:
            continue
        if call.is_error and not error_omitted:
            # A tool message has no error flag: one note per result message.
            conv.recorder.record(index, "omitted", _IS_ERROR_OMITTED)
            error_omitted = True
        # The fallback counts positions in the original list, skipped calls included.
        call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
        if isinstance(result, str):  # most results: text, nothing to split
            text = result
        else:
            parts_text, media = split_result(result)
            if media:
                parts_text = _move_media(conv, call_id, media, parts_text, index, position)
            text = parts_text or ""
        if not (call_id.isascii() and text.isascii()):
            _check_call_texts(call_id, text, "result", index, position)
        tool: ChatCompletionToolMessageParam = {
            "role": "tool",
            "tool_call_id": call_id,
            "content": cut.result(call_id, text) if cut.arguments else text,
        }
        conv.messages.append(tool)


def _move_media(
    conv: Converter,
    call_id: str,
    media: Sequence[MediaPart],
    text: str | None,
    index: int,
    position: int,
) -> str | None:
    """Keep a result's media for the user message after the batch; return the tool text."""
    prefix = f"tool_calls[{position}].result"
    parts = [
        part
        for number, item in enumerate(media)
        if (part := conv.media_part(item, index, f"{prefix}[{number}].")) is not None
    ]
    if not parts:
        return text
    conv.batch.add(call_id, parts, index)
    conv.recorder.record(
        index,
        "repaired",
        f"the media of tool result {call_id!r} are sent in a user message after the tool "
        "messages (tool messages take text only)",
    )
    return MEDIA_PLACEHOLDER if text is None else text


def _is_own(conv: Converter, sender: str | None) -> bool:
    return sender is None or sender == conv.agent_name


def _convert_tool_calls(conv: Converter, message: ToolCallMessage, index: int) -> None:
    sender = message.from_
    if sender is not None and sender != conv.agent_name:
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
    if message.tool_call_message.hosted_tools:
        conv.omit_hosted_tools(message.tool_call_message, index)
    name = conv.name(message.from_, index)
    for position, call in enumerate(message.tool_call_result_message.tool_calls):
        if call.result is None:
            continue
        result, media = split_result(call.result)
        if result is not None and not result.isascii():
            check_text(result, index=index, field=f"tool_calls[{position}].result")
        if not media:
            conv.messages.append(user_message(result or "", name))
            continue
        parts: list[ChatCompletionContentPartParam] = (
            [] if result is None else [{"type": "text", "text": result}]
        )
        prefix = f"tool_calls[{position}].result"
        for number, item in enumerate(media):
            part = conv.media_part(item, index, f"{prefix}[{number}].")
            if part is not None:
                parts.append(part)
        if parts:
            conv.messages.append(user_message(parts, name))


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
    batch = conv.batch
    done = len(out)  # the payloads that have their index
    for message, index in zip(messages, indices, strict=True):
        if batch.parts and not _continues_batch(message):
            conv.flush_media()  # indexes what it sends
            done = len(out)
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
            case ImageMessage() | DocumentMessage() | AudioMessage():
                _convert_media(conv, message, index)
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
        produced = len(out)
        if produced == done + 1:
            out_indices.append(index)
        elif produced != done:
            out_indices.extend([index] * (produced - done))
        done = produced
    conv.flush_media()


def _continues_batch(message: Message) -> bool:
    """Whether ``message`` adds tool messages to the batch before it (results, raw ones)."""
    if isinstance(message, ToolCallResultMessage):
        return True
    return isinstance(message, MessageEnvelope) and _role_of(message.content) == "tool"


def _role_of(payload: Any) -> object:
    return payload.get("role") if isinstance(payload, dict) else None
