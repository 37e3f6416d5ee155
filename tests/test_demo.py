"""``llmbridge demo``: runs offline with exit 0; its output shows what the issue promises.

The neutral conversation, the exact JSON each provider received (parsed back from the output),
the streamed text, both tool calls answered, and the same neutral replies from both providers.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

import llmbridge.cli._demo as demo
from llmbridge import (
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCallMessageUpdate,
)
from llmbridge.cli._main import main
from llmbridge.cli._output import LivePrinter
from llmbridge.testing import ScriptedProvider

ANSWER = "In Paris it is 18°C and sunny, and the local time is 14:05."
RESULT_LINES = (
    'get_weather({"city": "Paris"}) -> {"city":"Paris","temperature_c":18,"sky":"sunny"}',
    'get_local_time({"timezone": "Europe/Paris"}) -> 14:05 in Europe/Paris',
)
HEADERS = {
    "openai": "== OpenAI Chat Completions",
    "openai-responses": "== OpenAI Responses",
    "anthropic": "== Anthropic Messages",
    "gemini": "== Google Gemini",
}


GEMINI_STREAM = (
    "https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash"
    ":streamGenerateContent?alt=sse"
)


def run_demo(capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    code = main(["demo", *flags])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def requests_in(output: str) -> list[tuple[str, dict[str, Any]]]:
    """Each printed request: its URL and its JSON body, parsed back from the output."""
    pattern = re.compile(r"^-- request \d+: POST (\S+), .*?\n(\{\n.*?\n\})$", re.M | re.S)
    return [(url, json.loads(body)) for url, body in pattern.findall(output)]


def section(output: str, provider: str) -> str:
    start = output.index(HEADERS[provider])
    end = output.index("\n== ", start + 1)
    return output[start:end]


@pytest.mark.parametrize("flags", [[], ["--no-stream"]], ids=["streaming", "--no-stream"])
def test_demo_runs_both_providers_and_they_agree(
    capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    output = run_demo(capsys, "--provider", "all", *flags)

    assert "offline: llmbridge.testing.ScriptedProvider" in output
    assert "[0] TextMessage role=system: " in output
    assert "[1] MultiModalMessage role=user: " in output
    assert "<image image/png, 96 bytes>" in output
    for provider in HEADERS:
        part = section(output, provider)
        assert "=> ToolCallAggregateMessage from=assistant (finish_reason=tool_calls" in part
        for line in RESULT_LINES:
            assert f"   {line}  [id " in part
        assert f"{ANSWER}\n=> TextMessage role=assistant from=assistant" in part
    assert "Same neutral reply types and tool results from every provider." in output
    assert output.count("replies: ToolCallAggregateMessage -> TextMessage") == len(HEADERS)
    assert "convert --to anthropic examples/conversation.json\n" in output  # a next step
    assert re.search(r'max_tokens=400 +"max_completion_tokens" +"max_tokens"', output)


def test_printed_requests_are_the_exact_json_and_answer_both_calls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    output = run_demo(capsys, "--provider", "all")

    requests = requests_in(output)
    assert [url for url, _ in requests] == [
        "https://api.openai.com/v1/chat/completions",
        "https://api.openai.com/v1/chat/completions",
        "https://api.openai.com/v1/responses",
        "https://api.openai.com/v1/responses",
        "https://api.anthropic.com/v1/messages",
        "https://api.anthropic.com/v1/messages",
        GEMINI_STREAM,
        GEMINI_STREAM,
    ]
    openai_second, anthropic_second, gemini_second = requests[1][1], requests[5][1], requests[7][1]
    openai_calls = openai_second["messages"][2]["tool_calls"]
    answered = [m["tool_call_id"] for m in openai_second["messages"][3:]]
    assert answered == [call["id"] for call in openai_calls]
    assert len(answered) == 2
    uses = [b["id"] for b in anthropic_second["messages"][1]["content"] if b["type"] == "tool_use"]
    results = [b["tool_use_id"] for b in anthropic_second["messages"][2]["content"]]
    assert results == uses
    assert len(results) == 2
    assert anthropic_second["system"][0]["text"] == demo.SYSTEM_PROMPT
    calls = [
        p["functionCall"] for p in gemini_second["contents"][1]["parts"] if "functionCall" in p
    ]
    responses = [p["functionResponse"] for p in gemini_second["contents"][2]["parts"]]
    assert [(r["id"], r["name"]) for r in responses] == [(c["id"], c["name"]) for c in calls]
    assert len(responses) == 2
    # The first call goes back with the signature the scripted reply gave it.
    assert "thoughtSignature" in gemini_second["contents"][1]["parts"][1]
    assert gemini_second["systemInstruction"]["parts"][0]["text"] == demo.SYSTEM_PROMPT
    # Gemini streams by URL (:streamGenerateContent); the others say so in the body.
    assert all(body["stream"] is True for _, body in requests[:4])


def test_streamed_deltas_are_printed_as_they_arrive(capsys: pytest.CaptureFixture[str]) -> None:
    output = run_demo(capsys, "--provider", "openai")

    assert "-- reply 1, streamed as it arrives\nThat is the flag of France." in output
    assert '[tool call] get_weather {"city": "Paris"}\n' in output
    assert '[tool call] get_local_time {"timezone": "Europe/Paris"}\n' in output


@pytest.mark.parametrize("provider", list(HEADERS))
def test_one_provider_only(capsys: pytest.CaptureFixture[str], provider: str) -> None:
    output = run_demo(capsys, "--provider", provider, "--no-stream")

    assert HEADERS[provider] in output
    assert not [other for other in HEADERS if other != provider and HEADERS[other] in output]
    assert "every provider" not in output  # nothing to compare
    assert "on each wire" not in output
    assert "streamed as it arrives" not in output


def test_live_uses_the_keys_and_models_from_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The live path with its HTTP answered offline: keys and models come from the environment.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-live-secret")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-live-secret")
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-live-secret")
    monkeypatch.setenv("LLMBRIDGE_ANTHROPIC_MODEL", "claude-from-env")
    offline = ScriptedProvider([*demo.script(), *demo.script(), *demo.script(), *demo.script()])
    real_http_client = demo._http_client
    monkeypatch.setattr(
        demo, "_http_client", lambda provider, hook, _: real_http_client(provider, hook, offline)
    )

    output = run_demo(capsys, "--live", "--openai-model", "gpt-from-flag")

    assert "(live: the real APIs answer)" in output
    models = ["gpt-from-flag"] * 2 + ["gpt-5-mini"] * 2 + ["claude-from-env"] * 2
    # Gemini names the model in the URL
    assert [body.get("model") for body in offline.bodies()] == models + [None] * 2
    assert [str(r.url) for r in offline.requests[6:]] == [GEMINI_STREAM] * 2
    sent = [call.request.headers for call in offline.router.calls]
    assert [h.get("authorization") for h in sent] == ["Bearer sk-live-secret"] * 4 + [
        "Bearer sk-ant-live-secret"
    ] * 2 + [None] * 2
    assert [h.get("x-goog-api-key") for h in sent[6:]] == ["gemini-live-secret"] * 2
    assert "secret" not in output  # keys travel in headers, never into the output


def test_a_provider_failure_is_one_error_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    overloaded = {"error": {"message": "The server is overloaded", "type": "server_error"}}
    monkeypatch.setattr(demo, "script", lambda: [httpx.Response(503, json=overloaded)])

    code = main(["demo", "--provider", "openai"])

    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert len(err) == 1
    assert err[0].startswith("error: ProviderUnavailableError: ")


# The installed commands, as a newcomer runs them: a fresh process, nothing mocked.
BIN = Path(sys.executable).parent
COMMANDS = {
    "python -m llmbridge demo": [sys.executable, "-m", "llmbridge", "demo"],
    "llmbridge demo --no-stream": [
        shutil.which("llmbridge", path=str(BIN)) or "llmbridge",
        "demo",
        "--no-stream",
    ],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=list(COMMANDS))
def test_installed_commands_run_offline_with_exit_0(command: list[str]) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}

    result = subprocess.run(
        command, capture_output=True, text=True, env=environ, check=False, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.count(f"{ANSWER}\n") == len(HEADERS)
    assert "Same neutral reply types and tool results from every provider." in result.stdout


def test_live_printer_writes_each_delta_before_the_stream_ends() -> None:
    file = io.StringIO()
    printer = LivePrinter(file)

    printer.update(TextMessageUpdate(Role.ASSISTANT, "Hel"))
    assert file.getvalue() == "Hel"  # written (and flushed) at once, not at the end
    printer.update(TextMessageUpdate(Role.ASSISTANT, "lo."))
    printer.update(ToolCallMessageUpdate("f", '{"a"', index=0, tool_call_id="c1"))
    printer.update(ToolCallMessageUpdate("g", '{"b"', index=1, tool_call_id="c2"))
    printer.update(ToolCallMessageUpdate("f", ": 1}", index=0))  # interleaved: a new line
    printer.update(ReasoningMessageUpdate("hmm"))
    printer.end_line()

    assert file.getvalue().splitlines() == [
        "Hello.",
        '[tool call] f {"a"',
        '[tool call] g {"b"',
        "[tool call] f : 1}",
        "[reasoning] hmm",
    ]


def test_live_printer_prints_unstreamed_text_once() -> None:
    streamed, sent = io.StringIO(), io.StringIO()
    reply = TextMessage(Role.ASSISTANT, "Hello.", "assistant", finish_reason="stop")
    live = LivePrinter(streamed)
    live.update(TextMessageUpdate(Role.ASSISTANT, "Hello."))

    live.complete(reply)
    LivePrinter(sent).complete(reply)

    assert streamed.getvalue().count("Hello.") == 1
    assert sent.getvalue() == (
        "Hello.\n=> TextMessage role=assistant from=assistant (finish_reason=stop)\n"
    )


def test_the_live_hint_names_each_key_once(capsys: pytest.CaptureFixture[str]) -> None:
    # Both OpenAI wings read OPENAI_API_KEY: the hint must not list it twice.
    output = run_demo(capsys, "--no-stream")

    hint = next(line for line in output.splitlines() if "the real APIs (needs" in line)
    assert hint.count("OPENAI_API_KEY") == 1
    assert "GEMINI_API_KEY" in hint
    assert "ANTHROPIC_API_KEY" in hint
