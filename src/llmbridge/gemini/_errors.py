"""google-genai exceptions -> llmbridge's ``ProviderAPIError`` tree: ``map_error``, the one place.

The SDK raises ``errors.APIError`` (``ClientError`` for 4xx, ``ServerError`` for 5xx) with the
HTTP-like ``.code``, the API's ``.status`` (``UNAVAILABLE``, ``RESOURCE_EXHAUSTED``) and
``.message``; classes and ``retryable`` come from the kit's status table by that code. An error
chunk inside a stream the API accepted (HTTP 200 sent) is raised as the same ``APIError``, whose
``.response`` is the 200 response: that is a ``StreamInterruptedError``. Transport failures
come out of the SDK unwrapped, from whichever HTTP library it runs on (httpx2 by default, httpx
or aiohttp when given or installed). Secrets given by the caller (the API key) and key-like
text never reach a message. The agent and the connector both map through ``map_error``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Final

import httpx2
from google.genai import errors

from llmbridge import ProviderAPIError, RateLimitError, StreamInterruptedError
from llmbridge.kit import api_error_for_status, api_error_text, redact_secrets, retry_after_seconds

__all__ = ["PROVIDER", "VERTEX_PROVIDER", "map_error", "transport_error_types"]

PROVIDER: Final = "gemini"
"""The provider tag of the Gemini API."""

VERTEX_PROVIDER: Final = "vertex"
"""The provider tag of Gemini on Vertex AI (its thought signatures are not the Gemini API's)."""

# Google API keys ("AIza" + 35 characters): the kit's redaction knows other vendors' shapes.
_GOOGLE_API_KEY: Final = re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])")

# Transport error bases of the optional HTTP libraries the SDK may run on, by module name.
_OPTIONAL_TRANSPORT_ERRORS: Final = (("httpx", "TransportError"), ("aiohttp", "ClientError"))


def transport_error_types() -> tuple[type[BaseException], ...]:
    """The exception bases of a failed HTTP exchange, for every HTTP library already imported.

    httpx2 always (the SDK needs it); httpx and aiohttp only when imported: a library nobody
    imported cannot have raised, so nothing is imported here.
    """
    found: list[type[BaseException]] = [httpx2.TransportError]
    for module_name, class_name in _OPTIONAL_TRANSPORT_ERRORS:
        module = sys.modules.get(module_name)
        base = getattr(module, class_name, None)
        if isinstance(base, type) and issubclass(base, BaseException):
            found.append(base)
    return tuple(found)


def _redacted(text: str, secrets: Iterable[str | None]) -> str:
    return _GOOGLE_API_KEY.sub("[redacted]", redact_secrets(text, secrets))


def _in_accepted_stream(exc: errors.APIError) -> bool:
    # An error chunk is raised with the stream's own response, whose status was 200.
    return getattr(exc.response, "status_code", None) == 200


def _api_error(
    exc: errors.APIError, *, provider: str, secrets: Iterable[str | None]
) -> ProviderAPIError:
    status = exc.code if isinstance(exc.code, int) else None
    cls, retryable = api_error_for_status(status)
    text = api_error_text(
        "Gemini",
        exc.message or str(exc),
        status_code=status,
        error_type=exc.status or None,
    )
    message = _redacted(text, secrets)
    if cls is RateLimitError:
        headers = getattr(exc.response, "headers", None)
        return RateLimitError(
            message,
            provider=provider,
            status_code=status,
            retryable=retryable,
            retry_after=None if headers is None else retry_after_seconds(headers),
        )
    return cls(message, provider=provider, status_code=status, retryable=retryable)


def _interrupted(
    detail: str,
    *,
    provider: str,
    status_code: int | None,
    retryable: bool,
    secrets: Iterable[str | None],
) -> StreamInterruptedError:
    return StreamInterruptedError(
        _redacted(f"the Gemini stream was interrupted: {detail}", secrets),
        provider=provider,
        status_code=status_code,
        retryable=retryable,
    )


def map_error(
    exc: BaseException,
    *,
    provider: str = PROVIDER,
    secrets: Iterable[str | None] = (),
    accepted_stream: bool = False,
) -> ProviderAPIError | None:
    """Map a google-genai failure to llmbridge's error tree; ``None`` for any other exception.

    An ``APIError`` maps by its ``.code`` through the status table (429 -> ``RateLimitError``
    with ``retry_after`` from the headers; 401/403 -> ``AuthenticationError``; 400/404/413/422
    -> ``BadRequestError``; 408, 409, 5xx -> ``ProviderUnavailableError``); its message reads
    ``Gemini API error (HTTP <code>, <status>): <message>`` (also for ``provider="vertex"``:
    the wording names the family, not the transport). An error chunk inside a 200 stream is a
    ``StreamInterruptedError`` with the chunk's code and the table's ``retryable``. A
    transport error (httpx2, httpx, aiohttp) is a retryable ``ProviderUnavailableError``, or
    with ``accepted_stream`` (it happened inside a stream the API had accepted) a retryable
    ``StreamInterruptedError``. ``provider`` is the tag the error carries. Raise the result
    ``from exc``.
    """
    if isinstance(exc, errors.APIError):
        mapped = _api_error(exc, provider=provider, secrets=secrets)
        if accepted_stream or _in_accepted_stream(exc):
            return _interrupted(
                str(mapped),
                provider=provider,
                status_code=mapped.status_code,
                retryable=mapped.retryable,
                secrets=secrets,
            )
        return mapped
    if isinstance(exc, transport_error_types()):
        detail = f"the connection failed ({type(exc).__name__}: {exc})"
        if accepted_stream:
            return _interrupted(
                detail, provider=provider, status_code=None, retryable=True, secrets=secrets
            )
        text = api_error_text("Gemini", detail, error_type="connection error")
        cls, retryable = api_error_for_status(None)
        return cls(_redacted(text, secrets), provider=provider, retryable=retryable)
    return None
