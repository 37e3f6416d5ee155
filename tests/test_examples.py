"""Every example runs offline (no key, no network) and prints what it promises."""

from __future__ import annotations

import runpy
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
}


def test_every_example_is_run_here() -> None:
    assert sorted(path.name for path in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


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
