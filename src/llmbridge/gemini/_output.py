"""``output_schema`` -> Gemini's ``response_mime_type`` and ``response_json_schema``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from llmbridge.kit import OutputSchema, output_json_schema

__all__ = ["JSON_MIME_TYPE", "output_settings"]

JSON_MIME_TYPE: Final = "application/json"
"""The response MIME type Gemini needs beside a response schema."""
_SCHEMA_KEYS: Final = ("response_schema", "response_json_schema")


def output_settings(output_schema: OutputSchema, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``GenerateContentConfig`` fields that ask for ``output_schema``.

    ``{"response_mime_type": "application/json", "response_json_schema": schema}``, the JSON
    schema as it is (Gemini takes JSON Schema there, ``$defs`` and ``$ref`` included, and
    ignores keywords it does not know). Raises ``ValueError`` when ``settings`` already ask
    for a response schema, or for a MIME type other than JSON.
    """
    given = [key for key in _SCHEMA_KEYS if settings.get(key) is not None]
    if given:
        raise ValueError(
            f"output_schema and a {given[0]} setting both ask for a reply format; pass only one"
        )
    mime_type = settings.get("response_mime_type")
    if mime_type is not None and mime_type != JSON_MIME_TYPE:
        raise ValueError(
            f"output_schema needs response_mime_type {JSON_MIME_TYPE!r}, but the settings "
            f"ask for {mime_type!r}"
        )
    return {
        "response_mime_type": JSON_MIME_TYPE,
        "response_json_schema": output_json_schema(output_schema),
    }
