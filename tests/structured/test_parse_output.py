"""``parse_output``: a structured reply -> a validated model or a dict, or a typed error."""

from __future__ import annotations

from typing import Any, Literal

import pydantic
import pytest

from llmbridge import (
    OutputValidationError,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    parse_output,
)


class Street(pydantic.BaseModel):
    name: str
    number: int | None = None


class Address(pydantic.BaseModel):
    city: str
    country: Literal["FR", "DE"] = "FR"
    streets: list[Street] = []
    main: Street | None = None


SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def reply(text: str, finish_reason: str | None = "stop") -> TextMessage:
    return TextMessage(Role.ASSISTANT, text, "assistant", finish_reason=finish_reason)


@pytest.mark.parametrize(
    ("given", "schema", "expected"),
    [
        (reply('{"city": "Paris"}'), Address, Address(city="Paris")),
        (reply('{"city": "Paris"}'), SCHEMA, {"city": "Paris"}),
        ('{"city": "Paris", "extra": 1}', SCHEMA, {"city": "Paris", "extra": 1}),
        (
            reply('{"city": "Paris", "country": null, "streets": null, "main": null}'),
            Address,
            Address(city="Paris"),
        ),
        (
            reply('{"city": "Oslo", "country": "DE", "streets": [{"name": "A", "number": null}]}'),
            Address,
            Address(city="Oslo", country="DE", streets=[Street(name="A")]),
        ),
        (
            reply('{"city": "Oslo", "main": {"name": "B", "number": 4}}'),
            Address,
            Address(city="Oslo", main=Street(name="B", number=4)),
        ),
        (reply('{"city": "Rome"}', finish_reason=None), Address, Address(city="Rome")),
    ],
    ids=[
        "valid JSON becomes the validated model instance",
        "a dict schema returns the parsed object",
        "a plain string is parsed too, and a dict schema does not validate",
        "null for an optional property that takes no null means absent: the default applies",
        "the null-for-optional mapping applies inside list items",
        "an optional nested model is validated with its own fields",
        "a final streamed message without a finish reason parses the same way",
    ],
)
def test_a_valid_reply_parses(given: Any, schema: Any, expected: Any) -> None:
    assert parse_output(given, schema) == expected


@pytest.mark.parametrize(
    ("given", "schema", "match"),
    [
        (reply('{"city": '), Address, "not valid JSON"),
        (reply("Sure! Here is the JSON"), SCHEMA, "not valid JSON"),
        (reply('{"city": "Par', finish_reason="length"), Address, "cut off at the token limit"),
        (reply('{"city": "Paris"}', finish_reason="length"), SCHEMA, "finish reason 'length'"),
        (reply('["Paris"]'), Address, "JSON but not an object \\(list\\)"),
        (reply('"Paris"'), SCHEMA, "JSON but not an object \\(str\\)"),
        (reply('{"country": "FR"}'), Address, "does not fit Address"),
        (reply('{"city": "Paris", "country": "US"}'), Address, "does not fit Address"),
        (reply("[" * 100_000), SCHEMA, "not valid JSON"),
    ],
    ids=[
        "invalid JSON",
        "prose instead of JSON",
        "truncated JSON (finish reason length)",
        "a reply cut at the limit is refused even when its JSON happens to close",
        "wrong top-level type: a list",
        "wrong top-level type: a string",
        "a required property is missing",
        "an enum value outside the model's choices",
        "JSON nested too deeply to parse",
    ],
)
def test_a_bad_reply_raises_output_validation_error_with_the_text(
    given: TextMessage, schema: Any, match: str
) -> None:
    with pytest.raises(OutputValidationError, match=match) as caught:
        parse_output(given, schema)
    assert caught.value.text == given.content


def test_a_validation_failure_keeps_the_pydantic_error_as_cause() -> None:
    with pytest.raises(OutputValidationError) as caught:
        parse_output(reply("{}"), Address)
    assert isinstance(caught.value.__cause__, pydantic.ValidationError)


def test_a_tool_call_reply_is_not_structured_output() -> None:
    calls = ToolCallMessage([ToolCall("lookup", "{}", tool_call_id="c1")], "assistant")
    with pytest.raises(OutputValidationError, match="needs a TextMessage") as caught:
        parse_output(calls, Address)
    assert caught.value.text == ""


def test_parse_output_does_not_mutate_the_dict_schema() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    before = repr(schema)
    parse_output(reply('{"a": null}'), schema)
    assert repr(schema) == before
