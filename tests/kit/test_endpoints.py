"""Endpoint keys (kit/_endpoints.py, API.md 19.6): stamping, reading back, host detection."""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge.kit import (
    ENDPOINT_FIELD,
    endpoint_of,
    host_endpoint,
    same_endpoint,
    with_endpoint,
)

HOSTS = {"api.openai.com": "openai", "*.openai.azure.com": "azure"}


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (None, "anthropic"),  # no entry: the first-party endpoint's
        ({"signature_id": "x"}, "anthropic"),  # a 0.2 entry, never stamped
        ({"endpoint": "bedrock"}, "bedrock"),
        ({"endpoint": 5}, "anthropic"),  # not a key: read as unstamped
    ],
)
def test_endpoint_of_reads_the_stamp_or_the_first_party(entry: Any, expected: str) -> None:
    assert endpoint_of(entry, "anthropic") == expected


@pytest.mark.parametrize(
    ("entry", "endpoint", "same"),
    [
        (None, None, True),
        ({}, "anthropic", True),
        ({"endpoint": "bedrock"}, None, False),
        ({"endpoint": "bedrock"}, "bedrock", True),
        ({"endpoint": "anthropic"}, "vertex", False),
    ],
)
def test_state_goes_only_to_the_same_endpoint(entry: Any, endpoint: str | None, same: bool) -> None:
    assert same_endpoint(entry, endpoint, "anthropic") is same


def test_with_endpoint_stamps_a_copy_with_the_key_last() -> None:
    entry = {"endpoint": "old", "id": "rs_1"}
    assert list(with_endpoint(entry, "azure", "openai").items()) == [
        ("id", "rs_1"),
        (ENDPOINT_FIELD, "azure"),
    ]
    assert with_endpoint({}, None, "openai") == {ENDPOINT_FIELD: "openai"}
    assert entry == {"endpoint": "old", "id": "rs_1"}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://api.openai.com/v1", "openai"),
        ("https://API.OpenAI.com/v1/", "openai"),
        ("https://my-resource.openai.azure.com/openai", "azure"),
        (
            "https://openai.azure.com.evil.example/v1",
            "openai-compatible@openai.azure.com.evil.example",
        ),
        ("http://localhost:8000/v1", "openai-compatible@localhost"),
    ],
)
def test_a_host_maps_to_its_endpoint_or_one_of_its_own(url: str, expected: str) -> None:
    assert host_endpoint(url, "openai", HOSTS) == expected
