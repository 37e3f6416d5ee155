"""from_anthropic_messages on malformed input: a typed error or an envelope, never a crash
(API.md 16; issue 26, defect 13).

Strict mode raises ``InvalidMessageError`` naming the message and the field; lenient mode keeps
the message as ``MessageEnvelope(message)``. A property checks it over arbitrary JSON-like
input shaped like request messages.
"""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import InvalidMessageError, MessageEnvelope, Role, TextMessage
from llmbridge.anthropic import from_anthropic_messages
from tests.corpus import AGENT

HI = {"role": "user", "content": "hi"}
USE = {"type": "tool_use", "id": "toolu_1", "name": "add", "input": {"a": 1}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "2"}


def _user(*blocks: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def _assistant(*blocks: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def _without(block: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k != key}


CALLED = _assistant(USE)
# id: (the messages after HI, the index of the bad one, the field the strict error names)
MALFORMED: dict[str, tuple[list[Any], int, str]] = {
    "a_tool_use_without_input": ([_assistant(_without(USE, "input"))], 1, "content[0].input"),
    "a_tool_use_without_name": ([_assistant(_without(USE, "name"))], 1, "content[0].name"),
    "a_tool_use_without_id": ([_assistant(_without(USE, "id"))], 1, "content[0].id"),
    "a_tool_use_whose_input_is_a_list": (
        [_assistant({**USE, "input": [1]})],
        1,
        "content[0].input",
    ),
    "a_tool_use_whose_name_is_a_number": ([_assistant({**USE, "name": 5})], 1, "content[0].name"),
    "a_tool_use_whose_id_is_an_object": ([_assistant({**USE, "id": {}})], 1, "content[0].id"),
    "a_text_block_without_text": ([_user({"type": "text"})], 1, "content[0].text"),
    "a_text_block_whose_text_is_a_number": (
        [_user({"type": "text", "text": 1})],
        1,
        "content[0].text",
    ),
    "an_image_without_source": ([_user({"type": "image"})], 1, "content[0].source"),
    "a_document_without_source": ([_user({"type": "document"})], 1, "content[0].source"),
    "an_image_whose_url_is_no_url": (
        [_user({"type": "image", "source": {"type": "url", "url": "cat.png"}})],
        1,
        "source",
    ),
    "an_image_whose_base64_is_undecodable": (
        [
            _user(
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": "@"},
                }
            )
        ],
        1,
        "source",
    ),
    "a_thinking_block_without_signature": (
        [_assistant({"type": "thinking", "thinking": "plan"}, {"type": "text", "text": "x"})],
        1,
        "content[0].signature",
    ),
    "a_redacted_thinking_block_without_data": (
        [_assistant({"type": "redacted_thinking"}, {"type": "text", "text": "x"})],
        1,
        "content[0].data",
    ),
    "a_tool_result_without_tool_use_id": (
        [CALLED, _user(_without(RESULT, "tool_use_id"))],
        2,
        "content[0].tool_use_id",
    ),
    "a_tool_result_whose_tool_use_id_is_a_list": (
        [CALLED, _user({**RESULT, "tool_use_id": ["toolu_1"]})],
        2,
        "content[0].tool_use_id",
    ),
    "a_tool_result_whose_is_error_is_text": (
        [CALLED, _user({**RESULT, "is_error": "yes"})],
        2,
        "content[0].is_error",
    ),
    "a_tool_result_text_part_without_text": (
        [CALLED, _user({**RESULT, "content": [{"type": "text"}]})],
        2,
        "content[0].content[0].text",
    ),
    "a_message_that_is_a_list": ([["user", "hi"]], 1, "role"),
}


@pytest.mark.parametrize(("messages", "index", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_message_raises_naming_its_index_and_field_when_strict(
    messages: list[Any], index: int, field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages([HI, *messages], agent_name=AGENT, strict_mode=True)
    assert (caught.value.index, caught.value.field) == (index, field)


@pytest.mark.parametrize(("messages", "index", "field"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_message_is_an_envelope_when_lenient(
    messages: list[Any], index: int, field: str
) -> None:
    imported = from_anthropic_messages([HI, *messages], agent_name=AGENT)
    assert imported[0] == TextMessage(Role.USER, "hi")
    assert imported[-1] == MessageEnvelope(messages[-1])


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("system", [5, {"type": "text", "text": "x"}, True], ids=repr)
def test_a_system_that_is_neither_text_nor_a_list_raises_in_both_modes(
    system: Any, strict_mode: bool
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages([HI], agent_name=AGENT, system=system, strict_mode=strict_mode)
    assert (caught.value.index, caught.value.field) == (None, "system")


def test_a_system_text_block_without_text_raises_when_strict_and_is_an_envelope_when_lenient() -> (
    None
):
    system = [{"type": "text"}]
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages([HI], agent_name=AGENT, system=system, strict_mode=True)
    assert (caught.value.index, caught.value.field) == (None, "system[0].text")
    imported = from_anthropic_messages([HI], agent_name=AGENT, system=system)
    assert imported == [
        MessageEnvelope({"role": "system", "content": system}),
        TextMessage(Role.USER, "hi"),
    ]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("messages", ["hi", {"role": "user"}, 5, None], ids=repr)
def test_messages_that_are_not_a_list_raise_in_both_modes(messages: Any, strict_mode: bool) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_anthropic_messages(messages, agent_name=AGENT, strict_mode=strict_mode)
    assert (caught.value.index, caught.value.field) == (None, "messages")


# -- the property ----------------------------------------------------------------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
_ids = st.one_of(st.sampled_from(["toolu_1", "toolu_2", ""]), _json)
_sources = st.one_of(
    _json,
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(st.sampled_from(["url", "base64", "text", "file"]), _json),
            "url": st.one_of(
                st.sampled_from(["https://x.test/a.png", "gs://b/a.pdf", "cat.png", ""]), _json
            ),
            "media_type": st.one_of(
                st.sampled_from(["image/png", "application/pdf", "text/plain"]), _json
            ),
            "data": st.one_of(st.sampled_from(["iVBORw0KGgo=", "JVBERi0=", "@@", ""]), _json),
        },
    ),
)
_KINDS = ["text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking"]


def _blocks(content: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        _json,
        st.fixed_dictionaries(
            {"type": st.one_of(st.sampled_from([*_KINDS, "search_result"]), _json)},
            optional={
                "text": st.one_of(st.text(max_size=6), _json),
                "source": _sources,
                "title": st.one_of(st.text(max_size=6), _json),
                "id": _ids,
                "name": st.one_of(st.sampled_from(["add", ""]), _json),
                "input": st.one_of(st.dictionaries(st.text(max_size=4), _json, max_size=2), _json),
                "tool_use_id": _ids,
                "content": content,
                "is_error": st.one_of(st.booleans(), _json),
                "thinking": st.one_of(st.text(max_size=6), _json),
                "signature": st.one_of(st.text(max_size=6), _json),
                "data": st.one_of(st.text(max_size=6), _json),
            },
        ),
    )


_inner_blocks = st.one_of(st.text(max_size=6), st.lists(_blocks(_json), max_size=3), _json)
_messages = st.one_of(
    _json,
    st.fixed_dictionaries(
        {},
        optional={
            "role": st.one_of(st.sampled_from(["user", "assistant", "system"]), _json),
            "content": st.one_of(
                st.text(max_size=6), st.lists(_blocks(_inner_blocks), max_size=4), _json
            ),
        },
    ),
)
# ``system`` is text or a list (anything else raises, in both modes: tested above).
_systems = st.one_of(st.none(), st.text(max_size=6), st.lists(_blocks(_json), max_size=2))


@settings(max_examples=300)
@given(messages=st.lists(_messages, max_size=5), system=_systems)
def test_any_json_imports_to_messages_or_an_invalid_message_error(
    messages: list[Any], system: Any
) -> None:
    before = copy.deepcopy((messages, system))
    from_anthropic_messages(messages, agent_name=AGENT, system=system)  # lenient: never raises
    with contextlib.suppress(InvalidMessageError):
        from_anthropic_messages(messages, agent_name=AGENT, system=system, strict_mode=True)
    assert (messages, system) == before, "the import mutated its input"
