"""Shared fixtures: syrupy snapshots as readable JSON under the top-level ``snapshots/`` folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension
from syrupy.location import PyTestLocation

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
SNAPSHOTS = ROOT / "snapshots"

settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile(
    "fuzz", max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


class SnapshotsJSON(JSONSnapshotExtension):
    """JSON snapshots in ``snapshots/<test module path>/<test name>.json``."""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        module = Path(test_location.filepath).resolve().relative_to(TESTS).with_suffix("")
        return str(SNAPSHOTS / module)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> Any:
    """The syrupy snapshot fixture, writing readable JSON to ``snapshots/``."""
    return snapshot.use_extension(SnapshotsJSON)
