"""``parse_output``: a structured reply's JSON text -> a validated model instance or a dict."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final, TypeVar, overload

import pydantic

from llmbridge._errors import OutputValidationError
from llmbridge._messages import Message, TextMessage
from llmbridge._output._schema import accepts_null, output_json_schema, resolve_ref

__all__ = ["parse_output"]

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

_SHOWN: Final = 200
"""How many characters of a bad reply an error message quotes (``.text`` has all of it)."""


def _quote(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def _reply_text(reply: Message | str) -> str:
    if isinstance(reply, str):
        return reply
    if isinstance(reply, TextMessage):
        if reply.finish_reason == "length":
            raise OutputValidationError(
                "the structured reply was cut off at the token limit (finish reason 'length'), "
                f"so its JSON is incomplete: {_quote(reply.content)}; raise max_tokens",
                text=reply.content,
            )
        return reply.content
    content = reply.get_content()
    raise OutputValidationError(
        f"parse_output needs a TextMessage holding the JSON reply, got {type(reply).__name__}",
        text=content if isinstance(content, str) else "",
    )


@overload
def parse_output(reply: Message | str, schema: type[ModelT]) -> ModelT: ...
@overload
def parse_output(reply: Message | str, schema: Mapping[str, Any]) -> dict[str, Any]: ...
def parse_output(
    reply: Message | str, schema: type[pydantic.BaseModel] | Mapping[str, Any]
) -> pydantic.BaseModel | dict[str, Any]:
    """Parse the JSON text of a structured ``reply`` into ``schema``.

    ``reply`` is the ``TextMessage`` a connected agent returned (or the final message of its
    stream), or the text itself. A model ``schema`` returns the validated instance; a
    property the model does not require that arrives as ``null`` although the model does not
    accept ``null`` there (OpenAI's strict mode makes such properties nullable) is treated as
    absent, so its default applies. A dict ``schema`` returns the parsed JSON object as it is
    (not validated against the schema beyond being an object).

    Raises ``OutputValidationError`` (with the reply text in ``.text``) for a reply cut off at
    the token limit (finish reason ``length``), text that is not JSON, JSON that is not an
    object, a model's validation failure, and a reply that is not a ``TextMessage``. A refusal
    never reaches here: the connector raises ``RefusalError`` for it.
    """
    text = _reply_text(reply)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise OutputValidationError(
            f"the structured reply is not valid JSON: {_quote(text)}", text=text
        ) from None
    if not isinstance(value, dict):
        raise OutputValidationError(
            f"the structured reply is JSON but not an object ({type(value).__name__}): "
            f"{_quote(text)}",
            text=text,
        )
    if isinstance(schema, Mapping):
        return value
    json_schema = output_json_schema(schema)
    cleaned = _absent_nulls(value, json_schema, json_schema.get("$defs") or {})
    try:
        return schema.model_validate(cleaned)
    except pydantic.ValidationError as exc:
        raise OutputValidationError(
            f"the structured reply does not fit {schema.__name__}: {exc}", text=text
        ) from exc


def _absent_nulls(value: Any, schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Any:
    """``value`` with the nulls of properties the schema does not require (nor lets be null)
    removed, at every depth; a new value, ``value`` is never mutated."""
    schema = resolve_ref(schema, defs)
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [_absent_nulls(item, schema["items"], defs) for item in value]
    if not isinstance(value, dict):
        return value
    branches = [
        branch
        for branch in [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
        if not accepts_null(branch, defs)
    ]
    if len(branches) == 1:  # Optional[Model]: the one branch a non-null value can take
        return _absent_nulls(value, branches[0], defs)
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return value
    required = set(schema.get("required", ()))
    cleaned: dict[str, Any] = {}
    for key, item in value.items():
        prop = properties.get(key)
        if not isinstance(prop, Mapping):
            cleaned[key] = item
        elif item is None and key not in required and not accepts_null(prop, defs):
            continue
        else:
            cleaned[key] = _absent_nulls(item, prop, defs)
    return cleaned
