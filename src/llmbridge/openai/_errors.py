"""OpenAI SDK exceptions -> llmbridge's ``ProviderAPIError`` tree: ``map_error``, the one place.

The class and ``retryable`` come from the status table; an error event inside a stream (HTTP 200
already sent) is classed by its error ``type`` instead. Messages are rebuilt from the API's own
error text with anything key-like removed, so credentials never reach our errors. The agent and
the connector both map through ``map_error``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import httpx2
import openai

from llmbridge import Message, ProviderAPIError, RateLimitError, StreamInterruptedError
from llmbridge.kit import api_error_for_status, api_error_text, redact_secrets, retry_after_seconds

__all__ = [
    "PROVIDER",
    "RESPONSES_PROVIDER",
    "malformed_stream_error",
    "map_error",
    "map_openai_error",
    "responses_error",
]

PROVIDER: Final = "openai"
RESPONSES_PROVIDER: Final = "openai-responses"
"""The provider tag of the Responses wing; its SDK exceptions are Chat's, mapped alike."""

# Error `type`s of stream error events, read as the HTTP status that means the same thing.
_EVENT_TYPE_STATUS: Final[dict[str, int]] = {
    "server_error": 500,
    "internal_error": 500,
    "api_error": 500,
    "overloaded_error": 529,
    "service_unavailable": 503,
    "timeout": 408,
    "rate_limit_error": 429,
    "rate_limit_exceeded": 429,
    "tokens": 429,
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
}


def _api_message(exc: openai.APIError) -> str:
    # The SDK puts the decoded `error` object in .body; its `message` is the API's own words.
    body = exc.body
    if isinstance(body, dict):
        message = body.get("message")
        if isinstance(message, str) and message:
            return message
    return exc.message


def _error_type(exc: openai.APIError) -> str | None:
    # Failures without a response have no API error type: say which kind of failure it was.
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    return exc.type or None


def _status_of(exc: openai.APIError) -> tuple[int | None, int | None]:
    """The HTTP status to report, and the status that picks the class (they differ for events)."""
    match exc:
        case openai.APIStatusError(status_code=status):
            return status, status
        case openai.APIConnectionError():
            return None, None
        case openai.APIResponseValidationError(status_code=status):
            return status, status
        case _:
            return None, _EVENT_TYPE_STATUS.get(exc.type or "", 0) or None


def map_error(
    exc: BaseException,
    *,
    secrets: Iterable[str | None] = (),
    accepted_stream: bool = False,
    provider: str = PROVIDER,
) -> ProviderAPIError | None:
    """Map an OpenAI SDK failure to llmbridge's error tree; ``None`` for any other exception.

    The message reads ``OpenAI API error (HTTP <status>, <type>): <API message>``. Status errors
    follow the status table; connection errors and timeouts are ``ProviderUnavailableError``
    (retryable); a stream error event is classed by its ``type`` (``server_error`` -> unavailable
    and retryable) with ``status_code`` ``None``, an event of unknown type is a plain,
    non-retryable ``ProviderAPIError``; ``RateLimitError`` carries ``retry_after`` from the
    headers. With ``accepted_stream`` (the failure happened inside a stream the API had
    accepted), a stream error event, a dropped connection (an ``httpx2`` transport error, which
    the SDK lets through mid-body) are ``StreamInterruptedError``. ``secrets`` (the client's
    key) and key-like text never appear in the message. ``provider`` is the tag the error
    carries: ``"openai"`` (Chat Completions) or ``"openai-responses"``, whose SDK exceptions are
    the same. Raise the result ``from exc``.
    """
    match exc:
        case openai.APIError():
            mapped = _mapped(exc, secrets, provider)
            if accepted_stream and _is_stream_event(exc):
                return _interrupted(f"the OpenAI stream was interrupted: {mapped}", mapped)
            return mapped
        case httpx2.TransportError() if accepted_stream:
            text = f"the OpenAI stream's connection dropped ({type(exc).__name__}: {exc})"
            return StreamInterruptedError(
                redact_secrets(text, secrets), provider=provider, retryable=True
            )
        case _:
            return None


def map_openai_error(
    exc: openai.APIError, *, secrets: Iterable[str | None] = ()
) -> ProviderAPIError:
    """``map_error`` for an ``openai.APIError`` (never ``None``); kept from 0.1."""
    return _mapped(exc, secrets, PROVIDER)


def _mapped(exc: openai.APIError, secrets: Iterable[str | None], provider: str) -> ProviderAPIError:
    status, class_status = _status_of(exc)
    if class_status is None and not isinstance(exc, openai.APIConnectionError):
        cls, retryable = ProviderAPIError, False
    else:
        cls, retryable = api_error_for_status(class_status)
    text = api_error_text(
        "OpenAI", _api_message(exc), status_code=status, error_type=_error_type(exc)
    )
    message = redact_secrets(text, secrets)
    if cls is RateLimitError:
        retry_after = (
            retry_after_seconds(exc.response.headers)
            if isinstance(exc, openai.APIStatusError)
            else None
        )
        return RateLimitError(
            message,
            provider=provider,
            status_code=status,
            retryable=retryable,
            retry_after=retry_after,
        )
    return cls(message, provider=provider, status_code=status, retryable=retryable)


def _is_stream_event(exc: openai.APIError) -> bool:
    # Error events arrive after the HTTP 200: the stream had started even if no chunk came.
    return not isinstance(
        exc, openai.APIStatusError | openai.APIConnectionError | openai.APIResponseValidationError
    )


def _interrupted(message: str, mapped: ProviderAPIError) -> StreamInterruptedError:
    return StreamInterruptedError(
        message,
        provider=mapped.provider,
        status_code=mapped.status_code,
        retryable=mapped.retryable,
    )


def malformed_stream_error(
    exc: ValueError | RecursionError, *, secrets: Iterable[str | None] = ()
) -> StreamInterruptedError:
    """The ``StreamInterruptedError`` for stream data that is not JSON (the agent's own finding).

    The SDK lets ``json.loads`` raise on such an event; the stream cannot go on. No HTTP status
    applies and the failure is not retryable (the server sent what it meant to). Raise it
    ``from exc``; the connector adds the ``partial`` message.
    """
    return StreamInterruptedError(
        redact_secrets(f"the OpenAI stream sent malformed data ({exc})", secrets),
        provider=PROVIDER,
        retryable=False,
    )


# Responses error codes (a failed response's `error.code`, an `error` event's `code`) that
# are not the caller's fault, read as the HTTP status meaning the same; every other code is.
_RESPONSES_CODE_STATUS: Final[dict[str, int]] = {
    "server_error": 500,
    "rate_limit_exceeded": 429,
}


def responses_error(
    code: str | None,
    message: str | None,
    *,
    in_stream: bool = False,
    partial: Message | None = None,
) -> ProviderAPIError:
    """The error for a Responses failure told in a body: a failed response or an ``error`` event.

    ``code`` picks the class: ``rate_limit_exceeded`` -> ``RateLimitError`` and ``server_error``
    -> ``ProviderUnavailableError`` (both retryable); any other code, or none, ->
    ``BadRequestError`` (not retryable). No HTTP status applies (the API answered 200), so
    ``status_code`` is ``None``. With ``in_stream`` the result is a ``StreamInterruptedError``
    with the same ``retryable`` and ``partial`` (what the stream had assembled). The text reads
    ``OpenAI API error (<code>): <message>`` with key-like text removed.
    """
    cls, retryable = api_error_for_status(_RESPONSES_CODE_STATUS.get(code or "", 400))
    text = redact_secrets(
        api_error_text("OpenAI", message or "the response failed", error_type=code or None)
    )
    if in_stream:
        return StreamInterruptedError(
            f"the OpenAI Responses stream was interrupted: {text}",
            provider=RESPONSES_PROVIDER,
            retryable=retryable,
            partial=partial,
        )
    if cls is RateLimitError:
        return RateLimitError(text, provider=RESPONSES_PROVIDER, status_code=None)
    return cls(text, provider=RESPONSES_PROVIDER, status_code=None, retryable=retryable)
