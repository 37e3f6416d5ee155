"""llmbridge for Google Gemini (google-genai): the agent, the connector and the pure conversions.

``GeminiChatAgent`` speaks the SDK's types and ``GeminiMessageConnector`` (its default
connector) lets it speak neutral messages; ``to_gemini`` and ``from_gemini_contents`` are the
pure request-side functions, ``from_gemini`` and ``GeminiStreamAggregator`` the reply side.
Needs the ``gemini`` extra (``pip install 'llmbridge[gemini]'``): without the SDK, importing
this package raises an ``ImportError`` that says so.
"""

from __future__ import annotations

try:
    from google import genai as _sdk  # noqa: F401  (only to fail early, naming the extra)
except ImportError as exc:
    raise ImportError(
        "llmbridge.gemini needs the google-genai SDK: pip install 'llmbridge[gemini]'",
        name=exc.name,
    ) from exc

from llmbridge.gemini._agent import GeminiChatAgent
from llmbridge.gemini._connector import GeminiMessageConnector
from llmbridge.gemini._import import from_gemini_contents
from llmbridge.gemini._model_turn import SKIP_THOUGHT_SIGNATURE
from llmbridge.gemini._request import GeminiRequest, to_gemini
from llmbridge.gemini._response import from_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.gemini._wing import (
    connected_agent,
    default_http_client,
    import_payload,
    request_payload,
    sdk_client,
)

__all__ = [
    "SKIP_THOUGHT_SIGNATURE",
    "GeminiChatAgent",
    "GeminiMessageConnector",
    "GeminiRequest",
    "GeminiStreamAggregator",
    "connected_agent",
    "default_http_client",
    "from_gemini",
    "from_gemini_contents",
    "import_payload",
    "request_payload",
    "sdk_client",
    "to_gemini",
]
