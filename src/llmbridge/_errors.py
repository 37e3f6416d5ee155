"""The llmbridge exception tree.

::

    LLMBridgeError
     +-- InvalidMessageError        (also ValueError; .index, .field)
     +-- UnsupportedMessageError    (also TypeError; .index)
     +-- OutputValidationError      (also ValueError; .text)
     +-- ProviderResponseError      (.response)
     |    +-- ContentFilteredError
     |    +-- RefusalError          (.refusal)
     |    +-- EmptyResponseError
     +-- ProviderAPIError           (.provider, .status_code, .retryable; SDK error as __cause__)
          +-- RateLimitError        (.retry_after)
          +-- AuthenticationError
          +-- BadRequestError
          +-- ProviderUnavailableError
          +-- StreamInterruptedError (.partial)

Messages name the message index and the field at fault, and never contain credentials.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from llmbridge._messages import Message

__all__ = [
    "AuthenticationError",
    "BadRequestError",
    "ContentFilteredError",
    "EmptyResponseError",
    "InvalidMessageError",
    "LLMBridgeError",
    "OutputValidationError",
    "ProviderAPIError",
    "ProviderResponseError",
    "ProviderUnavailableError",
    "RateLimitError",
    "RefusalError",
    "StreamInterruptedError",
    "UnsupportedMessageError",
    "api_error_for_status",
    "api_error_text",
    "redact_secrets",
    "retry_after_seconds",
]


class LLMBridgeError(Exception):
    """Base class of every error llmbridge raises on purpose."""


def _located(message: str, index: int | None, field: str | None) -> str:
    where = []
    if index is not None:
        where.append(f"message {index}")
    if field is not None:
        where.append(f"field {field!r}")
    return f"{', '.join(where)}: {message}" if where else message


class InvalidMessageError(LLMBridgeError, ValueError):
    """A message breaks a rule of the neutral model or of the target provider.

    ``index`` is the position of the offending message in the conversation (``None`` when the
    fault is not one message's, e.g. an empty request); ``field`` names the attribute at fault.
    """

    def __init__(self, message: str, *, index: int | None = None, field: str | None = None) -> None:
        super().__init__(_located(message, index, field))
        self.reason = message
        self.index = index
        self.field = field

    def at(self, index: int) -> InvalidMessageError:
        """Return a copy of this error located at ``index`` (used when a nested item fails)."""
        return type(self)(self.reason, index=index, field=self.field)


class UnsupportedMessageError(LLMBridgeError, TypeError):
    """A message type the target cannot carry (raised in strict mode, dropped in lenient mode)."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(_located(message, index, None))
        self.reason = message
        self.index = index


class OutputValidationError(LLMBridgeError, ValueError):
    """A structured reply is not JSON that fits the requested schema.

    Raised by ``parse_output`` for text that is not JSON, a reply cut off at the token limit
    (finish reason ``length``), or JSON that fails validation; ``text`` is the reply text as
    received (``""`` when the reply had none).
    """

    def __init__(self, message: str, *, text: str) -> None:
        super().__init__(message)
        self.text = text


class ProviderResponseError(LLMBridgeError):
    """The provider answered, but the answer cannot become a neutral message.

    ``response`` holds the provider's response object (or the partial stream result).
    """

    def __init__(self, message: str, *, response: Any = None) -> None:
        super().__init__(message)
        self.response = response


class ContentFilteredError(ProviderResponseError):
    """The provider stopped the completion with its content filter."""


class RefusalError(ProviderResponseError):
    """The model refused to answer; ``refusal`` is the refusal text (``""`` when none was given)."""

    def __init__(self, message: str, *, refusal: str = "", response: Any = None) -> None:
        super().__init__(message, response=response)
        self.refusal = refusal


class EmptyResponseError(ProviderResponseError):
    """The completion holds neither text nor tool calls."""


class ProviderAPIError(LLMBridgeError):
    """A call to the provider's API failed; the SDK's own exception is the ``__cause__``.

    ``provider`` is the provider tag of the wire API (``"openai"``, ``"anthropic"``, ...);
    ``status_code`` is the HTTP status when one
    was received; ``retryable`` says whether the same request may succeed later.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = None,
        retryable: bool = False,
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.status_code = status_code
        self.retryable = retryable

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({str(self)!r}, provider={self.provider!r}, "
            f"status_code={self.status_code!r}, retryable={self.retryable!r})"
        )


class RateLimitError(ProviderAPIError):
    """HTTP 429: too many requests or tokens; ``retry_after`` is the server's hint in seconds."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = 429,
        retryable: bool = True,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, provider=provider, status_code=status_code, retryable=retryable)
        self.retry_after = retry_after


class AuthenticationError(ProviderAPIError):
    """HTTP 401 or 403: the credentials are missing, wrong or lack permission."""


class BadRequestError(ProviderAPIError):
    """HTTP 400, 404, 413 or 422: the provider rejected the request as sent."""


class ProviderUnavailableError(ProviderAPIError):
    """HTTP 408, 409, 5xx or 529, a dropped connection or a timeout: try again later."""


class StreamInterruptedError(ProviderAPIError):
    """A stream failed after it started; ``partial`` holds what had been assembled.

    ``partial`` is a neutral message, or ``None`` when no text, reasoning or tool call arrived.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = None,
        retryable: bool = False,
        partial: Message | None = None,
    ) -> None:
        super().__init__(message, provider=provider, status_code=status_code, retryable=retryable)
        self.partial = partial


_STATUS_CLASSES: Final[dict[int, type[ProviderAPIError]]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: AuthenticationError,
    404: BadRequestError,
    408: ProviderUnavailableError,
    409: ProviderUnavailableError,
    413: BadRequestError,
    422: BadRequestError,
    429: RateLimitError,
    529: ProviderUnavailableError,
}
_RETRYABLE_STATUSES: Final = frozenset({408, 409, 429, 529})


def api_error_text(
    provider: str, message: str, *, status_code: int | None = None, error_type: str | None = None
) -> str:
    """The one wording of provider API errors, the same for every provider.

    ``"<Provider> API error (HTTP <status>, <type>): <message>"``; ``(HTTP <status>)`` alone
    when there is no type, ``(<type>)`` alone when there is no status (a stream error event;
    ``connection error`` and ``timeout`` for failures without a response), and no parentheses
    when neither is known. ``provider`` is the display name (``OpenAI``, ``Anthropic``).
    """
    http = None if status_code is None else f"HTTP {status_code}"
    where = ", ".join(part for part in (http, error_type) if part)
    return (
        f"{provider} API error ({where}): {message}"
        if where
        else f"{provider} API error: {message}"
    )


def api_error_for_status(status_code: int | None) -> tuple[type[ProviderAPIError], bool]:
    """Return the error class and the ``retryable`` flag for an HTTP status.

    ``None`` stands for a connection error or a timeout (unavailable, retryable). Statuses the
    table does not name map to ``ProviderUnavailableError`` for 5xx and ``ProviderAPIError``
    otherwise.
    """
    if status_code is None:
        return ProviderUnavailableError, True
    server_side = 500 <= status_code < 600
    default = ProviderUnavailableError if server_side else ProviderAPIError
    cls = _STATUS_CLASSES.get(status_code, default)
    return cls, server_side or status_code in _RETRYABLE_STATUSES


# Provider keys (sk-..., sk-proj-..., sk-ant-...) and bearer tokens, even partly masked as APIs
# echo them back in error messages.
_KEY_LIKE: Final = re.compile(r"\b(sk|sess|rk)-[A-Za-z0-9_*.\-]{4,}|Bearer\s+\S+")
_MIN_SECRET_LENGTH: Final = 8


def redact_secrets(text: str, secrets: Iterable[str | None] = ()) -> str:
    """Return ``text`` with each given secret, and anything shaped like an API key, replaced.

    Secrets shorter than 8 characters are ignored (replacing them would garble the text).
    """
    for secret in secrets:
        if secret and len(secret) >= _MIN_SECRET_LENGTH:
            text = text.replace(secret, "[redacted]")
    return _KEY_LIKE.sub("[redacted]", text)


def _non_negative_float(value: str) -> float | None:
    try:
        return max(float(value), 0.0)
    except ValueError:
        return None


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """The server's wait hint in seconds: ``retry-after-ms``, else ``retry-after``.

    ``retry-after`` may be seconds or an HTTP date; ``None`` when absent or unreadable.
    """
    milliseconds = headers.get("retry-after-ms")
    if milliseconds is not None:
        seconds = _non_negative_float(milliseconds)
        if seconds is not None:
            return seconds / 1000
    value = headers.get("retry-after")
    if value is None:
        return None
    seconds = _non_negative_float(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)
