"""Endpoint keys (API.md 19.6): which endpoint recorded a piece of provider state.

A signature, encrypted reasoning, thought signature, hosted-tool block or item id is valid only
at the endpoint that issued it (Bedrock, Vertex and Anthropic-compatible APIs sign thinking that
api.anthropic.com rejects, and the 400 poisons every later turn). So a wing stamps what it
records with ``provider_data[tag]["endpoint"]`` and replays it only to the same key; state
without a key (0.2 histories) belongs to the first-party endpoint of its tag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlsplit

__all__ = ["ENDPOINT_FIELD", "endpoint_of", "host_endpoint", "same_endpoint", "with_endpoint"]

ENDPOINT_FIELD: Final = "endpoint"
"""The key of the endpoint in a wing's ``provider_data`` entry."""


def endpoint_of(entry: Mapping[str, Any] | None, first_party: str) -> str:
    """The endpoint key ``entry`` (a wing's ``provider_data`` entry) was recorded at:
    its ``"endpoint"``, or ``first_party`` for an entry without one (or no entry)."""
    if entry is None:
        return first_party
    key = entry.get(ENDPOINT_FIELD)
    return key if isinstance(key, str) else first_party


def same_endpoint(entry: Mapping[str, Any] | None, endpoint: str | None, first_party: str) -> bool:
    """Whether state recorded with ``entry`` may go to ``endpoint`` (``None``: the first-party
    endpoint): the two keys are equal."""
    return endpoint_of(entry, first_party) == (endpoint or first_party)


def with_endpoint(
    entry: Mapping[str, Any], endpoint: str | None, first_party: str
) -> dict[str, Any]:
    """A copy of ``entry`` stamped with ``endpoint`` (``None``: ``first_party``), the key
    last."""
    stamped = {key: value for key, value in entry.items() if key != ENDPOINT_FIELD}
    stamped[ENDPOINT_FIELD] = endpoint or first_party
    return stamped


def host_endpoint(base_url: object, first_party: str, hosts: Mapping[str, str]) -> str:
    """The endpoint key of a client's ``base_url``: the key ``hosts`` gives its host (exact, or
    ``"*.suffix"``), else ``"<first_party>-compatible@<host>"`` (an endpoint of its own, so a
    proxy gets back only what it issued)."""
    host = (urlsplit(str(base_url)).hostname or "").lower()
    if host in hosts:
        return hosts[host]
    for pattern, key in hosts.items():
        if pattern.startswith("*.") and host.endswith(pattern[1:]):
            return key
    return f"{first_party}-compatible@{host}"
