"""The OpenAI strict-mode transform of a JSON schema, written once for every OpenAI wing.

OpenAI's structured output with ``strict: true`` accepts a subset of JSON Schema: every object
closed (``additionalProperties: false``) with all its properties required, and only some
constraints (``pattern``, ``format``; ``minimum``, ``maximum``, their exclusive forms,
``multipleOf``; ``minItems``, ``maxItems``). The SDK's own transform is private
(``openai/lib/_pydantic.py``), so this is a separate implementation of the same rules, plus
moving the constraints strict mode rejects into the description.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any, Final

from llmbridge._output import DEFS_PREFIX, accepts_null, resolve_ref
from llmbridge.kit._notes import ConversionNote

__all__ = ["STRICT_KEYWORDS", "strict_json_schema"]

STRICT_KEYWORDS: Final = frozenset(
    {
        "$defs",
        "$ref",
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "description",
        "enum",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "items",
        "maxItems",
        "maximum",
        "minItems",
        "minimum",
        "multipleOf",
        "pattern",
        "properties",
        "required",
        "title",
        "type",
    }
)
"""The keywords OpenAI strict mode accepts; any other one moves into the description."""
_FORMATS: Final = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
# Types that take null through a type list; objects, arrays and the rest through anyOf.
_SCALARS: Final = frozenset({"string", "number", "integer", "boolean"})
_NULL: Final[dict[str, Any]] = {"type": "null"}
_SUBSCHEMA_KEYS: Final = frozenset({"$defs", "properties", "items", "anyOf", "allOf"})


def strict_json_schema(
    schema: Mapping[str, Any],
) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """Return ``schema`` made OpenAI strict-compatible, and the notes of what was repaired.

    Rules, at every depth (``$defs``, properties, items, ``anyOf``): every object gets
    ``additionalProperties: false`` (an open map's value schema is replaced, a ``"repaired"``
    note) and lists all its properties in ``required``; a property that was not required
    becomes nullable (a type list with ``"null"`` for a scalar type, else ``anyOf`` with
    ``{"type": "null"}``), so a model sends ``null`` for "not given" (``parse_output`` reads
    that null as absent); ``oneOf`` becomes ``anyOf`` (note); a one-element ``allOf`` is
    inlined; a ``$ref`` with sibling keywords is inlined from ``$defs`` (OpenAI refuses the
    siblings); ``default: null`` is dropped (the null-for-optional mapping says the same); every
    other keyword strict mode rejects (``minLength``, ``maxLength``, ``uniqueItems``, a
    ``default``, ``examples``, an unsupported ``format`` ...) moves into the description as
    ``{keyword: value, ...}``, a ``"repaired"`` note naming the JSON pointer. Never raises
    for a mapping and never mutates ``schema``; notes have ``index`` ``None``.
    """
    notes: list[ConversionNote] = []
    defs = schema.get("$defs")
    root_defs = defs if isinstance(defs, Mapping) else {}
    return _node(schema, "", root_defs, (), notes), tuple(notes)


def _note(notes: list[ConversionNote], path: str, detail: str) -> None:
    notes.append(ConversionNote(None, "repaired", f"output_schema at {path or '/'}: {detail}"))


def _node(
    schema: Mapping[str, Any],
    path: str,
    defs: Mapping[str, Any],
    inlining: tuple[str, ...],
    notes: list[ConversionNote],
) -> dict[str, Any]:
    source = dict(schema)
    ref = source.get("$ref")
    if isinstance(ref, str) and len(source) > 1:
        inlined = _inline(source, ref, path, defs, inlining, notes)
        if inlined is not None:
            return inlined
    all_of = source.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], Mapping):
        del source["allOf"]
        source = {**all_of[0], **source}
        return _node(source, path, defs, inlining, notes)
    if "oneOf" in source and "anyOf" not in source:
        source["anyOf"] = source.pop("oneOf")
        _note(notes, path, "oneOf became anyOf (OpenAI strict mode has no oneOf)")
    if "default" in source and source["default"] is None:
        del source["default"]
    result: dict[str, Any] = {}
    moved: dict[str, Any] = {}
    for key, value in source.items():
        if key in STRICT_KEYWORDS and not (key == "format" and value not in _FORMATS):
            # Subschemas are rebuilt below; every other value is copied, never shared.
            result[key] = value if key in _SUBSCHEMA_KEYS else copy.deepcopy(value)
        else:
            moved[key] = value
    _children(result, path, defs, inlining, notes)
    if moved:
        _move_into_description(result, moved)
        _note(
            notes,
            path,
            f"{', '.join(moved)} moved into the description (OpenAI strict mode does not "
            "support them)",
        )
    return result


def _inline(
    source: dict[str, Any],
    ref: str,
    path: str,
    defs: Mapping[str, Any],
    inlining: tuple[str, ...],
    notes: list[ConversionNote],
) -> dict[str, Any] | None:
    """``source`` with its ``$ref`` target inlined under its sibling keywords (they win), or
    ``None`` when the target is unknown; a recursive reference becomes ``anyOf: [{$ref}]``."""
    target = resolve_ref({"$ref": ref}, defs)
    if "$ref" in target:  # not a definition of this schema
        return None
    del source["$ref"]
    if ref in inlining:
        # Inlining a recursive definition into itself would never end: refer to it instead.
        return _node({**source, "anyOf": [{"$ref": ref}]}, path, defs, inlining, notes)
    return _node({**target, **source}, path, defs, (*inlining, ref), notes)


def _children(
    result: dict[str, Any],
    path: str,
    defs: Mapping[str, Any],
    inlining: tuple[str, ...],
    notes: list[ConversionNote],
) -> None:
    """Transform the subschemas of ``result`` in place (``result`` is already a new dict)."""
    for key in ("$defs", "properties"):
        if isinstance(result.get(key), Mapping):
            result[key] = {
                # A definition counts as being inlined inside itself: a reference back stays one.
                name: _node(sub, f"{path}/{key}/{name}", defs, _inside(key, name, inlining), notes)
                if isinstance(sub, Mapping)
                else copy.deepcopy(sub)
                for name, sub in result[key].items()
            }
    if isinstance(result.get("items"), Mapping):
        result["items"] = _node(result["items"], f"{path}/items", defs, inlining, notes)
    for key in ("anyOf", "allOf"):
        if isinstance(result.get(key), list):
            result[key] = [
                _node(sub, f"{path}/{key}/{position}", defs, inlining, notes)
                if isinstance(sub, Mapping)
                else copy.deepcopy(sub)
                for position, sub in enumerate(result[key])
            ]
    if result.get("type") == "object" or isinstance(result.get("properties"), Mapping):
        _close_object(result, path, defs, notes)


def _inside(key: str, name: str, inlining: tuple[str, ...]) -> tuple[str, ...]:
    return (*inlining, DEFS_PREFIX + name) if key == "$defs" else inlining


def _close_object(
    result: dict[str, Any], path: str, defs: Mapping[str, Any], notes: list[ConversionNote]
) -> None:
    extra = result.get("additionalProperties", False)
    if extra is not False:
        _note(
            notes,
            path,
            f"additionalProperties {json.dumps(extra)} became false (OpenAI strict mode "
            "needs closed objects)",
        )
    result["additionalProperties"] = False
    properties: dict[str, Any] = result.setdefault("properties", {})
    required = result.get("required")
    was_required = set(required) if isinstance(required, list) else set()
    result["properties"] = {
        name: sub if name in was_required else _nullable(sub, defs)
        for name, sub in properties.items()
    }
    result["required"] = list(properties)


def _nullable(schema: Any, defs: Mapping[str, Any]) -> Any:
    """``schema`` that also accepts ``null`` (unchanged when it already does)."""
    if not isinstance(schema, Mapping) or accepts_null(schema, defs):
        return schema
    kind = schema.get("type")
    if kind in _SCALARS and "enum" not in schema and "const" not in schema:
        return {**schema, "type": [kind, "null"]}
    if isinstance(schema.get("anyOf"), list) and len(schema) == 1:
        return {"anyOf": [*schema["anyOf"], dict(_NULL)]}
    return {"anyOf": [schema, dict(_NULL)]}


def _move_into_description(result: dict[str, Any], moved: Mapping[str, Any]) -> None:
    rules = ", ".join(f"{key}: {json.dumps(value, default=str)}" for key, value in moved.items())
    description = result.get("description")
    prefix = f"{description}\n\n" if isinstance(description, str) and description else ""
    result["description"] = f"{prefix}{{{rules}}}"
