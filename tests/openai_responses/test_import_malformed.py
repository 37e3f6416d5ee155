"""from_openai_responses_input over malformed input: typed errors only (issue 26, defect 13).

Strict mode raises ``InvalidMessageError`` naming the item's index; lenient mode never raises
and keeps what it cannot read as a ``MessageEnvelope``. The input is never mutated.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import InvalidMessageError, MessageEnvelope
from llmbridge.openai import from_openai_responses_input

AGENT = "assistant"

_KEYS = st.sampled_from(
    [
        "type", "role", "content", "id", "call_id", "name", "arguments", "output", "summary",
        "text", "status", "phase", "image_url", "file_url", "file_data", "filename", "detail",
        "encrypted_content", "annotations",
    ]
)  # fmt: skip
_WORDS = st.sampled_from(
    [
        "user", "system", "assistant", "developer", "message", "function_call",
        "function_call_output", "reasoning", "input_text", "input_image", "input_file",
        "output_text", "summary_text", "completed", "auto", "call_1", "fc_1", "rs_1", "msg_1",
        "data:image/png;base64,iVBORw0KGgo=", "https://example.com/a.png", "{}", "",
    ]
)  # fmt: skip
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=5),
    max_leaves=12,
)
_ITEMS = st.lists(st.dictionaries(_KEYS, _JSON, max_size=5) | _JSON, max_size=5)

MALFORMED: dict[str, Any] = {
    "role_is_a_list": {"role": ["user"], "content": "hi"},
    "role_is_a_dict": {"role": {"user": 1}, "content": "hi"},
    "type_is_a_list": {"type": ["message"], "role": "user", "content": "hi"},
    "call_id_is_a_dict": {"type": "function_call_output", "call_id": {"a": 1}, "output": "x"},
    "image_detail_is_a_number": {
        "role": "user",
        "content": [{"type": "input_image", "image_url": "https://example.com/a.png", "detail": 3}],
    },
}


@pytest.mark.parametrize("item", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_item_raises_naming_its_index_when_strict(item: Any) -> None:
    items = [{"role": "user", "content": "first"}, item]

    with pytest.raises(InvalidMessageError) as raised:
        from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)
    assert raised.value.index == 1


@pytest.mark.parametrize("item", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_item_is_an_envelope_when_lenient(item: Any) -> None:
    messages = from_openai_responses_input([item], agent_name=AGENT)

    assert messages == [MessageEnvelope(item)]


@settings(max_examples=300, deadline=None)
@given(items=_ITEMS)
def test_any_json_imports_or_raises_invalid_message_error(items: list[Any]) -> None:
    before = copy.deepcopy(items)

    from_openai_responses_input(items, agent_name=AGENT)
    index = _strict_error_index(items)
    assert index is None or 0 <= index < len(items)
    assert items == before


def _strict_error_index(items: list[Any]) -> int | None:
    """The index the strict import's error names (``None``: it imported, or names none)."""
    try:
        from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)
    except InvalidMessageError as error:
        return error.index
    return None
