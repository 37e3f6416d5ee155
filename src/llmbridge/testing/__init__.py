"""Test kit: run the real provider SDKs against respx mocks, with no network.

Provider SDKs are imported lazily, so this package imports without openai or anthropic installed.
"""

from llmbridge.testing._echo import EchoAgent
from llmbridge.testing._transport import (
    RespxTransport,
    anthropic_client,
    last_request_json,
    openai_client,
)

__all__ = ["EchoAgent", "RespxTransport", "anthropic_client", "last_request_json", "openai_client"]
