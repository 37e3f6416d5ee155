"""``apply_name_policy`` and ``check_name_policy``: the name policy every wing without a name
field applies to another agent's name, as one table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from llmbridge import ConversionNote, InvalidMessageError, Message, Role, TextMessage
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import to_gemini
from llmbridge.kit import NoteKind, NoteRecorder, apply_name_policy, check_name_policy
from llmbridge.openai import to_openai_responses

REPAIRED: NoteKind = "repaired"
DROPPED: NoteKind = "dropped"
SURROGATE = "a\ud800b"

# name, policy, strict mode -> the prefix returned and the one note, or the error's reason.
APPLIED: list[tuple[str, str, bool, tuple[str | None, NoteKind, str] | str]] = [
    ("bob", "prefix", False, ("[bob] ", REPAIRED, "sender name carried as a '[bob] ' prefix")),
    ("bob", "prefix", True, ("[bob] ", REPAIRED, "sender name carried as a '[bob] ' prefix")),
    ("bob", "drop", False, (None, DROPPED, "sender name 'bob' cannot be sent to Toy")),
    ("bob", "drop", True, "sender name 'bob' cannot be sent to Toy (strict mode)"),
    ("Zoë", "prefix", False, ("[Zoë] ", REPAIRED, "sender name carried as a '[Zoë] ' prefix")),
    ("", "prefix", False, ("[] ", REPAIRED, "sender name carried as a '[] ' prefix")),
    (SURROGATE, "prefix", False, "from_ is not valid Unicode text (lone surrogate at position 1)"),
    # Dropped, the name is never sent: nothing to check.
    (SURROGATE, "drop", False, (None, DROPPED, f"sender name {SURROGATE!r} cannot be sent to Toy")),
]


@pytest.mark.parametrize(("name", "policy", "strict", "expected"), APPLIED)
def test_apply_name_policy(
    name: str, policy: str, strict: bool, expected: tuple[str | None, NoteKind, str] | str
) -> None:
    recorder = NoteRecorder(strict)
    if isinstance(expected, str):
        with pytest.raises(InvalidMessageError) as caught:
            apply_name_policy(name, policy, recorder=recorder, index=3, target="Toy")
        assert caught.value.reason == expected
        assert (caught.value.index, caught.value.field) == (3, "from_")
        assert recorder.notes == []
        return
    prefix, kind, detail = expected
    assert apply_name_policy(name, policy, recorder=recorder, index=3, target="Toy") == prefix
    assert recorder.notes == [ConversionNote(3, kind, detail)]


@pytest.mark.parametrize(
    ("policy", "error"),
    [
        ("drop", None),
        ("prefix", None),
        ("keep", "name_policy must be 'drop' or 'prefix', got 'keep'"),
        ("Prefix", "name_policy must be 'drop' or 'prefix', got 'Prefix'"),
        ("", "name_policy must be 'drop' or 'prefix', got ''"),
    ],
)
def test_check_name_policy(policy: str, error: str | None) -> None:
    if error is None:
        check_name_policy(policy)
        return
    with pytest.raises(ValueError, match=f"^{error}$"):
        check_name_policy(policy)


Convert = Callable[..., Any]
# Each wing's converter, its title in notes, and the text its first turn sends (all parts).
WINGS: list[tuple[Convert, str, Callable[[Any], str]]] = [
    (to_anthropic, "Anthropic", lambda turn: "".join(b["text"] for b in turn["content"])),
    (to_gemini, "Gemini", lambda turn: "".join(part["text"] for part in turn["parts"])),
    (to_openai_responses, "OpenAI Responses", lambda turn: turn["content"]),
]


@pytest.mark.parametrize(("convert", "title", "sent_text"), WINGS)
@pytest.mark.parametrize("policy", ["drop", "prefix"])
def test_every_wing_applies_the_kit_policy(
    convert: Convert, title: str, sent_text: Callable[[Any], str], policy: str
) -> None:
    messages: list[Message] = [TextMessage(Role.USER, "hi", "bob")]
    request = convert(messages, agent_name="me", name_policy=policy)
    recorder = NoteRecorder()
    prefix = apply_name_policy("bob", policy, recorder=recorder, index=0, target=title)
    assert list(request.notes) == recorder.notes
    assert sent_text(request.messages[0]) == (prefix or "") + "hi"
