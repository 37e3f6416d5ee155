"""Every request the Gemini tests send through a router must pass the strict wire validator."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import respx

from tests.gemini import wire
from tests.gemini.helpers import GENERATE, STREAM


@pytest.fixture
def router() -> Iterator[respx.Router]:
    """A respx router (unused routes allowed); after the test, each request it got is validated."""
    mock = respx.Router(assert_all_called=False)
    yield mock
    for call in mock.calls:
        path = call.request.url.raw_path.decode()
        if re.search(GENERATE, path) or re.search(STREAM, path):
            wire.check_request(call.request)
