"""What ``GenerateReplyOptions.output_schema`` accepts, and its JSON schema and name."""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Mapping
from typing import Any, Final, TypeAlias

import pydantic

__all__ = [
    "DEFS_PREFIX",
    "OutputSchema",
    "accepts_null",
    "check_output_schema",
    "output_json_schema",
    "output_schema_name",
    "resolve_ref",
]

OutputSchema: TypeAlias = type[pydantic.BaseModel] | Mapping[str, Any]
"""A pydantic model class, or a JSON schema (a mapping) of an object."""

DEFAULT_NAME: Final = "output"
"""The schema name sent for a dict schema (OpenAI needs one; a model sends its ``__name__``)."""
# OpenAI's rule for a response format name: [A-Za-z0-9_-]{1,64}.
_NAME_LIMIT: Final = 64
_NOT_NAME: Final = re.compile(r"[^A-Za-z0-9_-]+")
DEFS_PREFIX: Final = "#/$defs/"
"""How a local reference into the schema's ``$defs`` begins."""


def _is_model(value: object) -> bool:
    return inspect.isclass(value) and issubclass(value, pydantic.BaseModel)


def check_output_schema(value: object) -> None:
    """Raise unless ``value`` is a valid ``output_schema`` (``None`` is: no structured output).

    Raises ``TypeError`` for anything but a pydantic model class or a mapping, and
    ``ValueError`` for a mapping that is not an object schema (its ``type`` must be
    ``"object"``) or whose keys are not all strings.
    """
    if value is None or _is_model(value):
        return
    if not isinstance(value, Mapping):
        raise TypeError(
            "output_schema must be a pydantic model class or a JSON schema dict, got "
            f"{type(value).__name__}"
        )
    if not all(isinstance(key, str) for key in value):
        raise ValueError("output_schema: every key of a JSON schema must be a str")
    if value.get("type") != "object":
        raise ValueError(
            'output_schema must be an object schema ({"type": "object", ...}), got type '
            f"{value.get('type')!r}; wrap other values in a property of an object"
        )


def output_json_schema(schema: OutputSchema) -> dict[str, Any]:
    """The JSON schema of ``schema``: a model's ``model_json_schema()`` or a copy of the dict.

    The result is a fresh deep copy the caller may change; ``schema`` is never mutated.
    """
    if isinstance(schema, Mapping):
        return copy.deepcopy(dict(schema))
    return schema.model_json_schema()


def output_schema_name(schema: OutputSchema) -> str:
    """The name a provider gets for ``schema``: a model's ``__name__``, else ``"output"``.

    Characters outside ``[A-Za-z0-9_-]`` become ``_`` and the name is cut to 64 characters
    (OpenAI's rule for the name of a response format).
    """
    if isinstance(schema, Mapping):
        return DEFAULT_NAME
    name = _NOT_NAME.sub("_", schema.__name__)[:_NAME_LIMIT]
    return name or DEFAULT_NAME


def resolve_ref(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    """The definition ``schema``'s ``$ref`` names in ``defs``, else ``schema`` itself."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(DEFS_PREFIX):
        target = defs.get(ref.removeprefix(DEFS_PREFIX))
        if isinstance(target, Mapping):
            return target
    return schema


def accepts_null(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> bool:
    """Whether ``schema`` (its ``$ref`` looked up in ``defs``) lets a value be ``null``.

    True for type ``"null"`` or a type list with it, a ``const`` or ``enum`` holding ``None``,
    a union (``anyOf`` / ``oneOf``) with a branch that does, and a schema with no type (any
    value).
    """
    schema = resolve_ref(schema, defs)
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    if "const" in schema:
        return schema["const"] is None
    if isinstance(schema.get("enum"), list):
        return None in schema["enum"]
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
    if branches:
        return any(isinstance(b, Mapping) and accepts_null(b, defs) for b in branches)
    return kind is None and not {"allOf", "$ref", "properties"} & schema.keys()
