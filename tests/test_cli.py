"""The command line: ``llmbridge convert`` end to end, usage errors, ``demo --live`` key checks."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from llmbridge import (
    Message,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    dump_messages,
)
from llmbridge.cli._demo import models_from
from llmbridge.cli._main import chunk_delay, command_name, main
from tests.corpus import CORPUS

# A valid request: system text, a renamed sender, an image, a tool round, a reply of our own.
CONVERSATION: list[Message] = [
    CORPUS["system_text"],
    CORPUS["text_from_unsanitary_name"],
    CORPUS["image_bytes"],
    CORPUS["aggregate_from_self"],
    CORPUS["text_from_self"],
    CORPUS["user_text"],
]


def run(
    capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None
) -> tuple[int, str, list[str]]:
    """Run ``llmbridge *argv``; return the exit code, stdout and the lines of stderr."""
    if stdin is not None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("sys.stdin", io.StringIO(stdin))
            code = main(list(argv))
    else:
        code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.splitlines()


@pytest.fixture
def conversation_file(tmp_path: Path) -> Path:
    path = tmp_path / "conversation.json"
    path.write_text(dump_messages(CONVERSATION), encoding="utf-8")
    return path


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_convert_prints_the_payload_and_notes(
    capsys: pytest.CaptureFixture[str], conversation_file: Path, provider: str, snapshot: Any
) -> None:
    code, out, err = run(capsys, "convert", "--to", provider, str(conversation_file))

    assert code == 0
    assert all(line.startswith("note: message ") for line in err)
    assert {"stdout": json.loads(out), "stderr": err} == snapshot


@pytest.mark.parametrize("source", [[], ["-"]], ids=["no FILE", "FILE is -"])
def test_convert_reads_stdin(capsys: pytest.CaptureFixture[str], source: list[str]) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi")])

    code, out, err = run(capsys, "convert", "--to", "openai", *source, stdin=stdin)

    assert (code, err) == (0, [])
    assert json.loads(out) == {"messages": [{"role": "user", "content": "Hi"}]}


def test_convert_anthropic_without_system_text_has_no_system_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi")])

    code, out, _ = run(capsys, "convert", "--to", "anthropic", stdin=stdin)

    assert code == 0
    assert json.loads(out) == {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]
    }


@pytest.mark.parametrize(
    ("agent_name", "role"), [(None, "user"), ("bot", "assistant")], ids=["default", "--agent-name"]
)
def test_agent_name_decides_what_is_self(
    capsys: pytest.CaptureFixture[str], agent_name: str | None, role: str
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi"), TextMessage(Role.ASSISTANT, "Yo", "bot")])
    flags = ["--agent-name", agent_name] if agent_name else []

    code, out, _ = run(capsys, "convert", "--to", "openai", *flags, stdin=stdin)

    assert code == 0
    assert json.loads(out)["messages"][1]["role"] == role


NAME_POLICY_CASES = [
    (
        "anthropic",
        [],
        [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
        ["note: message 0 dropped: sender name 'sam' cannot be sent to Anthropic"],
    ),
    (
        "anthropic",
        ["--name-policy", "prefix"],
        [
            {
                "role": "user",
                "content": [{"type": "text", "text": "[sam] "}, {"type": "text", "text": "Hi"}],
            }
        ],
        ["note: message 0 repaired: sender name carried as a '[sam] ' prefix"],
    ),
    (
        "openai",
        ["--name-policy", "prefix"],
        [{"role": "user", "content": "Hi", "name": "sam"}],
        [],
    ),
]


@pytest.mark.parametrize(
    ("provider", "flags", "messages", "notes"),
    NAME_POLICY_CASES,
    ids=[
        "Anthropic drops other agents' names by default",
        "Anthropic --name-policy prefix writes the name before the text",
        "OpenAI carries the name in its field and ignores the policy",
    ],
)
def test_name_policy_decides_how_anthropic_carries_other_agents_names(
    capsys: pytest.CaptureFixture[str],
    provider: str,
    flags: list[str],
    messages: list[dict[str, Any]],
    notes: list[str],
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi", "sam")])

    code, out, err = run(capsys, "convert", "--to", provider, *flags, stdin=stdin)

    assert (code, err) == (0, notes)
    assert json.loads(out)["messages"] == messages


# Each row: the input, the flags, the one error line expected (a regex).
INVALID = {
    "invalid JSON": ("[{", [], r"error: not valid JSON \(JSONDecodeError: .*\)"),
    "not an array": ('{"type": "text"}', [], r"error: expected a JSON array of messages, got dict"),
    "invalid message: missing field": (
        '[{"type": "text", "role": "user", "content": "ok"}, {"type": "text", "role": "user"}]',
        [],
        r"error: message 1, field 'content': invalid message: Field required",
    ),
    "invalid message: unknown type": (
        '[{"type": "sound", "role": "user"}]',
        [],
        r"error: message 0: invalid message: Input tag 'sound' .*",
    ),
    "rule broken in both modes: tool call from another agent": (
        dump_messages([TextMessage(Role.USER, "Hi"), ToolCallMessage([ToolCall("f", "{}")], "x")]),
        [],
        r"error: message 1, field 'from_': .*another agent \('x'\).*",
    ),
    "unanswered tool call": (
        dump_messages(
            [TextMessage(Role.USER, "Hi"), ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")])]
        ),
        [],
        r"error: message 1, field 'tool_calls': tool call 'c' is not answered .*",
    ),
    "no message left": ("[]", [], r"error: .*no (user or assistant )?message (is )?left to send.*"),
    "strict: a name would be renamed": (
        dump_messages([TextMessage(Role.USER, "Hi", "Dr. Who?")]),
        ["--strict"],
        r"error: message 0, field 'from_': .*\(strict mode\)",
    ),
    "strict: an update cannot be sent": (
        dump_messages([TextMessage(Role.USER, "Hi"), TextMessageUpdate(Role.USER, "x")]),
        ["--strict"],
        r"error: message 1: .*\(strict mode\)",
    ),
}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize(("stdin", "flags", "expected"), INVALID.values(), ids=list(INVALID))
def test_invalid_input_is_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], provider: str, stdin: str, flags: list[str], expected: str
) -> None:
    code, out, err = run(capsys, "convert", "--to", provider, *flags, stdin=stdin)

    assert code == 2
    assert out == ""
    assert len(err) == 1, err
    assert re.fullmatch(expected, err[0]), err[0]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_lossy_conversion_is_a_note_when_lenient(
    capsys: pytest.CaptureFixture[str], provider: str
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi", "Dr. Who?")])

    code, out, err = run(capsys, "convert", "--to", provider, stdin=stdin)

    assert code == 0
    assert json.loads(out)["messages"][0]["role"] == "user"
    assert len(err) == 1
    assert err[0].startswith("note: message 0 ")
    assert ("renamed" if provider == "openai" else "dropped") in err[0]


def test_unreadable_file_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "missing.json"

    code, out, err = run(capsys, "convert", "--to", "openai", str(missing))

    assert (code, out) == (2, "")
    assert err == [f"error: cannot read {missing}: No such file or directory"]


def test_file_that_is_not_utf8_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('[{"type": "text", "role": "user", "content": "é"}]'.encode("latin-1"))

    code, _, err = run(capsys, "convert", "--to", "openai", str(path))

    assert code == 2
    assert err == [f"error: {path} is not UTF-8 text (invalid continuation byte)"]


def test_no_command_prints_usage_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)

    assert (code, out) == (2, "")
    assert err[0].startswith("usage: llmbridge")


@pytest.mark.parametrize(
    "argv",
    [["convert"], ["convert", "--to", "mistral"], ["demo", "--provider", "mistral"]],
    ids=["convert without --to", "unknown target", "unknown provider"],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)

    assert caught.value.code == 2
    assert "usage: llmbridge" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("provider", "present", "missing"),
    [
        ("openai", {}, "OPENAI_API_KEY, which is"),
        ("anthropic", {"OPENAI_API_KEY": "sk-x"}, "ANTHROPIC_API_KEY, which is"),
        ("gemini", {"OPENAI_API_KEY": "sk-x"}, "GEMINI_API_KEY, which is"),
        ("all", {}, "OPENAI_API_KEY and ANTHROPIC_API_KEY and GEMINI_API_KEY, which are"),
        (
            "all",
            {"ANTHROPIC_API_KEY": "sk-ant-x", "GEMINI_API_KEY": "g-x"},
            "OPENAI_API_KEY, which is",
        ),
    ],
    ids=["openai key", "anthropic key", "gemini key", "every key", "one of three keys"],
)
def test_live_names_each_missing_key_and_exits_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
    present: dict[str, str],
    missing: str,
) -> None:
    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in present.items():
        monkeypatch.setenv(variable, value)

    code, out, err = run(capsys, "demo", "--live", "--provider", provider)

    assert (code, out) == (2, "")
    assert err == [
        f"error: --live needs {missing} not set; export it, or leave out --live to run offline"
    ]


@pytest.mark.parametrize(
    ("flag", "variable", "expected"),
    [
        (None, None, "gpt-4o-mini"),
        (None, "gpt-from-env", "gpt-from-env"),
        ("gpt-from-flag", "gpt-from-env", "gpt-from-flag"),
    ],
    ids=["default", "environment variable", "flag wins over the variable"],
)
def test_model_is_the_flag_else_the_variable_else_the_default(
    flag: str | None, variable: str | None, expected: str
) -> None:
    environ = {"LLMBRIDGE_OPENAI_MODEL": variable} if variable else {}

    models = models_from({"openai": flag, "anthropic": None, "gemini": None}, environ)

    assert models == {
        "openai": expected,
        "anthropic": "claude-haiku-4-5",
        "gemini": "gemini-2.5-flash",
    }


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "live", "paced"),
    [(True, False, True), (False, False, False), (True, True, False)],
    ids=["offline at a terminal: paced", "piped: not paced", "live: never paced"],
)
def test_offline_streams_are_paced_only_at_a_terminal(tty: bool, live: bool, paced: bool) -> None:
    assert (chunk_delay(FakeTerminal(tty), live) > 0) is paced


BLOCK = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == {module!r}:
            raise ImportError(f"blocked {{name}}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
from llmbridge.cli._main import main
raise SystemExit(main({argv!r}))
"""


@pytest.mark.parametrize(
    ("module", "argv", "extra"),
    [
        ("openai", ["convert", "--to", "openai"], "openai"),
        ("anthropic", ["demo", "--provider", "anthropic"], "anthropic"),
        ("respx", ["demo", "--provider", "openai"], "testing"),
    ],
    ids=["convert without the SDK", "demo without the SDK", "offline demo without respx"],
)
def test_a_missing_extra_is_named_in_one_error_line(
    module: str, argv: list[str], extra: str
) -> None:
    code = BLOCK.format(module=module, argv=argv)

    result = subprocess.run(
        [sys.executable, "-c", code], input="[]", capture_output=True, text=True, check=False
    )

    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: {module} is not installed: pip install 'llmbridge[{extra}]'"
    ]


@pytest.mark.parametrize(
    ("argv0", "expected"),
    [
        (".venv/bin/llmbridge", ".venv/bin/llmbridge"),
        ("/usr/local/bin/llmbridge", "/usr/local/bin/llmbridge"),
        ("/src/llmbridge/__main__.py", "python -m llmbridge"),
    ],
    ids=["the installed script, as typed", "on PATH", "python -m"],
)
def test_hints_repeat_the_command_as_the_user_ran_it(argv0: str, expected: str) -> None:
    assert command_name(argv0) == expected


SHIPPED = Path(__file__).resolve().parent.parent / "examples" / "conversation.json"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_shipped_example_conversation_converts(
    capsys: pytest.CaptureFixture[str], provider: str
) -> None:
    code, out, err = run(capsys, "convert", "--to", provider, str(SHIPPED))

    assert code == 0
    messages = json.loads(out)["messages"]
    assert any(line.startswith("note: message 1 ") for line in err)  # 'Zoë' cannot go as is
    if provider == "anthropic":
        roles = [m["role"] for m in messages]
        assert roles == ["user", "assistant", "user", "assistant", "user"]


@pytest.mark.parametrize(
    "command", [[], ["demo"], ["convert"]], ids=["llmbridge", "demo", "convert"]
)
def test_every_help_shows_an_example_that_runs_offline(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])

    out = capsys.readouterr().out
    examples = out.split("example:\n", 1)[1].strip().splitlines()
    assert examples
    root = Path(__file__).resolve().parent.parent
    for example in examples:
        program, *arguments = example.split()
        assert program == "llmbridge"
        files = [str(root / a) if a.endswith(".json") else a for a in arguments]
        assert main(files) == 0, example
        capsys.readouterr()
