"""llmbridge: one neutral message language for agent code, translated to any LLM provider.

Core names live here; provider connectors and agents in ``llmbridge.openai`` and
``llmbridge.anthropic``; the test kit in ``llmbridge.testing``. Importing this package never
imports a provider SDK.

Conversion notes and tool failures are logged to the ``llmbridge`` logger, which has a
``NullHandler``: nothing is printed until the application configures logging.
"""

from __future__ import annotations

import logging

from llmbridge._agents import (
    Agent,
    Connector,
    DelegateMiddleware,
    GenerateReplyOptions,
    Middleware,
    MiddlewareAgent,
    MiddlewareContext,
    MiddlewareStreamingAgent,
    PrintMessageMiddleware,
    StreamingAgent,
    StreamingMiddleware,
    format_message,
    register_default_connector,
    register_message_connector,
    register_middleware,
    register_post_process,
    register_pre_process,
    register_print_message,
    register_streaming_middleware,
    register_tracing,
    send,
    stream,
)
from llmbridge._errors import (
    AuthenticationError,
    BadRequestError,
    ContentFilteredError,
    EmptyResponseError,
    InvalidMessageError,
    LLMBridgeError,
    OutputValidationError,
    ProviderAPIError,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    RefusalError,
    StreamInterruptedError,
    UnsupportedMessageError,
)
from llmbridge._functions import (
    FunctionCallMiddleware,
    FunctionContract,
    FunctionResult,
    function,
)
from llmbridge._messages import (
    AudioMessage,
    Citation,
    DocumentMessage,
    HostedToolCall,
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
    VideoMessage,
)
from llmbridge._messages._serialization import dump_messages, load_messages
from llmbridge._output import parse_output
from llmbridge.kit._conversation import check_tool_pairing
from llmbridge.kit._notes import ConversionNote

__version__ = "0.2.0"
"""The installed version; the one place it is written (the package metadata reads it too)."""

# A library never configures logging; the NullHandler keeps Python's last-resort handler from
# printing our warnings to stderr when the application has not configured logging either.
logging.getLogger("llmbridge").addHandler(logging.NullHandler())

__all__ = [
    "Agent",
    "AudioMessage",
    "AuthenticationError",
    "BadRequestError",
    "Citation",
    "Connector",
    "ContentFilteredError",
    "ConversionNote",
    "DelegateMiddleware",
    "DocumentMessage",
    "EmptyResponseError",
    "FunctionCallMiddleware",
    "FunctionContract",
    "FunctionResult",
    "GenerateReplyOptions",
    "HostedToolCall",
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
    "OutputValidationError",
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
    "VideoMessage",
    "__version__",
    "check_tool_pairing",
    "dump_messages",
    "format_message",
    "function",
    "load_messages",
    "parse_output",
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
