"""``dump_messages`` / ``load_messages``: neutral messages as JSON, derived from the message types.

Each message is an object with a ``"type"`` discriminator (the one table ``MESSAGE_TYPES``) and one
key per constructor field, its sender under ``"from"``. The JSON form of every field follows from
the field's type annotation, read once at import: strings, numbers and booleans as they are,
``Role`` as its string, ``bytes`` as base64, tuples as arrays, value objects (``ToolCall``,
``Reasoning``, ``Usage``, ``Citation``, ``HostedToolCall``) and nested messages as objects,
``provider_data`` as an object that is left out when empty (each type's codec is in ``_codecs``). So
a field is declared in one place, its message class, and both directions follow. Loading checks
every value against that type, never imports or runs anything the data names, and builds each
message through its own constructor, so the construction rules apply to loaded data too.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Final, Literal, Union

from llmbridge._errors import InvalidMessageError, LLMBridgeError
from llmbridge._messages._citation import Citation
from llmbridge._messages._codecs import (
    BadValue,
    Codec,
    Path,
    any_json_codec,
    array_codec,
    bytes_codec,
    choice_codec,
    json_kind,
    json_object_codec,
    mapping_codec,
    optional_codec,
    provider_data_codec,
    role_codec,
    scalar_codec,
    text_or_array_codec,
    where,
)
from llmbridge._messages._documents import AudioMessage, DocumentMessage
from llmbridge._messages._hosted_tool import HostedToolCall
from llmbridge._messages._image import ImageMessage
from llmbridge._messages._media import OMITTED_WHEN_EMPTY
from llmbridge._messages._provider_data import PROVIDER_DATA_FIELD
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
from llmbridge._messages._video import VideoMessage

__all__ = ["MESSAGE_TYPES", "dump_messages", "load_messages"]

MESSAGE_TYPES: Final[Mapping[str, type[Message]]] = types.MappingProxyType(
    {
        "text": TextMessage,
        "image": ImageMessage,
        "document": DocumentMessage,
        "audio": AudioMessage,
        "video": VideoMessage,
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
_VALUES: Final = (Reasoning, Usage, ToolCall, Citation, HostedToolCall)
_SENDER_KEY: Final = "from"


class _Record:
    """The fields of one dataclass (a message or a value object), in declaration order."""

    __slots__ = ("cls", "fields", "required")

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.fields: tuple[tuple[str, str, Codec], ...] = ()
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
            raise BadValue(f"expected an object, got {json_kind(data)}", path)
        known = {key for _, key, _ in self.fields} | {"type"}
        for key in data:
            if key not in known:
                raise BadValue("Extra inputs are not permitted", (*path, key))
        for _, key in self.required:
            if key not in data:
                raise BadValue("Field required", (*path, key))
        arguments = {
            name: codec.load(data[key], (*path, key))
            for name, key, codec in self.fields
            if key in data
        }
        try:
            return self.cls(**arguments)
        except InvalidMessageError as exc:
            raise BadValue(exc.reason, (*path, *([exc.field] if exc.field else []))) from None


_NOTHING: Final = object()
_RECORDS: Final[dict[type, _Record]] = {
    cls: _Record(cls) for cls in (*_VALUES, *MESSAGE_TYPES.values())
}


def _message_codec(allowed: tuple[type[Message], ...]) -> Codec:
    names = {_TYPE_NAMES[cls] for cls in allowed}

    def load(data: Any, path: Path) -> Message:
        if type(data) is not dict:
            raise BadValue(f"expected a message object, got {json_kind(data)}", path)
        kind = data.get("type")
        if kind not in names:
            expected = ", ".join(repr(name) for name in sorted(names))
            raise BadValue(
                f"Input tag {kind!r} found using 'type' does not match any of the expected "
                f"tags: {expected}",
                path,
            )
        message: Message = _RECORDS[MESSAGE_TYPES[kind]].load(data, path)
        return message

    return Codec("a message", _dump_message, load)


def _codec(annotation: Any) -> Codec:
    """The codec of one field annotation (the vocabulary of the message types' fields)."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is Annotated:
        if PROVIDER_DATA_FIELD in arguments[1:]:
            return provider_data_codec()
        codec = _codec(arguments[0])
        if OMITTED_WHEN_EMPTY in arguments[1:]:
            codec.omit_empty = True
        return codec
    if origin in (Union, types.UnionType):
        members = tuple(a for a in arguments if a is not type(None))
        if len(members) < len(arguments):
            return optional_codec(_codec(members[0] if len(members) == 1 else Union[members]))  # noqa: UP007
        if all(isinstance(m, type) and issubclass(m, Message) for m in members):
            return _message_codec(members)
        if len(members) == 2 and members[0] is str:
            return text_or_array_codec(_codec(members[1]))
        if len(members) == 3 and members[0] is str and typing.get_origin(members[2]) is Mapping:
            # A tool result: text, parts, or a structured result (JSON object).
            return text_or_array_codec(_codec(members[1]), json_object_codec())
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return array_codec(_codec(arguments[0]))
    if origin is Literal:
        return choice_codec(arguments)
    if origin in (Mapping, dict):
        return mapping_codec()
    if annotation is Any or isinstance(annotation, typing.TypeVar):
        return any_json_codec()
    if annotation is Role:
        return role_codec()
    if annotation is bytes:
        return bytes_codec()
    for kind, name in (
        (str, "a string"),
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a number"),
    ):
        if annotation is kind:
            return scalar_codec(kind, name)
    if isinstance(annotation, type) and issubclass(annotation, Message):
        return _message_codec((annotation,))
    if annotation in _RECORDS:
        record = _RECORDS[annotation]
        return Codec(annotation.__name__, record.dump, record.load)
    raise TypeError(f"no JSON form for a field of type {annotation!r}")  # a new field type


def _dump_message(message: Message) -> dict[str, Any]:
    name = _TYPE_NAMES.get(type(message))
    if name is None:
        raise TypeError(f"cannot serialize {type(message).__name__}: not a neutral message type")
    return {"type": name, **_RECORDS[type(message)].dump(message)}


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
        except BadValue as exc:
            raise InvalidMessageError(
                f"invalid message: {exc.reason}", index=index, field=where(exc.path)
            ) from None
        except (RecursionError, LLMBridgeError, ValueError, TypeError) as exc:
            raise InvalidMessageError(f"invalid message ({exc})", index=index) from None
    return messages
