"""Tracing overhead: a connected agent's call over ``RespxTransport``, traced and untraced.

Each provider's agent sends a ``size``-message conversation (``make_conversation``) through its
connector and the real SDK client, answered by respx with a text reply (or its SSE stream). The
traced agent is the same agent with ``register_tracing`` on top, exporting through the SDK (a
``SimpleSpanProcessor`` into an exporter that drops the spans, an ``InMemoryMetricReader``), with
content capture off (the default). A third agent carries ``_FloorTracing`` instead: the least
code that makes the same OpenTelemetry SDK calls (one span with the same attributes, the same
histogram records) for these replies, so the table shows how much of the overhead is the SDK's
own. All three are timed in the same run, their runs taken in turn; the figures are the extra
time over the untraced call, in percent of it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx
import respx
from opentelemetry import context as otel_context
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import SpanKind, set_span_in_context

from benchmarks.conversation import AGENT, make_conversation
from benchmarks.timing import Settings, best_times
from llmbridge import Agent, Message, MiddlewareContext, StreamingAgent, TextMessage
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    openai_client,
    openai_completion,
    openai_response,
    openai_response_events,
    openai_responses_sse_response,
    openai_sse_response,
    openai_text_chunks,
    openai_usage,
)

__all__ = [
    "TARGET_PERCENT",
    "TracingResult",
    "anthropic_answer",
    "gemini_answer",
    "openai_answer",
    "responses_answer",
    "run_tracing",
]

TARGET_PERCENT: Final = 5.0
"""The highest accepted overhead of tracing, in percent of the untraced call's time."""

_REPLY: Final = (
    "The weather in Paris is sunny and warm today, with a light breeze from the west; "
    "tomorrow brings clouds in the afternoon, so an umbrella is a good idea."
)
_WORDS: Final = tuple(word + " " for word in _REPLY.split())


@dataclass(frozen=True, slots=True)
class TracingResult:
    """One provider and path: microseconds per call, untraced and traced."""

    provider: str
    path: str
    messages: int
    untraced_us: float
    traced_us: float
    floor_us: float

    @property
    def overhead_percent(self) -> float:
        """The traced call's extra time, in percent of the untraced call's."""
        return (self.traced_us - self.untraced_us) / self.untraced_us * 100

    @property
    def floor_percent(self) -> float:
        """The floor's extra time (the SDK calls alone), in percent of the untraced call's."""
        return (self.floor_us - self.untraced_us) / self.untraced_us * 100


class _Dropping(SpanExporter):
    """An exporter that keeps only the last span (the export path without the I/O)."""

    def __init__(self) -> None:
        self.last: ReadableSpan | None = None

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.last = spans[-1]
        return SpanExportResult.SUCCESS


_TTFC: Final = "gen_ai.response.time_to_first_chunk"
# The attributes the library sets when a span starts here, and those its metrics carry.
_START_KEYS: Final = frozenset(
    {"gen_ai.operation.name", "gen_ai.provider.name", "openai.api.type", "server.address",
     "server.port", "gen_ai.request.model", "gen_ai.request.max_tokens"}
)  # fmt: skip
_METRIC_KEYS: Final = ("gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model",
                       "server.address", "server.port")  # fmt: skip


class _FloorTracing:
    """The same span and histogram records as ``register_tracing`` for these text replies, with
    nothing looked up, checked or built that the calls do not need."""

    name = "floor"

    def __init__(self, tracer: Any, meter: Any, start: dict[str, Any]) -> None:
        self.tracer = tracer
        self.duration = meter.create_histogram("gen_ai.client.operation.duration", unit="s")
        self.tokens = meter.create_histogram("gen_ai.client.token.usage", unit="{token}")
        self.first = meter.create_histogram("gen_ai.client.operation.time_to_first_chunk")
        self.start = start
        self.span_name = f"chat {start['gen_ai.request.model']}"
        self.shared = {key: start[key] for key in _METRIC_KEYS}

    def _end(self, span: Any, started: float, reply: TextMessage, first: float | None) -> None:
        raw = reply.raw[0] if isinstance(reply.raw, tuple) else reply.raw
        usage = reply.usage
        assert usage is not None
        end = {
            "gen_ai.response.model": raw.model,
            "gen_ai.response.id": raw.id,
            "gen_ai.response.finish_reasons": [reply.finish_reason],
            "gen_ai.usage.input_tokens": usage.input_tokens,
            "gen_ai.usage.output_tokens": usage.output_tokens,
        }
        if first is not None:
            end[_TTFC] = first
        span.set_attributes(end)
        span.end()
        shared = {**self.shared, "gen_ai.response.model": raw.model}
        self.duration.record(time.perf_counter() - started, shared)
        if first is not None:
            self.first.record(first, shared)
        self.tokens.record(usage.input_tokens, {**shared, "gen_ai.token.type": "input"})
        self.tokens.record(usage.output_tokens, {**shared, "gen_ai.token.type": "output"})

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        started = time.perf_counter()
        span = self.tracer.start_span(self.span_name, kind=SpanKind.CLIENT, attributes=self.start)
        token = otel_context.attach(set_span_in_context(span))
        reply = await agent.generate_reply(context.messages, context.options)
        otel_context.detach(token)
        assert isinstance(reply, TextMessage)
        self._end(span, started, reply, None)
        return reply

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        started = time.perf_counter()
        attributes = {**self.start, "gen_ai.request.stream": True}
        span = self.tracer.start_span(self.span_name, kind=SpanKind.CLIENT, attributes=attributes)
        current = set_span_in_context(span)
        stream = agent.generate_streaming_reply(context.messages, context.options)
        first = None
        while True:
            token = otel_context.attach(current)
            try:
                item = await anext(stream)
            except StopAsyncIteration:
                break
            finally:
                otel_context.detach(token)
            if first is None:
                first = time.perf_counter() - started
            yield item
        assert isinstance(item, TextMessage)
        self._end(span, started, item, first)


def openai_answer(request: httpx.Request) -> httpx.Response:
    """respx's answer to a Chat Completions request: the text reply, or its SSE stream."""
    usage = openai_usage(1200, 40)
    if json.loads(request.content).get("stream"):
        return openai_sse_response(openai_text_chunks(_WORDS, usage=usage))
    return httpx.Response(200, json=openai_completion(_REPLY, usage=usage))


def anthropic_answer(request: httpx.Request) -> httpx.Response:
    """respx's answer to a Messages request: the text reply, or its SSE stream."""
    body = anthropic_message(_REPLY, input_tokens=1200, output_tokens=40)
    if json.loads(request.content).get("stream"):
        return anthropic_sse_response(anthropic_stream_events(body, pieces=len(_WORDS)))
    return httpx.Response(200, json=body)


def responses_answer(request: httpx.Request) -> httpx.Response:
    """respx's answer to a Responses request: the text reply, or its SSE stream."""
    body = openai_response(_REPLY, input_tokens=1200, output_tokens=40)
    if json.loads(request.content).get("stream"):
        events = openai_response_events(body, pieces=len(_WORDS))
        return openai_responses_sse_response(events)
    return httpx.Response(200, json=body)


def gemini_answer(request: httpx.Request) -> httpx.Response:
    """respx's answer to a ``generateContent`` request: the text reply, or (to
    ``streamGenerateContent``) its SSE stream."""
    body = gemini_response(_REPLY, prompt_token_count=1200, candidates_token_count=40)
    if request.url.path.endswith(":streamGenerateContent"):
        return gemini_sse_response(gemini_stream_chunks(body, pieces=len(_WORDS)))
    return httpx.Response(200, json=body)


def _agent(provider: str) -> Any:
    router = respx.Router()
    if provider == "openai":
        router.post("https://api.openai.com/v1/chat/completions").mock(side_effect=openai_answer)
        return OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    router.post("https://api.anthropic.com/v1/messages").mock(side_effect=anthropic_answer)
    return AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-haiku-4-5")


def _caller(
    loop: asyncio.AbstractEventLoop, agent: Any, messages: Sequence[Message], path: str
) -> Callable[[], object]:
    async def stream() -> Message:
        received: list[Message] = [m async for m in agent.stream(chat_history=messages)]
        return received[-1]

    async def send() -> Message:
        reply: Message = await agent.send(chat_history=messages)
        return reply

    call = stream if path == "stream" else send
    return lambda: loop.run_until_complete(call())


def _span_record(exporter: _Dropping) -> dict[str, Any]:
    """The last exported span's name, kind and attributes (the first-chunk time as a flag)."""
    span = exporter.last
    assert span is not None
    attributes = dict(span.attributes or {})
    attributes[_TTFC] = _TTFC in attributes
    return {"name": span.name, "kind": span.kind, **attributes}


def run_tracing(size: int = 100, settings: Settings | None = None) -> list[TracingResult]:
    """Time both providers' connected calls, traced and untraced, sending and streaming.

    Raises ``AssertionError`` when the agents' replies differ, or the floor's span differs from
    the library's (a benchmark that would compare different work).
    """
    settings = settings or Settings()
    messages = make_conversation(size)
    exporter = _Dropping()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])
    tracer = tracer_provider.get_tracer("floor")
    meter = meter_provider.get_meter("floor")
    loop = asyncio.new_event_loop()
    results = []
    try:
        for provider in ("openai", "anthropic"):
            untraced = _agent(provider).register_message_connector()
            traced = untraced.register_tracing(
                tracer_provider=tracer_provider, meter_provider=meter_provider
            )
            for path in ("send", "stream"):
                calls = {
                    "untraced": _caller(loop, untraced, messages, path),
                    "traced": _caller(loop, traced, messages, path),
                }
                reply = calls["untraced"]()
                assert calls["traced"]() == reply, f"{provider} {path}: replies differ"
                library = _span_record(exporter)
                start = {key: value for key, value in library.items() if key in _START_KEYS}
                floor = _FloorTracing(tracer, meter, start)
                with_floor = untraced.register_streaming_middleware(floor)
                calls["floor"] = _caller(loop, with_floor, messages, path)
                assert calls["floor"]() == reply, f"{provider} {path}: the floor's reply differs"
                assert _span_record(exporter) == library, f"{provider} {path}: floor span differs"
                timings = best_times(calls, settings)
                untraced_us, traced_us, floor_us = (timings[name].seconds * 1e6 for name in calls)
                results.append(
                    TracingResult(provider, path, size, untraced_us, traced_us, floor_us)
                )
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        tracer_provider.shutdown()
        meter_provider.shutdown()
    return results
