"""The ``telemetry`` fixture: a fresh in-memory tracer and meter provider per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tracing.helpers import Telemetry


@pytest.fixture
def telemetry() -> Iterator[Telemetry]:
    """An SDK tracer and meter provider recording into memory, shut down after the test."""
    recorded = Telemetry()
    yield recorded
    recorded.shutdown()
