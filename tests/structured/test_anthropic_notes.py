"""The notes of the Anthropic output format: what ``anthropic.transform_schema`` changed."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from llmbridge.anthropic._output import output_format


def obj(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), **more}


@pytest.mark.parametrize(
    ("schema", "notes"),
    [
        (obj({"a": {"type": "string", "format": "date"}}), []),
        (
            obj({"a": {"type": "string", "minLength": 2}}),
            [("repaired", "/properties/a: minLength moved into the description")],
        ),
        (
            obj({"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}),
            [("repaired", "/properties/a: oneOf became anyOf")],
        ),
        (
            obj({"m": {"type": "object", "additionalProperties": {"type": "integer"}}}),
            [("repaired", "/properties/m: an open map (additionalProperties) became a closed")],
        ),
        (
            {
                **obj({"b": {"$ref": "#/$defs/B", "description": "the b"}}),
                "$defs": {"B": obj({"c": {"type": "integer", "maximum": 3}})},
            },
            [
                ("repaired", "/$defs/B/properties/c: maximum moved into the description"),
                ("omitted", "/properties/b: description beside $ref left out"),
            ],
        ),
        (
            obj({"l": {"type": "array", "items": {"type": "string", "pattern": "^x"}}}),
            [("repaired", "/properties/l/items: pattern moved into the description")],
        ),
    ],
    ids=[
        "a schema in the dialect already gets no note",
        "a constraint moved into the description is repaired",
        "oneOf made anyOf is repaired",
        "an open map closed is repaired",
        "a description beside a $ref that the SDK leaves out is omitted",
        "array items are compared too",
    ],
)
def test_each_change_of_the_sdk_transform_is_a_note(
    schema: dict[str, Any], notes: list[tuple[str, str]]
) -> None:
    format_, got = output_format(schema)
    assert format_ == {"type": "json_schema", "schema": anthropic.transform_schema(schema)}
    assert [note.index for note in got] == [None] * len(notes)
    assert [note.kind for note in got] == [kind for kind, _ in notes]
    for note, (_, fragment) in zip(got, notes, strict=True):
        assert fragment in note.detail
