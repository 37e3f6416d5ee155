"""The fast paths of to_anthropic agree with the general ones they skip.

``parse_arguments`` reads an argument text that opens with ``{`` with ``raw_decode`` (no
whitespace scans) and falls back to ``decode`` when anything follows the object: every text
parses, or fails, as ``json.loads`` would have it.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmbridge import InvalidMessageError, ToolCall
from llmbridge.anthropic._arguments import parse_arguments

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
_SPACE = st.sampled_from(["", " ", "\n", "\t ", "x", "}", ",", "{}", " 1"])
arguments = st.one_of(
    st.text(max_size=20),
    st.builds(
        lambda before, value, after: before + json.dumps(value) + after,
        _SPACE,
        st.dictionaries(st.text(max_size=5), json_values, max_size=3) | json_values,
        _SPACE,
    ),
    st.sampled_from(["{", '{"a": 1', '{"a": 1}}', '{"a": "\\ud800"}', "{}  ", '{"a":1}\n']),
)

FIELD = "tool_calls[0].function_arguments"


def _general(text: str) -> Any:
    """What the arguments became before the fast path: ``json.loads`` semantics."""
    if text == "":
        return {}
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return "error"
    return value if isinstance(value, dict) else "error"


def _fast(text: str) -> Any:
    try:
        return parse_arguments(ToolCall("f", text, tool_call_id="call_1"), 0, 0)
    except InvalidMessageError as exc:
        return f"error at {exc.field}"


@given(arguments)
def test_the_fast_argument_parse_agrees_with_json_loads(text: str) -> None:
    expected = _general(text)
    if expected != "error" and "\\u" in text:
        return  # an escaped lone surrogate is refused on purpose (test_request covers it)
    fast = _fast(text)
    assert fast == (f"error at {FIELD}" if expected == "error" else expected)
