"""Every example runs offline (no key, no network) and prints what it promises."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import openai
import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Each example, and a line its offline run must print.
EXPECTED = {
    "quickstart.py": "TextMessage from assistant: Paris is the capital of France.",
    "swap_providers.py": "== anthropic\nToolCallAggregateMessage: 43.20 USD\n"
    "TextMessage: 40 euros are about 43.20 US dollars.",
    "function_calling.py": 'check_stock({"name": "plums"}) -> error: Invalid arguments',
    "streaming.py": "updates, then one TextMessage from poet",
    "multimodal.py": '"media_type": "image/png"',
    "custom_middleware.py": "inside:  assistant sends OpenAI roles ['system', 'user', 'user', "
    "'user', 'user']",
    "core_demo.py": "load_messages(dump_messages(history)) == history",
    "tracing.py": '"name": "chat gpt-4o-mini"',
    # Holds whichever wings follow Anthropic: OpenAI's reasoning reaches Anthropic as a note.
    "handoff.py": "note: AnthropicMessageConnector: message 2 omitted: reasoning not sent to "
    "Anthropic ('openai')",
    "documents.py": "AnthropicChatAgent: Q3 revenue up 12%.",
    "tool_images.py": '"text": "[result of call_chart]"',
    "structured_output.py": "== openai-responses: Rhine by train, 5 nights\n   Basel: 2",
}


# A user's test file, run by pytest in a project of its own (test_example_test_file_passes).
PYTEST_EXAMPLES = ("test_my_agent.py",)


def test_every_example_is_run_here() -> None:
    names = sorted(path.name for path in EXAMPLES.glob("*.py"))
    assert names == sorted([*EXPECTED, *PYTEST_EXAMPLES])


@pytest.mark.parametrize(("name", "expected"), EXPECTED.items(), ids=list(EXPECTED))
def test_example_runs_offline(
    name: str,
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No key anywhere: offline must not need one (a live client would fail to build).
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr("sys.argv", [str(EXAMPLES / name)])

    runpy.run_path(str(EXAMPLES / name), run_name="__main__")

    out, err = capsys.readouterr()
    assert expected in out
    assert err == ""


def test_live_flag_switches_to_the_real_client(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With --live and no key, the real SDK client refuses to start: proof it is the one used.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setattr("sys.argv", [str(EXAMPLES / "quickstart.py"), "--live"])

    with pytest.raises(openai.OpenAIError, match="OPENAI_API_KEY"):
        runpy.run_path(str(EXAMPLES / "quickstart.py"), run_name="__main__")


# Documented snippets: each section's example runs as written and prints what it promises. The
# quickstart is on the README; the other sections moved from the README to the documentation site.
ROOT = EXAMPLES.parent
RUNNABLE_SECTIONS = {
    "Neutral messages": ("docs/messages.md", "# Neutral messages", "image/png 70 bytes"),
    "The middleware chain": (
        "docs/middleware.md",
        "# Middleware and agents",
        "echo gets 1 message(s)",
    ),
    "Quickstart": ("README.md", "## Quickstart", "18C and sunny in Paris -> 18C."),
    "Strict and lenient": (
        "docs/messages.md",
        "## Conversion notes, strict and lenient",
        "(strict mode)",
    ),
    "Swapping providers": (
        "docs/middleware.md",
        "## Swapping providers",
        "Hello through the gateway.",
    ),
    "Gemini": ("docs/gemini.md", "# Gemini", "the signature went back: True"),
    "Tracing with OpenTelemetry": (
        "docs/tracing.md",
        "# Tracing with OpenTelemetry",
        "chat gpt-4o-mini: {'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai'",
    ),
    "OpenAI-compatible servers": (
        "docs/openai.md",
        "## OpenAI-compatible servers",
        "Hello from a local model.",
    ),
    "Timeouts and retries": (
        "docs/errors.md",
        "## Timeouts and retries",
        "True OpenAI API error (timeout): Request timed out.",
    ),
    "Write your own provider": (
        "docs/writing-a-provider.md",
        "# Writing a provider",
        "You said: hi",
    ),
    "Structured output": (
        "docs/structured-output.md",
        "# Structured output",
        "name='Lyon' population=None\n['name', 'population']",
    ),
}


def python_blocks(page: str, heading: str) -> list[str]:
    """The ```python blocks of ``page`` between the line ``heading`` and the next heading.

    Lines inside code fences are never headings (a Python comment starts with ``#`` too).
    """
    body: list[str] | None = None
    fenced = False
    for line in (ROOT / page).read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            if body is not None:
                break
            if line.rstrip("\n") == heading:
                body = []
                continue
        if body is not None:
            body.append(line)
    assert body is not None, f"{page} has no heading {heading!r}"
    return re.findall(r"```python\n(.*?)```", "".join(body), re.S)


@pytest.mark.parametrize(
    ("page", "heading", "expected"), RUNNABLE_SECTIONS.values(), ids=list(RUNNABLE_SECTIONS)
)
def test_documented_snippet_runs(
    page: str, heading: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (code,) = python_blocks(page, heading)

    exec(compile(code, f"{page}: {heading}", "exec"), {"__name__": "readme"})

    assert expected in capsys.readouterr().out


def run_users_tests(project: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """pytest run in ``project``, a user's project with no conftest: the plugin comes installed."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *flags],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )


def snapshot_text(project: Path, test: str) -> str:
    return (project / "__snapshots__" / "test_my_agent" / f"{test}.json").read_text("utf-8")


def test_example_test_file_passes_after_writing_its_snapshots(tmp_path: Path) -> None:
    (tmp_path / "test_my_agent.py").write_text(
        (EXAMPLES / "test_my_agent.py").read_text(encoding="utf-8"), encoding="utf-8"
    )

    written, verified = run_users_tests(tmp_path, "--snapshot-update"), run_users_tests(tmp_path)

    assert written.returncode == 0, written.stdout
    assert "4 passed" in written.stdout
    assert "2 snapshots generated" in written.stdout
    assert verified.returncode == 0, verified.stdout
    assert "2 snapshots passed" in verified.stdout
    pinned = snapshot_text(tmp_path, "test_conversions_are_pinned")
    assert '"tool_use_id": "call_1"' in pinned  # Anthropic's section
    assert "\"1 renamed: name 'Zoë'" in pinned  # OpenAI's note beside its payload


def test_the_documented_snapshot_recipe_works_in_a_users_project(tmp_path: Path) -> None:
    (code,) = python_blocks("docs/testing.md", "# Testing your code")
    (tmp_path / "test_my_agent.py").write_text(code, encoding="utf-8")

    written, verified = run_users_tests(tmp_path, "--snapshot-update"), run_users_tests(tmp_path)

    assert written.returncode == 0, written.stdout
    assert "1 snapshot generated" in written.stdout
    assert verified.returncode == 0, verified.stdout
    assert "1 snapshot passed" in verified.stdout
    pinned = snapshot_text(tmp_path, "test_conversions")
    assert '"name": "Zo__c6a12698"' in pinned
    assert "\"1 dropped: sender name 'Zoë' cannot be sent to Anthropic\"" in pinned
