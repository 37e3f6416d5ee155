"""``GenerateReplyOptions.output_schema``: what it accepts, what it refuses, and how it merges."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import pydantic
import pytest

from llmbridge import GenerateReplyOptions, LLMBridgeError, OutputValidationError
from llmbridge.kit import output_schema_name


class City(pydantic.BaseModel):
    name: str


OBJECT_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}}


@pytest.mark.parametrize(
    "schema",
    [None, City, OBJECT_SCHEMA, {"type": "object"}],
    ids=["none", "a pydantic model class", "an object schema dict", "a bare object schema"],
)
def test_output_schema_accepts_a_model_class_or_an_object_schema(schema: Any) -> None:
    assert GenerateReplyOptions(output_schema=schema).output_schema is schema


@pytest.mark.parametrize(
    ("schema", "error", "match"),
    [
        (City(name="Paris"), TypeError, "pydantic model class or a JSON schema dict, got City"),
        (str, TypeError, "got type"),
        ('{"type": "object"}', TypeError, "got str"),
        ([OBJECT_SCHEMA], TypeError, "got list"),
        ({"type": "array", "items": {"type": "string"}}, ValueError, "got type 'array'"),
        ({"properties": {}}, ValueError, "got type None"),
        ({"type": "object", 1: "x"}, ValueError, "every key"),
    ],
    ids=[
        "a model instance is refused",
        "a class that is no model is refused",
        "a JSON string is refused",
        "a list is refused",
        "an array schema is refused: the top level is an object",
        "a schema without a type is refused",
        "a schema with a non-string key is refused",
    ],
)
def test_output_schema_refuses_anything_else_at_construction(
    schema: Any, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        GenerateReplyOptions(output_schema=schema)


def test_merge_takes_the_output_schema_of_the_other_options_when_set() -> None:
    base = GenerateReplyOptions(temperature=0.5, output_schema=OBJECT_SCHEMA)
    assert base.merge(GenerateReplyOptions(output_schema=City)).output_schema is City
    assert base.merge(GenerateReplyOptions(max_tokens=10)).output_schema is OBJECT_SCHEMA


def test_options_with_a_dict_schema_stay_hashable() -> None:
    assert hash(GenerateReplyOptions(output_schema=OBJECT_SCHEMA)) == hash(GenerateReplyOptions())


def test_output_validation_error_is_an_llmbridge_error_and_a_value_error_with_the_text() -> None:
    error = OutputValidationError("bad", text="{")
    assert isinstance(error, LLMBridgeError)
    assert isinstance(error, ValueError)
    assert error.text == "{"


T = TypeVar("T")


class Box(pydantic.BaseModel, Generic[T]):
    item: T


@pytest.mark.parametrize(
    ("schema", "name"),
    [
        (City, "City"),
        (OBJECT_SCHEMA, "output"),
        (Box[int], "Box_int_"),
        (pydantic.create_model("A" * 80, x=(int, ...)), "A" * 64),
    ],
    ids=[
        "a model sends its __name__",
        "a dict schema is named output",
        "characters OpenAI refuses in a name become underscores",
        "a name is cut to 64 characters",
    ],
)
def test_the_schema_name_follows_the_openai_name_rule(schema: Any, name: str) -> None:
    assert output_schema_name(schema) == name
