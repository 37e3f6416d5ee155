"""Shared by the revision-3 tests (API.md 19) until the strict validator knows the new blocks.

``tests/anthropic/wire.py`` does not know ``file`` sources, citations or hosted tool blocks yet
(they come with branch wave3-wire); until it lands, these tests use ``convert`` here, which
checks no mutation but not the wire, and switch the conftest's validator off with
``validate_every_payload``. Both go once the validator knows the blocks.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from llmbridge import Message
from llmbridge.anthropic import AnthropicRequest, to_anthropic
from tests.corpus import AGENT


@pytest.fixture(autouse=True)
def validate_every_payload() -> None:
    """Replaces the conftest's fixture of this name in the modules that import it."""


def convert(
    messages: Sequence[Message], *, strict: bool = False, **kwargs: Any
) -> AnthropicRequest:
    """``to_anthropic`` for ``AGENT``; proves the input unchanged."""
    before = copy.deepcopy(list(messages))
    request = to_anthropic(messages, agent_name=AGENT, strict_mode=strict, **kwargs)
    assert list(messages) == before, "the conversion mutated its input"
    return request
