"""``dump_messages`` / ``load_messages``: neutral messages as JSON, validated by pydantic on load.

Each message is an object with a ``"type"`` discriminator and its sender under ``"from"``; image
bytes travel as base64. Loading validates every field and never imports or runs anything the
data names.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from llmbridge._errors import InvalidMessageError, LLMBridgeError
from llmbridge._messages import (
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    ReasoningMessageUpdate,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    Usage,
)

__all__ = ["dump_messages", "load_messages"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True)


class _Sent(_Model):
    from_: str | None = Field(default=None, alias="from")


class _Reasoning(_Model):
    text: str
    signature: str | None = None
    redacted_data: str | None = None
    provider: str | None = None


class _Usage(_Model):
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None


class _ToolCall(_Model):
    function_name: str
    function_arguments: str
    tool_call_id: str | None = None
    result: str | None = None
    is_error: bool = False


class _Text(_Sent):
    type: Literal["text"] = "text"
    role: str
    content: str
    reasoning: list[_Reasoning] = []
    usage: _Usage | None = None
    finish_reason: str | None = None


class _Image(_Sent):
    type: Literal["image"] = "image"
    role: str
    url: str | None = None
    data: str | None = None
    media_type: str | None = None
    detail: Literal["auto", "low", "high"] | None = None

    @field_validator("data")
    @classmethod
    def _base64(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ValueError(f"data is not valid base64 ({exc})") from None
        return value


class _MultiModal(_Sent):
    type: Literal["multimodal"] = "multimodal"
    role: str
    content: list[Annotated[_Text | _Image, Field(discriminator="type")]]


class _ToolCallMsg(_Sent):
    type: Literal["tool_call"] = "tool_call"
    tool_calls: list[_ToolCall]
    content: str | None = None
    reasoning: list[_Reasoning] = []
    usage: _Usage | None = None
    finish_reason: str | None = None


class _ToolCallResult(_Sent):
    type: Literal["tool_call_result"] = "tool_call_result"
    tool_calls: list[_ToolCall]


class _ToolCallAggregate(_Sent):
    type: Literal["tool_call_aggregate"] = "tool_call_aggregate"
    tool_call_message: _ToolCallMsg
    tool_call_result_message: _ToolCallResult


class _TextUpdate(_Sent):
    type: Literal["text_update"] = "text_update"
    role: str
    content: str


class _ReasoningUpdate(_Sent):
    type: Literal["reasoning_update"] = "reasoning_update"
    content: str


class _ToolCallUpdate(_Sent):
    type: Literal["tool_call_update"] = "tool_call_update"
    function_name: str
    function_arguments_update: str
    index: int = 0
    tool_call_id: str | None = None


class _Envelope(_Sent):
    type: Literal["envelope"] = "envelope"
    content: Any
    metadata: dict[str, Any] = {}


_Item: TypeAlias = Annotated[
    _Text
    | _Image
    | _MultiModal
    | _ToolCallMsg
    | _ToolCallResult
    | _ToolCallAggregate
    | _TextUpdate
    | _ReasoningUpdate
    | _ToolCallUpdate
    | _Envelope,
    Field(discriminator="type"),
]
_ITEM: TypeAdapter[_Item] = TypeAdapter(_Item)


def _reasoning_in(items: list[_Reasoning]) -> list[Reasoning]:
    return [
        Reasoning(r.text, signature=r.signature, redacted_data=r.redacted_data, provider=r.provider)
        for r in items
    ]


def _usage_in(usage: _Usage | None) -> Usage | None:
    return None if usage is None else Usage(**usage.model_dump())


def _calls_in(calls: list[_ToolCall]) -> list[ToolCall]:
    return [ToolCall(**call.model_dump()) for call in calls]


def _to_message(item: BaseModel) -> Message:
    match item:
        case _Text():
            return TextMessage(
                item.role,
                item.content,
                item.from_,
                reasoning=_reasoning_in(item.reasoning),
                usage=_usage_in(item.usage),
                finish_reason=item.finish_reason,
            )
        case _Image():
            data = None if item.data is None else base64.b64decode(item.data)
            return ImageMessage(
                item.role,
                item.url,
                item.from_,
                data=data,
                media_type=item.media_type,
                detail=item.detail,
            )
        case _MultiModal():
            parts: list[Any] = [_to_message(part) for part in item.content]
            return MultiModalMessage(item.role, parts, item.from_)
        case _ToolCallMsg():
            return ToolCallMessage(
                _calls_in(item.tool_calls),
                item.from_,
                content=item.content,
                reasoning=_reasoning_in(item.reasoning),
                usage=_usage_in(item.usage),
                finish_reason=item.finish_reason,
            )
        case _ToolCallResult():
            return ToolCallResultMessage(_calls_in(item.tool_calls), item.from_)
        case _ToolCallAggregate():
            calls = _to_message(item.tool_call_message)
            results = _to_message(item.tool_call_result_message)
            assert isinstance(calls, ToolCallMessage)
            assert isinstance(results, ToolCallResultMessage)
            return ToolCallAggregateMessage(calls, results, item.from_)
        case _TextUpdate():
            return TextMessageUpdate(item.role, item.content, item.from_)
        case _ReasoningUpdate():
            return ReasoningMessageUpdate(item.content, item.from_)
        case _ToolCallUpdate():
            return ToolCallMessageUpdate(
                item.function_name,
                item.function_arguments_update,
                item.from_,
                index=item.index,
                tool_call_id=item.tool_call_id,
            )
        case _Envelope():
            return MessageEnvelope(item.content, item.from_, metadata=item.metadata)
    raise AssertionError(f"unhandled model {type(item).__name__}")  # pragma: no cover


def _reasoning_out(reasoning: Sequence[Reasoning]) -> list[dict[str, Any]]:
    return [
        {
            "text": r.text,
            "signature": r.signature,
            "redacted_data": r.redacted_data,
            "provider": r.provider,
        }
        for r in reasoning
    ]


def _usage_out(usage: Usage | None) -> dict[str, Any] | None:
    if usage is None:
        return None
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
    }


def _calls_out(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    return [
        {
            "function_name": c.function_name,
            "function_arguments": c.function_arguments,
            "tool_call_id": c.tool_call_id,
            "result": c.result,
            "is_error": c.is_error,
        }
        for c in calls
    ]


def _envelope_content(content: Any) -> Any:
    # SDK response objects are pydantic models: they dump to JSON (and load back as dicts).
    dump = getattr(content, "model_dump", None)
    return dump(mode="json") if callable(dump) else content


def _to_json(message: Message) -> dict[str, Any]:
    match message:
        case TextMessage():
            body: dict[str, Any] = {
                "type": "text",
                "role": str(message.role),
                "content": message.content,
                "reasoning": _reasoning_out(message.reasoning),
                "usage": _usage_out(message.usage),
                "finish_reason": message.finish_reason,
            }
        case ImageMessage():
            body = {
                "type": "image",
                "role": str(message.role),
                "url": message.url,
                "data": message.base64_data,
                "media_type": message.media_type,
                "detail": message.detail,
            }
        case MultiModalMessage():
            body = {
                "type": "multimodal",
                "role": str(message.role),
                "content": [_to_json(part) for part in message.content],
            }
        case ToolCallMessage():
            body = {
                "type": "tool_call",
                "tool_calls": _calls_out(message.tool_calls),
                "content": message.content,
                "reasoning": _reasoning_out(message.reasoning),
                "usage": _usage_out(message.usage),
                "finish_reason": message.finish_reason,
            }
        case ToolCallResultMessage():
            body = {"type": "tool_call_result", "tool_calls": _calls_out(message.tool_calls)}
        case ToolCallAggregateMessage():
            body = {
                "type": "tool_call_aggregate",
                "tool_call_message": _to_json(message.tool_call_message),
                "tool_call_result_message": _to_json(message.tool_call_result_message),
            }
        case TextMessageUpdate():
            body = {"type": "text_update", "role": str(message.role), "content": message.content}
        case ReasoningMessageUpdate():
            body = {"type": "reasoning_update", "content": message.content}
        case ToolCallMessageUpdate():
            body = {
                "type": "tool_call_update",
                "function_name": message.function_name,
                "function_arguments_update": message.function_arguments_update,
                "index": message.index,
                "tool_call_id": message.tool_call_id,
            }
        case MessageEnvelope():
            body = {
                "type": "envelope",
                "content": _envelope_content(message.content),
                "metadata": dict(message.metadata),
            }
        case _:
            raise TypeError(
                f"cannot serialize {type(message).__name__}: not a neutral message type"
            )
    body["from"] = message.from_
    return body


def dump_messages(messages: Sequence[Message], *, indent: int | None = None) -> str:
    """Serialize neutral messages to a JSON array (``load_messages`` reads it back equal).

    ``raw`` provider objects are not serialized. Raises ``TypeError`` for a message that is not
    a neutral type and ``InvalidMessageError`` (naming the index) for an envelope whose content
    is not JSON-serializable.
    """
    items = []
    for index, message in enumerate(messages):
        try:
            items.append(_to_json(message))
        except TypeError as exc:
            raise type(exc)(f"message {index}: {exc}") from None
    try:
        return json.dumps(items, indent=indent, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidMessageError(
            f"an envelope's content is not JSON-serializable ({exc})"
        ) from None


def _validation_error(exc: ValidationError, index: int) -> InvalidMessageError:
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"][1:]) or None
    return InvalidMessageError(f"invalid message: {first['msg']}", index=index, field=field)


def load_messages(data: str | bytes) -> list[Message]:
    """Read a JSON array written by ``dump_messages`` back into neutral messages.

    Raises ``InvalidMessageError`` (with the message index and field where one is at fault) for
    malformed JSON, unknown ``"type"`` values, wrong field types, and messages that break a
    constructor rule.
    """
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise InvalidMessageError(f"not valid JSON ({type(exc).__name__}: {exc})") from None
    if not isinstance(raw, list):
        raise InvalidMessageError(f"expected a JSON array of messages, got {type(raw).__name__}")
    messages: list[Message] = []
    for index, item in enumerate(raw):
        try:
            messages.append(_to_message(_ITEM.validate_python(item)))
        except ValidationError as exc:
            raise _validation_error(exc, index) from None
        except InvalidMessageError as exc:
            raise exc.at(index) from None
        except (RecursionError, LLMBridgeError, ValueError, TypeError) as exc:
            raise InvalidMessageError(f"invalid message ({exc})", index=index) from None
    return messages
