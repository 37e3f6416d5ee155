"""``ToolCallAccumulator.add_arguments`` is ``add`` with arguments only, for stream fragments."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmbridge.kit import ToolCallAccumulator

starts = st.tuples(
    st.integers(0, 3), st.sampled_from([None, "", "call_1"]), st.sampled_from([None, "", "f"])
)
fragments = st.tuples(st.integers(0, 3), st.sampled_from(["", '{"a"', ": 1}", " "]))
deltas = st.lists(st.one_of(starts, fragments), max_size=12)


@given(deltas, st.sampled_from([None, "bot"]))
def test_add_arguments_agrees_with_add(stream: list[tuple[Any, ...]], from_: str | None) -> None:
    general = ToolCallAccumulator(empty_arguments="{}")
    fast = ToolCallAccumulator(empty_arguments="{}")
    for delta in stream:
        if len(delta) == 3:
            index, call_id, name = delta
            expected = general.add(index, tool_call_id=call_id, function_name=name, from_=from_)
            got = fast.add(index, tool_call_id=call_id, function_name=name, from_=from_)
        else:
            index, fragment = delta
            expected = general.add(index, arguments=fragment, from_=from_)
            got = fast.add_arguments(index, fragment, from_)
        assert got == expected
    assert fast.tool_calls() == general.tool_calls()
    assert bool(fast) == bool(general)
