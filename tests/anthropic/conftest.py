"""Every request payload built in these tests goes through the strict wire validator."""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge.anthropic import _request
from tests.anthropic.wire import assert_valid_request

_build_request = _request.build_request


def _validated_build_request(*args: Any, **kwargs: Any) -> Any:
    request = _build_request(*args, **kwargs)
    assert_valid_request(request, fragment=not kwargs.get("check_pairing", True))
    return request


@pytest.fixture(autouse=True)
def validate_every_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """Route ``to_anthropic`` (and so the connector) through ``assert_valid_request``."""
    monkeypatch.setattr(_request, "build_request", _validated_build_request)
