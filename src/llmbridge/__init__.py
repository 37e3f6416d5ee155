"""llmbridge: one neutral message language for agent code, translated to any LLM provider.

Core names live here; provider connectors and agents in ``llmbridge.openai`` and
``llmbridge.anthropic``; the test kit in ``llmbridge.testing``. Importing this package never
imports a provider SDK.
"""

from __future__ import annotations

from llmbridge._agents import Agent, GenerateReplyOptions, StreamingAgent, send, stream
from llmbridge._connectors import (
    Connector,
    register_default_connector,
    register_message_connector,
)
from llmbridge._errors import (
    AuthenticationError,
    BadRequestError,
    ContentFilteredError,
    EmptyResponseError,
    InvalidMessageError,
    LLMBridgeError,
    ProviderAPIError,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    RefusalError,
    StreamInterruptedError,
    UnsupportedMessageError,
)
from llmbridge._function_call import FunctionCallMiddleware
from llmbridge._functions import FunctionContract, function
from llmbridge._messages import (
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    Usage,
)
from llmbridge._middleware import (
    DelegateMiddleware,
    Middleware,
    MiddlewareAgent,
    MiddlewareContext,
    MiddlewareStreamingAgent,
    StreamingMiddleware,
    register_middleware,
    register_post_process,
    register_pre_process,
    register_streaming_middleware,
)
from llmbridge._notes import ConversionNote
from llmbridge._pairing import check_tool_pairing
from llmbridge._printing import PrintMessageMiddleware, format_message, register_print_message
from llmbridge._serialization import dump_messages, load_messages
from llmbridge._tracing import register_tracing

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "AuthenticationError",
    "BadRequestError",
    "Connector",
    "ContentFilteredError",
    "ConversionNote",
    "DelegateMiddleware",
    "EmptyResponseError",
    "FunctionCallMiddleware",
    "FunctionContract",
    "GenerateReplyOptions",
    "ImageMessage",
    "InvalidMessageError",
    "LLMBridgeError",
    "Message",
    "MessageEnvelope",
    "Middleware",
    "MiddlewareAgent",
    "MiddlewareContext",
    "MiddlewareStreamingAgent",
    "MultiModalMessage",
    "PrintMessageMiddleware",
    "ProviderAPIError",
    "ProviderResponseError",
    "ProviderUnavailableError",
    "RateLimitError",
    "Reasoning",
    "ReasoningMessageUpdate",
    "RefusalError",
    "Role",
    "StreamInterruptedError",
    "StreamingAgent",
    "StreamingMiddleware",
    "TextMessage",
    "TextMessageUpdate",
    "ToolCall",
    "ToolCallAggregateMessage",
    "ToolCallMessage",
    "ToolCallMessageUpdate",
    "ToolCallResultMessage",
    "UnsupportedMessageError",
    "Usage",
    "__version__",
    "check_tool_pairing",
    "dump_messages",
    "format_message",
    "function",
    "load_messages",
    "register_default_connector",
    "register_message_connector",
    "register_middleware",
    "register_post_process",
    "register_pre_process",
    "register_print_message",
    "register_streaming_middleware",
    "register_tracing",
    "send",
    "stream",
]
