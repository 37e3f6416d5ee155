"""Shared pieces of the tracing tests: the SDK's in-memory exporter and metric reader, traced
agents of both wings on the real SDK clients over respx, and each wing's wire replies."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
import respx
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import HistogramDataPoint, InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from llmbridge import Message, ToolCall
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import (
    anthropic_client,
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_tool_use_block,
    openai_client,
    openai_completion,
    openai_error_event,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
)
from tests.corpus import AGENT
from tests.reliability.helpers import ANTHROPIC_URL, OPENAI_URL, PROVIDERS, Provider

__all__ = [
    "AGENT",
    "CALLS",
    "PROVIDERS",
    "SENTINEL",
    "WINGS",
    "Provider",
    "Telemetry",
    "Wing",
    "agent_for",
    "send_or_stream",
    "text_router",
    "traced",
]

SENTINEL = "sk-SENTINEL-llmbridge-tracing-0123456789abcdef"
CALLS = (
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1"),
    ToolCall("get_time", '{"zone": "CET"}', tool_call_id="call_2"),
)


class Telemetry:
    """An SDK tracer and meter provider recording into memory."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.reader = InMemoryMetricReader()
        self.meter_provider = MeterProvider(metric_readers=[self.reader])

    def spans(self) -> list[ReadableSpan]:
        """Every finished span, in the order they ended."""
        return list(self.exporter.get_finished_spans())

    def span(self) -> ReadableSpan:
        """The one finished span (fails when there are more or none)."""
        (span,) = self.spans()
        return span

    def points(self, name: str) -> list[HistogramDataPoint]:
        """The histogram data points of the metric ``name`` (empty when never recorded)."""
        data = self.reader.get_metrics_data()
        found: list[HistogramDataPoint] = []
        for resource in data.resource_metrics if data else ():
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        points = metric.data.data_points
                        found += [p for p in points if isinstance(p, HistogramDataPoint)]
        return found

    def shutdown(self) -> None:
        self.tracer_provider.shutdown()
        self.meter_provider.shutdown()


def _anthropic(content: str | list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
    """An Anthropic ``Message`` body answered by ``ANTHROPIC_MODEL`` with id ``msg_01``."""
    return anthropic_message(content, message_id="msg_01", model=ANTHROPIC_MODEL, **kwargs)


def _tool_use_blocks() -> list[dict[str, Any]]:
    return [
        anthropic_tool_use_block(call.tool_call_id or "", call.function_name, _arguments(call))
        for call in CALLS
    ]


def _arguments(call: ToolCall) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(call.function_arguments)
    return parsed


# The model that answers differs from the one requested, so the tests tell them apart: OpenAI's
# builders answer as gpt-4o-mini, the Anthropic bodies here as a dated model name.
ANTHROPIC_MODEL = "claude-test-20250101"
_OPENAI_USAGE = {"cached_tokens": 4, "reasoning_tokens": 2}
_ANTHROPIC_USAGE = {"input_tokens": 9, "output_tokens": 5, "cache_read_input_tokens": 4}


@dataclass(frozen=True)
class Wing:
    """One provider wing: its URL, models, and its wire replies as respx responses."""

    provider: Provider
    url: str
    model: str
    response_model: str
    response_id: str
    # Neutral usage of the text replies: input (cache included), output, cache read, reasoning.
    usage: tuple[int, int, int, int | None]

    def text_reply(self) -> httpx.Response:
        if self.provider == "openai":
            usage = openai_usage(12, 5, **_OPENAI_USAGE)
            return httpx.Response(200, json=openai_completion("Hello there.", usage=usage))
        return httpx.Response(200, json=_anthropic("Hello there.", **_ANTHROPIC_USAGE))

    def tool_call_reply(self) -> httpx.Response:
        if self.provider == "openai":
            body = openai_completion(tool_calls=CALLS, usage=openai_usage(20, 8))
            return httpx.Response(200, json=body)
        return httpx.Response(200, json=_anthropic(_tool_use_blocks(), stop_reason="tool_use"))

    def text_stream(self) -> httpx.Response:
        parts = ["Hel", "lo ", "there."]
        if self.provider == "openai":
            usage = openai_usage(12, 5, **_OPENAI_USAGE)
            return openai_sse_response(openai_text_chunks(parts, usage=usage))
        body = _anthropic("".join(parts), **_ANTHROPIC_USAGE)
        return anthropic_sse_response(anthropic_stream_events(body))

    def tool_call_stream(self) -> httpx.Response:
        if self.provider == "openai":
            return openai_sse_response(openai_tool_call_chunks(CALLS, usage=openai_usage(20, 8)))
        body = _anthropic(_tool_use_blocks(), stop_reason="tool_use")
        return anthropic_sse_response(anthropic_stream_events(body))

    def interrupted_stream(self, text: str = "overloaded") -> httpx.Response:
        """A stream that sends some text, then an error event (HTTP 200 already received)."""
        if self.provider == "openai":
            chunks = [*openai_text_chunks(["Hel"], finish_reason=None), openai_error_event(text)]
            return openai_sse_response(chunks, done=False)
        events = anthropic_stream_events(_anthropic("Hello"))[:4]
        return anthropic_sse_response([*events, anthropic_error_event("overloaded_error", text)])

    def status_error(self, status: int, text: str = "failed") -> httpx.Response:
        """An error response of ``status`` in the provider's own shape."""
        if self.provider == "openai":
            body = {"error": {"message": text, "type": "api_error", "param": None, "code": None}}
            return httpx.Response(status, json=body)
        return anthropic_error_response(status, "api_error", text)


WINGS: dict[Provider, Wing] = {
    "openai": Wing("openai", OPENAI_URL, "gpt-test", "gpt-4o-mini", "chatcmpl-test", (12, 5, 4, 2)),
    "anthropic": Wing(
        "anthropic", ANTHROPIC_URL, "claude-test", ANTHROPIC_MODEL, "msg_01", (13, 5, 4, None)
    ),
}


def text_router(provider: Provider, *, streaming: bool, calls: int = 1) -> respx.Router:
    """A router answering ``calls`` requests with the wing's text reply (or text stream)."""
    wing = WINGS[provider]
    reply = wing.text_stream if streaming else wing.text_reply
    router = respx.Router()
    router.post(wing.url).mock(side_effect=[reply() for _ in range(calls)])
    return router


async def send_or_stream(agent: Any, streaming: bool, *args: Any, **kwargs: Any) -> Message:
    """``agent.send(...)``, or the last message of ``agent.stream(...)``."""
    if streaming:
        return [message async for message in agent.stream(*args, **kwargs)][-1]
    reply: Message = await agent.send(*args, **kwargs)
    return reply


def agent_for(provider: Provider, router: respx.Router, *, api_key: str = SENTINEL) -> Any:
    """The provider agent of ``provider`` on ``router`` (no retries), not yet connected."""
    if provider == "openai":
        client: Any = openai_client(router, api_key=api_key, max_retries=0)
        return OpenAIChatAgent(client, name=AGENT, model=WINGS[provider].model)
    client = anthropic_client(router, api_key=api_key, max_retries=0)
    return AnthropicChatAgent(client, name=AGENT, model=WINGS[provider].model)


def traced(
    provider: Provider,
    router: respx.Router,
    telemetry: Telemetry,
    *,
    capture_content: bool = False,
) -> Any:
    """The provider agent behind its connector, traced (tracing registered after it)."""
    return (
        agent_for(provider, router)
        .register_message_connector()
        .register_tracing(
            tracer_provider=telemetry.tracer_provider,
            meter_provider=telemetry.meter_provider,
            capture_content=capture_content,
        )
    )
