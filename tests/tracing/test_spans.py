"""One GenAI client span per call, through the real SDK clients over respx, for both wings:
names and values per the conventions, usage, finish reasons, request settings, tool-call events,
and the span current only while the model works."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import respx
from opentelemetry import trace
from opentelemetry.trace import SpanKind, StatusCode

import llmbridge
from llmbridge import (
    Agent,
    GenerateReplyOptions,
    Message,
    MiddlewareContext,
    StreamingAgent,
    TextMessageUpdate,
    ToolCallMessage,
)
from tests.tracing.helpers import CALLS, PROVIDERS, WINGS, Provider, Telemetry, agent_for, traced

TTFC = "gen_ai.response.time_to_first_chunk"


def expected(provider: Provider, *, streaming: bool) -> dict[str, Any]:
    """Every attribute of a text reply's span, as the conventions name them."""
    wing = WINGS[provider]
    prompt, completion, cache_read, reasoning = wing.usage
    attributes: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": wing.model,
        "gen_ai.response.model": wing.response_model,
        "gen_ai.response.id": wing.response_id,
        "gen_ai.response.finish_reasons": ("stop",),
        "gen_ai.usage.input_tokens": prompt,
        "gen_ai.usage.output_tokens": completion,
        "gen_ai.usage.cache_read.input_tokens": cache_read,
        "server.port": 443,
    }
    if provider == "openai":
        attributes["openai.api.type"] = "chat_completions"
        attributes["server.address"] = "api.openai.com"
        attributes["gen_ai.usage.reasoning.output_tokens"] = reasoning
    else:
        attributes["server.address"] = "api.anthropic.com"
        attributes["gen_ai.request.max_tokens"] = 4096  # AnthropicChatAgent's default
    if streaming:
        attributes["gen_ai.request.stream"] = True
    return attributes


async def drain(stream: AsyncIterator[Message]) -> list[Message]:
    return [message async for message in stream]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_reply_is_one_client_span_named_chat_model(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_reply())

    await traced(provider, router, telemetry).send("Hi")

    span = telemetry.span()
    assert span.name == f"chat {WINGS[provider].model}"
    assert span.kind is SpanKind.CLIENT
    assert span.status.status_code is StatusCode.UNSET
    assert dict(span.attributes or {}) == expected(provider, streaming=False)
    assert span.events == ()


async def test_spans_and_metrics_come_from_the_llmbridge_scope_at_its_version(
    telemetry: Telemetry,
) -> None:
    router = respx.Router()
    router.post(WINGS["openai"].url).mock(return_value=WINGS["openai"].text_reply())

    await traced("openai", router, telemetry).send("Hi")

    scope = telemetry.span().instrumentation_scope
    assert scope is not None
    assert (scope.name, scope.version) == ("llmbridge", llmbridge.__version__)
    data = telemetry.reader.get_metrics_data()
    assert data is not None
    scopes = {
        (s.scope.name, s.scope.version) for r in data.resource_metrics for s in r.scope_metrics
    }
    assert scopes == {("llmbridge", llmbridge.__version__)}


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_stream_is_one_span_ending_after_the_complete_message(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_stream())
    stream = traced(provider, router, telemetry).stream("Hi")

    first = await anext(stream)
    assert telemetry.spans() == []  # still open while the stream runs
    await drain(stream)

    assert isinstance(first, TextMessageUpdate)
    span = telemetry.span()
    attributes = dict(span.attributes or {})
    assert 0 < attributes.pop(TTFC) <= (span.end_time - span.start_time) / 1e9  # type: ignore[operator]
    assert attributes == expected(provider, streaming=True)


SETTINGS = [
    pytest.param(
        GenerateReplyOptions(temperature=0.2, max_tokens=100, stop_sequences=["END", "STOP"]),
        {
            "gen_ai.request.temperature": 0.2,
            "gen_ai.request.max_tokens": 100,
            "gen_ai.request.stop_sequences": ("END", "STOP"),
        },
        id="options_temperature_max_tokens_stop_sequences",
    ),
    pytest.param(
        GenerateReplyOptions(extra={"top_p": 0.9, "top_k": 40, "seed": 7, "user": "u-1"}),
        {"gen_ai.request.top_p": 0.9, "gen_ai.request.top_k": 40, "gen_ai.request.seed": 7},
        id="extra_sampling_keys_known_to_the_conventions_others_not_recorded",
    ),
    pytest.param(
        GenerateReplyOptions(extra={"presence_penalty": 0.5, "frequency_penalty": 0.1}),
        {"gen_ai.request.presence_penalty": 0.5, "gen_ai.request.frequency_penalty": 0.1},
        id="extra_penalties",
    ),
]


@pytest.mark.parametrize(("options", "recorded"), SETTINGS)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_request_settings_are_recorded_from_the_options(
    provider: Provider,
    options: GenerateReplyOptions,
    recorded: dict[str, Any],
    telemetry: Telemetry,
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_reply())

    await traced(provider, router, telemetry).send("Hi", options=options)

    attributes = dict(telemetry.span().attributes or {})
    assert {key: attributes.get(key) for key in recorded} == recorded
    assert "user" not in str(sorted(attributes))


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_model_named_in_the_options_is_refused_and_the_span_names_the_agents_model(
    provider: Provider, telemetry: Telemetry
) -> None:
    # The agents set the model themselves and refuse it in options.extra: it is never requested.
    router = respx.Router()
    route = router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_reply())
    options = GenerateReplyOptions(extra={"model": "override-1"})

    with pytest.raises(ValueError, match="'model' is set by"):
        await traced(provider, router, telemetry).send("Hi", options=options)

    span = telemetry.span()
    attributes = dict(span.attributes or {})
    assert span.name == f"chat {WINGS[provider].model}"
    assert attributes["gen_ai.request.model"] == WINGS[provider].model
    assert attributes["error.type"] == "ValueError"
    assert span.status.status_code is StatusCode.ERROR
    assert not route.called


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_each_tool_call_is_an_event_with_its_name_and_id(
    provider: Provider, streaming: bool, telemetry: Telemetry
) -> None:
    wing = WINGS[provider]
    router = respx.Router()
    reply = wing.tool_call_stream() if streaming else wing.tool_call_reply()
    router.post(wing.url).mock(return_value=reply)
    agent = traced(provider, router, telemetry)

    final = (await drain(agent.stream("Weather?")))[-1] if streaming else await agent.send("?")

    assert isinstance(final, ToolCallMessage)
    span = telemetry.span()
    assert (span.attributes or {})["gen_ai.response.finish_reasons"] == ("tool_calls",)
    events = [(event.name, dict(event.attributes or {})) for event in span.events]
    assert events == [
        (
            "llmbridge.tool_call",
            {
                "gen_ai.tool.name": call.function_name,
                "gen_ai.tool.call.id": call.tool_call_id,
                "gen_ai.tool.type": "function",
            },
        )
        for call in CALLS
    ]


class CurrentSpanProbe:
    """A middleware inside the tracing one: notes the span current while it runs."""

    name = "probe"

    def __init__(self) -> None:
        self.seen: list[trace.SpanContext] = []

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        self.seen.append(trace.get_current_span().get_span_context())
        return await agent.generate_reply(context.messages, context.options)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        async for item in agent.generate_streaming_reply(context.messages, context.options):
            self.seen.append(trace.get_current_span().get_span_context())
            yield item


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_span_is_current_inside_the_call_and_never_in_the_consumer(
    provider: Provider, streaming: bool, telemetry: Telemetry
) -> None:
    wing = WINGS[provider]
    router = respx.Router()
    router.post(wing.url).mock(return_value=wing.text_stream() if streaming else wing.text_reply())
    probe = CurrentSpanProbe()
    agent = (
        agent_for(provider, router)
        .register_message_connector()
        .register_streaming_middleware(probe)
        .register_tracing(
            tracer_provider=telemetry.tracer_provider, meter_provider=telemetry.meter_provider
        )
    )

    consumer_saw = []
    if streaming:
        async for _ in agent.stream("Hi"):
            consumer_saw.append(trace.get_current_span().get_span_context().is_valid)
    else:
        await agent.send("Hi")

    chat = telemetry.span().get_span_context()
    assert probe.seen
    assert all(seen == chat for seen in probe.seen)
    assert not any(consumer_saw)
    assert not trace.get_current_span().get_span_context().is_valid
