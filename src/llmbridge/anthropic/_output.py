"""``output_schema`` -> Anthropic's ``output_config.format``, via ``anthropic.transform_schema``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import anthropic

from llmbridge import ConversionNote
from llmbridge.kit import OutputSchema, output_json_schema

__all__ = ["output_format"]

# Keywords transform_schema rewrites itself (oneOf -> anyOf, objects closed): not "moved".
_REWRITTEN: Final = frozenset({"oneOf", "additionalProperties", "description"})


def output_format(output_schema: OutputSchema) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """The ``output_config["format"]`` for ``output_schema``, and what the transform changed.

    ``{"type": "json_schema", "schema": anthropic.transform_schema(schema)}`` (its
    ``required`` kept as given). Notes (``index`` ``None``): ``"repaired"`` for each schema
    node whose constraints the SDK moved into the description, for ``oneOf`` made ``anyOf``
    and for an open map closed; ``"omitted"`` for keywords beside a ``$ref``, which the SDK
    leaves out. Raises ``ValueError`` naming the SDK's reason for a schema it cannot
    transform (a node with no ``type``, ``anyOf``, ``enum`` or ``const``, such as ``Any``).
    """
    original = output_json_schema(output_schema)
    try:
        transformed = anthropic.transform_schema(original)
    except ValueError as exc:
        raise ValueError(f"output_schema cannot be sent to Anthropic: {exc}") from exc
    notes: list[ConversionNote] = []
    _compare(original, transformed, "", notes)
    return {"type": "json_schema", "schema": transformed}, tuple(notes)


def _note(notes: list[ConversionNote], kind: Any, path: str, detail: str) -> None:
    notes.append(ConversionNote(None, kind, f"output_schema at {path or '/'}: {detail}"))


def _compare(original: Any, transformed: Any, path: str, notes: list[ConversionNote]) -> None:
    """Record what ``transform_schema`` changed at ``path`` and below."""
    if not isinstance(original, Mapping) or not isinstance(transformed, Mapping):
        return
    if "$ref" in transformed and len(transformed) == 1 and len(original) > 1:
        left = ", ".join(key for key in original if key != "$ref")
        _note(notes, "omitted", path, f"{left} beside $ref left out by anthropic.transform_schema")
        return
    moved = [key for key in original if key not in transformed and key not in _REWRITTEN]
    if moved and transformed.get("description") != original.get("description"):
        _note(notes, "repaired", path, f"{', '.join(moved)} moved into the description")
    if "oneOf" in original:
        _note(notes, "repaired", path, "oneOf became anyOf")
    extra = original.get("additionalProperties")
    if extra is not None and extra is not False:
        _note(notes, "repaired", path, "an open map (additionalProperties) became a closed object")
    for key in ("$defs", "properties"):
        for name, sub in (original.get(key) or {}).items():
            _compare(sub, (transformed.get(key) or {}).get(name), f"{path}/{key}/{name}", notes)
    _compare(original.get("items"), transformed.get("items"), f"{path}/items", notes)
    branches = original.get("anyOf") or original.get("oneOf") or ()
    for position, sub in enumerate(branches):
        mirror = transformed.get("anyOf") or ()
        if position < len(mirror):
            _compare(sub, mirror[position], f"{path}/anyOf/{position}", notes)
