"""``kit.own_hosted_tools``: a wing replays its own hosted tool calls; others' get one note."""

from __future__ import annotations

import pytest

from llmbridge import HostedToolCall, Role, TextMessage
from llmbridge.kit import NoteRecorder, own_hosted_tools

SEARCH = HostedToolCall("web_search", "{}", id="srvtoolu_1", provider="anthropic")
CODE = HostedToolCall("code_execution", "{}", id="c1", provider="gemini")
FETCH = HostedToolCall("web_fetch", "{}", id="srvtoolu_2", provider="anthropic")


@pytest.mark.parametrize("strict_mode", [False, True])
def test_own_calls_are_kept_in_order_and_the_others_noted_once(strict_mode: bool) -> None:
    recorder = NoteRecorder(strict_mode)
    message = TextMessage(Role.ASSISTANT, "Found it.", hosted_tools=[SEARCH, CODE, FETCH])
    own = own_hosted_tools(
        message, 3, provider="anthropic", provider_title="Anthropic", recorder=recorder
    )
    assert own == (SEARCH, FETCH)
    assert [(note.index, note.kind) for note in recorder.notes] == [(3, "omitted")]
    assert "gemini (code_execution)" in recorder.notes[0].detail


def test_a_message_without_foreign_calls_gets_no_note() -> None:
    recorder = NoteRecorder(False)
    for hosted in ([], [SEARCH]):
        message = TextMessage(Role.ASSISTANT, "x", hosted_tools=hosted)
        own_hosted_tools(
            message, 0, provider="anthropic", provider_title="Anthropic", recorder=recorder
        )
    assert recorder.notes == []
