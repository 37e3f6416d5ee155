"""``provider_data`` on TextMessage, ToolCallMessage, ToolCall and Reasoning (API.md 13).

Construction rules (what is kept, how it is frozen, what is refused and where), read-only at
every level, equality and hash, ``dataclasses.replace``, copies and serialization.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import pickle
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import pytest

from llmbridge import (
    InvalidMessageError,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    dump_messages,
    load_messages,
)

Carrier = TextMessage | ToolCallMessage | ToolCall | Reasoning

CARRIERS: dict[str, Callable[[Any], Carrier]] = {
    "text-message": lambda data: TextMessage(Role.ASSISTANT, "hi", "bot", provider_data=data),
    "tool-call-message": lambda data: ToolCallMessage(
        [ToolCall("f", "{}")], "bot", provider_data=data
    ),
    "tool-call": lambda data: ToolCall("f", "{}", tool_call_id="c1", provider_data=data),
    "reasoning": lambda data: Reasoning("hmm", provider="gemini", provider_data=data),
}
carriers = pytest.mark.parametrize("build", CARRIERS.values(), ids=CARRIERS.keys())


class Tag(enum.StrEnum):
    PHASE = "final"


class Level(enum.IntEnum):
    HIGH = 3


@carriers
@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ({"gemini": {"s": "x", "i": 1, "f": 1.5, "t": True, "n": None}}, None),
        ({"gemini": {"parts": [1, [2, "x"]]}}, {"gemini": {"parts": (1, (2, "x"))}}),
        ({"gemini": {"parts": (1, 2)}}, {"gemini": {"parts": (1, 2)}}),
        ({"gemini": {"part": {"id": "p1", "nested": {"deep": {}}}}}, None),
        ({"gemini": {"signature": b"\x00\xffsig"}}, {"gemini": {"signature": "AP9zaWc="}}),
        ({"gemini": MappingProxyType({"k": 1})}, {"gemini": {"k": 1}}),
        (
            {"gemini": {"phase": Tag.PHASE, "level": Level.HIGH}},
            {"gemini": {"phase": "final", "level": 3}},
        ),
        ({"gemini": {}, "openai-responses": {"item_id": "rs_1"}}, None),
        ({}, {}),
    ],
    ids=[
        "scalars-kept",
        "lists-become-tuples",
        "tuples-kept",
        "nested-mappings-kept",
        "bytes-become-standard-base64",
        "any-mapping-accepted",
        "str-and-int-subclasses-become-plain",
        "several-tags",
        "empty",
    ],
)
def test_valid_values_are_frozen(
    build: Callable[[Any], Carrier], given: dict[str, Any], stored: dict[str, Any] | None
) -> None:
    expected = given if stored is None else stored
    carrier = build(given)
    assert carrier.provider_data == expected
    assert json.loads(json.dumps(_plain(carrier.provider_data))) == _plain(expected)
    if expected == {"gemini": {"phase": "final", "level": 3}}:
        assert type(carrier.provider_data["gemini"]["phase"]) is str
        assert type(carrier.provider_data["gemini"]["level"]) is int


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _cycle() -> dict[str, Any]:
    entry: dict[str, Any] = {}
    entry["self"] = entry
    return {"gemini": entry}


def _deep(levels: int) -> dict[str, Any]:
    value: Any = "bottom"
    for _ in range(levels):
        value = [value]
    return {"gemini": {"parts": value}}


@carriers
@pytest.mark.parametrize(
    ("given", "where"),
    [
        (["gemini"], "provider_data must be a mapping"),
        ("gemini", "provider_data must be a mapping"),
        (None, "provider_data must be a mapping"),
        ({"gemini": 5}, "provider_data['gemini'] must be a mapping"),
        ({"gemini": ["id"]}, "provider_data['gemini'] must be a mapping"),
        ({1: {}}, "provider_data has a key that is not a str"),
        ({"gemini": {1: "x"}}, "provider_data['gemini'] has a key that is not a str"),
        ({"gemini": {"parts": [{1, 2}]}}, "provider_data['gemini']['parts'][0] must be JSON"),
        ({"gemini": {"when": object()}}, "provider_data['gemini']['when'] must be JSON"),
        ({"gemini": {"data": bytearray(b"x")}}, "provider_data['gemini']['data'] must be JSON"),
        ({"gemini": {"x": float("nan")}}, "provider_data['gemini']['x'] must be a finite"),
        ({"gemini": {"x": [float("inf")]}}, "provider_data['gemini']['x'][0] must be a finite"),
        (_deep(250), "nests deeper than 200 levels"),
        (_cycle(), "provider_data['gemini']['self']['self']"),
    ],
    ids=[
        "a-list-is-not-a-mapping",
        "a-str-is-not-a-mapping",
        "none-is-not-a-mapping",
        "a-tag-holds-a-number",
        "a-tag-holds-a-list",
        "non-string-tag",
        "non-string-nested-key",
        "a-set-inside-a-list",
        "an-arbitrary-object",
        "bytearray-is-not-bytes",
        "nan",
        "infinity-inside-a-list",
        "nesting-deeper-than-the-json-limit",
        "a-cycle-is-too-deep",
    ],
)
def test_invalid_values_raise_naming_the_path(
    build: Callable[[Any], Carrier], given: Any, where: str
) -> None:
    with pytest.raises(InvalidMessageError) as info:
        build(given)
    assert info.value.field == "provider_data"
    assert where in str(info.value)


def test_default_is_an_empty_read_only_mapping() -> None:
    for build in (
        lambda: TextMessage(Role.USER, "x"),
        lambda: ToolCallMessage([ToolCall("f", "{}")]),
        lambda: ToolCall("f", "{}"),
        lambda: Reasoning("r"),
    ):
        data = build().provider_data
        assert data == {}
        assert not data
        with pytest.raises(TypeError):
            data["gemini"] = {}  # type: ignore[index]


def _set_tag(data: Any) -> None:
    data["new"] = {}


def _delete_tag(data: Any) -> None:
    del data["gemini"]


def _set_nested_key(data: Any) -> None:
    data["gemini"]["k"] = 1


def _set_deeper_key(data: Any) -> None:
    data["gemini"]["part"]["k"] = 1


def _assign_into_list(data: Any) -> None:
    data["gemini"]["parts"][0] = 9


def _delete_from_list(data: Any) -> None:
    del data["gemini"]["parts"][0]


def _append_to_list(data: Any) -> None:
    data["gemini"]["parts"].append(9)


def _update_mapping(data: Any) -> None:
    data["gemini"].update({"k": 1})


MUTATIONS: dict[str, tuple[Callable[[Any], None], type[Exception]]] = {
    "set-a-tag": (_set_tag, TypeError),
    "delete-a-tag": (_delete_tag, TypeError),
    "set-a-nested-key": (_set_nested_key, TypeError),
    "set-a-deeper-key": (_set_deeper_key, TypeError),
    "assign-into-a-list": (_assign_into_list, TypeError),
    "delete-from-a-list": (_delete_from_list, TypeError),
    "append-to-a-list-has-no-method": (_append_to_list, AttributeError),
    "update-a-mapping-has-no-method": (_update_mapping, AttributeError),
}


@carriers
@pytest.mark.parametrize(("mutate", "error"), MUTATIONS.values(), ids=MUTATIONS.keys())
def test_read_only_at_every_level(
    build: Callable[[Any], Carrier], mutate: Callable[[Any], None], error: type[Exception]
) -> None:
    carrier = build({"gemini": {"parts": [1, 2], "part": {"id": "p"}}})
    with pytest.raises(error):
        mutate(carrier.provider_data)
    assert carrier.provider_data == {"gemini": {"parts": (1, 2), "part": {"id": "p"}}}


@carriers
def test_the_field_and_the_mapping_internals_cannot_be_reassigned(
    build: Callable[[Any], Carrier],
) -> None:
    carrier = build({"gemini": {"k": 1}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        carrier.provider_data = {}  # type: ignore[misc]
    with pytest.raises(AttributeError):
        carrier.provider_data._data = {}  # type: ignore[attr-defined]


@carriers
def test_the_input_is_copied_not_kept(build: Callable[[Any], Carrier]) -> None:
    parts = [1]
    given = {"gemini": {"parts": parts}}
    carrier = build(given)
    parts.append(2)
    given["other"] = {}
    assert carrier.provider_data == {"gemini": {"parts": (1,)}}
    assert given == {"gemini": {"parts": [1, 2]}, "other": {}}  # the input itself untouched


@carriers
def test_equality_and_hash_include_provider_data(build: Callable[[Any], Carrier]) -> None:
    first = build({"gemini": {"id": "a", "parts": [1]}})
    same = build({"gemini": {"parts": (1,), "id": "a"}})
    assert first == same
    assert hash(first) == hash(same)
    assert first != build({"gemini": {"id": "b", "parts": [1]}})
    assert first != build({})
    assert len({first, same, build({})}) == 2


def test_equality_ignores_raw_but_not_provider_data() -> None:
    data = {"gemini": {"id": "a"}}
    assert TextMessage(Role.USER, "x", provider_data=data, raw=1) == TextMessage(
        Role.USER, "x", provider_data=data, raw=2
    )
    assert TextMessage(Role.USER, "x", provider_data=data) != TextMessage(Role.USER, "x")


def test_the_mapping_equals_any_mapping_with_the_same_items() -> None:
    data = TextMessage(Role.USER, "x", provider_data={"gemini": {"k": [1]}}).provider_data
    assert data == {"gemini": {"k": (1,)}}
    assert data == MappingProxyType({"gemini": MappingProxyType({"k": (1,)})})
    assert data != {"gemini": {"k": [1]}}  # lists are stored as tuples
    assert data != [("gemini", {"k": (1,)})]
    assert data != "gemini"


def test_repr_reads_like_the_data() -> None:
    data = Reasoning("r", provider_data={"gemini": {"parts": [1, {"id": "x"}]}}).provider_data
    assert repr(data) == "FrozenMapping({'gemini': {'parts': (1, {'id': 'x'})}})"


@carriers
def test_replace_keeps_or_freezes_provider_data(build: Callable[[Any], Carrier]) -> None:
    carrier = build({"gemini": {"id": "a"}})
    kept = dataclasses.replace(carrier)  # type: ignore[type-var]
    assert kept == carrier
    assert kept.provider_data == {"gemini": {"id": "a"}}
    changed = dataclasses.replace(carrier, provider_data={"gemini": {"parts": [b"\x01"]}})  # type: ignore[type-var]
    assert changed.provider_data == {"gemini": {"parts": ("AQ==",)}}
    with pytest.raises(TypeError):
        changed.provider_data["gemini"]["parts"][0] = "x"
    with pytest.raises(InvalidMessageError):
        dataclasses.replace(carrier, provider_data={"gemini": {"x": {1}}})  # type: ignore[type-var]


@carriers
def test_copies_and_pickles_stay_equal_and_frozen(build: Callable[[Any], Carrier]) -> None:
    carrier = build({"gemini": {"parts": [1, {"id": "x"}]}})
    for copied in (copy.copy(carrier), copy.deepcopy(carrier), pickle.loads(pickle.dumps(carrier))):
        assert copied == carrier
        assert hash(copied) == hash(carrier)
        with pytest.raises(TypeError):
            copied.provider_data["gemini"]["k"] = 1


# -- serialization ------------------------------------------------------------------------------

DATA = {"gemini": {"thought_signature": b"sig", "parts": [{"id": 1}, None]}}


def test_empty_provider_data_is_left_out_of_the_json() -> None:
    message = ToolCallMessage([ToolCall("f", "{}")], reasoning=[Reasoning("r")], content="x")
    assert "provider_data" not in dump_messages([message, TextMessage(Role.USER, "x")])


def test_provider_data_is_dumped_at_every_level_and_loads_back_equal() -> None:
    message = ToolCallMessage(
        [ToolCall("f", "{}", provider_data=DATA)],
        reasoning=[Reasoning("r", provider_data=DATA)],
        provider_data=DATA,
    )
    [data] = json.loads(dump_messages([message]))
    expected = {"gemini": {"thought_signature": "c2ln", "parts": [{"id": 1}, None]}}
    assert data["provider_data"] == expected
    assert data["tool_calls"][0]["provider_data"] == expected
    assert data["reasoning"][0]["provider_data"] == expected
    assert load_messages(dump_messages([message])) == [message]


def _text_json(provider_data: str) -> str:
    return (
        '[{"type": "text", "role": "user", "content": "x", "provider_data": ' + provider_data + "}]"
    )


def _call_json(provider_data: str) -> str:
    return (
        '[{"type": "text", "role": "user", "content": "ok"}, {"type": "tool_call", '
        '"tool_calls": [{"function_name": "f", "function_arguments": "{}", "provider_data": '
        + provider_data
        + "}]}]"
    )


@pytest.mark.parametrize(
    ("data", "index", "field", "reason"),
    [
        (_text_json("[]"), 0, "provider_data", "expected an object, got an array"),
        (_text_json('"gemini"'), 0, "provider_data", "expected an object, got a string"),
        (_text_json("null"), 0, "provider_data", "expected an object, got null"),
        (_text_json('{"gemini": 5}'), 0, "provider_data", "provider_data['gemini'] must be a"),
        (
            _text_json('{"gemini": {"x": NaN}}'),
            0,
            "provider_data",
            "provider_data['gemini']['x'] must be a finite number",
        ),
        (
            _text_json('{"gemini": {"x": ' + "[" * 300 + "]" * 300 + "}}"),
            0,
            "provider_data",
            "nests deeper than 200 levels",
        ),
        (_call_json('{"gemini": []}'), 1, "tool_calls.0.provider_data", "must be a mapping"),
    ],
    ids=[
        "an-array",
        "a-string",
        "null",
        "a-tag-holds-a-number",
        "nan-is-not-json",
        "nesting-deeper-than-the-envelope-limit",
        "inside-a-tool-call-of-the-second-message",
    ],
)
def test_hostile_provider_data_json_fails_cleanly(
    data: str, index: int, field: str, reason: str
) -> None:
    with pytest.raises(InvalidMessageError) as info:
        load_messages(data)
    assert (info.value.index, info.value.field) == (index, field)
    assert reason in str(info.value)
