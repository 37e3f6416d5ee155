"""Anthropic SDK exceptions -> llmbridge's ``ProviderAPIError`` tree: ``map_error``, the one place.

Classes and ``retryable`` come from the status table (``api_error_for_status``); this module
only reads what the SDK knows: the status, the API's error type and message, and the
Retry-After headers. Secrets given by the caller (the API key) never reach a message. The agent
and the connector both map through ``map_error``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import anthropic
import httpx2

from llmbridge import Message, ProviderAPIError, RateLimitError, StreamInterruptedError
from llmbridge.kit import api_error_for_status, api_error_text, redact_secrets, retry_after_seconds

__all__ = ["EVENT_ERROR_STATUS", "PROVIDER", "api_error", "map_error", "stream_interrupted"]

PROVIDER: Final = "anthropic"

EVENT_ERROR_STATUS: Final[dict[str, int]] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}
"""The HTTP status each API error type stands for (an SSE ``error`` event comes with HTTP 200)."""


def _describe(exc: anthropic.APIError, status: int | None) -> str:
    if isinstance(exc, anthropic.APITimeoutError):
        return api_error_text("Anthropic", exc.message, error_type="timeout")
    if isinstance(exc, anthropic.APIConnectionError):
        return api_error_text("Anthropic", exc.message, error_type="connection error")
    if isinstance(exc, anthropic.APIStatusError):
        return api_error_text(
            "Anthropic",
            exc.api_message or exc.message,
            status_code=status,
            error_type=exc.type or None,
        )
    return api_error_text("Anthropic", exc.message)


def api_error(exc: anthropic.APIError, *, secrets: Iterable[str | None] = ()) -> ProviderAPIError:
    """Map an SDK error raised before a reply or stream started to a ``ProviderAPIError``.

    The message reads ``Anthropic API error (HTTP <status>, <type>): <API message>`` (see
    ``api_error_text``).

    429 -> ``RateLimitError`` (``retry_after`` from the headers); 401/403 ->
    ``AuthenticationError``; 400/404/413/422 -> ``BadRequestError``; 408, 409, 5xx, 529
    (overloaded), connection errors and timeouts -> ``ProviderUnavailableError``. Raise it
    ``from exc``.
    """
    status = getattr(exc, "status_code", None)
    if isinstance(exc, anthropic.APIConnectionError):
        status = None
    cls, retryable = api_error_for_status(status)
    message = redact_secrets(_describe(exc, status), secrets)
    if cls is RateLimitError and isinstance(exc, anthropic.APIStatusError):
        return RateLimitError(
            message,
            provider=PROVIDER,
            status_code=status,
            retryable=retryable,
            retry_after=retry_after_seconds(exc.response.headers),
        )
    return cls(message, provider=PROVIDER, status_code=status, retryable=retryable)


def stream_interrupted(
    exc: Exception, *, partial: Message | None, secrets: Iterable[str | None] = ()
) -> StreamInterruptedError:
    """Map a failure after a stream started to ``StreamInterruptedError`` carrying ``partial``.

    An SSE ``error`` event (the SDK's ``APIStatusError`` with status 200) gets the status its
    error type stands for (``EVENT_ERROR_STATUS``) and is retryable when that status is
    (``overloaded_error``, ``api_error``, ...); a dropped connection or any other transport
    failure has no status and is retryable; malformed event data (a ``ValueError`` from the
    SDK's JSON decoding) has no status and is not retryable.
    """
    if isinstance(exc, anthropic.APIStatusError):
        status: int | None = exc.status_code
        if status == 200:
            status = EVENT_ERROR_STATUS.get(exc.type or "")
        retryable = status is not None and api_error_for_status(status)[1]
        detail = _describe(exc, status)
    elif isinstance(exc, anthropic.APIError) and not isinstance(exc, anthropic.APIConnectionError):
        status, retryable, detail = None, False, _describe(exc, None)
    elif isinstance(exc, ValueError | RecursionError):
        status, retryable = None, False
        detail = f"the stream sent malformed data ({type(exc).__name__}: {exc})"
    else:
        status, retryable = None, True
        detail = f"the connection dropped ({type(exc).__name__}: {exc})"
    return StreamInterruptedError(
        redact_secrets(f"the Anthropic stream was interrupted: {detail}", secrets),
        provider=PROVIDER,
        status_code=status,
        retryable=retryable,
        partial=partial,
    )


def map_error(
    exc: BaseException, *, secrets: Iterable[str | None] = (), accepted_stream: bool = False
) -> ProviderAPIError | None:
    """Map an Anthropic SDK failure to llmbridge's error tree; ``None`` for any other exception.

    With ``accepted_stream`` (the failure happened inside a stream the API had accepted), an SDK
    error, a transport error or malformed event data (a ``ValueError``) is a
    ``StreamInterruptedError`` (see ``stream_interrupted``). Without it, an SSE ``error`` event
    (an ``APIStatusError`` with status 200) and an ``httpx2`` transport error (the SDK lets it
    through only mid-body) are still ``StreamInterruptedError``s; any other SDK error maps by
    its status (see ``api_error``). Raise the result ``from exc``.
    """
    match exc:
        case anthropic.APIError() | httpx2.TransportError() | ValueError() | RecursionError() if (
            accepted_stream
        ):
            return stream_interrupted(exc, partial=None, secrets=secrets)
        case anthropic.APIStatusError(status_code=200) | httpx2.TransportError():
            return stream_interrupted(exc, partial=None, secrets=secrets)
        case anthropic.APIError():
            return api_error(exc, secrets=secrets)
        case _:
            return None
