"""map_error: google-genai failures -> the section 9 tree, on both paths, with secrets redacted."""

from __future__ import annotations

import sys
import types
from typing import Any

import httpx
import httpx2
import pytest
import respx
from google.genai import errors

from llmbridge import (
    AuthenticationError,
    BadRequestError,
    ProviderAPIError,
    ProviderUnavailableError,
    RateLimitError,
    StreamInterruptedError,
)
from llmbridge.gemini._errors import map_error
from llmbridge.testing import (
    gemini_client,
    gemini_error,
    gemini_error_response,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
)
from tests.gemini.helpers import GENERATE, MODEL, STREAM, drain

KEY = "AIzaSyTEST-secret-key-0123456789"

STATUS_TABLE = [
    pytest.param(400, "INVALID_ARGUMENT", BadRequestError, False, id="400 is bad request"),
    pytest.param(401, "UNAUTHENTICATED", AuthenticationError, False, id="401 is authentication"),
    pytest.param(403, "PERMISSION_DENIED", AuthenticationError, False, id="403 is authentication"),
    pytest.param(404, "NOT_FOUND", BadRequestError, False, id="404 is bad request"),
    pytest.param(408, "DEADLINE_EXCEEDED", ProviderUnavailableError, True, id="408 retryable"),
    pytest.param(
        409, "ABORTED", ProviderUnavailableError, True, id="409 is unavailable, retryable"
    ),
    pytest.param(413, "INVALID_ARGUMENT", BadRequestError, False, id="413 is bad request"),
    pytest.param(
        429, "RESOURCE_EXHAUSTED", RateLimitError, True, id="429 is rate limit, retryable"
    ),
    pytest.param(500, "INTERNAL", ProviderUnavailableError, True, id="500 is unavailable"),
    pytest.param(503, "UNAVAILABLE", ProviderUnavailableError, True, id="503 is unavailable"),
    pytest.param(504, "DEADLINE_EXCEEDED", ProviderUnavailableError, True, id="504 unavailable"),
]


async def failure_of(router: respx.Router, *, stream: bool) -> BaseException:
    """What the real SDK raises for the routes of ``router`` (``generateContent`` or a stream)."""
    client = gemini_client(router, api_key=KEY)  # kept: a collected Client closes its clients
    try:
        if stream:
            chunks = await client.aio.models.generate_content_stream(model=MODEL, contents="hi")
            await drain(chunks, [])
        else:
            await client.aio.models.generate_content(model=MODEL, contents="hi")
    except Exception as exc:
        return exc
    raise AssertionError("the SDK raised nothing")


@pytest.mark.parametrize("stream", [False, True], ids=["generateContent", "stream, HTTP error"])
@pytest.mark.parametrize(("code", "status", "cls", "retryable"), STATUS_TABLE)
async def test_an_api_error_maps_by_its_code(
    code: int,
    status: str,
    cls: type[ProviderAPIError],
    retryable: bool,
    stream: bool,
    router: respx.Router,
) -> None:
    route = STREAM if stream else GENERATE
    router.post(url__regex=route).mock(return_value=gemini_error_response(code, status, "nope"))
    exc = await failure_of(router, stream=stream)
    assert isinstance(exc, errors.APIError)

    mapped = map_error(exc, secrets=(KEY,))

    assert type(mapped) is cls
    assert mapped.status_code == code
    assert mapped.retryable is retryable
    assert mapped.provider == "gemini"
    assert str(mapped) == f"Gemini API error (HTTP {code}, {status}): nope"


async def test_a_rate_limit_carries_retry_after(router: respx.Router) -> None:
    response = gemini_error_response(429, "RESOURCE_EXHAUSTED", headers={"retry-after": "7"})
    router.post(url__regex=GENERATE).mock(return_value=response)

    mapped = map_error(await failure_of(router, stream=False))

    assert isinstance(mapped, RateLimitError)
    assert mapped.retry_after == 7


async def test_the_api_key_never_reaches_the_message(router: respx.Router) -> None:
    leaked = f"API key not valid: {KEY} (and AIzaSyOTHER-key-abcdefghijklmnopqrstuvw)"
    router.post(url__regex=GENERATE).mock(
        return_value=gemini_error_response(400, "INVALID_ARGUMENT", leaked)
    )

    mapped = map_error(await failure_of(router, stream=False), secrets=(KEY,))

    assert mapped is not None
    assert KEY not in str(mapped)
    assert "AIzaSyOTHER" not in str(mapped)
    assert "[redacted]" in str(mapped)


@pytest.mark.parametrize(
    ("error", "status_code", "retryable"),
    [
        pytest.param(gemini_error(), 503, True, id="503 UNAVAILABLE chunk is retryable"),
        pytest.param(gemini_error(429, "RESOURCE_EXHAUSTED"), 429, True, id="429 chunk retryable"),
        pytest.param(
            gemini_error(400, "INVALID_ARGUMENT", "bad"), 400, False, id="400 chunk is final"
        ),
    ],
)
async def test_an_error_chunk_inside_a_200_stream_is_interrupted(
    error: dict[str, Any], status_code: int, retryable: bool, router: respx.Router
) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello"))[:1]
    router.post(url__regex=STREAM).mock(return_value=gemini_sse_response(chunks, error=error))
    exc = await failure_of(router, stream=True)

    mapped = map_error(exc, secrets=(KEY,))

    assert isinstance(mapped, StreamInterruptedError)
    assert (mapped.status_code, mapped.retryable, mapped.partial) == (status_code, retryable, None)
    assert str(mapped).startswith("the Gemini stream was interrupted: Gemini API error (HTTP ")


async def test_a_dropped_stream_connection_maps_by_where_it_happened(
    router: respx.Router,
) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello"))[:1]
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks, drop_connection=True)
    )
    exc = await failure_of(router, stream=True)
    assert isinstance(exc, httpx2.TransportError)  # the SDK does not wrap it

    before = map_error(exc)
    inside = map_error(exc, accepted_stream=True)

    assert isinstance(before, ProviderUnavailableError)
    assert before.retryable
    assert isinstance(inside, StreamInterruptedError)
    assert inside.retryable
    assert inside.status_code is None


@pytest.mark.parametrize(
    "exc",
    [
        pytest.param(httpx2.ConnectError("refused"), id="httpx2 connect error"),
        pytest.param(httpx2.ReadTimeout("slow"), id="httpx2 timeout"),
        pytest.param(httpx.ConnectError("refused"), id="httpx connect error"),
        pytest.param(httpx.ReadTimeout("slow"), id="httpx timeout"),
    ],
)
def test_a_transport_error_is_unavailable_and_retryable(exc: Exception) -> None:
    mapped = map_error(exc)

    assert isinstance(mapped, ProviderUnavailableError)
    assert mapped.retryable
    assert mapped.status_code is None
    assert str(mapped).startswith("Gemini API error (connection error): the connection failed")
    assert isinstance(map_error(exc, accepted_stream=True), StreamInterruptedError)


def test_the_vertex_tag_goes_on_the_error() -> None:
    exc = errors.ServerError(503, gemini_error())

    mapped = map_error(exc, provider="vertex")

    assert mapped is not None
    assert mapped.provider == "vertex"


@pytest.mark.parametrize(
    "exc",
    [
        pytest.param(ValueError("x"), id="a ValueError"),
        pytest.param(KeyError("x"), id="a KeyError"),
        pytest.param(errors.UnknownFunctionCallArgumentError("x"), id="an SDK ValueError"),
    ],
)
def test_other_exceptions_are_not_this_providers(exc: Exception) -> None:
    assert map_error(exc) is None


def test_an_aiohttp_error_counts_once_aiohttp_is_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    # The SDK runs on aiohttp whenever it is installed; map_error reads it only once imported.
    fake = types.ModuleType("aiohttp")

    class ClientError(Exception):
        pass

    fake.ClientError = ClientError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "aiohttp", fake)

    assert isinstance(map_error(ClientError("reset")), ProviderUnavailableError)
    monkeypatch.delitem(sys.modules, "aiohttp")
    assert map_error(ClientError("reset")) is None
