"""``output_schema`` -> the Chat Completions ``response_format`` (strict JSON schema)."""

from __future__ import annotations

from openai.types.shared_params import ResponseFormatJSONSchema

from llmbridge import ConversionNote
from llmbridge.kit import OutputSchema, output_json_schema, output_schema_name, strict_json_schema

__all__ = ["response_format"]


def response_format(
    output_schema: OutputSchema,
) -> tuple[ResponseFormatJSONSchema, tuple[ConversionNote, ...]]:
    """The ``response_format`` argument for ``output_schema``, and the transform's notes.

    ``{"type": "json_schema", "json_schema": {"name", "schema", "strict": true}}``: the name is
    the model's ``__name__`` (else ``"output"``), the schema made strict-compatible by
    ``llmbridge.kit.strict_json_schema`` (its ``"repaired"`` notes returned).
    """
    schema, notes = strict_json_schema(output_json_schema(output_schema))
    return {
        "type": "json_schema",
        "json_schema": {
            "name": output_schema_name(output_schema),
            "schema": schema,
            "strict": True,
        },
    }, notes
