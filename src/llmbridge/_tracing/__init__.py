"""OpenTelemetry GenAI spans and metrics for every connected agent (extra ``otel``).

Importing this package imports no OpenTelemetry module: ``register_tracing`` loads them, so that
``import llmbridge`` works without the extra.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final, overload

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider as MeterProvider
    from opentelemetry.trace import TracerProvider as TracerProvider

    from llmbridge import Agent, MiddlewareAgent, MiddlewareStreamingAgent, StreamingAgent

__all__ = ["INSTALL_HINT", "register_tracing"]

INSTALL_HINT: Final = "pip install 'llmbridge[otel]'"
# What the extra brings: the API (traces, metrics) and the GenAI names of the conventions.
_REQUIRED: Final = (
    "opentelemetry.trace",
    "opentelemetry.metrics",
    "opentelemetry.semconv._incubating.attributes.gen_ai_attributes",
)


def _require_opentelemetry() -> None:
    """Raise ``ImportError`` naming the extra when the OpenTelemetry API is not installed."""
    try:
        for name in _REQUIRED:
            importlib.import_module(name)
    except ImportError as exc:
        raise ImportError(
            f"register_tracing needs the OpenTelemetry API and semantic conventions: "
            f"{INSTALL_HINT} ({exc})"
        ) from exc


@overload
def register_tracing(
    agent: StreamingAgent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareStreamingAgent: ...
@overload
def register_tracing(
    agent: Agent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareAgent: ...
def register_tracing(
    agent: Agent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> MiddlewareAgent:
    """Return a new agent that records every call as an OpenTelemetry GenAI client span.

    Register it right after the connector, so it sees neutral messages and replies; inside the
    connector it records what envelopes show. The provider and model come from the innermost
    agent (its class's ``provider`` tag and its ``model``). ``tracer_provider`` and
    ``meter_provider`` default to the global ones. Message content (inputs, outputs, tool-call
    arguments) is recorded only with ``capture_content=True``, media as their type and size
    only; credentials never. A streaming agent stays streaming.

    Raises ``ImportError`` naming ``pip install 'llmbridge[otel]'`` when the OpenTelemetry API
    or semantic conventions are not installed.
    """
    _require_opentelemetry()
    from llmbridge import register_middleware
    from llmbridge._tracing._middleware import TracingMiddleware
    from llmbridge._tracing._target import Target

    middleware = TracingMiddleware(
        Target.of(agent),
        tracer_provider=tracer_provider,
        meter_provider=meter_provider,
        capture_content=capture_content,
    )
    return register_middleware(agent, middleware)
