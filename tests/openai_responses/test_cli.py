"""``llmbridge convert --to openai-responses``: the wing registered for the command line."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from llmbridge import (
    InvalidMessageError,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    dump_messages,
)
from llmbridge.cli import main
from llmbridge.kit import load_provider, provider_info
from tests.openai_responses.wire import check_input

SHIPPED = Path(__file__).resolve().parent.parent.parent / "examples" / "conversation.json"


def run(
    capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None
) -> tuple[int, str, list[str]]:
    if stdin is not None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stdin", io.StringIO(stdin))
            code = main(list(argv))
    else:
        code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


def test_the_wing_is_registered_with_the_openai_extra() -> None:
    info = provider_info("openai-responses")

    assert (info.title, info.extra, info.key_variable) == (
        "OpenAI Responses",
        "openai",
        "OPENAI_API_KEY",
    )
    wing = load_provider("openai-responses")
    payload, notes = wing.request_payload(
        [TextMessage(Role.USER, "Hi")], agent_name="a", strict_mode=False, name_policy="drop"
    )
    assert (payload, notes) == ({"input": [{"role": "user", "content": "Hi"}]}, ())


def test_the_shipped_example_conversation_converts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "--to", "openai-responses", str(SHIPPED))

    assert code == 0
    items = json.loads(out)["input"]
    check_input(items)
    assert list(json.loads(out)) == ["input"]
    assert err
    assert all(line.startswith("note: message ") for line in err)


@pytest.mark.parametrize(
    ("flags", "content", "notes"),
    [
        pytest.param(
            [],
            "Hi",
            ["note: message 0 dropped: sender name 'sam' cannot be sent to OpenAI Responses"],
            id="other agents' names are dropped by default",
        ),
        pytest.param(
            ["--name-policy", "prefix"],
            "[sam] Hi",
            ["note: message 0 repaired: sender name carried as a '[sam] ' prefix"],
            id="name policy prefix writes the name before the text",
        ),
    ],
)
def test_name_policy(
    capsys: pytest.CaptureFixture[str], flags: list[str], content: str, notes: list[str]
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi", "sam")])

    code, out, err = run(capsys, "convert", "--to", "openai-responses", *flags, stdin=stdin)

    assert (code, err) == (0, notes)
    assert json.loads(out) == {"input": [{"role": "user", "content": content}]}


@pytest.mark.parametrize(
    ("stdin", "flags", "error"),
    [
        pytest.param(
            dump_messages([TextMessage(Role.USER, "Hi", "sam")]),
            ["--strict"],
            "error: message 0, field 'from_': sender name 'sam' cannot be sent to OpenAI "
            "Responses (strict mode)",
            id="strict mode refuses a dropped name",
        ),
        pytest.param(
            dump_messages(
                [
                    TextMessage(Role.USER, "Hi"),
                    ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")]),
                ]
            ),
            [],
            "error: message 1, field 'tool_calls': tool call 'c' is not answered by a tool result "
            "before the next assistant turn or the end of the conversation",
            id="an unanswered call",
        ),
    ],
)
def test_invalid_input_is_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], stdin: str, flags: list[str], error: str
) -> None:
    code, out, err = run(capsys, "convert", "--to", "openai-responses", *flags, stdin=stdin)

    assert (code, out, err) == (2, "", [error])


def test_the_payload_imports_back() -> None:
    wing = load_provider("openai-responses")
    call = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
    conversation = [
        TextMessage(Role.USER, "Weather?"),
        ToolCallMessage([call], "a", content="Checking."),
        ToolCallResultMessage([replace(call, result="sun")]),
    ]
    payload, _ = wing.request_payload(
        conversation, agent_name="a", strict_mode=False, name_policy="drop"
    )

    imported = wing.import_payload(payload, agent_name="a", strict_mode=True)

    check_input(payload["input"])
    again, _ = wing.request_payload(imported, agent_name="a", strict_mode=False, name_policy="drop")
    assert again == payload
    assert [item.get("type", "message") for item in payload["input"]] == [
        "message",
        "message",
        "function_call",
        "function_call_output",
    ]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        pytest.param({"messages": []}, "messages", id="another provider's payload"),
        pytest.param({"input": {}}, "input", id="input not a list"),
        pytest.param({}, "input", id="no input"),
    ],
)
def test_a_payload_of_another_shape_is_refused(payload: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        load_provider("openai-responses").import_payload(payload, agent_name="a", strict_mode=False)
    assert raised.value.field == field


def test_an_item_without_neutral_form_is_refused_in_strict_mode_naming_its_index() -> None:
    payload = {"input": [{"role": "user", "content": "Hi"}, {"type": "item_reference", "id": "m"}]}

    with pytest.raises(InvalidMessageError) as raised:
        load_provider("openai-responses").import_payload(payload, agent_name="a", strict_mode=True)
    assert raised.value.index == 1
