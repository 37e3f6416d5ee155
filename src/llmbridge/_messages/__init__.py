"""The neutral model: values (``Role``, ``Usage``, ``Reasoning``, ``ToolCall``, ``Citation``,
``HostedToolCall``), the message types,
media bytes (sniffing, ``data:`` URLs) and JSON serialization. Imports nothing of ours but
``_errors``."""

from __future__ import annotations

from llmbridge._messages._citation import Citation
from llmbridge._messages._documents import AudioMessage, DocumentMessage
from llmbridge._messages._hosted_tool import HostedToolCall
from llmbridge._messages._image import ImageDetail, ImageMessage
from llmbridge._messages._serialization import MESSAGE_TYPES, dump_messages, load_messages
from llmbridge._messages._text import FinishReason, TextMessage
from llmbridge._messages._tool_call import (
    MediaPart,
    ToolCall,
    ToolResult,
    ToolResultPart,
    describe_result,
    result_text,
    split_result,
    structured_text,
    text_or_parts,
)
from llmbridge._messages._types import (
    UPDATE_TYPES,
    MessageEnvelope,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessageUpdate,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
)
from llmbridge._messages._values import Message, Reasoning, Role, Usage
from llmbridge._messages._video import VideoMessage

__all__ = [
    "MESSAGE_TYPES",
    "UPDATE_TYPES",
    "AudioMessage",
    "Citation",
    "DocumentMessage",
    "FinishReason",
    "HostedToolCall",
    "ImageDetail",
    "ImageMessage",
    "MediaPart",
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
    "ToolResult",
    "ToolResultPart",
    "Usage",
    "VideoMessage",
    "describe_result",
    "dump_messages",
    "load_messages",
    "result_text",
    "split_result",
    "structured_text",
    "text_or_parts",
]
