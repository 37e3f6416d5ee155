"""The neutral model: values (``Role``, ``Usage``, ``Reasoning``, ``ToolCall``), the message types,
media bytes (sniffing, ``data:`` URLs) and JSON serialization. Imports nothing of ours but
``_errors``."""

from __future__ import annotations

from llmbridge._messages._serialization import MESSAGE_TYPES, dump_messages, load_messages
from llmbridge._messages._types import (
    UPDATE_TYPES,
    FinishReason,
    ImageDetail,
    ImageMessage,
    MessageEnvelope,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessage,
    TextMessageUpdate,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
)
from llmbridge._messages._values import Message, Reasoning, Role, ToolCall, Usage

__all__ = [
    "MESSAGE_TYPES",
    "UPDATE_TYPES",
    "FinishReason",
    "ImageDetail",
    "ImageMessage",
    "Message",
    "MessageEnvelope",
    "MultiModalMessage",
    "Reasoning",
    "ReasoningMessageUpdate",
    "Role",
    "TextMessage",
    "TextMessageUpdate",
    "ToolCall",
    "ToolCallAggregateMessage",
    "ToolCallMessage",
    "ToolCallMessageUpdate",
    "ToolCallResultMessage",
    "Usage",
    "dump_messages",
    "load_messages",
]
