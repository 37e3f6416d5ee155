"""``output_schema`` -> a strict JSON-schema format: Chat Completions ``response_format``, and
the flat ``text.format`` of the Responses API."""

from __future__ import annotations

from typing import Any

from openai.types.responses import ResponseFormatTextJSONSchemaConfigParam
from openai.types.shared_params import ResponseFormatJSONSchema

from llmbridge import ConversionNote
from llmbridge.kit import OutputSchema, output_json_schema, output_schema_name, strict_json_schema

__all__ = ["response_format", "text_format"]


def _strict(output_schema: OutputSchema) -> tuple[str, dict[str, Any], tuple[ConversionNote, ...]]:
    """The name, the strict schema and the transform's notes, for both OpenAI APIs."""
    schema, notes = strict_json_schema(output_json_schema(output_schema))
    return output_schema_name(output_schema), schema, notes


def response_format(
    output_schema: OutputSchema,
) -> tuple[ResponseFormatJSONSchema, tuple[ConversionNote, ...]]:
    """The Chat Completions ``response_format`` for ``output_schema``, and the notes.

    ``{"type": "json_schema", "json_schema": {"name", "schema", "strict": true}}``: the name is
    the model's ``__name__`` (else ``"output"``), the schema made strict-compatible by
    ``llmbridge.kit.strict_json_schema`` (its ``"repaired"`` notes returned).
    """
    name, schema, notes = _strict(output_schema)
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": True},
    }, notes


def text_format(
    output_schema: OutputSchema,
) -> tuple[ResponseFormatTextJSONSchemaConfigParam, tuple[ConversionNote, ...]]:
    """The Responses ``text["format"]`` for ``output_schema``, and the notes.

    The same name, strict schema and flag as ``response_format``, flat:
    ``{"type": "json_schema", "name", "schema", "strict": true}``.
    """
    name, schema, notes = _strict(output_schema)
    return {"type": "json_schema", "name": name, "schema": schema, "strict": True}, notes
