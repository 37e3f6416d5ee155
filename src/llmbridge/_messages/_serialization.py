"""``dump_messages`` / ``load_messages``: neutral messages as JSON, derived from the message types.

Each message is an object with a ``"type"`` discriminator (the one table ``MESSAGE_TYPES``) and
one key per constructor field, its sender under ``"from"``. The JSON form of every field follows
from the field's type annotation, read once at import: strings, numbers and booleans as they are,
``Role`` as its string, ``bytes`` as base64, tuples as arrays, value objects (``ToolCall``,
``Reasoning``, ``Usage``) and nested messages as objects, ``provider_data`` as an object that is
left out when empty. So a field is declared in one place,
its message class, and both directions follow. Loading checks every value against that type,
never imports or runs anything the data names, and builds each message through its own
constructor, so the construction rules apply to loaded data too.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Final, Literal, TypeAlias, Union

from llmbridge._errors import InvalidMessageError, LLMBridgeError
from llmbridge._messages._documents import AudioMessage, DocumentMessage
from llmbridge._messages._image import ImageMessage
from llmbridge._messages._provider_data import MAX_JSON_DEPTH, PROVIDER_DATA_FIELD, thaw
from llmbridge._messages._text import TextMessage
from llmbridge._messages._tool_call import ToolCall
from llmbridge._messages._types import (
    MessageEnvelope,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessageUpdate,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
)
from llmbridge._messages._values import Message, Reasoning, Role, Usage

__all__ = ["MESSAGE_TYPES", "dump_messages", "load_messages"]

MESSAGE_TYPES: Final[Mapping[str, type[Message]]] = types.MappingProxyType(
    {
        "text": TextMessage,
        "image": ImageMessage,
        "document": DocumentMessage,
        "audio": AudioMessage,
        "multimodal": MultiModalMessage,
        "tool_call": ToolCallMessage,
        "tool_call_result": ToolCallResultMessage,
        "tool_call_aggregate": ToolCallAggregateMessage,
        "text_update": TextMessageUpdate,
        "reasoning_update": ReasoningMessageUpdate,
        "tool_call_update": ToolCallMessageUpdate,
        "envelope": MessageEnvelope,
    }
)
"""The JSON ``"type"`` of each neutral message class."""

_TYPE_NAMES: Final = {cls: name for name, cls in MESSAGE_TYPES.items()}
_VALUES: Final = (Reasoning, Usage, ToolCall)
_SENDER_KEY: Final = "from"
_MAX_DEPTH: Final = MAX_JSON_DEPTH  # envelope content nests at most this deep (bounded recursion)

Path: TypeAlias = tuple[str | int, ...]


class _Bad(Exception):
    """A JSON value that does not fit its field; ``path`` locates it inside the message."""

    def __init__(self, reason: str, path: Path) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path


def _where(path: Path) -> str | None:
    return ".".join(str(part) for part in path) or None


class _Codec:
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


def _scalar(kind: type, name: str) -> _Codec:
    def load(data: Any, path: Path) -> Any:
        # bool is an int in Python, but not a number in this format (and the reverse).
        if type(data) is not kind and not (kind is float and type(data) is int):
            raise _Bad(f"expected {name}, got {_json_kind(data)}", path)
        return data

    return _Codec(name, _identity, load)


def _role_codec() -> _Codec:
    def load(data: Any, path: Path) -> Role:
        if type(data) is not str:
            raise _Bad(f"expected a role string, got {_json_kind(data)}", path)
        return Role(data)

    return _Codec("a role", str, load)


def _bytes_codec() -> _Codec:
    def dump(value: bytes) -> str:
        return base64.b64encode(value).decode("ascii")

    def load(data: Any, path: Path) -> bytes:
        if type(data) is not str:
            raise _Bad(f"expected base64 text, got {_json_kind(data)}", path)
        try:
            return base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise _Bad(f"not valid base64 ({exc})", path) from None

    return _Codec("base64 text", dump, load)


def _choice_codec(choices: tuple[Any, ...]) -> _Codec:
    def load(data: Any, path: Path) -> Any:
        if data not in choices or type(data) is not str:
            raise _Bad(f"expected one of {', '.join(map(repr, choices))}, got {data!r}", path)
        return data

    return _Codec("a choice", _identity, load)


def _optional(inner: _Codec) -> _Codec:
    def dump(value: Any) -> Any:
        return None if value is None else inner.dump(value)

    def load(data: Any, path: Path) -> Any:
        return None if data is None else inner.load(data, path)

    return _Codec(f"{inner.name} or null", dump, load)


def _array(inner: _Codec) -> _Codec:
    def dump(value: Sequence[Any]) -> list[Any]:
        return [inner.dump(item) for item in value]

    def load(data: Any, path: Path) -> list[Any]:
        if type(data) is not list:
            raise _Bad(f"expected an array, got {_json_kind(data)}", path)
        return [inner.load(item, (*path, position)) for position, item in enumerate(data)]

    return _Codec(f"an array of {inner.name}", dump, load)


def _any_json(data: Any, path: Path, depth: int = 0) -> Any:
    if depth > _MAX_DEPTH:
        raise _Bad(f"nested deeper than {_MAX_DEPTH} levels", path)
    if isinstance(data, dict):
        return {key: _any_json(value, path, depth + 1) for key, value in data.items()}
    if isinstance(data, list):
        return [_any_json(value, path, depth + 1) for value in data]
    return data


def _dump_any(value: Any) -> Any:
    # SDK response objects are pydantic models: they dump to JSON (and load back as dicts).
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value


def _text_or_array(array: _Codec) -> _Codec:
    """A field that is text or an array (a tool result: text, or parts)."""

    def dump(value: Any) -> Any:
        return value if type(value) is str else array.dump(value)

    def load(data: Any, path: Path) -> Any:
        return data if type(data) is str else array.load(data, path)

    return _Codec(f"a string or {array.name}", dump, load)


def _mapping_codec() -> _Codec:
    def load(data: Any, path: Path) -> dict[str, Any]:
        if type(data) is not dict:
            raise _Bad(f"expected an object, got {_json_kind(data)}", path)
        loaded: dict[str, Any] = _any_json(data, path)
        return loaded

    return _Codec("an object", dict, load)


def _provider_data_codec() -> _Codec:
    def load(data: Any, path: Path) -> Any:
        if type(data) is not dict:
            raise _Bad(f"expected an object, got {_json_kind(data)}", path)
        return data  # the constructor checks and freezes every value (and bounds the depth)

    return _Codec("provider data", thaw, load, omit_empty=True)


class _Record:
    """The fields of one dataclass (a message or a value object), in declaration order."""

    __slots__ = ("cls", "fields", "required")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields: tuple[tuple[str, str, _Codec], ...] = ()
        self.required: tuple[tuple[str, str], ...] = ()

    def build(self) -> None:
        hints = typing.get_type_hints(self.cls, include_extras=True)
        # Fields the constructor does not take (caches) and those outside equality (raw
        # provider objects) are not part of the message's value: they are not serialized.
        self.fields = tuple(
            (f.name, _SENDER_KEY if f.name == "from_" else f.name, _codec(hints[f.name]))
            for f in dataclasses.fields(self.cls)
            if f.init and f.compare
        )
        parameters = inspect.signature(self.cls).parameters
        self.required = tuple(
            (name, key)
            for name, key, _ in self.fields
            if parameters[name].default is inspect.Parameter.empty
        )

    def dump(self, value: Any) -> dict[str, Any]:
        body = {}
        for name, key, codec in self.fields:
            item = getattr(value, name)
            if not (codec.omit_empty and not item):
                body[key] = codec.dump(item)
        sender = body.pop(_SENDER_KEY, _NOTHING)
        if sender is not _NOTHING:
            body[_SENDER_KEY] = sender  # the sender last, after the content it sent
        return body

    def load(self, data: Any, path: Path) -> Any:
        if type(data) is not dict:
            raise _Bad(f"expected an object, got {_json_kind(data)}", path)
        known = {key for _, key, _ in self.fields} | {"type"}
        for key in data:
            if key not in known:
                raise _Bad("Extra inputs are not permitted", (*path, key))
        for _, key in self.required:
            if key not in data:
                raise _Bad("Field required", (*path, key))
        arguments = {
            name: codec.load(data[key], (*path, key))
            for name, key, codec in self.fields
            if key in data
        }
        try:
            return self.cls(**arguments)
        except InvalidMessageError as exc:
            raise _Bad(exc.reason, (*path, *([exc.field] if exc.field else []))) from None


_NOTHING: Final = object()
_RECORDS: Final[dict[type, _Record]] = {
    cls: _Record(cls) for cls in (*_VALUES, *MESSAGE_TYPES.values())
}


def _message_codec(allowed: tuple[type[Message], ...]) -> _Codec:
    names = {_TYPE_NAMES[cls] for cls in allowed}

    def load(data: Any, path: Path) -> Message:
        if type(data) is not dict:
            raise _Bad(f"expected a message object, got {_json_kind(data)}", path)
        kind = data.get("type")
        if kind not in names:
            expected = ", ".join(repr(name) for name in sorted(names))
            raise _Bad(
                f"Input tag {kind!r} found using 'type' does not match any of the expected "
                f"tags: {expected}",
                path,
            )
        message: Message = _RECORDS[MESSAGE_TYPES[kind]].load(data, path)
        return message

    return _Codec("a message", _dump_message, load)


def _codec(annotation: Any) -> _Codec:
    """The codec of one field annotation (the vocabulary of the message types' fields)."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is Annotated:
        if PROVIDER_DATA_FIELD in arguments[1:]:
            return _provider_data_codec()
        return _codec(arguments[0])
    if origin in (Union, types.UnionType):
        members = tuple(a for a in arguments if a is not type(None))
        if len(members) < len(arguments):
            return _optional(_codec(members[0] if len(members) == 1 else Union[members]))  # noqa: UP007
        if all(isinstance(m, type) and issubclass(m, Message) for m in members):
            return _message_codec(members)
        if len(members) == 2 and members[0] is str:
            return _text_or_array(_codec(members[1]))
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return _array(_codec(arguments[0]))
    if origin is Literal:
        return _choice_codec(arguments)
    if origin in (Mapping, dict):
        return _mapping_codec()
    if annotation is Any or isinstance(annotation, typing.TypeVar):
        return _Codec("any JSON", _dump_any, lambda data, path: _any_json(data, path))
    if annotation is Role:
        return _role_codec()
    if annotation is bytes:
        return _bytes_codec()
    for kind, name in (
        (str, "a string"),
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a number"),
    ):
        if annotation is kind:
            return _scalar(kind, name)
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return _message_codec((annotation,))
    if annotation in _RECORDS:
        record = _RECORDS[annotation]
        return _Codec(annotation.__name__, record.dump, record.load)
    raise TypeError(f"no JSON form for a field of type {annotation!r}")  # a new field type


def _dump_message(message: Message) -> dict[str, Any]:
    name = _TYPE_NAMES.get(type(message))
    if name is None:
        raise TypeError(f"cannot serialize {type(message).__name__}: not a neutral message type")
    return {"type": name, **_RECORDS[type(message)].dump(message)}


def _json_kind(data: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(data), "null" if data is None else "a number"
    )


for _record in _RECORDS.values():
    _record.build()


def dump_messages(messages: Sequence[Message], *, indent: int | None = None) -> str:
    """Serialize neutral messages to a JSON array (``load_messages`` reads it back equal).

    ``raw`` provider objects are not serialized. Raises ``TypeError`` for a message that is not
    a neutral type and ``InvalidMessageError`` (naming the index) for an envelope whose content
    is not JSON-serializable.
    """
    items = []
    for index, message in enumerate(messages):
        try:
            items.append(_dump_message(message))
        except TypeError as exc:
            raise type(exc)(f"message {index}: {exc}") from None
    try:
        return json.dumps(items, indent=indent, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidMessageError(
            f"an envelope's content is not JSON-serializable ({exc})"
        ) from None


_ANY_MESSAGE: Final = _message_codec(tuple(MESSAGE_TYPES.values()))


def load_messages(data: str | bytes) -> list[Message]:
    """Read a JSON array written by ``dump_messages`` back into neutral messages.

    Raises ``InvalidMessageError`` (with the message index and field where one is at fault) for
    malformed JSON, unknown ``"type"`` values or fields, wrong field types, and messages that
    break a constructor rule.
    """
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise InvalidMessageError(f"not valid JSON ({type(exc).__name__}: {exc})") from None
    if not isinstance(raw, list):
        raise InvalidMessageError(f"expected a JSON array of messages, got {type(raw).__name__}")
    messages: list[Message] = []
    for index, item in enumerate(raw):
        try:
            messages.append(_ANY_MESSAGE.load(item, ()))
        except _Bad as exc:
            raise InvalidMessageError(
                f"invalid message: {exc.reason}", index=index, field=_where(exc.path)
            ) from None
        except (RecursionError, LLMBridgeError, ValueError, TypeError) as exc:
            raise InvalidMessageError(f"invalid message ({exc})", index=index) from None
    return messages
