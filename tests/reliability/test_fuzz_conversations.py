"""Generated conversations through both providers' conversions.

Any conversation either raises a documented error or becomes a payload the strict wire
validator accepts; inputs are never mutated; lenient conversion of a valid conversation never
raises. ``make test`` runs a few examples of each; ``make fuzz`` runs 10,000 (marker ``fuzz``).
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import InvalidMessageError, Message, UnsupportedMessageError
from tests.reliability.helpers import PROVIDERS, Provider, check_wire, convert
from tests.strategies import conversations, valid_conversations

SHORT = settings(max_examples=40)
# Anthropic: raw envelopes are sent as turns of their own, which the API merges but the strict
# validator (which wants merged turns) refuses; so they are generated for OpenAI only.
ENVELOPES = {"openai": True, "anthropic": False}


def check_any(provider: Provider, messages: list[Message], strict_mode: bool) -> None:
    before = copy.deepcopy(messages)
    try:
        request = convert(provider, messages, strict_mode=strict_mode)
    except (InvalidMessageError, UnsupportedMessageError) as error:
        failure: InvalidMessageError | UnsupportedMessageError | None = error
    else:
        failure = None
        check_wire(provider, request)
        for note in request.notes:
            assert note.index is None or 0 <= note.index < len(messages)
    if failure is not None:  # a documented error, naming a message of this conversation
        assert failure.index is None or 0 <= failure.index < len(messages)
    assert messages == before, "the conversion mutated its input"


def check_valid(provider: Provider, messages: list[Message]) -> None:
    before = copy.deepcopy(messages)
    request = convert(provider, messages)  # lenient: must not raise
    check_wire(provider, request)
    assert messages == before, "the conversion mutated its input"


def any_case(provider: Provider) -> st.SearchStrategy[list[Message]]:
    return conversations(envelopes=ENVELOPES[provider])


def valid_case(provider: Provider) -> st.SearchStrategy[list[Message]]:
    return valid_conversations(envelopes=ENVELOPES[provider])


@pytest.mark.parametrize("provider", PROVIDERS)
@SHORT
@given(data=st.data())
def test_any_conversation_converts_to_a_valid_payload_or_a_documented_error(
    provider: Provider, data: st.DataObject
) -> None:
    check_any(provider, data.draw(any_case(provider)), data.draw(st.booleans()))


@pytest.mark.parametrize("provider", PROVIDERS)
@SHORT
@given(data=st.data())
def test_lenient_conversion_of_a_valid_conversation_never_raises(
    provider: Provider, data: st.DataObject
) -> None:
    check_valid(provider, data.draw(valid_case(provider)))


@pytest.mark.fuzz
@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_any_conversation_fuzz(provider: Provider, data: st.DataObject) -> None:
    check_any(provider, data.draw(any_case(provider)), data.draw(st.booleans()))


@pytest.mark.fuzz
@pytest.mark.parametrize("provider", PROVIDERS)
@given(data=st.data())
def test_valid_conversation_fuzz(provider: Provider, data: st.DataObject) -> None:
    check_valid(provider, data.draw(valid_case(provider)))
