"""Test kit: run the real provider SDKs against respx mocks, with no network.

``EchoAgent`` needs nothing beyond llmbridge itself. The HTTP parts (``RespxTransport``, the SDK
client builders, the response builders, ``ScriptedProvider``) need httpx and respx, the
``testing`` extra: they load on first use, and without that extra using one raises an
``ImportError`` naming it (``pip install 'llmbridge[testing]'``). Provider SDKs are imported
only by the client builders, so this package imports without openai, anthropic or google-genai
installed.

The pytest plugin (``llmbridge.testing._plugin``, entry point ``llmbridge``) adds the fixtures
``scripted_provider`` and ``conversion_snapshot`` (a ``ConversionSnapshot``) to every pytest
run where this package is installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from llmbridge.testing._echo import EchoAgent

if TYPE_CHECKING:
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
    from llmbridge.testing._gemini import (
        gemini_error,
        gemini_error_response,
        gemini_function_call_part,
        gemini_response,
        gemini_sse,
        gemini_sse_response,
        gemini_stream_chunks,
        gemini_text_part,
    )
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
    from llmbridge.testing._plugin import ConversionSnapshot
    from llmbridge.testing._provider import (
        ProviderRequest,
        ScriptedProvider,
        ScriptedReply,
        ScriptedRequest,
    )
    from llmbridge.testing._responses import (
        openai_response,
        openai_response_events,
        openai_response_function_call,
        openai_response_message,
        openai_response_reasoning,
        openai_responses_error_event,
        openai_responses_sse,
        openai_responses_sse_response,
    )
    from llmbridge.testing._transport import (
        RespxTransport,
        anthropic_client,
        gemini_client,
        last_request_json,
        openai_client,
    )

# Public name -> the private module that defines it; those modules import httpx and respx, or
# pytest (``_plugin``, the pytest plugin's fixtures).
_LAZY_PARTS: Final[dict[str, str]] = {
    "ConversionSnapshot": "_plugin",
    "ProviderRequest": "_provider",
    "ScriptedRequest": "_provider",
    "RespxTransport": "_transport",
    "ScriptedProvider": "_provider",
    "ScriptedReply": "_provider",
    "anthropic_client": "_transport",
    "anthropic_error_event": "_anthropic",
    "anthropic_error_response": "_anthropic",
    "anthropic_message": "_anthropic",
    "anthropic_redacted_thinking_block": "_anthropic",
    "anthropic_sse": "_anthropic",
    "anthropic_sse_response": "_anthropic",
    "anthropic_stream_events": "_anthropic",
    "anthropic_text_block": "_anthropic",
    "anthropic_thinking_block": "_anthropic",
    "anthropic_tool_use_block": "_anthropic",
    "gemini_client": "_transport",
    "gemini_error": "_gemini",
    "gemini_error_response": "_gemini",
    "gemini_function_call_part": "_gemini",
    "gemini_response": "_gemini",
    "gemini_sse": "_gemini",
    "gemini_sse_response": "_gemini",
    "gemini_stream_chunks": "_gemini",
    "gemini_text_part": "_gemini",
    "last_request_json": "_transport",
    "openai_chunk": "_openai",
    "openai_client": "_transport",
    "openai_completion": "_openai",
    "openai_error_event": "_openai",
    "openai_response": "_responses",
    "openai_response_events": "_responses",
    "openai_response_function_call": "_responses",
    "openai_response_message": "_responses",
    "openai_response_reasoning": "_responses",
    "openai_responses_error_event": "_responses",
    "openai_responses_sse": "_responses",
    "openai_responses_sse_response": "_responses",
    "openai_sse": "_openai",
    "openai_sse_response": "_openai",
    "openai_text_chunks": "_openai",
    "openai_tool_call_chunks": "_openai",
    "openai_usage": "_openai",
    "openai_usage_chunk": "_openai",
}
_TESTING_EXTRA: Final = frozenset({"httpx", "httpx2", "respx"})


def __getattr__(name: str) -> Any:
    """Load an HTTP part of the kit on first use (see the module docstring)."""
    module = _LAZY_PARTS.get(name)
    if module is None:
        raise AttributeError(f"module 'llmbridge.testing' has no attribute {name!r}")
    try:
        loaded = importlib.import_module(f"llmbridge.testing.{module}")
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in _TESTING_EXTRA:
            raise
        raise ImportError(
            f"llmbridge.testing.{name} needs httpx and respx: pip install 'llmbridge[testing]'",
            name=exc.name,
        ) from exc
    return getattr(loaded, name)


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ConversionSnapshot",
    "EchoAgent",
    "ProviderRequest",
    "RespxTransport",
    "ScriptedProvider",
    "ScriptedReply",
    "ScriptedRequest",
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
    "gemini_client",
    "gemini_error",
    "gemini_error_response",
    "gemini_function_call_part",
    "gemini_response",
    "gemini_sse",
    "gemini_sse_response",
    "gemini_stream_chunks",
    "gemini_text_part",
    "last_request_json",
    "openai_chunk",
    "openai_client",
    "openai_completion",
    "openai_error_event",
    "openai_response",
    "openai_response_events",
    "openai_response_function_call",
    "openai_response_message",
    "openai_response_reasoning",
    "openai_responses_error_event",
    "openai_responses_sse",
    "openai_responses_sse_response",
    "openai_sse",
    "openai_sse_response",
    "openai_text_chunks",
    "openai_tool_call_chunks",
    "openai_usage",
    "openai_usage_chunk",
]
