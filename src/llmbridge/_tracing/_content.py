"""Message content in the GenAI conventions' JSON form, recorded only with ``capture_content``.

``gen_ai.input.messages`` follows the conventions' input-messages schema (a list of
``{"role", "parts", "name"?}``, in the order sent), ``gen_ai.output.messages`` the
output-messages schema (the same with ``"finish_reason"``). Parts: ``text``; ``reasoning`` (the
text; signatures and redacted data never); ``tool_call`` (``id``, ``name``, ``arguments``
parsed when they are JSON, else the text as given); ``tool_call_response`` (``id``,
``response``). Media (images, and documents or audio alike) are recorded as their modality,
media type and byte size only: a ``blob`` part without its ``content`` for bytes, a ``uri``
part without its ``uri`` for a URL. Envelopes (tracing inside the connector) keep their role and
a plain-string content, nothing else. The JSON is ASCII (``ensure_ascii``), so that text an
exporter cannot encode (a lone surrogate) is escaped instead of failing the export.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge._messages import (
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessage,
    TextMessageUpdate,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    describe_result,
)
from llmbridge._tracing._attributes import reply_message

__all__ = ["input_messages", "output_messages"]

Entry = dict[str, Any]

# Neutral finish reasons the output schema spells otherwise; the rest are recorded as they are.
_FINISH_REASONS: Final[Mapping[str, str]] = {"tool_calls": "tool_call"}
_NO_FINISH_REASON: Final = "error"
# Media type family -> the schema's modality; by message class when the type is unknown.
_MODALITIES: Final[Mapping[str, str]] = {"image": "image", "audio": "audio", "video": "video"}
_CLASS_MODALITIES: Final[Mapping[str, str]] = {
    "ImageMessage": "image",
    "AudioMessage": "audio",
    "DocumentMessage": "document",
}


def _text(text: str) -> Entry:
    return {"type": "text", "content": text}


def _arguments(text: str) -> object:
    """Arguments as the object they encode (the conventions ask for one), else as given."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON (kept verbatim in the neutral model)
        return text


def _media(message: object) -> Entry:
    """A media item as its modality, media type and size: never its bytes or its URL."""
    media_type = getattr(message, "media_type", None)
    family = media_type.partition("/")[0] if isinstance(media_type, str) else ""
    modality = _MODALITIES.get(family) or _CLASS_MODALITIES.get(type(message).__name__, "file")
    data = getattr(message, "data", None)
    if isinstance(data, bytes):
        return {"type": "blob", "modality": modality, "mime_type": media_type, "size": len(data)}
    return {"type": "uri", "modality": modality, "mime_type": media_type}


def _part(item: Message) -> Entry:
    """One item of a multimodal message."""
    if isinstance(item, TextMessage):
        return _text(item.content)
    return _media(item)


def _model_parts(message: TextMessage | ToolCallMessage) -> list[Entry]:
    """Reasoning, text and tool calls of a message the model produced."""
    parts: list[Entry] = [{"type": "reasoning", "content": r.text} for r in message.reasoning]
    text = message.content
    if text:
        parts.append(_text(text))
    if isinstance(message, ToolCallMessage):
        parts += [
            {
                "type": "tool_call",
                "id": call.tool_call_id,
                "name": call.function_name,
                "arguments": _arguments(call.function_arguments),
            }
            for call in message.tool_calls
        ]
    return parts


def _entry(role: str, parts: list[Entry], from_: str | None) -> Entry:
    entry: Entry = {"role": role, "parts": parts}
    if from_ is not None:
        entry["name"] = from_
    return entry


def _envelope(message: MessageEnvelope[Any]) -> Entry:
    payload = message.content
    role = payload.get("role") if isinstance(payload, Mapping) else None
    text = payload.get("content") if isinstance(payload, Mapping) else None
    parts = [_text(text)] if isinstance(text, str) else []
    return _entry(role if isinstance(role, str) else "unknown", parts, message.from_)


def _entries(message: Message) -> list[Entry]:
    """The input-message entries of one neutral message (an aggregate gives two)."""
    match message:
        case ToolCallAggregateMessage(tool_call_message=calls, tool_call_result_message=results):
            return [*_entries(calls), *_entries(results)]
        case ToolCallResultMessage(tool_calls=calls):
            parts = [
                {
                    "type": "tool_call_response",
                    "id": call.tool_call_id,
                    "response": describe_result(call.result),
                }
                for call in calls
                if call.result is not None
            ]
            return [_entry("tool", parts, message.from_)]
        case ToolCallMessage():
            return [_entry("assistant", _model_parts(message), message.from_)]
        case TextMessage(role=role):
            return [_entry(str(role), _model_parts(message), message.from_)]
        case MultiModalMessage(role=role, content=items):
            return [_entry(str(role), [_part(item) for item in items], message.from_)]
        case ImageMessage(role=role):
            return [_entry(str(role), [_media(message)], message.from_)]
        case MessageEnvelope():
            return [_envelope(message)]
        case TextMessageUpdate() | ReasoningMessageUpdate() | ToolCallMessageUpdate():
            return []  # deltas are never sent to a model
        case _:
            # Another media message (documents, audio) or a third party's message type.
            known = getattr(message, "role", None)
            media = hasattr(message, "media_type")
            part = _media(message) if media else {"type": type(message).__name__}
            return [_entry(str(known) if known is not None else "user", [part], message.from_)]


def input_messages(messages: Sequence[Message]) -> str:
    """``gen_ai.input.messages``: the conversation as JSON text, in order."""
    return json.dumps([entry for message in messages for entry in _entries(message)])


def output_messages(reply: Message) -> str | None:
    """``gen_ai.output.messages`` of a reply (or a stream's partial message), or ``None`` when
    it holds no message of the model (an envelope, a result message)."""
    message = reply_message(reply)
    if message is None:
        return None
    reason = message.finish_reason
    entry = _entry("assistant", _model_parts(message), None)
    entry["finish_reason"] = (
        _FINISH_REASONS.get(reason, reason) if reason is not None else _NO_FINISH_REASON
    )
    return json.dumps([entry])
