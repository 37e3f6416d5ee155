"""The error tree and the status table of API.md section 9."""

from __future__ import annotations

import time

import pytest

import llmbridge
from llmbridge import (
    AuthenticationError,
    BadRequestError,
    ContentFilteredError,
    EmptyResponseError,
    InvalidMessageError,
    LLMBridgeError,
    ProviderAPIError,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    RefusalError,
    StreamInterruptedError,
    TextMessage,
    UnsupportedMessageError,
)
from llmbridge._errors import (
    api_error_for_status,
    api_error_text,
    redact_secrets,
    retry_after_seconds,
)

TREE = [
    (InvalidMessageError, (LLMBridgeError, ValueError)),
    (UnsupportedMessageError, (LLMBridgeError, TypeError)),
    (ProviderResponseError, (LLMBridgeError,)),
    (ContentFilteredError, (ProviderResponseError,)),
    (RefusalError, (ProviderResponseError,)),
    (EmptyResponseError, (ProviderResponseError,)),
    (ProviderAPIError, (LLMBridgeError,)),
    (RateLimitError, (ProviderAPIError,)),
    (AuthenticationError, (ProviderAPIError,)),
    (BadRequestError, (ProviderAPIError,)),
    (ProviderUnavailableError, (ProviderAPIError,)),
    (StreamInterruptedError, (ProviderAPIError,)),
]


@pytest.mark.parametrize(("cls", "bases"), TREE, ids=[c.__name__ for c, _ in TREE])
def test_tree(cls: type[Exception], bases: tuple[type[Exception], ...]) -> None:
    for base in bases:
        assert issubclass(cls, base)
    assert getattr(llmbridge, cls.__name__) is cls


STATUSES = [
    (400, BadRequestError, False),
    (401, AuthenticationError, False),
    (403, AuthenticationError, False),
    (404, BadRequestError, False),
    (408, ProviderUnavailableError, True),
    (409, ProviderUnavailableError, True),
    (413, BadRequestError, False),
    (422, BadRequestError, False),
    (429, RateLimitError, True),
    (500, ProviderUnavailableError, True),
    (502, ProviderUnavailableError, True),
    (503, ProviderUnavailableError, True),
    (529, ProviderUnavailableError, True),
    (None, ProviderUnavailableError, True),
    (418, ProviderAPIError, False),
]


@pytest.mark.parametrize(
    ("status", "cls", "retryable"), STATUSES, ids=[str(s) for s, _, _ in STATUSES]
)
def test_status_table(status: int | None, cls: type[ProviderAPIError], retryable: bool) -> None:
    assert api_error_for_status(status) == (cls, retryable)


def test_invalid_message_names_index_and_field() -> None:
    error = InvalidMessageError("content must be text", index=3, field="content")
    assert str(error) == "message 3, field 'content': content must be text"
    assert (error.index, error.field, error.reason) == (3, "content", "content must be text")
    moved = InvalidMessageError("bad", field="url").at(7)
    assert (moved.index, moved.field) == (7, "url")
    assert str(InvalidMessageError("empty request")) == "empty request"


def test_unsupported_message_names_index() -> None:
    error = UnsupportedMessageError("cannot send X", index=2)
    assert str(error) == "message 2: cannot send X"
    assert error.index == 2


def test_provider_api_error_fields_and_repr() -> None:
    error = RateLimitError("slow down", provider="openai", retry_after=2.5)
    assert (error.provider, error.status_code, error.retryable, error.retry_after) == (
        "openai",
        429,
        True,
        2.5,
    )
    assert repr(error) == (
        "RateLimitError('slow down', provider='openai', status_code=429, retryable=True)"
    )


def test_stream_interrupted_keeps_partial() -> None:
    partial = TextMessage("assistant", "Hel")
    error = StreamInterruptedError("dropped", provider="anthropic", retryable=True, partial=partial)
    assert error.partial == partial
    assert error.status_code is None


def test_refusal_defaults_to_empty_text() -> None:
    assert RefusalError("refused").refusal == ""
    assert RefusalError("refused", refusal="I can't").refusal == "I can't"


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after-ms": "1500"}, 1.5),
        ({"retry-after": "7"}, 7.0),
        ({"retry-after-ms": "bad", "retry-after": "2"}, 2.0),
        ({"retry-after": "-3"}, 0.0),
        ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
    ids=[
        "milliseconds",
        "seconds",
        "bad-ms-falls-back",
        "negative-clamped",
        "past-date",
        "junk",
        "absent",
    ],
)
def test_retry_after_seconds(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(headers) == seconds


def test_retry_after_future_date() -> None:
    from email.utils import formatdate

    result = retry_after_seconds({"retry-after": formatdate(time.time() + 60, usegmt=True)})
    assert result is not None
    assert 50 < result <= 60


@pytest.mark.parametrize(
    ("text", "secrets", "expected"),
    [
        ("key my-secret-value leaked", ["my-secret-value"], "key [redacted] leaked"),
        (
            "Incorrect API key provided: sk-proj-abc123XYZ",
            [],
            "Incorrect API key provided: [redacted]",
        ),
        ("masked sk-ant-api03-****abcd", [], "masked [redacted]"),
        ("Authorization: Bearer tok_123", [], "Authorization: [redacted]"),
        ("short key abc stays", ["abc"], "short key abc stays"),
        ("ask-me-anything is a word", [], "ask-me-anything is a word"),
    ],
    ids=[
        "given-secret",
        "openai-key",
        "masked-anthropic-key",
        "bearer",
        "short-secret-ignored",
        "no-false-hit",
    ],
)
def test_redact_secrets(text: str, secrets: list[str], expected: str) -> None:
    assert redact_secrets(text, secrets) == expected


@pytest.mark.parametrize(
    ("status", "error_type", "text"),
    [
        (401, "authentication_error", "OpenAI API error (HTTP 401, authentication_error): no"),
        (502, None, "OpenAI API error (HTTP 502): no"),
        (None, "server_error", "OpenAI API error (server_error): no"),
        (None, "timeout", "OpenAI API error (timeout): no"),
        (None, None, "OpenAI API error: no"),
    ],
    ids=[
        "status and type",
        "a status without a type",
        "a type without a status (a stream error event)",
        "a failure with no response names its kind",
        "neither",
    ],
)
def test_api_errors_have_one_wording(status: int | None, error_type: str | None, text: str) -> None:
    assert api_error_text("OpenAI", "no", status_code=status, error_type=error_type) == text
