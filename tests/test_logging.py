"""Logging the way libraries do: silent until configured, each note once per connector."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Sequence

import pytest

from llmbridge import ConversionNote, Message, Role, TextMessage
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.kit._notes import NoteLog
from llmbridge.testing import ScriptedProvider

SOURCE = "AnthropicMessageConnector"

UNCONFIGURED = """
import asyncio
from llmbridge import Role, TextMessage
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

model = ScriptedProvider(["Hello.", "Bonjour."])
history = [TextMessage(Role.USER, "Hi", "Zoë"), TextMessage(Role.USER, "Hi too", "critic")]
openai_agent = OpenAIChatAgent(model.openai_client(), name="a", model="m")
anthropic_agent = AnthropicChatAgent(model.anthropic_client(), name="a", model="m")
for agent in (openai_agent, anthropic_agent):
    reply = asyncio.run(agent.register_message_connector().send(chat_history=history))
    print(reply.get_content())
"""


def test_nothing_is_printed_when_the_application_has_not_configured_logging() -> None:
    # Both requests make WARNING notes (a name renamed for OpenAI, names dropped for Anthropic).
    result = subprocess.run(
        [sys.executable, "-c", UNCONFIGURED], capture_output=True, text=True, check=False
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["Hello.", "Bonjour."]
    assert result.stderr == ""


def _dropped_name(index: int, name: str) -> str:
    return f"{SOURCE}: message {index} dropped: sender name {name!r} cannot be sent to Anthropic"


async def test_a_ten_turn_three_agent_conversation_logs_each_lossy_note_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="llmbridge")
    names = ["alice", "bob", "carol"]
    model = ScriptedProvider([f"turn {turn}" for turn in range(10)])
    agents = [
        AnthropicChatAgent(
            model.anthropic_client(), name=name, model="m"
        ).register_message_connector()
        for name in names
    ]
    history: list[Message] = [TextMessage(Role.USER, "Let us plan the trip.")]
    expected: list[str] = []
    seen_by = dict.fromkeys(names, 0)  # how much of the history each agent was sent before
    sent_per_request = 0
    for turn in range(10):
        name = names[turn % 3]
        foreign = [i for i, m in enumerate(history) if m.from_ not in (None, name)]
        sent_per_request += len(foreign)
        expected += [
            _dropped_name(i, history[i].from_ or "") for i in foreign if i >= seen_by[name]
        ]
        seen_by[name] = len(history)
        history.append(await agents[turn % 3].send(chat_history=history))

    logged = [record.getMessage() for record in caplog.records]

    assert logged == expected
    assert len(logged) == 17
    assert sent_per_request == 33  # what 0.1 logged


def _note(index: int | None, detail: str = "sender name 'bob' cannot be sent") -> ConversionNote:
    return ConversionNote(index, "dropped", detail)


class _Unhashable(TextMessage):
    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]


BOB = TextMessage(Role.USER, "Hi", "bob")

# Two conversions in a row through one log: which notes of the second are logged again.
CASES: list[tuple[Sequence[Message], ConversionNote, Sequence[Message], ConversionNote, int]] = [
    ([BOB], _note(0), [BOB, TextMessage(Role.USER, "More")], _note(0), 1),
    ([BOB], _note(0), [TextMessage(Role.USER, "Hi", "bob")], _note(0), 1),
    ([BOB], _note(0), [TextMessage(Role.USER, "Other", "bob")], _note(0), 2),
    ([BOB], _note(0), [BOB], _note(0, "another detail"), 2),
    ([BOB], _note(None, "request"), [BOB, BOB], _note(None, "request"), 1),
    ([_Unhashable(Role.USER, "a")], _note(0), [_Unhashable(Role.USER, "b")], _note(0), 1),
]


@pytest.mark.parametrize(
    ("first", "first_note", "second", "second_note", "logged"),
    CASES,
    ids=[
        "the same message in a longer history is not logged again",
        "an equal message (a history rebuilt from JSON) is not logged again",
        "another message with the same note is logged",
        "the same message with another note is logged",
        "a note about no single message is logged once",
        "an unhashable message: keyed by the note alone",
    ],
)
def test_each_note_is_logged_once_per_message(
    caplog: pytest.LogCaptureFixture,
    first: Sequence[Message],
    first_note: ConversionNote,
    second: Sequence[Message],
    second_note: ConversionNote,
    logged: int,
) -> None:
    caplog.set_level(logging.INFO, logger="llmbridge")
    note_log = NoteLog("test")

    note_log.log([first_note], first)
    note_log.log([second_note], second)

    assert len(caplog.records) == logged


def test_the_record_is_bounded_forgetting_the_least_recently_seen(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="llmbridge")
    note_log = NoteLog("test", max_keys=3)
    history = [TextMessage(Role.USER, f"message {i}", "bob") for i in range(4)]
    notes = [_note(i) for i in range(4)]

    note_log.log(notes[:3], history)  # 0, 1, 2 recorded
    note_log.log(notes[:1], history)  # 0 seen again: now the most recent
    note_log.log(notes[3:], history)  # 3 recorded: 1, the least recently seen, is forgotten
    caplog.clear()
    note_log.log([notes[0], notes[3], notes[1]], history)

    assert [record.getMessage() for record in caplog.records] == [
        "test: message 1 dropped: " + notes[1].detail
    ]


def test_a_long_run_of_distinct_notes_keeps_at_most_max_keys() -> None:
    note_log = NoteLog("test", max_keys=100)
    history = [TextMessage(Role.USER, f"message {i}", "bob") for i in range(1000)]

    note_log.log([_note(i) for i in range(1000)], history)

    assert len(note_log) == 100


@pytest.mark.parametrize("max_keys", [0, -1], ids=["zero", "negative"])
def test_a_log_needs_room_for_one_note(max_keys: int) -> None:
    with pytest.raises(ValueError, match="max_keys must be at least 1"):
        NoteLog("test", max_keys=max_keys)


def test_the_note_record_keeps_no_message_alive() -> None:
    # An image's note must not pin the image's bytes for as long as the record lives.
    big = TextMessage(Role.USER, "x" * 1_000_000, "bob")
    note_log = NoteLog("test")

    note_log.log([ConversionNote(0, "dropped", "name dropped")], [big])

    (key,) = note_log._seen
    assert not any(isinstance(part, Message) for part in key)
