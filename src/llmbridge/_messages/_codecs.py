"""The JSON codecs of single field types, the vocabulary ``_serialization`` builds records from.

A ``Codec`` holds both directions of one field type: ``dump`` turns a value into JSON data,
``load`` checks JSON data against the type and turns it back. A value that does not fit raises
``BadValue`` with its path inside the message; ``_serialization`` turns that into one
``InvalidMessageError`` naming the message and the field.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias

from llmbridge._messages._provider_data import MAX_JSON_DEPTH, thaw
from llmbridge._messages._values import Role

__all__ = [
    "BadValue",
    "Codec",
    "Path",
    "any_json",
    "any_json_codec",
    "array_codec",
    "bytes_codec",
    "choice_codec",
    "json_kind",
    "json_object_codec",
    "mapping_codec",
    "optional_codec",
    "provider_data_codec",
    "role_codec",
    "scalar_codec",
    "text_or_array_codec",
    "where",
]

_MAX_DEPTH: Final = MAX_JSON_DEPTH  # envelope content nests at most this deep (bounded recursion)

Path: TypeAlias = tuple[str | int, ...]


class BadValue(Exception):
    """A JSON value that does not fit its field; ``path`` locates it inside the message."""

    def __init__(self, reason: str, path: Path) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path


def where(path: Path) -> str | None:
    """The dotted field name of ``path`` (``None`` for the message itself)."""
    return ".".join(str(part) for part in path) or None


def json_kind(data: Any) -> str:
    """What a JSON value is, as an error message names it."""
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(data), "null" if data is None else "a number"
    )


class Codec:
    """Both directions of one field type: ``dump`` to JSON data, ``load`` from it (checked).

    ``omit_empty``: an empty value is left out of the JSON (its constructor default reads back).
    """

    __slots__ = ("dump", "load", "name", "omit_empty")

    def __init__(
        self,
        name: str,
        dump: Callable[[Any], Any],
        load: Callable[[Any, Path], Any],
        *,
        omit_empty: bool = False,
    ) -> None:
        self.name = name
        self.dump = dump
        self.load = load
        self.omit_empty = omit_empty


def _identity(value: Any) -> Any:
    return value


def scalar_codec(kind: type, name: str) -> Codec:
    """A string, boolean, integer or number, exactly that JSON type."""

    def load(data: Any, path: Path) -> Any:
        # bool is an int in Python, but not a number in this format (and the reverse).
        if type(data) is not kind and not (kind is float and type(data) is int):
            raise BadValue(f"expected {name}, got {json_kind(data)}", path)
        return data

    return Codec(name, _identity, load)


def role_codec() -> Codec:
    """A ``Role`` as its string."""

    def load(data: Any, path: Path) -> Role:
        if type(data) is not str:
            raise BadValue(f"expected a role string, got {json_kind(data)}", path)
        return Role(data)

    return Codec("a role", str, load)


def bytes_codec() -> Codec:
    """``bytes`` as base64 text."""

    def dump(value: bytes) -> str:
        return base64.b64encode(value).decode("ascii")

    def load(data: Any, path: Path) -> bytes:
        if type(data) is not str:
            raise BadValue(f"expected base64 text, got {json_kind(data)}", path)
        try:
            return base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise BadValue(f"not valid base64 ({exc})", path) from None

    return Codec("base64 text", dump, load)


def choice_codec(choices: tuple[Any, ...]) -> Codec:
    """One of a ``Literal``'s strings."""

    def load(data: Any, path: Path) -> Any:
        if data not in choices or type(data) is not str:
            raise BadValue(f"expected one of {', '.join(map(repr, choices))}, got {data!r}", path)
        return data

    return Codec("a choice", _identity, load)


def optional_codec(inner: Codec) -> Codec:
    """``inner`` or null."""

    def dump(value: Any) -> Any:
        return None if value is None else inner.dump(value)

    def load(data: Any, path: Path) -> Any:
        return None if data is None else inner.load(data, path)

    return Codec(f"{inner.name} or null", dump, load)


def array_codec(inner: Codec) -> Codec:
    """A tuple as an array of ``inner``."""

    def dump(value: Sequence[Any]) -> list[Any]:
        return [inner.dump(item) for item in value]

    def load(data: Any, path: Path) -> list[Any]:
        if type(data) is not list:
            raise BadValue(f"expected an array, got {json_kind(data)}", path)
        return [inner.load(item, (*path, position)) for position, item in enumerate(data)]

    return Codec(f"an array of {inner.name}", dump, load)


def any_json(data: Any, path: Path, depth: int = 0) -> Any:
    """``data`` itself, once checked to nest no deeper than the bound."""
    if depth > _MAX_DEPTH:
        raise BadValue(f"nested deeper than {_MAX_DEPTH} levels", path)
    if isinstance(data, dict):
        return {key: any_json(value, path, depth + 1) for key, value in data.items()}
    if isinstance(data, list):
        return [any_json(value, path, depth + 1) for value in data]
    return data


def _dump_any(value: Any) -> Any:
    # SDK response objects are pydantic models: they dump to JSON (and load back as dicts).
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value


def any_json_codec() -> Codec:
    """Any JSON value (an envelope's content); a pydantic model dumps to its JSON."""
    return Codec("any JSON", _dump_any, lambda data, path: any_json(data, path))


def text_or_array_codec(array: Codec, obj: Codec | None = None) -> Codec:
    """A field that is text or an array, or also an object when ``obj`` is given (a tool
    result: text, parts, or a structured result)."""

    def dump(value: Any) -> Any:
        if type(value) is str:
            return value
        return array.dump(value) if obj is None or type(value) is tuple else obj.dump(value)

    def load(data: Any, path: Path) -> Any:
        if type(data) is str:
            return data
        return (
            array.load(data, path)
            if obj is None or type(data) is not dict
            else obj.load(data, path)
        )

    name = f"a string or {array.name}" if obj is None else f"a string, {array.name} or {obj.name}"
    return Codec(name, dump, load)


def json_object_codec() -> Codec:
    """A frozen JSON object (a structured tool result) as an object; the constructor freezes
    what is loaded."""
    return Codec("an object", thaw, mapping_codec().load)


def mapping_codec() -> Codec:
    """A mapping as a JSON object."""

    def load(data: Any, path: Path) -> dict[str, Any]:
        if type(data) is not dict:
            raise BadValue(f"expected an object, got {json_kind(data)}", path)
        loaded: dict[str, Any] = any_json(data, path)
        return loaded

    return Codec("an object", dict, load)


def provider_data_codec() -> Codec:
    """``provider_data`` as an object, left out when empty."""

    def load(data: Any, path: Path) -> Any:
        if type(data) is not dict:
            raise BadValue(f"expected an object, got {json_kind(data)}", path)
        return data  # the constructor checks and freezes every value (and bounds the depth)

    return Codec("provider data", thaw, load, omit_empty=True)
