"""``llmbridge demo --provider openai-responses``: offline, the ScriptedProvider's Responses API."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from llmbridge.cli._main import main
from tests.openai_responses.wire import check_request_body


def printed_bodies(output: str) -> list[dict[str, Any]]:
    pattern = re.compile(
        r"^-- request \d+: POST \S+/v1/responses, .*?\n(\{\n.*?\n\})$", re.M | re.S
    )
    return [json.loads(body) for body in pattern.findall(output)]


@pytest.mark.parametrize("flags", [[], ["--no-stream"]], ids=["streaming", "--no-stream"])
def test_the_demo_runs_the_responses_wing_offline(
    capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    code = main(["demo", "--provider", "openai-responses", *flags])
    output, errors = capsys.readouterr()

    assert (code, errors) == (0, "")
    assert "== OpenAI Responses" in output
    assert "== Anthropic" not in output
    first, second = printed_bodies(output)
    for body in (first, second):
        check_request_body(body)
    assert (first["store"], first["include"]) == (False, ["reasoning.encrypted_content"])
    replayed = second["input"][len(first["input"]) :]
    calls = [item for item in replayed if item.get("type") == "function_call"]
    outputs = [item for item in replayed if item.get("type") == "function_call_output"]
    assert [call["id"] for call in calls] == [f"fc_{call['call_id']}" for call in calls]
    assert [out["call_id"] for out in outputs] == [call["call_id"] for call in calls]
    assert len(calls) == 2
    assert "In Paris it is 18°C and sunny" in output
    assert "replies: ToolCallAggregateMessage -> TextMessage" in output
