"""llmbridge for OpenAI Chat Completions: the agent, the connector and the pure conversions.

``OpenAIChatAgent`` speaks the SDK's types; ``OpenAIChatRequestMessageConnector`` (its default
connector) translates neutral messages both ways; ``to_openai``, ``from_openai`` and
``OpenAIStreamAggregator`` are the pure functions underneath. Needs the ``openai`` extra
(``pip install 'llmbridge[openai]'``): without the SDK, importing this package raises an
``ImportError`` that says so.
"""

from __future__ import annotations

try:
    import openai as _sdk  # noqa: F401  (only to fail early, naming the extra)
except ImportError as exc:
    raise ImportError(
        "llmbridge.openai needs the openai SDK: pip install 'llmbridge[openai]'", name=exc.name
    ) from exc

from llmbridge.openai._agent import OpenAIChatAgent
from llmbridge.openai._connector import OpenAIChatRequestMessageConnector
from llmbridge.openai._errors import map_error, map_openai_error
from llmbridge.openai._import import from_openai_messages
from llmbridge.openai._request import (
    MAX_DOCUMENT_BYTES,
    MAX_IMAGE_BYTES,
    MAX_TOOL_CALL_ID_LENGTH,
    OpenAIRequest,
    to_openai,
)
from llmbridge.openai._response import from_openai
from llmbridge.openai._stream import OpenAIStreamAggregator
from llmbridge.openai._tools import openai_tool_choice, openai_tools
from llmbridge.openai._wing import (
    connected_agent,
    default_http_client,
    request_payload,
    sdk_client,
)

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE_BYTES",
    "MAX_TOOL_CALL_ID_LENGTH",
    "OpenAIChatAgent",
    "OpenAIChatRequestMessageConnector",
    "OpenAIRequest",
    "OpenAIStreamAggregator",
    "connected_agent",
    "default_http_client",
    "from_openai",
    "from_openai_messages",
    "map_error",
    "map_openai_error",
    "openai_tool_choice",
    "openai_tools",
    "request_payload",
    "sdk_client",
    "to_openai",
]
