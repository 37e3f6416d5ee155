"""RespxTransport: the real SDK clients and a bare httpx2 client, answered by respx routers."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable

import anthropic
import httpx
import httpx2
import openai
import pytest
import respx
from respx.models import AllMockedAssertionError

from llmbridge.testing import RespxTransport, anthropic_client, last_request_json, openai_client

OPENAI_CHAT_URL = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_MESSAGES_URL = "https://api.anthropic.com/v1/messages"

CHAT_COMPLETION = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 0,
    "model": "gpt-4o-mini",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hello!"},
            "finish_reason": "stop",
        }
    ],
}

ANTHROPIC_MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-test",
    "content": [{"type": "text", "text": "Hello!"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 2},
}


def chat_chunk(index: int, content: str) -> bytes:
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}],
    }
    return f"data: {json.dumps(chunk)}\n\n".encode()


def sse_response(body: AsyncIterator[bytes]) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)


def new_router() -> respx.Router:
    return respx.Router(assert_all_called=False)


async def test_openai_json_post_sends_exact_body_and_parses_reply() -> None:
    router = new_router()
    route = router.post(OPENAI_CHAT_URL).respond(json=CHAT_COMPLETION)
    client = openai_client(router)

    completion = await client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}]
    )

    assert completion.choices[0].message.content == "Hello!"
    assert last_request_json(route) == {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": "Hi"}],
    }
    assert route.calls.last.request.headers["authorization"] == "Bearer test-key"


async def test_anthropic_json_post_sends_exact_body_and_parses_reply() -> None:
    router = new_router()
    route = router.post(ANTHROPIC_MESSAGES_URL).respond(json=ANTHROPIC_MESSAGE)
    client = anthropic_client(router)

    message = await client.messages.create(
        model="claude-test",
        max_tokens=64,
        messages=[{"role": "user", "content": "Hi"}],
    )

    assert message.content[0].type == "text"
    assert message.content[0].text == "Hello!"
    assert last_request_json(route.calls.last) == {
        "model": "claude-test",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Hi"}],
    }
    assert route.calls.last.request.headers["authorization"] == "Bearer test-key"


async def test_openai_stream_is_delivered_chunk_by_chunk() -> None:
    # Each chunk must reach the SDK before the mock produces the next one: proof of no buffering.
    log: list[str] = []

    async def body() -> AsyncIterator[bytes]:
        for index, text in enumerate(["Hel", "lo", "!"]):
            log.append(f"sent {index}")
            yield chat_chunk(index, text)
        log.append("sent done")
        yield b"data: [DONE]\n\n"

    router = new_router()
    router.post(OPENAI_CHAT_URL).mock(return_value=sse_response(body()))
    client = openai_client(router)

    stream = await client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}], stream=True
    )
    received: list[str | None] = []
    async for chunk in stream:
        log.append(f"got {len(received)}")
        received.append(chunk.choices[0].delta.content)

    assert received == ["Hel", "lo", "!"]
    assert log == ["sent 0", "got 0", "sent 1", "got 1", "sent 2", "got 2", "sent done"]


async def test_openai_stream_read_error_mid_stream_reaches_the_sdk() -> None:
    async def body() -> AsyncIterator[bytes]:
        yield chat_chunk(0, "Hel")
        raise httpx.ReadError("connection lost")

    router = new_router()
    router.post(OPENAI_CHAT_URL).mock(return_value=sse_response(body()))
    client = openai_client(router)

    stream = await client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}], stream=True
    )
    received: list[str | None] = []

    async def consume() -> None:
        async for chunk in stream:
            received.append(chunk.choices[0].delta.content)

    with pytest.raises(openai.APIConnectionError) as caught:
        await consume()

    assert received == ["Hel"]
    assert isinstance(caught.value.__cause__, httpx2.ReadError)
    assert isinstance(caught.value.__cause__.__cause__, httpx.ReadError)


async def test_unmatched_request_fails_the_test() -> None:
    router = new_router()
    router.post("https://example.invalid/other").respond(json={})
    client = openai_client(router)

    with pytest.raises(AllMockedAssertionError):
        await client.chat.completions.create(model="gpt-4o-mini", messages=[])


async def test_unmatched_request_through_anthropic_keeps_the_assertion_as_cause() -> None:
    # anthropic wraps every transport exception, AssertionError included, in APIConnectionError.
    client = anthropic_client(new_router())

    with pytest.raises(anthropic.APIConnectionError) as caught:
        await client.messages.create(model="claude-test", max_tokens=8, messages=[])

    assert isinstance(caught.value.__cause__, AllMockedAssertionError)


async def test_openai_status_429_raises_rate_limit_error() -> None:
    router = new_router()
    error = {"error": {"message": "Slow down", "type": "rate_limit_error", "code": "rate_limit"}}
    router.post(OPENAI_CHAT_URL).respond(429, json=error)
    client = openai_client(router)

    with pytest.raises(openai.RateLimitError) as caught:
        await client.chat.completions.create(model="gpt-4o-mini", messages=[])

    assert caught.value.status_code == 429


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (httpx.ConnectError, httpx2.ConnectError),
        (httpx.ReadError, httpx2.ReadError),
        (httpx.ConnectTimeout, httpx2.ConnectTimeout),
        (httpx.ReadTimeout, httpx2.ReadTimeout),
        (httpx.PoolTimeout, httpx2.PoolTimeout),
        (httpx.RemoteProtocolError, httpx2.RemoteProtocolError),
    ],
    ids=lambda cls: f"{cls.__module__}.{cls.__name__}",
)
async def test_router_transport_error_becomes_same_named_httpx2_error(
    raised: type[httpx.TransportError], expected: type[httpx2.TransportError]
) -> None:
    router = new_router()
    router.get("https://example.test/").mock(side_effect=raised)
    async with httpx2.AsyncClient(transport=RespxTransport(router)) as client:
        with pytest.raises(expected) as caught:
            await client.get("https://example.test/")

    assert type(caught.value) is expected
    assert isinstance(caught.value.__cause__, raised)
    assert caught.value.request.url == "https://example.test/"


async def call_openai(router: respx.Router) -> object:
    return await openai_client(router).chat.completions.create(model="gpt-4o-mini", messages=[])


async def call_anthropic(router: respx.Router) -> object:
    client = anthropic_client(router)
    return await client.messages.create(model="claude-test", max_tokens=8, messages=[])


@pytest.mark.parametrize(
    ("call", "expected"),
    [(call_openai, openai.APITimeoutError), (call_anthropic, anthropic.APITimeoutError)],
    ids=["openai", "anthropic"],
)
async def test_router_timeout_reaches_sdk_as_its_timeout_error(
    call: Callable[[respx.Router], Awaitable[object]], expected: type[Exception]
) -> None:
    router = new_router()
    router.route().mock(side_effect=httpx.ReadTimeout)

    with pytest.raises(expected):
        await call(router)


async def test_raw_chunks_and_headers_pass_through_unchanged() -> None:
    async def body() -> AsyncIterator[bytes]:
        yield b"first"
        yield b"second"

    router = new_router()
    router.get("https://example.test/").mock(
        return_value=httpx.Response(201, headers={"x-trace": "abc"}, content=body())
    )
    async with (
        httpx2.AsyncClient(transport=RespxTransport(router)) as client,
        client.stream("GET", "https://example.test/") as response,
    ):
        chunks = [chunk async for chunk in response.aiter_raw()]

    assert response.status_code == 201
    assert response.headers["x-trace"] == "abc"
    assert chunks == [b"first", b"second"]


async def test_content_encoding_is_decoded_once_by_httpx2() -> None:
    router = new_router()
    router.get("https://example.test/").respond(
        headers={"content-encoding": "gzip"}, content=gzip.compress(b'{"ok": true}')
    )
    async with httpx2.AsyncClient(transport=RespxTransport(router)) as client:
        response = await client.get("https://example.test/")

    assert response.json() == {"ok": True}


def test_last_request_json_of_an_uncalled_route_says_so() -> None:
    route = new_router().post("https://example.test/")

    with pytest.raises(AssertionError, match="never called"):
        last_request_json(route)


def test_testing_package_imports_without_provider_sdks() -> None:
    code = (
        "import sys; sys.modules['openai'] = None; sys.modules['anthropic'] = None; "
        "import llmbridge.testing"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)

    assert result.returncode == 0, result.stderr
