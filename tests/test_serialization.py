"""dump_messages / load_messages: exact round trips and validated loading."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    Role,
    TextMessage,
    dump_messages,
    load_messages,
)
from tests.corpus import CORPUS
from tests.strategies import PNG, messages


@given(st.lists(messages, max_size=5))
def test_any_messages_round_trip(items: list[Message]) -> None:
    assert load_messages(dump_messages(items)) == items


@pytest.mark.parametrize("name", list(CORPUS))
def test_corpus_round_trip(name: str) -> None:
    message = CORPUS[name]
    assert load_messages(dump_messages([message])) == [message]


def test_wire_shape_uses_type_and_from() -> None:
    data = json.loads(dump_messages([TextMessage(Role.USER, "hi", "bob")]))
    assert data == [
        {
            "type": "text",
            "role": "user",
            "content": "hi",
            "reasoning": [],
            "usage": None,
            "finish_reason": None,
            "from": "bob",
        }
    ]


def test_image_bytes_travel_as_base64() -> None:
    data = json.loads(dump_messages([ImageMessage(Role.USER, data=PNG)]))
    assert data[0]["data"] == ImageMessage(Role.USER, data=PNG).base64_data
    assert data[0]["url"] is None


def test_raw_is_not_serialized() -> None:
    message = TextMessage(Role.ASSISTANT, "x", raw={"secret": "provider object"})
    assert "provider object" not in dump_messages([message])


def test_pydantic_envelope_content_dumps_as_json() -> None:
    from pydantic import BaseModel

    class Payload(BaseModel):
        role: str

    text = dump_messages([MessageEnvelope(Payload(role="user"))])
    assert load_messages(text) == [MessageEnvelope({"role": "user"})]


def test_unserializable_envelope_rejected() -> None:
    with pytest.raises(InvalidMessageError, match="JSON-serializable"):
        dump_messages([MessageEnvelope(object())])


def test_unknown_message_type_cannot_be_dumped() -> None:
    class Custom(Message):
        from_ = None

    with pytest.raises(TypeError, match="message 0"):
        dump_messages([Custom()])


@pytest.mark.parametrize(
    ("data", "index", "field"),
    [
        ("not json", None, None),
        ('{"type": "text"}', None, None),
        ('[{"type": "nope", "from": null}]', 0, None),
        ('[{"type": "text", "role": "user", "content": 5}]', 0, "content"),
        ('[{"type": "text", "role": "user", "content": "x", "evil": 1}]', 0, "evil"),
        (
            '[{"type": "text", "role": "user", "content": "ok"}, '
            '{"type": "image", "role": "user"}]',
            1,
            "url",
        ),
        ('[{"type": "image", "role": "user", "data": "@@@"}]', 0, "data"),
        ('[{"type": "multimodal", "role": "user", "content": []}]', 0, "content"),
        ("[" * 100_000 + "]" * 100_000, None, None),
        ('[{"type": "tool_call", "tool_calls": [{"function_name": 1}]}]', 0, None),
        (
            '[{"type": "text", "role": "user", "content": "' + "x" * 1_000_000 + '", "from": 5}]',
            0,
            "from",
        ),
        (
            '[{"type": "envelope", "content": {"__class__": "os.system"}, "metadata": []}]',
            0,
            "metadata",
        ),
    ],
    ids=[
        "invalid-json",
        "not-an-array",
        "unknown-type",
        "wrong-field-type",
        "unknown-field",
        "constructor-rule-broken",
        "bad-base64",
        "empty-multimodal",
        "deep-nesting",
        "wrong-nested-type",
        "huge-string-wrong-sender",
        "wrong-metadata-type",
    ],
)
def test_hostile_input_fails_cleanly(data: str, index: int | None, field: str | None) -> None:
    with pytest.raises(InvalidMessageError) as info:
        load_messages(data)
    assert info.value.index == index
    if field is not None:
        assert info.value.field is not None
        assert info.value.field.startswith(field)


def test_load_accepts_bytes() -> None:
    assert load_messages(dump_messages([TextMessage(Role.USER, "hé")]).encode()) == [
        TextMessage(Role.USER, "hé")
    ]
