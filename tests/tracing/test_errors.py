"""Failed calls end their span with the error: status ERROR, ``error.type`` the error class, the
HTTP status; an interrupted stream, a consumer that stops early and a cancelled task too."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import respx
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import StatusCode

from llmbridge import (
    AuthenticationError,
    BadRequestError,
    GenerateReplyOptions,
    LLMBridgeError,
    ProviderAPIError,
    ProviderUnavailableError,
    RateLimitError,
    RefusalError,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    register_tracing,
)
from llmbridge.testing import (
    anthropic_message,
    anthropic_sse,
    anthropic_stream_events,
    openai_completion,
    openai_sse,
    openai_text_chunks,
)
from tests.reliability.helpers import drain
from tests.tracing.helpers import PROVIDERS, WINGS, Provider, Telemetry, traced

DURATION = "gen_ai.client.operation.duration"
TOKENS = "gen_ai.client.token.usage"


def error_of(span: ReadableSpan) -> tuple[StatusCode, Any, Any]:
    attributes = span.attributes or {}
    return span.status.status_code, attributes.get("error.type"), span.status.description


async def call(agent: Any, streaming: bool) -> list[Any]:
    """Send or stream ``"Hi"``; return what the stream yielded before it ended."""
    if not streaming:
        return [await agent.send("Hi")]
    return [message async for message in agent.stream("Hi")]


STATUS_ERRORS = [
    pytest.param(429, RateLimitError, id="429_RateLimitError"),
    pytest.param(401, AuthenticationError, id="401_AuthenticationError"),
    pytest.param(400, BadRequestError, id="400_BadRequestError"),
    pytest.param(503, ProviderUnavailableError, id="503_ProviderUnavailableError"),
]


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize(("status", "error"), STATUS_ERRORS)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_api_error_ends_the_span_with_its_class_and_status(
    provider: Provider,
    status: int,
    error: type[ProviderAPIError],
    streaming: bool,
    telemetry: Telemetry,
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].status_error(status))

    with pytest.raises(error) as caught:
        await call(traced(provider, router, telemetry), streaming)

    span = telemetry.span()
    assert error_of(span) == (StatusCode.ERROR, error.__name__, str(caught.value))
    assert (span.attributes or {})["http.response.status_code"] == status
    (duration,) = telemetry.points(DURATION)
    assert duration.attributes["error.type"] == error.__name__  # type: ignore[index]
    assert telemetry.points(TOKENS) == []


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_connection_error_has_no_http_status(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(side_effect=httpx.ConnectError("refused"))

    with pytest.raises(ProviderUnavailableError) as caught:
        await traced(provider, router, telemetry).send("Hi")

    span = telemetry.span()
    assert error_of(span) == (StatusCode.ERROR, "ProviderUnavailableError", str(caught.value))
    assert "http.response.status_code" not in (span.attributes or {})


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_an_interrupted_stream_ends_with_stream_interrupted_after_its_updates(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].interrupted_stream())
    received: list[Any] = []

    with pytest.raises(StreamInterruptedError) as caught:
        await drain(traced(provider, router, telemetry).stream("Hi"), received)

    assert received
    assert all(isinstance(message, TextMessageUpdate) for message in received)
    span = telemetry.span()
    assert error_of(span) == (StatusCode.ERROR, "StreamInterruptedError", str(caught.value))
    assert (span.attributes or {})["gen_ai.response.time_to_first_chunk"] > 0
    assert "gen_ai.response.finish_reasons" not in (span.attributes or {})


REFUSALS = {
    "openai": lambda: httpx.Response(200, json=openai_completion(refusal="I cannot do that.")),
    "anthropic": lambda: httpx.Response(
        200, json=anthropic_message("I cannot do that.", stop_reason="refusal")
    ),
}


@pytest.mark.parametrize(
    ("capture_content", "description"),
    [
        pytest.param(False, None, id="message_left_out_by_default"),
        pytest.param(True, "text", id="message_recorded_with_capture_content"),
    ],
)
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_refusal_may_quote_the_model_so_its_message_needs_capture_content(
    provider: Provider, capture_content: bool, description: str | None, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=REFUSALS[provider]())
    agent = traced(provider, router, telemetry, capture_content=capture_content)

    with pytest.raises(RefusalError) as caught:
        await agent.send("Hi")

    status, error_type, shown = error_of(telemetry.span())
    assert (status, error_type) == (StatusCode.ERROR, "RefusalError")
    assert shown == (str(caught.value) if description else None)


async def test_another_exception_is_recorded_by_class_without_its_text(
    telemetry: Telemetry,
) -> None:
    router = respx.Router()
    options = GenerateReplyOptions(stop_sequences=["a", "b", "c", "d", "e"])  # OpenAI takes 4

    with pytest.raises(ValueError, match="at most 4") as caught:
        await traced("openai", router, telemetry).send("Hi", options=options)

    assert not isinstance(caught.value, LLMBridgeError)
    assert error_of(telemetry.span()) == (StatusCode.ERROR, "ValueError", None)


CANCELLED = (StatusCode.ERROR, "cancelled", "the consumer stopped the call before its end")


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_consumer_that_closes_the_stream_early_ends_the_span_cancelled(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_stream())
    stream = traced(provider, router, telemetry).stream("Hi")

    assert isinstance(await anext(stream), TextMessageUpdate)
    await stream.aclose()

    span = telemetry.span()
    assert error_of(span) == CANCELLED
    (duration,) = telemetry.points(DURATION)
    assert duration.attributes["error.type"] == "cancelled"  # type: ignore[index]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_stopping_right_after_the_complete_message_is_a_finished_call(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(return_value=WINGS[provider].text_stream())
    stream = traced(provider, router, telemetry).stream("Hi")

    async for message in stream:
        if isinstance(message, TextMessage):
            break
    await stream.aclose()

    span = telemetry.span()
    assert span.status.status_code is StatusCode.UNSET
    assert (span.attributes or {})["gen_ai.response.finish_reasons"] == ("stop",)
    assert len(telemetry.points(TOKENS)) == 2


def _hanging_stream(provider: Provider, first_frames: list[bytes]) -> httpx.Response:
    """A stream that sends ``first_frames`` and then never sends anything again."""

    async def body() -> AsyncIterator[bytes]:
        for frame in first_frames:
            yield frame
        await asyncio.Event().wait()

    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())


def _first_frames(provider: Provider) -> list[bytes]:
    if provider == "openai":
        return openai_sse(openai_text_chunks(["Hel"], finish_reason=None), done=False)
    return anthropic_sse(anthropic_stream_events(anthropic_message("Hello"))[:4])


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_cancelled_consumer_task_ends_the_span_cancelled(
    provider: Provider, telemetry: Telemetry
) -> None:
    router = respx.Router()
    router.post(WINGS[provider].url).mock(
        return_value=_hanging_stream(provider, _first_frames(provider))
    )
    agent = traced(provider, router, telemetry)
    first_update = asyncio.Event()

    async def consume() -> None:
        async for _ in agent.stream("Hi"):
            first_update.set()

    task = asyncio.create_task(consume())
    await first_update.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert error_of(telemetry.span()) == CANCELLED


class RefusesToStream:
    """A streaming agent whose ``generate_streaming_reply`` raises before it returns a stream."""

    name = "refuses"
    model = "refuses-1"

    async def generate_reply(self, messages: Any, options: Any = None) -> Any:
        raise NotImplementedError

    def generate_streaming_reply(self, messages: Any, options: Any = None) -> Any:
        raise RuntimeError("no stream today")


async def test_a_stream_that_fails_to_start_still_ends_its_span(telemetry: Telemetry) -> None:
    traced_agent = register_tracing(RefusesToStream(), tracer_provider=telemetry.tracer_provider)

    with pytest.raises(RuntimeError, match="no stream today"):
        await drain(traced_agent.stream("Hi"), [])

    assert error_of(telemetry.span()) == (StatusCode.ERROR, "RuntimeError", None)
