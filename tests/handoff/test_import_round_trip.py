"""Payload import through every registered wing: ``request_payload(import_payload(p)) == p``.

For every payload ``request_payload`` writes for a generated history (replies from every
producer included), ``import_payload`` gives neutral messages that convert back to the same
payload, in both import modes (a payload of neutral messages has nothing strict mode refuses),
and the payload is not mutated. ``make fuzz`` runs it 10,000 times per pair.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import Message, Role, TextMessage
from llmbridge.kit import load_provider
from tests.corpus import AGENT
from tests.handoff.histories import histories
from tests.handoff.wings import PRODUCER_PAIRS, TAGS
from tests.strategies import valid_conversations

SHORT = settings(max_examples=15)

# What an agent loop sends: a hand-written history then the user's next turn. Gemini refuses a
# request ending with a model turn, so every target gets the closing user turn alike.
agent_requests = valid_conversations().map(
    lambda messages: [*messages, TextMessage(Role.USER, "Go on.")]
)


def payload_of(tag: str, messages: list[Message]) -> dict[str, Any]:
    return load_provider(tag).request_payload(
        messages, agent_name=AGENT, strict_mode=False, name_policy="drop"
    )[0]


def check_round_trip(tag: str, messages: list[Message]) -> None:
    wing = load_provider(tag)
    payload = payload_of(tag, messages)
    before = copy.deepcopy(payload)
    lenient = wing.import_payload(payload, agent_name=AGENT, strict_mode=False)
    strict = wing.import_payload(payload, agent_name=AGENT, strict_mode=True)
    assert payload == before, "the import mutated its input"
    assert strict == lenient
    assert payload_of(tag, lenient) == payload


def check_pair(producer: str, target: str, data: st.DataObject) -> None:
    check_round_trip(target, data.draw(histories(producer, target, start=True)).messages)


@pytest.mark.parametrize(("producer", "target"), PRODUCER_PAIRS)
@SHORT
@given(data=st.data())
def test_a_handed_over_history_round_trips_through_the_import(
    producer: str, target: str, data: st.DataObject
) -> None:
    check_pair(producer, target, data)


@pytest.mark.parametrize("tag", TAGS)
@SHORT
@given(messages=agent_requests)
def test_a_hand_written_history_round_trips_through_the_import(
    tag: str, messages: list[Message]
) -> None:
    check_round_trip(tag, messages)


@pytest.mark.fuzz
@pytest.mark.parametrize(("producer", "target"), PRODUCER_PAIRS)
@given(data=st.data())
def test_import_round_trip_fuzz(producer: str, target: str, data: st.DataObject) -> None:
    check_pair(producer, target, data)
