"""``provider_data``: the opaque state a provider needs back later, frozen into JSON-compatible
values (``FrozenMapping``, tuples, scalars) that are read-only at every level and hashable."""

from __future__ import annotations

import base64
import math
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Final, NoReturn, TypeAlias

from llmbridge._errors import InvalidMessageError

__all__ = [
    "MAX_JSON_DEPTH",
    "NO_PROVIDER_DATA",
    "PROVIDER_DATA_FIELD",
    "FrozenMapping",
    "JsonObject",
    "ProviderData",
    "freeze_json_object",
    "freeze_provider_data",
    "thaw",
]

MAX_JSON_DEPTH: Final = 200
"""How deep JSON values inside a message may nest (envelope content, provider_data)."""

PROVIDER_DATA_FIELD: Final = "provider_data"
"""The marker in ``ProviderData``'s annotation: serialization gives such fields their codec."""

ProviderData: TypeAlias = Annotated[Mapping[str, Mapping[str, Any]], PROVIDER_DATA_FIELD]
"""The type of a ``provider_data`` field: provider tag -> JSON-compatible mapping."""


class FrozenMapping(Mapping[str, Any]):
    """A read-only, hashable mapping of string keys to frozen JSON-compatible values.

    Equal to any ``Mapping`` with the same items (lists are stored as tuples, so compare with
    tuples). Built by ``freeze_provider_data``, which checks and freezes every value first; the
    constructor itself trusts its argument.
    """

    __slots__ = ("_data", "_hash")
    _data: dict[str, Any]
    _hash: int

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        items = dict(data) if data else {}
        object.__setattr__(self, "_data", items)
        # Every value is frozen, so the hash never changes: computed once, here.
        object.__setattr__(self, "_hash", hash(frozenset(items.items())))

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def get(self, key: str, default: Any = None) -> Any:
        """The value of ``key``, or ``default`` when it is absent.

        Read straight from the stored dict: the inherited ``Mapping.get`` goes through
        ``__getitem__`` and a ``KeyError``, and the wings call this once per message and call.
        """
        return self._data.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        if type(other) is FrozenMapping:
            return self._hash == other._hash and self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        # Nested mappings print as dict literals: the outer name already says what they are.
        return f"{type(self).__name__}({thaw(self, tuple)!r})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMapping, (self._data,))


class JsonObject(FrozenMapping):
    """A structured tool result: a ``FrozenMapping`` that also equals a plain mapping holding
    lists where it holds tuples (``{"files": ["a"]}``), as a JSON object read back would."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMapping):
            return self._hash == other._hash and self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other.items()) or thaw(self) == _plain(other)
        return NotImplemented

    __hash__ = FrozenMapping.__hash__

    def __reduce__(self) -> tuple[Any, ...]:
        return (JsonObject, (self._data,))


NO_PROVIDER_DATA: Final = FrozenMapping()
"""The empty ``provider_data`` (the default): immutable, so one instance serves every message."""


def freeze_provider_data(value: object) -> FrozenMapping:
    """``value`` (provider tag -> JSON-compatible mapping) checked and frozen at every level.

    Scalars (str, int, float, bool, None) stay as they are (subclasses become their base type),
    lists and tuples become tuples, string-keyed mappings become ``FrozenMapping``, bytes become
    standard base64 text. Raises ``InvalidMessageError`` (``field="provider_data"``) naming the
    path of the first value that is none of these, a non-string key, a float that is not finite,
    a tag whose value is not a mapping, or nesting deeper than ``MAX_JSON_DEPTH``.
    """
    if value is NO_PROVIDER_DATA:
        return value
    if not isinstance(value, Mapping):
        reason = f"must be a mapping of provider tags, got {_kind(value)}"
        raise _invalid(PROVIDER_DATA_FIELD, reason, PROVIDER_DATA_FIELD)
    if not value:
        return NO_PROVIDER_DATA
    for tag, entry in value.items():
        if not isinstance(entry, Mapping):
            where = _step(PROVIDER_DATA_FIELD, tag)
            reason = f"must be a mapping (one per provider tag), got {_kind(entry)}"
            raise _invalid(where, reason, PROVIDER_DATA_FIELD)
    return _freeze_mapping(value, PROVIDER_DATA_FIELD, 1, PROVIDER_DATA_FIELD)


def freeze_json_object(value: Mapping[Any, Any], field: str) -> JsonObject:
    """``value`` (a JSON object: ``str`` keys, JSON-compatible values) checked and frozen.

    The values follow ``freeze_provider_data``'s rules (key order kept). Raises
    ``InvalidMessageError`` with ``field`` naming the path of the first value that breaks them.
    """
    return JsonObject(_freeze_mapping(value, field, 1, field)._data)


def _freeze(value: object, where: str, depth: int, field: str) -> Any:
    # Subclasses (a StrEnum or IntEnum member) are kept as their plain value: what they read
    # back as from JSON. bool cannot be subclassed.
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value if type(value) is str else str.__str__(value)
    if isinstance(value, int):
        return value if type(value) is int else int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _invalid(where, f"must be a finite number, got {value!r}", field)
        return value if type(value) is float else float(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if depth >= MAX_JSON_DEPTH:
        raise _invalid(where, f"nests deeper than {MAX_JSON_DEPTH} levels", field)
    if isinstance(value, Mapping):
        return _freeze_mapping(value, where, depth + 1, field)
    if isinstance(value, list | tuple):
        return tuple(
            _freeze(item, f"{where}[{position}]", depth + 1, field)
            for position, item in enumerate(value)
        )
    raise _invalid(
        where,
        "must be JSON-compatible (str, int, float, bool, None, list, tuple, dict, bytes), "
        f"got {_kind(value)}",
        field,
    )


def _freeze_mapping(value: Mapping[Any, Any], where: str, depth: int, field: str) -> FrozenMapping:
    items: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise _invalid(where, f"has a key that is not a str: {key!r} ({_kind(key)})", field)
        items[key if type(key) is str else str.__str__(key)] = _freeze(
            item, _step(where, key), depth, field
        )
    return FrozenMapping(items)


def thaw(value: Any, sequence: type[list[Any]] | type[tuple[Any, ...]] = list) -> Any:
    """A frozen value as plain data: ``FrozenMapping`` -> dict, tuple -> ``sequence``."""
    if isinstance(value, FrozenMapping):
        return {key: thaw(item, sequence) for key, item in value.items()}
    if isinstance(value, tuple):
        return sequence(thaw(item, sequence) for item in value)
    return value


def _plain(value: Any) -> Any:
    """Any mapping / sequence value as dicts and lists, to compare with a thawed one."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _step(where: str, key: object) -> str:
    return f"{where}[{key!r}]"


def _kind(value: object) -> str:
    return type(value).__name__


def _invalid(where: str, reason: str, field: str) -> InvalidMessageError:
    return InvalidMessageError(f"{where} {reason}", field=field)
