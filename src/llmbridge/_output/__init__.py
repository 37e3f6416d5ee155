"""Structured output: the ``output_schema`` option's schema and name, and ``parse_output``."""

from __future__ import annotations

from llmbridge._output._parse import parse_output
from llmbridge._output._schema import (
    DEFS_PREFIX,
    OutputSchema,
    accepts_null,
    check_output_schema,
    output_json_schema,
    output_schema_name,
    resolve_ref,
)

__all__ = [
    "DEFS_PREFIX",
    "OutputSchema",
    "accepts_null",
    "check_output_schema",
    "output_json_schema",
    "output_schema_name",
    "parse_output",
    "resolve_ref",
]
