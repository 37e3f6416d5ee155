"""The kit's agent parts: envelope splitting, reply settings and mapped-error raising."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from llmbridge import (
    GenerateReplyOptions,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    ProviderAPIError,
    Role,
    TextMessage,
    UnsupportedMessageError,
)
from llmbridge.kit import raise_mapped, reply_settings, split_system_envelopes

_TURN_ROLES = frozenset({"user", "bot"})


def _parts(payload: Mapping[str, Any]) -> list[Any]:
    return [f"system:{payload['text']}"]


def _split(messages: Sequence[Message]) -> tuple[list[Any], list[Any]]:
    return split_system_envelopes(
        messages,
        turn_roles=_TURN_ROLES,
        system_parts=_parts,
        agent="ToyAgent",
        takes="toy turn dicts",
        empty="no toy turn to send",
    )


def _envelope(payload: object) -> MessageEnvelope[Any]:
    return MessageEnvelope(payload, "caller")


@pytest.mark.parametrize(
    ("messages", "system", "turns"),
    [
        pytest.param(
            [_envelope({"role": "user", "text": "hi"})],
            [],
            [{"role": "user", "text": "hi"}],
            id="turns_only_are_kept_as_they_are",
        ),
        pytest.param(
            [
                _envelope({"role": "system", "text": "a"}),
                _envelope({"role": "user", "text": "hi"}),
                _envelope({"role": "system", "text": "b"}),
                _envelope({"role": "bot", "text": "yo"}),
            ],
            ["system:a", "system:b"],
            [{"role": "user", "text": "hi"}, {"role": "bot", "text": "yo"}],
            id="system_dicts_give_their_parts_in_order_wherever_they_stand",
        ),
    ],
)
def test_split_system_envelopes_lifts_system_parts_and_keeps_turns(
    messages: list[Message], system: list[Any], turns: list[Any]
) -> None:
    assert _split(messages) == (system, turns)


@pytest.mark.parametrize(
    ("messages", "index", "got"),
    [
        pytest.param([TextMessage(Role.USER, "hi")], 0, "got TextMessage", id="neutral_message"),
        pytest.param(
            [_envelope({"role": "user", "text": "hi"}), _envelope("text")],
            1,
            "got MessageEnvelope",
            id="envelope_of_no_dict",
        ),
        pytest.param(
            [_envelope({"role": "tool", "text": "x"})], 0, "got MessageEnvelope", id="other_role"
        ),
    ],
)
def test_split_system_envelopes_refuses_other_input_naming_its_index(
    messages: list[Message], index: int, got: str
) -> None:
    with pytest.raises(UnsupportedMessageError, match="ToyAgent takes MessageEnvelopes of toy"):
        _split(messages)
    with pytest.raises(UnsupportedMessageError, match=got) as caught:
        _split(messages)
    assert caught.value.index == index


def test_split_system_envelopes_without_a_turn_raises_the_empty_text() -> None:
    with pytest.raises(InvalidMessageError, match="no toy turn to send"):
        _split([_envelope({"role": "system", "text": "a"})])


@pytest.mark.parametrize(
    ("options", "temperature", "expected"),
    [
        pytest.param(GenerateReplyOptions(), None, {"top_k": 3}, id="settings_alone"),
        pytest.param(
            GenerateReplyOptions(extra={"top_k": 5, "seed": 1}),
            None,
            {"top_k": 5, "seed": 1},
            id="extra_wins_over_settings",
        ),
        pytest.param(
            GenerateReplyOptions(), 0.5, {"top_k": 3, "temperature": 0.5}, id="agent_temp"
        ),
        pytest.param(
            GenerateReplyOptions(temperature=0.0),
            0.5,
            {"top_k": 3, "temperature": 0.0},
            id="options_temperature_wins_even_when_zero",
        ),
        pytest.param(
            GenerateReplyOptions(stop_sequences=("a", "b")),
            None,
            {"top_k": 3, "stop_sequences": ["a", "b"]},
            id="stop_sequences_as_a_list",
        ),
    ],
)
def test_reply_settings_layers_options_over_the_agent_settings(
    options: GenerateReplyOptions, temperature: float | None, expected: dict[str, Any]
) -> None:
    settings = {"top_k": 3}
    assert (
        reply_settings(
            settings, options, reserved={"model"}, agent="ToyAgent", temperature=temperature
        )
        == expected
    )
    assert settings == {"top_k": 3}


def test_reply_settings_refuses_a_reserved_key_in_extra() -> None:
    options = GenerateReplyOptions(extra={"model": "other"})
    with pytest.raises(ValueError, match="'model' is set by ToyAgent"):
        reply_settings({}, options, reserved={"model"}, agent="ToyAgent")


def test_raise_mapped_raises_the_mapped_error_from_the_original() -> None:
    original = KeyError("sdk")
    mapped = ProviderAPIError("mapped", provider="toy")
    with pytest.raises(ProviderAPIError) as caught:
        raise_mapped(original, mapped)
    assert caught.value is mapped
    assert caught.value.__cause__ is original


def test_raise_mapped_lets_an_unmapped_error_pass_unchanged() -> None:
    original = KeyError("not the provider's")
    with pytest.raises(KeyError) as caught:
        raise_mapped(original, None)
    assert caught.value is original
