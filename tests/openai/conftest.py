"""Every chat request the OpenAI tests send through respx must pass the strict wire validator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.openai.helpers import check_every_sent_body


@pytest.fixture(autouse=True)
def every_sent_body_is_valid_on_the_wire() -> Iterator[None]:
    """After each test, validate the body of every request its routers received."""
    check_every_sent_body()  # forget routers of earlier tests (module-level ones included)
    yield
    check_every_sent_body()
