"""Agents and the middleware chain: protocols, options, ``send`` / ``stream``, middleware agents
and their methods, printing, ``register_message_connector``, ``register_tracing`` and the
registry of default connectors. Imports the neutral model only (and, when tracing is registered,
the tracing package, which imports this package's protocols and context but not the chain)."""

from __future__ import annotations

from llmbridge._agents._chain import (
    AgentMethods,
    MiddlewareAgent,
    MiddlewareStreamingAgent,
    innermost_agent,
    register_message_connector,
    register_middleware,
    register_post_process,
    register_pre_process,
    register_print_message,
    register_streaming_middleware,
    register_tracing,
)
from llmbridge._agents._context import (
    DelegateMiddleware,
    Middleware,
    MiddlewareContext,
    MiddlewareFunction,
    StreamingMiddleware,
)
from llmbridge._agents._printing import PrintMessageMiddleware, format_message
from llmbridge._agents._protocols import (
    Agent,
    GenerateReplyOptions,
    StreamingAgent,
    build_messages,
    check_async_client,
    check_reserved,
    create_keywords,
    layer_create_settings,
    send,
    stream,
)
from llmbridge._agents._registry import (
    Connector,
    ConnectorFactory,
    default_connector_for,
    register_default_connector,
)

__all__ = [
    "Agent",
    "AgentMethods",
    "Connector",
    "ConnectorFactory",
    "DelegateMiddleware",
    "GenerateReplyOptions",
    "Middleware",
    "MiddlewareAgent",
    "MiddlewareContext",
    "MiddlewareFunction",
    "MiddlewareStreamingAgent",
    "PrintMessageMiddleware",
    "StreamingAgent",
    "StreamingMiddleware",
    "build_messages",
    "check_async_client",
    "check_reserved",
    "create_keywords",
    "default_connector_for",
    "format_message",
    "innermost_agent",
    "layer_create_settings",
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
