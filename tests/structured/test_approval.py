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
from llmbridge.testing import ScriptedProvider
from tests.structured.models import LISTING_JSON, Listing
from tests.structured.test_agents import agents, checked_bodies

# The request fields that carry the output format, per provider.
FIELDS = {"openai": "response_format", "anthropic": "output_config"}


async def test_the_request_shapes_of_every_provider_side_by_side(
    snapshot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    provider = ScriptedProvider([LISTING_JSON] * len(FIELDS))
    found = agents(provider)
    result: dict[str, Any] = {}
    for tag, field in FIELDS.items():
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="llmbridge"):
            await send(found[tag], "Describe", options=GenerateReplyOptions(output_schema=Listing))
        result[tag] = {
            field: checked_bodies(provider)[-1][field],
            "notes": [record.getMessage() for record in caplog.records],
        }
    assert result == snapshot
