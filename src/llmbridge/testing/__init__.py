"""Test kit: run the real provider SDKs against respx mocks, with no network.

Provider SDKs are imported lazily, so this package imports without openai or anthropic installed.
"""

from llmbridge.testing._anthropic import (
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_redacted_thinking_block,
    anthropic_sse,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from llmbridge.testing._echo import EchoAgent
from llmbridge.testing._openai import (
    openai_chunk,
    openai_completion,
    openai_error_event,
    openai_sse,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
    openai_usage_chunk,
)
from llmbridge.testing._provider import ProviderRequest, ScriptedProvider, ScriptedReply
from llmbridge.testing._transport import (
    RespxTransport,
    anthropic_client,
    last_request_json,
    openai_client,
)

__all__ = [
    "EchoAgent",
    "ProviderRequest",
    "RespxTransport",
    "ScriptedProvider",
    "ScriptedReply",
    "anthropic_client",
    "anthropic_error_event",
    "anthropic_error_response",
    "anthropic_message",
    "anthropic_redacted_thinking_block",
    "anthropic_sse",
    "anthropic_sse_response",
    "anthropic_stream_events",
    "anthropic_text_block",
    "anthropic_thinking_block",
    "anthropic_tool_use_block",
    "last_request_json",
    "openai_chunk",
    "openai_client",
    "openai_completion",
    "openai_error_event",
    "openai_sse",
    "openai_sse_response",
    "openai_text_chunks",
    "openai_tool_call_chunks",
    "openai_usage",
    "openai_usage_chunk",
]
