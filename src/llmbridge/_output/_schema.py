"""What ``GenerateReplyOptions.output_schema`` accepts, and its JSON schema and name."""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Mapping
from typing import Any, Final, TypeAlias

import pydantic

__all__ = ["OutputSchema", "check_output_schema", "output_json_schema", "output_schema_name"]

OutputSchema: TypeAlias = type[pydantic.BaseModel] | Mapping[str, Any]
"""A pydantic model class, or a JSON schema (a mapping) of an object."""

DEFAULT_NAME: Final = "output"
"""The schema name sent for a dict schema (OpenAI needs one; a model sends its ``__name__``)."""
# OpenAI's rule for a response format name: [A-Za-z0-9_-]{1,64}.
_NAME_LIMIT: Final = 64
_NOT_NAME: Final = re.compile(r"[^A-Za-z0-9_-]+")


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
