"""``llmbridge convert --from``: a saved history of one provider becomes another's request.

Every ``--from``/``--to`` pair of the registered wings, on a history saved by ``--to`` of the
source; malformed input per ``--from`` is one error line naming the index, exit code 2.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from llmbridge import (
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    dump_messages,
)
from llmbridge.kit import ProviderWing, load_provider
from tests.corpus import AGENT
from tests.handoff.wings import PAIRS, TAGS, WINGS
from tests.test_cli import run

LONG_ID = "call_" + "x" * 45  # over OpenAI Chat's 40 characters
DOTTED_ID = "functions.get_weather:0"  # outside Anthropic's ^[a-zA-Z0-9_-]+$

HISTORY: list[Message] = [
    TextMessage(Role.SYSTEM, "You are a travel assistant."),
    TextMessage(Role.USER, "Weather and time in Rome?", "zoe"),
    ToolCallAggregateMessage(
        ToolCallMessage(
            [
                ToolCall("get_weather", '{"city": "Rome"}', tool_call_id=LONG_ID),
                ToolCall("get_time", '{"tz": "Europe/Rome"}', tool_call_id=DOTTED_ID),
            ],
            AGENT,
            content="Checking both.",
            reasoning=[Reasoning("Two tools.", signature="sig", provider="anthropic")],
        ),
        ToolCallResultMessage(
            [
                ToolCall("get_weather", '{"city": "Rome"}', tool_call_id=LONG_ID, result="24C"),
                ToolCall("get_time", '{"tz": "Europe/Rome"}', tool_call_id=DOTTED_ID, result="1pm"),
            ]
        ),
        AGENT,
    ),
    TextMessage(Role.ASSISTANT, "24C at 1pm.", AGENT),
    TextMessage(Role.USER, "Thanks!", "zoe"),
]


def payload_of(tag: str, messages: list[Message]) -> tuple[dict[str, Any], list[str]]:
    """The payload ``convert --to tag`` writes for ``messages``, and its note lines."""
    payload, notes = load_provider(tag).request_payload(
        messages, agent_name=AGENT, strict_mode=False, name_policy="drop"
    )
    where = [f"message {n.index}" if n.index is not None else "request" for n in notes]
    return payload, [f"note: {w} {n.kind}: {n.detail}" for w, n in zip(where, notes, strict=True)]


@pytest.fixture(params=TAGS)
def saved(request: pytest.FixtureRequest, tmp_path: Any) -> tuple[str, Any]:
    """``(tag, path)`` of HISTORY as ``convert --to tag`` saved it."""
    path = tmp_path / f"{request.param}.json"
    path.write_text(json.dumps(payload_of(request.param, HISTORY)[0]), encoding="utf-8")
    return request.param, path


@pytest.mark.parametrize("target", TAGS)
def test_a_saved_history_converts_for_every_target(
    capsys: pytest.CaptureFixture[str], saved: tuple[str, Any], target: str
) -> None:
    source, path = saved
    imported = load_provider(source).import_payload(
        json.loads(path.read_text(encoding="utf-8")), agent_name=AGENT, strict_mode=True
    )

    code, out, err = run(capsys, "convert", "--from", source, "--to", target, str(path))

    assert code == 0, err
    expected, notes = payload_of(target, imported)
    assert (json.loads(out), err) == (expected, notes)
    WINGS[target].check(json.loads(out))


def test_from_reads_exactly_what_to_writes(
    capsys: pytest.CaptureFixture[str], saved: tuple[str, Any]
) -> None:
    source, path = saved

    code, out, _ = run(capsys, "convert", "--from", source, "--to", source, str(path))

    assert code == 0
    assert json.loads(out) == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_neutral_then_provider_then_provider_keeps_the_conversation(
    capsys: pytest.CaptureFixture[str], source: str, target: str
) -> None:
    _, out, _ = run(capsys, "convert", "--to", source, stdin=dump_messages(HISTORY))

    code, moved, _ = run(capsys, "convert", "--from", source, "--to", target, stdin=out)

    assert code == 0
    calls = [c.function_name for m in HISTORY for c in m.get_tool_calls() or ()]
    sent = json.loads(moved)
    WINGS[target].check(sent)
    for name in calls:  # both calls and both results arrive, whatever the ids became
        assert json.dumps(sent).count(f'"{name}"') >= 1


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_a_malformed_message_is_one_error_line_naming_its_index(
    capsys: pytest.CaptureFixture[str], source: str, target: str
) -> None:
    wing = WINGS[source]
    strict = ["--strict"] if source == target else []  # another target is always strict
    stdin = json.dumps(wing.malformed)

    code, out, err = run(capsys, "convert", "--from", source, "--to", target, *strict, stdin=stdin)

    assert (code, out) == (2, "")
    assert len(err) == 1, err
    assert re.fullmatch(rf"error: message {wing.malformed_index}, field '.+': .+", err[0]), err[0]


@pytest.mark.parametrize("source", TAGS)
def test_a_message_without_neutral_form_goes_back_to_its_own_provider_as_it_is(
    capsys: pytest.CaptureFixture[str], source: str
) -> None:
    stdin = json.dumps(WINGS[source].malformed)

    code, out, _ = run(capsys, "convert", "--from", source, "--to", source, stdin=stdin)

    assert code == 0
    assert json.loads(out) == WINGS[source].malformed


@pytest.mark.parametrize("source", TAGS)
@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        ("[]", r"error: --from {source} reads a JSON object \(what --to {source} .*\), got list"),
        ('{"{key}": [], "model": "m"}', r"error: field 'model': .*unknown key\(s\) \['model'\]"),
        ('{"{key}": {}}', r"error: field '{key}': .*{key} must be a list"),
        ("{", r"error: not valid JSON \(JSONDecodeError: .*\)"),
    ],
    ids=["not an object", "an unknown key", "the message list not a list", "not JSON"],
)
def test_a_payload_of_another_shape_is_one_error_line(
    capsys: pytest.CaptureFixture[str], source: str, stdin: str, expected: str
) -> None:
    key = WINGS[source].items_key
    stdin = stdin.replace("{key}", key)
    code, out, err = run(capsys, "convert", "--from", source, "--to", TAGS[0], stdin=stdin)

    assert (code, out) == (2, "")
    assert len(err) == 1, err
    assert re.fullmatch(expected.format(source=source, key=key), err[0]), err[0]


def test_every_registered_wing_has_an_entry() -> None:
    assert set(TAGS) <= set(WINGS), "add the wing to tests/handoff/wings.py"


@pytest.mark.parametrize("tag", TAGS)
def test_every_registered_wing_offers_every_provider_wing_function(tag: str) -> None:
    names = sorted(name for name in vars(ProviderWing) if not name.startswith("_"))
    wing = load_provider(tag)

    assert "import_payload" in names
    assert [name for name in names if not callable(getattr(wing, name, None))] == []


@pytest.mark.parametrize("command", [["convert"], ["demo"]], ids=["convert --from", "demo"])
def test_the_choices_come_from_the_registry(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    with pytest.raises(SystemExit):
        run(capsys, *command, "--help")

    out = " ".join(capsys.readouterr().out.split())
    choices = ["neutral", *TAGS] if command == ["convert"] else [*TAGS, "all"]
    assert "{" + ",".join(choices) + "}" in out
