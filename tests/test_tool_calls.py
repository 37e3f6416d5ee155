"""The neutral tool-call accumulator and the id fallback."""

from __future__ import annotations

from llmbridge import ToolCall, ToolCallMessageUpdate
from llmbridge.kit._tool_calls import ToolCallAccumulator, tool_call_id_or_fallback


def test_fallback_uses_position() -> None:
    assert tool_call_id_or_fallback(ToolCall("now", "{}"), 2) == "now_2"
    assert tool_call_id_or_fallback(ToolCall("now", "{}", tool_call_id="c"), 2) == "c"


def test_interleaved_deltas_joined_by_index() -> None:
    acc = ToolCallAccumulator()
    updates = [
        acc.add(1, tool_call_id="c2", function_name="b", arguments='{"y"'),
        acc.add(0, tool_call_id="c1", function_name="a", arguments='{"x"'),
        acc.add(1, arguments=": 2}"),
        acc.add(0, tool_call_id="c1", function_name="a", arguments=": 1}"),
    ]
    assert updates[2] == ToolCallMessageUpdate("b", ": 2}", index=1, tool_call_id="c2")
    assert updates[3] == ToolCallMessageUpdate("a", ": 1}", index=0, tool_call_id="c1")
    assert acc.tool_calls() == [
        ToolCall("a", '{"x": 1}', tool_call_id="c1"),
        ToolCall("b", '{"y": 2}', tool_call_id="c2"),
    ]


def test_empty_arguments_default() -> None:
    acc = ToolCallAccumulator(empty_arguments="{}")
    assert not acc
    acc.add(0, tool_call_id="t", function_name="now")
    assert acc
    assert acc.tool_calls() == [ToolCall("now", "{}", tool_call_id="t")]
    plain = ToolCallAccumulator()
    plain.add(0, function_name="now")
    assert plain.tool_calls() == [ToolCall("now", "")]
