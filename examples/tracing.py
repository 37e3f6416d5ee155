"""Tracing: every model call as an OpenTelemetry GenAI span, printed by the console exporter.

Needs the ``otel`` extra and the OpenTelemetry SDK: pip install 'llmbridge[otel]' opentelemetry-sdk

    python examples/tracing.py          # offline: llmbridge's scripted provider answers
    python examples/tracing.py --live   # the real API (needs OPENAI_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys

import openai
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import HistogramDataPoint, InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor

from llmbridge import TextMessage
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]
SCRIPT = ["Paris is the capital of France.", "Rome is the capital of Italy."]


async def main() -> None:
    # sys.stdout is passed explicitly: the exporter's default is bound when it is imported.
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stdout)))
    metrics = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[metrics])

    client = openai.AsyncOpenAI() if LIVE else ScriptedProvider(SCRIPT).openai_client()
    agent = (
        OpenAIChatAgent(client, name="assistant", model="gpt-4o-mini")
        .register_message_connector()
        # After the connector, tracing sees neutral messages: usage, finish reasons, tool calls.
        # Content (prompts, replies) is recorded only with capture_content=True.
        .register_tracing(tracer_provider=tracer_provider, meter_provider=meter_provider)
    )

    reply = await agent.send("What is the capital of France?")  # one span: "chat gpt-4o-mini"
    print(f"send -> {reply.get_content()}")
    async for message in agent.stream("And of Italy?"):  # the span ends after the last message
        if isinstance(message, TextMessage):
            print(f"stream -> {message.content}")

    data = metrics.get_metrics_data()
    assert data is not None
    for metric in data.resource_metrics[0].scope_metrics[0].metrics:
        for point in metric.data.data_points:
            assert isinstance(point, HistogramDataPoint)  # all three GenAI metrics are histograms
            token_type = (point.attributes or {}).get("gen_ai.token.type")
            name = f"{metric.name} ({token_type})" if token_type else metric.name
            print(f"{name}: {point.count} calls, sum {point.sum:.3g}")
    tracer_provider.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
