"""An httpx2 transport that answers from a respx router, and SDK clients built on it.

The current openai, anthropic and google-genai SDKs send HTTP through `httpx2`, whose classes
respx neither patches nor understands. `RespxTransport` converts each `httpx2.Request` into an
`httpx.Request`, asks the router for an `httpx.Response` and converts that back, streaming the
body so SSE tests see chunks (and mid-stream failures) exactly when the mock produces them.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import TYPE_CHECKING, Any, NoReturn

import httpx
import httpx2
import respx
from respx.models import Call

if TYPE_CHECKING:
    import anthropic
    import openai
    from google import genai

__all__ = [
    "RespxTransport",
    "anthropic_client",
    "gemini_client",
    "last_request_json",
    "openai_client",
]

# A Vertex AI client with a project or location authenticates with a bearer token; a static
# one (no refresh token, no expiry) means the SDK never looks up Google credentials.
_VERTEX_TEST_TOKEN = "test-token"

# Order does not matter: lookup walks the raised exception's MRO, so the nearest
# mapped ancestor wins and an unlisted httpx subclass still becomes its closest httpx2 relative.
_TRANSPORT_ERRORS: dict[type[httpx.TransportError], type[httpx2.TransportError]] = {
    httpx.TransportError: httpx2.TransportError,
    httpx.TimeoutException: httpx2.TimeoutException,
    httpx.ConnectTimeout: httpx2.ConnectTimeout,
    httpx.ReadTimeout: httpx2.ReadTimeout,
    httpx.WriteTimeout: httpx2.WriteTimeout,
    httpx.PoolTimeout: httpx2.PoolTimeout,
    httpx.NetworkError: httpx2.NetworkError,
    httpx.ConnectError: httpx2.ConnectError,
    httpx.ReadError: httpx2.ReadError,
    httpx.WriteError: httpx2.WriteError,
    httpx.CloseError: httpx2.CloseError,
    httpx.ProxyError: httpx2.ProxyError,
    httpx.UnsupportedProtocol: httpx2.UnsupportedProtocol,
    httpx.ProtocolError: httpx2.ProtocolError,
    httpx.LocalProtocolError: httpx2.LocalProtocolError,
    httpx.RemoteProtocolError: httpx2.RemoteProtocolError,
}


def _reraise_as_httpx2(error: httpx.TransportError, request: httpx2.Request) -> NoReturn:
    # The SDKs tell timeouts from connection errors by httpx2 class (anthropic only knows
    # httpx2), and user code catching httpx2 errors mid-stream must see what production raises.
    target = next(_TRANSPORT_ERRORS[cls] for cls in type(error).__mro__ if cls in _TRANSPORT_ERRORS)
    raise target(str(error), request=request) from error


class _ResponseStream(httpx2.AsyncByteStream):
    """Relays the raw bytes of an httpx response body as they are produced."""

    def __init__(self, response: httpx.Response, request: httpx2.Request) -> None:
        self._response = response
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        # Iterate the stream itself, not `aiter_bytes`: the headers still carry any
        # content-encoding, so httpx2 decodes; and a body respx pre-read stays re-iterable.
        stream = self._response.stream
        chunks: AsyncIterator[bytes] | None = None
        try:
            if isinstance(stream, httpx.AsyncByteStream):
                chunks = stream.__aiter__()
                async for chunk in chunks:
                    yield chunk
            else:
                for chunk in stream:
                    yield chunk
        except httpx.TransportError as error:
            _reraise_as_httpx2(error, self._request)
        finally:
            # An abandoned stream must still run the mock's generator cleanup.
            if isinstance(chunks, AsyncGenerator):
                await chunks.aclose()

    async def aclose(self) -> None:
        # httpx refuses `Response.aclose()` on a sync body (a plain generator given as content).
        if isinstance(self._response.stream, httpx.AsyncByteStream):
            await self._response.aclose()
        else:
            self._response.close()


class RespxTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport that answers every request from a respx router.

    Requests are matched and recorded by the router (see each route's `.calls`); this transport
    records nothing itself and ignores request extensions such as timeouts. Response bodies are
    streamed, never buffered. httpx transport errors raised by the router or mid-body become the
    same-named httpx2 errors with the original as `__cause__`; respx's own errors (an unmatched
    request raises `AllMockedAssertionError`) propagate unchanged.
    """

    def __init__(self, router: respx.Router) -> None:
        self.router = router

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Answer `request` from the router, converting between httpx2 and httpx."""
        content = await request.aread()
        mocked_request = httpx.Request(
            request.method,
            str(request.url),
            headers=request.headers.raw,
            content=content,
        )
        try:
            response = await self.router.async_handler(mocked_request)
        except httpx.TransportError as error:
            _reraise_as_httpx2(error, request)
        return httpx2.Response(
            response.status_code,
            headers=response.headers.raw,
            stream=_ResponseStream(response, request),
            request=request,
        )


class _AsyncOnlyTransport(httpx2.BaseTransport):
    """The sync transport of `gemini_client`: refuses, so a sync call never reaches the network."""

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Raise RuntimeError naming the async client the kit answers."""
        raise RuntimeError(
            f"gemini_client answers only the async client (client.aio); the sync client "
            f"sent {request.method} {request.url}"
        )


def _import_sdk(
    module: str, builder: str, *, sdk: str | None = None, extra: str | None = None
) -> Any:
    """Import a provider SDK for a client builder; without it, name the extra that installs it.

    ``sdk`` (the distribution's name) and ``extra`` default to the module's name.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] != module.split(".")[0]:
            raise
        raise ImportError(
            f"{builder} needs the {sdk or module} SDK: pip install 'llmbridge[{extra or module}]'",
            name=exc.name,
        ) from exc


def openai_client(
    router: respx.Router, *, api_key: str = "test-key", max_retries: int = 0, **kwargs: Any
) -> openai.AsyncOpenAI:
    """Build a real `openai.AsyncOpenAI` whose HTTP is answered by `router`.

    Retries default to 0 so a mocked failure surfaces at once; other keyword arguments go to the
    client unchanged (the SDK's default base URL applies unless `base_url` is given). Raises
    ImportError naming the ``openai`` extra when the SDK is not installed.
    """
    sdk = _import_sdk("openai", "openai_client")
    http_client = httpx2.AsyncClient(transport=RespxTransport(router))
    client: openai.AsyncOpenAI = sdk.AsyncOpenAI(
        api_key=api_key, max_retries=max_retries, http_client=http_client, **kwargs
    )
    return client


def anthropic_client(
    router: respx.Router, *, api_key: str = "test-key", max_retries: int = 0, **kwargs: Any
) -> anthropic.AsyncAnthropic:
    """Build a real `anthropic.AsyncAnthropic` whose HTTP is answered by `router`.

    Retries default to 0 so a mocked failure surfaces at once; other keyword arguments go to the
    client unchanged (the SDK's default base URL applies unless `base_url` is given). Raises
    ImportError naming the ``anthropic`` extra when the SDK is not installed.
    """
    sdk = _import_sdk("anthropic", "anthropic_client")
    http_client = httpx2.AsyncClient(transport=RespxTransport(router))
    client: anthropic.AsyncAnthropic = sdk.AsyncAnthropic(
        api_key=api_key, max_retries=max_retries, http_client=http_client, **kwargs
    )
    return client


def gemini_client(
    router: respx.Router, *, api_key: str = "test-key", vertexai: bool = False, **kwargs: Any
) -> genai.Client:
    """Build a real `google.genai.Client` whose async HTTP (`client.aio`) is answered by `router`.

    The router is reached through `HttpOptions.async_client_args["transport"]` (respx's own
    patching does not reach this SDK); the sync client refuses every request with RuntimeError,
    so nothing goes to the network. An `http_options` keyword (an `HttpOptions` or a dict) is kept,
    with the transports set on a copy. The SDK retries only when `retry_options` is given. Routes
    start at `https://generativelanguage.googleapis.com/` (Gemini API, `x-goog-api-key` header)
    or, with `vertexai=True`, at the Vertex AI host: with a `project` or `location` keyword the
    client sends a fixed bearer token instead of the API key and never looks up Google
    credentials (unless a `credentials` keyword is given); without them it is a Vertex AI
    express-mode client using `api_key`. Other keyword arguments go to the client unchanged.
    Raises ImportError naming the ``gemini`` extra when google-genai is not installed.
    """
    sdk = _import_sdk("google.genai", "gemini_client", sdk="google-genai", extra="gemini")
    options = kwargs.pop("http_options", None)
    if isinstance(options, dict):
        options = sdk.types.HttpOptions.model_validate(options)
    options = options or sdk.types.HttpOptions()
    options = options.model_copy(
        update={
            "client_args": {**(options.client_args or {}), "transport": _AsyncOnlyTransport()},
            "async_client_args": {
                **(options.async_client_args or {}),
                "transport": RespxTransport(router),
            },
        }
    )
    if vertexai and ("project" in kwargs or "location" in kwargs):
        if "credentials" not in kwargs:
            credentials = importlib.import_module("google.oauth2.credentials")
            kwargs["credentials"] = credentials.Credentials(token=_VERTEX_TEST_TOKEN)
    else:
        kwargs["api_key"] = api_key
    client: genai.Client = sdk.Client(vertexai=vertexai, http_options=options, **kwargs)
    return client


def last_request_json(route: respx.Route | Call) -> Any:
    """Return the parsed JSON body of a route's last request, or of one recorded call.

    Raises AssertionError when the route was never called, and json.JSONDecodeError when the
    body is not JSON.
    """
    if isinstance(route, respx.Route):
        if not route.calls:
            raise AssertionError(f"Route {route!r} was never called, so it has no request body.")
        route = route.calls.last
    return json.loads(route.request.content)
