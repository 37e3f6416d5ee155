"""Approval snapshot: the request fields every provider's SDK sent for one structured-output
model (nested objects, optional fields, enums, lists, constraints), side by side.

Review ``snapshots/structured/test_approval/`` like code: each shape is the provider's own
mechanism, each schema in the dialect that provider accepts, and every body has passed the
provider's strict wire validator before being pinned.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from llmbridge import GenerateReplyOptions, send
from tests.structured.models import LISTING_JSON, Listing
from tests.structured.providers import TAGS, Served


async def test_the_request_shapes_of_every_provider_side_by_side(
    snapshot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    result: dict[str, Any] = {}
    for tag in TAGS:
        served = Served(tag, [(LISTING_JSON, "stop")])
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="llmbridge"):
            await send(
                served.agent, "Describe", options=GenerateReplyOptions(output_schema=Listing)
            )
        result[tag] = {
            **served.format_fields(),
            "notes": [r.getMessage() for r in caplog.records if "output_schema" in r.getMessage()],
        }
    assert result == snapshot
