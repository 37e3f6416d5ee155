"""The Anthropic Messages connector: ``AnthropicChatAgent``, ``AnthropicMessageConnector`` and the
pure conversions underneath (``to_anthropic``, ``from_anthropic``, ``AnthropicStreamAggregator``).

Importing this package imports the ``anthropic`` SDK (``pip install 'llmbridge[anthropic]'``;
without it, an ``ImportError`` says so) and registers ``AnthropicMessageConnector`` as the
default connector of ``AnthropicChatAgent``.
"""

from __future__ import annotations

try:
    import anthropic as _sdk  # noqa: F401  (only to fail early, naming the extra)
except ImportError as exc:
    raise ImportError(
        "llmbridge.anthropic needs the anthropic SDK: pip install 'llmbridge[anthropic]'",
        name=exc.name,
    ) from exc

from llmbridge.anthropic._agent import AnthropicChatAgent
from llmbridge.anthropic._connector import AnthropicMessageConnector
from llmbridge.anthropic._errors import map_error
from llmbridge.anthropic._import import from_anthropic_messages
from llmbridge.anthropic._media import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from llmbridge.anthropic._request import AnthropicRequest, to_anthropic
from llmbridge.anthropic._response import from_anthropic
from llmbridge.anthropic._stream import AnthropicStreamAggregator
from llmbridge.anthropic._wing import (
    connected_agent,
    default_http_client,
    request_payload,
    sdk_client,
)

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE_BYTES",
    "AnthropicChatAgent",
    "AnthropicMessageConnector",
    "AnthropicRequest",
    "AnthropicStreamAggregator",
    "connected_agent",
    "default_http_client",
    "from_anthropic",
    "from_anthropic_messages",
    "map_error",
    "request_payload",
    "sdk_client",
    "to_anthropic",
]
