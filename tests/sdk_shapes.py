"""A JSON value checked against an SDK's request types (its ``TypedDict``s), as the API would.

The SDKs validate nothing on the client side (their params are TypedDicts), so this is the
check the API makes of a shape: every key declared by the TypedDict for that shape (unknown keys
rejected), required keys present, values of the declared types (no tuples for lists, no bools
for ints, ``None`` only where the type is ``Optional``), unions of TypedDicts chosen by their
``role`` / ``type`` literal. The wire validators build their rules on it.
"""

from __future__ import annotations

import collections.abc
import types
import typing
from functools import cache
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from typing_extensions import is_typeddict

__all__ = ["WireError", "check_type", "typed_dict_fields"]


class WireError(AssertionError):
    """A request body the provider's API would reject."""


def _fail(path: str, problem: str) -> typing.NoReturn:
    raise WireError(f"{path}: {problem}")


def _own_totality(td: type) -> dict[str, bool]:
    # The SDK's `Required[...]` is a string under `from __future__ import annotations`, so
    # __required_keys__ is wrong; each key's totality comes from the class that declares it.
    totality: dict[str, bool] = {}
    for base in getattr(td, "__orig_bases__", ()):
        if is_typeddict(base):
            totality.update(_own_totality(base))
    for key in td.__annotations__:
        totality.setdefault(key, td.__total__)  # type: ignore[attr-defined]
    return totality


@cache
def typed_dict_fields(td: type) -> dict[str, tuple[Any, bool]]:
    """Each key of TypedDict ``td``: its type and whether it is required."""
    totality = _own_totality(td)
    fields: dict[str, tuple[Any, bool]] = {}
    for key, hint in get_type_hints(td, include_extras=True).items():
        required = totality[key]
        while get_origin(hint) in (Required, NotRequired, Annotated):
            if get_origin(hint) is Required:
                required = True
            elif get_origin(hint) is NotRequired:
                required = False
            hint = get_args(hint)[0]
        fields[key] = (hint, required)
    return fields


def _check_typed_dict(value: Any, td: type, path: str) -> None:
    if not isinstance(value, dict):
        _fail(path, f"expected an object ({td.__name__}), got {type(value).__name__}")
    fields = typed_dict_fields(td)
    for key in value:
        if key not in fields:
            _fail(path, f"unknown key {key!r} for {td.__name__}")
    for key, (hint, required) in fields.items():
        if key in value:
            check_type(value[key], hint, f"{path}.{key}")
        elif required:
            _fail(path, f"missing required key {key!r} of {td.__name__}")


def _discriminator(members: tuple[Any, ...]) -> str | None:
    for key in ("role", "type"):
        if all(
            is_typeddict(m) and get_origin(typed_dict_fields(m).get(key, (None,))[0]) is Literal
            for m in members
        ):
            return key
    return None


def _check_union(value: Any, members: tuple[Any, ...], path: str) -> None:
    typed = tuple(m for m in members if is_typeddict(m))
    key = _discriminator(typed) if isinstance(value, dict) and typed else None
    if key is not None:
        for member in typed:
            if value.get(key) in get_args(typed_dict_fields(member)[key][0]):
                _check_typed_dict(value, member, path)
                return
        _fail(path, f"{key} {value.get(key)!r} is none of the allowed shapes")
    problems = []
    for member in members:
        try:
            check_type(value, member, path)
        except WireError as error:
            problems.append(str(error))
        else:
            return
    _fail(path, "matches no allowed type: " + " | ".join(problems))


# The SDKs' ``SequenceNotStr`` is ``Sequence`` at run time.
_SEQUENCES = (collections.abc.Iterable, collections.abc.Sequence, list)


def check_type(value: Any, hint: Any, path: str) -> None:
    """Raise ``WireError`` unless the JSON ``value`` is of the SDK type ``hint``."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return
    if hint is type(None):
        if value is not None:
            _fail(path, f"expected null, got {type(value).__name__}")
    elif is_typeddict(hint):
        _check_typed_dict(value, hint, path)
    elif origin in (Union, types.UnionType):
        _check_union(value, get_args(hint), path)
    elif origin is Literal:
        if value not in get_args(hint) or isinstance(value, bool) != any(
            isinstance(a, bool) for a in get_args(hint)
        ):
            _fail(path, f"{value!r} is not one of {get_args(hint)}")
    elif hint in (str, bool):
        if type(value) is not hint:
            _fail(path, f"expected {hint.__name__}, got {type(value).__name__}")
    elif hint in (int, float):
        allowed = (int,) if hint is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, allowed):
            _fail(path, f"expected {hint.__name__}, got {type(value).__name__}")
    elif origin in _SEQUENCES:
        if not isinstance(value, list):
            _fail(path, f"expected a JSON array (list), got {type(value).__name__}")
        (item,) = get_args(hint)
        for position, element in enumerate(value):
            check_type(element, item, f"{path}[{position}]")
    elif origin in (dict, collections.abc.Mapping):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            _fail(path, f"expected an object with string keys, got {type(value).__name__}")
        for key, element in value.items():
            check_type(element, get_args(hint)[1], f"{path}.{key}")
    else:
        raise TypeError(f"{path}: the validator does not know the SDK type {hint!r}")
