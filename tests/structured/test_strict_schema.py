"""``llmbridge.kit.strict_json_schema``: the OpenAI strict-mode rules, table and property tests."""

from __future__ import annotations

import copy
import enum
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import jsonschema
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge.kit import strict_json_schema

NULL = {"type": "null"}


def obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    return schema


def closed(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "required": list(properties),
    }


RULES = [
    (
        obj({"a": {"type": "string"}}, ["a"]),
        closed({"a": {"type": "string"}}),
        [],
    ),
    (
        obj({"a": {"type": "integer"}}),
        closed({"a": {"type": ["integer", "null"]}}),
        [],
    ),
    (
        obj({"a": {"type": "string", "enum": ["x", "y"]}}),
        closed({"a": {"anyOf": [{"type": "string", "enum": ["x", "y"]}, NULL]}}),
        [],
    ),
    (
        obj({"a": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}),
        closed({"a": {"anyOf": [{"type": "integer"}, {"type": "string"}, NULL]}}),
        [],
    ),
    (
        obj({"a": {"anyOf": [{"type": "integer"}, NULL], "default": None}}),
        closed({"a": {"anyOf": [{"type": "integer"}, NULL]}}),
        [],
    ),
    (
        obj({"a": {"type": ["string", "null"]}}),
        closed({"a": {"type": ["string", "null"]}}),
        [],
    ),
    (
        obj({"a": obj({"b": {"type": "boolean"}}, ["b"])}, ["a"]),
        closed({"a": closed({"b": {"type": "boolean"}})}),
        [],
    ),
    (
        obj({"a": {"type": "array", "items": obj({"b": {"type": "number"}})}}, ["a"]),
        closed({"a": {"type": "array", "items": closed({"b": {"type": ["number", "null"]}})}}),
        [],
    ),
    (
        obj({"a": obj({})}),
        closed({"a": {"anyOf": [closed({}), NULL]}}),
        [],
    ),
    (
        {
            **obj({"a": {"$ref": "#/$defs/B"}}, ["a"]),
            "$defs": {"B": obj({"c": {"type": "string"}})},
        },
        {
            **closed({"a": {"$ref": "#/$defs/B"}}),
            "$defs": {"B": closed({"c": {"type": ["string", "null"]}})},
        },
        [],
    ),
    (
        {**obj({"a": {"$ref": "#/$defs/B"}}), "$defs": {"B": obj({}, [])}},
        {
            **closed({"a": {"anyOf": [{"$ref": "#/$defs/B"}, NULL]}}),
            "$defs": {"B": closed({})},
        },
        [],
    ),
    (
        {
            **obj({"a": {"$ref": "#/$defs/B", "description": "the b"}}, ["a"]),
            "$defs": {"B": obj({"c": {"type": "string"}}, ["c"])},
        },
        {
            **closed({"a": {**closed({"c": {"type": "string"}}), "description": "the b"}}),
            "$defs": {"B": closed({"c": {"type": "string"}})},
        },
        [],
    ),
    (
        {
            **obj({"next": {"$ref": "#/$defs/N", "description": "d"}}, ["next"]),
            "$defs": {"N": obj({"next": {"$ref": "#/$defs/N", "title": "t"}}, ["next"])},
        },
        {
            **closed(
                {
                    "next": {
                        **closed({"next": {"title": "t", "anyOf": [{"$ref": "#/$defs/N"}]}}),
                        "description": "d",
                    }
                }
            ),
            "$defs": {"N": closed({"next": {"title": "t", "anyOf": [{"$ref": "#/$defs/N"}]}})},
        },
        [],
    ),
    (
        obj({"a": {"allOf": [{"type": "string"}], "description": "d"}}, ["a"]),
        closed({"a": {"type": "string", "description": "d"}}),
        [],
    ),
    (
        obj({"a": {"type": "string", "pattern": "^x", "format": "date"}}, ["a"]),
        closed({"a": {"type": "string", "pattern": "^x", "format": "date"}}),
        [],
    ),
    (
        obj(
            {"n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 9, "multipleOf": 2}}, ["n"]
        ),
        closed({"n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 9, "multipleOf": 2}}),
        [],
    ),
    (
        obj(
            {"l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
            ["l"],
        ),
        closed({"l": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}}),
        [],
    ),
    (
        obj(
            {"s": {"type": "string", "minLength": 1, "maxLength": 5, "description": "a name"}},
            ["s"],
        ),
        closed({"s": {"type": "string", "description": "a name\n\n{minLength: 1, maxLength: 5}"}}),
        ["/properties/s: minLength, maxLength moved into the description"],
    ),
    (
        obj({"l": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}}, ["l"]),
        closed(
            {
                "l": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "{uniqueItems: true}",
                }
            }
        ),
        ["/properties/l: uniqueItems moved into the description"],
    ),
    (
        obj({"c": {"type": "string", "enum": ["r", "g"], "default": "r"}}),
        closed(
            {
                "c": {
                    "anyOf": [
                        {"type": "string", "enum": ["r", "g"], "description": '{default: "r"}'},
                        NULL,
                    ]
                }
            }
        ),
        ["/properties/c: default moved into the description"],
    ),
    (
        obj({"u": {"type": "string", "format": "uri"}}, ["u"]),
        closed({"u": {"type": "string", "description": '{format: "uri"}'}}),
        ["/properties/u: format moved into the description"],
    ),
    (
        obj({"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, ["m"]),
        closed({"m": closed({})}),
        ['/properties/m: additionalProperties {"type": "integer"} became false'],
    ),
    (
        obj({"o": {"oneOf": [{"type": "integer"}, {"type": "string"}]}}, ["o"]),
        closed({"o": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}),
        ["/properties/o: oneOf became anyOf"],
    ),
    (
        {**obj({}), "minProperties": 1, "description": "root"},
        {**closed({}), "description": "root\n\n{minProperties: 1}"},
        ["/: minProperties moved into the description"],
    ),
]


@pytest.mark.parametrize(
    ("schema", "expected", "notes"),
    RULES,
    ids=[
        "an object is closed and keeps its required property",
        "a property that was not required becomes nullable through a type list",
        "an optional enum becomes nullable through anyOf",
        "an optional union gets a null branch",
        "an already nullable optional stays as it is and loses default null",
        "a type list that has null already is left as it is",
        "nested objects are closed at every depth",
        "objects inside array items are closed",
        "an optional object becomes nullable through anyOf",
        "definitions in $defs are made strict and a bare $ref stays",
        "an optional $ref gets a null branch",
        "a $ref with sibling keywords is inlined, the siblings win",
        "a recursive $ref with siblings refers to itself instead of inlining forever",
        "a one-element allOf is inlined",
        "string pattern and a supported format are kept",
        "number bounds and multipleOf are kept",
        "minItems and maxItems are kept",
        "minLength and maxLength move into the description, a repaired note",
        "uniqueItems moves into the description",
        "a default that is not null moves into the description",
        "a format strict mode does not know moves into the description",
        "an open map is closed, a repaired note",
        "oneOf becomes anyOf, a repaired note",
        "an object constraint at the root moves into the root description",
    ],
)
def test_strict_rules(schema: dict[str, Any], expected: dict[str, Any], notes: list[str]) -> None:
    before = copy.deepcopy(schema)
    result, got = strict_json_schema(schema)
    assert result == expected
    assert [note.kind for note in got] == ["repaired"] * len(notes)
    assert [note.index for note in got] == [None] * len(notes)
    for note, fragment in zip(got, notes, strict=True):
        assert fragment in note.detail
    assert schema == before


def test_the_result_shares_no_mutable_value_with_the_input() -> None:
    schema = obj({"a": {"type": "string", "enum": ["x"], "examples": [["y"]]}}, ["a"])
    result, _ = strict_json_schema(schema)
    result["properties"]["a"]["enum"].append("z")
    assert schema["properties"]["a"]["enum"] == ["x"]


# Generated pydantic models: scalars with constraints strict mode keeps or moves, enums,
# literals, lists, optionals and nested models, with and without defaults. Open maps
# (dict[str, X]) are left out: strict mode cannot express them (a "repaired" note, above).
class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Spec(pydantic.BaseModel, arbitrary_types_allowed=True):
    annotation: Any
    values: Any  # a hypothesis strategy of JSON values the annotation accepts


SCALARS = [
    Spec(annotation=Annotated[int, pydantic.Field(ge=0, le=9)], values=st.integers(0, 9)),
    Spec(
        annotation=Annotated[str, pydantic.Field(min_length=1, max_length=4)],
        values=st.text(min_size=1, max_size=4),
    ),
    Spec(annotation=float, values=st.floats(allow_nan=False, allow_infinity=False)),
    Spec(annotation=bool, values=st.booleans()),
    Spec(annotation=Literal["a", "b"], values=st.sampled_from(["a", "b"])),
    Spec(annotation=Color, values=st.sampled_from(["red", "green"])),
    Spec(
        annotation=Annotated[list[int], pydantic.Field(max_length=3)],
        values=st.lists(st.integers(), max_size=3),
    ),
]
REQUIRED = object()


def _optional(spec: Spec) -> Spec:
    return Spec(annotation=spec.annotation | None, values=st.none() | spec.values)


def _listed(spec: Spec) -> Spec:
    return Spec(annotation=list[spec.annotation], values=st.lists(spec.values, max_size=2))


@st.composite
def _model(draw: st.DrawFn, inner: st.SearchStrategy[Spec]) -> Spec:
    specs = draw(st.lists(inner, min_size=1, max_size=4))
    fields: dict[str, Any] = {}
    required: dict[str, Any] = {}
    optional: dict[str, Any] = {}
    for position, spec in enumerate(specs):
        name = f"f{position}"
        default = draw(st.one_of(st.just(REQUIRED), spec.values))
        if default is not REQUIRED:
            # pydantic does not validate defaults: make nested models real instances.
            default = pydantic.TypeAdapter(spec.annotation).validate_python(default)
        fields[name] = (spec.annotation, ... if default is REQUIRED else default)
        (required if default is REQUIRED else optional)[name] = spec.values
    model = pydantic.create_model(f"Model{draw(st.integers(0, 10**6))}", **fields)
    # A field with a default may be left out of an instance (it is then unset).
    values = st.fixed_dictionaries(required, optional=optional)
    return Spec(annotation=model, values=values)


SPECS = st.recursive(
    st.sampled_from(SCALARS),
    lambda inner: st.one_of(inner.map(_optional), inner.map(_listed), _model(inner)),
    max_leaves=6,
)


def _objects(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _objects(item)


def _null_for_absent(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The documented null-for-optional mapping: every property an object leaves out is sent as
    ``null``, at every depth (``value`` as a model's ``model_dump(exclude_unset=True)``)."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].removeprefix("#/$defs/")]
    branches = [b for b in schema.get("anyOf", ()) if b.get("type") != "null"]
    # An optional list or object (``anyOf`` with null) is mapped through its one non-null branch.
    if value is not None and len(branches) == 1:
        return _null_for_absent(value, branches[0], defs)
    if isinstance(value, list) and "items" in schema:
        return [_null_for_absent(item, schema["items"], defs) for item in value]
    if not isinstance(value, dict) or "properties" not in schema:
        return value
    return {
        name: _null_for_absent(value[name], sub, defs) if name in value else None
        for name, sub in schema["properties"].items()
    }


@given(st.data(), _model(SPECS))
def test_generated_models_become_strict_and_their_instances_still_validate(
    data: st.DataObject, spec: Spec
) -> None:
    original = spec.annotation.model_json_schema()
    before = copy.deepcopy(original)
    strict, _ = strict_json_schema(original)
    assert original == before
    objects = list(_objects(strict))
    assert objects
    for schema in objects:
        assert schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"])
    validator = jsonschema.Draft202012Validator(strict)
    instance = spec.annotation.model_validate(data.draw(spec.values))
    validator.validate(instance.model_dump(mode="json"))
    unset_left_out = instance.model_dump(mode="json", exclude_unset=True)
    validator.validate(_null_for_absent(unset_left_out, original, original.get("$defs", {})))
