"""Fault injection through respx, both providers, both paths: every failure ends in the
documented ``ProviderAPIError`` subclass with ``retryable`` right, the SDK's error as the cause,
and, for streams, ``.partial`` holding what arrived. Retries are the SDK's, never ours."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import httpx2
import openai
import pytest
import respx

from llmbridge import (
    Message,
    ProviderAPIError,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    StreamInterruptedError,
    TextMessage,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import (
    anthropic_client,
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_sse,
    anthropic_stream_events,
    openai_client,
    openai_error_event,
    openai_sse,
    openai_text_chunks,
)
from tests.corpus import AGENT
from tests.reliability.helpers import ANTHROPIC_URL, OPENAI_URL, PROVIDERS, Provider, drain

URL = {"openai": OPENAI_URL, "anthropic": ANTHROPIC_URL}
# A tiny server-given delay keeps the SDK's retry sleeps short without patching anything.
QUICK_RETRY = {"retry-after-ms": "1"}


def connected(provider: Provider, router: respx.Router, *, max_retries: int = 0) -> Any:
    if provider == "openai":
        client: Any = openai_client(router, max_retries=max_retries)
        agent: Any = OpenAIChatAgent(client, name=AGENT, model="gpt-test")
    else:
        client = anthropic_client(router, max_retries=max_retries)
        agent = AnthropicChatAgent(client, name=AGENT, model="claude-test")
    return agent.register_message_connector()


def status_response(provider: Provider, status: int, headers: dict[str, str]) -> httpx.Response:
    error_type = {429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
    if provider == "anthropic":
        return anthropic_error_response(status, error_type, "failed", headers=headers)
    body = {"error": {"message": "failed", "type": error_type, "param": None, "code": None}}
    return httpx.Response(status, json=body, headers=headers)


async def fail(agent: Any, streaming: bool) -> tuple[ProviderAPIError, list[Message]]:
    """Send or stream ``"Hi"``; return the error raised and what had been yielded before it."""
    received: list[Message] = []
    with pytest.raises(ProviderAPIError) as caught:
        await (drain(agent.stream("Hi"), received) if streaming else agent.send("Hi"))
    return caught.value, received


# -- failures before any reply: (mock, class, status, retryable, SDK error per provider) ----

SDK_ERRORS: dict[str, dict[Provider, type[BaseException]]] = {
    "429": {"openai": openai.RateLimitError, "anthropic": anthropic.RateLimitError},
    "500": {"openai": openai.InternalServerError, "anthropic": anthropic.InternalServerError},
    "529": {"openai": openai.InternalServerError, "anthropic": anthropic.OverloadedError},
    "reset": {"openai": openai.APIConnectionError, "anthropic": anthropic.APIConnectionError},
    "timeout": {"openai": openai.APITimeoutError, "anthropic": anthropic.APITimeoutError},
}
BEFORE_REPLY = [
    pytest.param("429", RateLimitError, 429, id="429-with-retry-after"),
    pytest.param("500", ProviderUnavailableError, 500, id="500"),
    pytest.param("529", ProviderUnavailableError, 529, id="529-overloaded"),
    pytest.param("reset", ProviderUnavailableError, None, id="connection-reset"),
    pytest.param("timeout", ProviderUnavailableError, None, id="timeout"),
]


def mock_before_reply(route: respx.Route, provider: Provider, fault: str) -> None:
    if fault == "reset":
        route.mock(side_effect=httpx.ReadError("connection reset by peer"))
    elif fault == "timeout":
        route.mock(side_effect=httpx.ReadTimeout("timed out"))
    else:
        route.mock(return_value=status_response(provider, int(fault), {"retry-after": "7"}))


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("fault", "error_class", "status"), BEFORE_REPLY)
async def test_failures_before_a_reply(
    fault: str, error_class: type[ProviderAPIError], status: int | None, provider: Provider,
    streaming: bool,
) -> None:  # fmt: skip
    router = respx.Router()
    mock_before_reply(router.post(URL[provider]), provider, fault)

    error, received = await fail(connected(provider, router), streaming)

    assert type(error) is error_class
    assert (error.provider, error.status_code, error.retryable) == (provider, status, True)
    assert type(error.__cause__) is SDK_ERRORS[fault][provider]
    assert received == []
    if isinstance(error, RateLimitError):
        assert error.retry_after == 7.0


# -- failures inside a stream ----------------------------------------------------------------


def openai_stream(ending: list[bytes]) -> list[bytes]:
    return openai_sse(openai_text_chunks(["Hel", "lo"], finish_reason=None), done=False) + ending


def anthropic_stream(ending: list[bytes]) -> list[bytes]:
    events = anthropic_stream_events(anthropic_message("Hello"), pieces=2)
    text = [e for e in events if e["type"] not in ("message_delta", "message_stop")]
    return anthropic_sse(text[:-1]) + ending  # the text block is still open


def malformed(provider: Provider) -> list[bytes]:
    if provider == "openai":
        return [b"data: {not json\n\n"]
    return [b"event: content_block_delta\ndata: {not json\n\n"]


DEEP = '{"a":' * 20_000 + "1" + "}" * 20_000  # valid JSON, deeper than a recursive parser goes


def nested_too_deep(provider: Provider) -> list[bytes]:
    if provider == "openai":
        return [f"data: {DEEP}\n\n".encode()]
    return [f"event: content_block_delta\ndata: {DEEP}\n\n".encode()]


def error_event(provider: Provider) -> list[bytes]:
    if provider == "openai":
        return openai_sse([openai_error_event()], done=False)
    return anthropic_sse([anthropic_error_event()])


Ending = Callable[[Provider], list[bytes]]
# (what follows "Hello", status, retryable, the cause per provider; None: no SDK error at all)
MID_STREAM: list[Any] = [
    pytest.param(lambda p: [], None, True, None, id="stops-without-its-terminal-event"),
    pytest.param(
        error_event,
        {"openai": None, "anthropic": 529},
        True,
        {"openai": openai.APIError, "anthropic": anthropic.APIStatusError},
        id="error-event-after-some-text",
    ),
    pytest.param(
        malformed,
        None,
        False,
        {"openai": json.JSONDecodeError, "anthropic": json.JSONDecodeError},
        id="malformed-sse-json",
    ),
    pytest.param(
        nested_too_deep,
        None,
        False,
        {"openai": RecursionError, "anthropic": RecursionError},
        id="event-data-nested-too-deep-to-parse",
    ),
    pytest.param(
        "reset",
        None,
        True,
        {"openai": openai.APIConnectionError, "anthropic": httpx2.ReadError},
        id="connection-reset",
    ),
]


def stream_response(provider: Provider, frames: list[bytes], *, reset: bool) -> httpx.Response:
    async def body() -> Any:
        for frame in frames:
            yield frame
        if reset:
            raise httpx.ReadError("connection reset by peer")

    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("ending", "status", "retryable", "cause"), MID_STREAM)
async def test_failures_inside_a_stream_keep_what_arrived(
    ending: Ending | str, status: Any, retryable: bool, cause: Any, provider: Provider
) -> None:
    reset = ending == "reset"
    tail = [] if isinstance(ending, str) else ending(provider)
    frames = (openai_stream if provider == "openai" else anthropic_stream)(tail)
    router = respx.Router()
    route = router.post(URL[provider])
    route.mock(return_value=stream_response(provider, frames, reset=reset))

    error, received = await fail(connected(provider, router), streaming=True)

    assert type(error) is StreamInterruptedError
    expected_status = status[provider] if isinstance(status, dict) else status
    assert (error.provider, error.status_code, error.retryable) == (
        provider,
        expected_status,
        retryable,
    )
    if cause is None:
        assert error.__cause__ is None  # the stream just ended: no SDK error to chain
    else:
        assert isinstance(error.__cause__, cause[provider])
    partial = error.partial
    assert isinstance(partial, TextMessage)
    assert (partial.content, partial.from_) == ("Hello", AGENT)
    assert "".join(m.get_content() or "" for m in received) == "Hello"  # delivered live
    assert route.call_count == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_reply_nested_too_deep_to_parse_is_a_provider_response_error(
    provider: Provider,
) -> None:
    if provider == "openai":
        body = (
            '{"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": '
            f'[{{"index": 0, "finish_reason": "stop", "message": {{"role": "assistant", '
            f'"content": "x", "extra": {DEEP}}}}}]}}'
        )
    else:
        body = (
            '{"id": "m", "type": "message", "role": "assistant", "model": "x", "content": '
            f'[{{"type": "tool_use", "id": "t", "name": "f", "input": {DEEP}}}], '
            '"stop_reason": "tool_use", "stop_sequence": null, '
            '"usage": {"input_tokens": 1, "output_tokens": 1}}'
        )
    router = respx.Router()
    router.post(URL[provider]).respond(
        content=body.encode(), headers={"content-type": "application/json"}
    )

    with pytest.raises(ProviderResponseError, match="nested too deeply"):
        await connected(provider, router).send("hi")


# -- retries: the SDK's setting is honoured, llmbridge adds none ---------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize(
    ("status", "max_retries", "requests"),
    [(500, 2, 3), (500, 0, 1), (529, 1, 2), (429, 2, 3), (400, 2, 1)],
    ids=["500-retried-twice", "500-no-retries", "529-retried-once", "429-retried", "400-never"],
)
async def test_the_sdk_retries_as_configured_and_llmbridge_adds_none(
    provider: Provider, streaming: bool, status: int, max_retries: int, requests: int
) -> None:
    router = respx.Router()
    route = router.post(URL[provider])
    route.mock(return_value=status_response(provider, status, QUICK_RETRY))

    error, _ = await fail(connected(provider, router, max_retries=max_retries), streaming)

    assert error.status_code == status
    assert route.call_count == requests


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_failure_after_the_stream_started_is_not_retried(provider: Provider) -> None:
    frames = (openai_stream if provider == "openai" else anthropic_stream)(error_event(provider))
    router = respx.Router()
    route = router.post(URL[provider])
    route.mock(side_effect=lambda request: stream_response(provider, frames, reset=False))

    error, received = await fail(connected(provider, router, max_retries=2), streaming=True)

    assert isinstance(error, StreamInterruptedError)
    assert error.retryable  # retrying is the caller's call: output was already delivered
    assert route.call_count == 1
    assert "".join(m.get_content() or "" for m in received) == "Hello"


# -- one wording for API errors across providers ------------------------------------------

DISPLAY = {"openai": "OpenAI", "anthropic": "Anthropic"}
WORDING = [
    pytest.param("401", "(HTTP 401, authentication_error): invalid x-api-key", id="http-401"),
    pytest.param("reset", "(connection error): Connection error.", id="connection-reset"),
    pytest.param("timeout", "(timeout): Request timed out", id="timeout"),
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("fault", "wording"), WORDING)
async def test_both_providers_word_an_api_error_the_same(
    fault: str, wording: str, provider: Provider
) -> None:
    router = respx.Router()
    route = router.post(URL[provider])
    if fault == "401":
        body = {"type": "authentication_error", "message": "invalid x-api-key"}
        if provider == "anthropic":
            route.mock(return_value=httpx.Response(401, json={"type": "error", "error": body}))
        else:
            route.mock(return_value=httpx.Response(401, json={"error": {**body, "code": None}}))
    else:
        mock_before_reply(route, provider, fault)

    error, _ = await fail(connected(provider, router), streaming=False)

    # The text after the prefix is the API's or the SDK's own (Anthropic's timeout text goes on).
    assert str(error).startswith(f"{DISPLAY[provider]} API error {wording}")
