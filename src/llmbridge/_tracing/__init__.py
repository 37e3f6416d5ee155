"""OpenTelemetry GenAI spans and metrics for every connected agent (extra ``otel``).

Importing this package imports no OpenTelemetry module: ``tracing_middleware`` loads them, so
that ``import llmbridge`` works without the extra. ``llmbridge.register_tracing`` (in
``llmbridge._agents._chain``) builds its middleware here; nothing in this package imports the
chain or ``llmbridge`` itself, so that the chain can import it without a circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider as MeterProvider
    from opentelemetry.trace import TracerProvider as TracerProvider

    from llmbridge._agents._protocols import Agent
    from llmbridge._tracing._middleware import TracingMiddleware

__all__ = ["INSTALL_HINT", "tracing_middleware"]

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


def tracing_middleware(
    inner: Agent,
    *,
    tracer_provider: TracerProvider | None = None,
    meter_provider: MeterProvider | None = None,
    capture_content: bool = False,
) -> TracingMiddleware:
    """Build the tracing middleware for a chain whose innermost agent is ``inner``.

    The provider tag, model and server are read from ``inner`` once, here. Raises
    ``ImportError`` naming ``pip install 'llmbridge[otel]'`` when the OpenTelemetry API or
    semantic conventions are not installed.
    """
    _require_opentelemetry()
    from llmbridge._tracing._middleware import TracingMiddleware
    from llmbridge._tracing._target import Target

    return TracingMiddleware(
        Target.of(inner),
        tracer_provider=tracer_provider,
        meter_provider=meter_provider,
        capture_content=capture_content,
    )
