"""The neutral messages: provider-independent, immutable values with value equality."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, Literal, TypeVar

import pydantic_core

from llmbridge._errors import InvalidMessageError
from llmbridge._image_data import normalize_media_type, parse_data_url, sniff_image_type

__all__ = [
    "UPDATE_TYPES",
    "FinishReason",
    "ImageDetail",
    "ImageMessage",
    "Message",
    "MessageEnvelope",
    "MultiModalMessage",
    "Reasoning",
    "ReasoningMessageUpdate",
    "Role",
    "TextMessage",
    "TextMessageUpdate",
    "ToolCall",
    "ToolCallAggregateMessage",
    "ToolCallMessage",
    "ToolCallMessageUpdate",
    "ToolCallResultMessage",
    "Usage",
]

T = TypeVar("T")
FinishReason = str
"""One of ``stop``, ``length``, ``tool_calls``, ``content_filter``, ``refusal``, ``pause``, or
the provider's raw string for anything else."""
ImageDetail = Literal["auto", "low", "high"]
_DETAILS: Final = frozenset({"auto", "low", "high"})


class Role(str):
    """The role of a message's author; extensible, equal by value to its plain string.

    ``Role.SYSTEM``, ``Role.USER``, ``Role.ASSISTANT`` and ``Role.TOOL`` are the known roles;
    ``Role("critic")`` makes another. ``Role.USER == "user"`` holds.
    """

    __slots__ = ()
    SYSTEM: ClassVar[Role]
    USER: ClassVar[Role]
    ASSISTANT: ClassVar[Role]
    TOOL: ClassVar[Role]

    def __repr__(self) -> str:
        return f"Role({str.__repr__(self)})"


Role.SYSTEM = Role("system")
Role.USER = Role("user")
Role.ASSISTANT = Role("assistant")
Role.TOOL = Role("tool")


# Frozen dataclasses are built once in __init__; this is the one sanctioned write (bound once:
# streams build a message per delta).
_set: Final = object.__setattr__


def _as_role(role: Role | str) -> Role:
    return role if type(role) is Role else Role(role)


@dataclass(frozen=True, slots=True)
class Reasoning:
    """Model reasoning attached to a reply.

    ``signature`` and ``redacted_data`` are opaque to llmbridge and are only ever sent back to
    the ``provider`` that produced them.
    """

    text: str
    signature: str | None = field(default=None, kw_only=True)
    redacted_data: str | None = field(default=None, kw_only=True)
    provider: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one completion.

    ``input_tokens`` counts every input token, cached ones included; ``cache_read_tokens`` and
    ``cache_write_tokens`` are subsets of it.
    """

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = field(default=None, kw_only=True)
    cache_write_tokens: int | None = field(default=None, kw_only=True)
    reasoning_tokens: int | None = field(default=None, kw_only=True)

    @property
    def total_tokens(self) -> int:
        """``input_tokens + output_tokens``."""
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One function call requested by a model, and (on result messages) its result.

    ``function_arguments`` is the JSON text the model produced, kept verbatim even when invalid.
    Arguments or a result given as something other than text (a dict, a list, a number) are
    JSON-serialized, as ``FunctionCallMiddleware`` serializes results. Raises
    ``InvalidMessageError`` for a value that cannot be serialized and for a ``function_name``
    that is not a ``str``.
    """

    function_name: str
    function_arguments: str
    tool_call_id: str | None = field(default=None, kw_only=True)
    result: str | None = field(default=None, kw_only=True)
    is_error: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        # Text is the normal case and costs two type checks; anything else is a caller's
        # mistake (a dict result, parsed arguments) repaired once here, not in every provider.
        if type(self.function_arguments) is not str or (
            self.result is not None and type(self.result) is not str
        ):
            arguments = _as_text(self.function_arguments, "function_arguments")
            _set(self, "function_arguments", arguments)
            if self.result is not None:
                _set(self, "result", _as_text(self.result, "result"))
        if not isinstance(self.function_name, str):
            raise InvalidMessageError(
                f"function_name must be a str, got {type(self.function_name).__name__}",
                field="function_name",
            )


def _as_text(value: object, field_name: str) -> str:
    """``value`` as text: a ``str`` as is, anything else JSON-serialized (as tool results are)."""
    if isinstance(value, str):
        return str(value)
    try:
        return pydantic_core.to_json(value).decode()
    except pydantic_core.PydanticSerializationError as exc:
        raise InvalidMessageError(
            f"{field_name} must be text or JSON-serializable, got {type(value).__name__} ({exc})",
            field=field_name,
        ) from None


class Message:
    """Base class of every neutral message.

    ``from_`` is the sender's agent name (``None``: the caller, or unknown).
    """

    __slots__ = ()
    from_: str | None

    def get_content(self) -> str | None:
        """The message's text, or ``None`` for messages that carry none."""
        return None

    def get_tool_calls(self) -> list[ToolCall] | None:
        """The tool calls the message carries, or ``None``."""
        return None


def _reasoning_tuple(reasoning: Sequence[Reasoning]) -> tuple[Reasoning, ...]:
    items = tuple(reasoning)
    for item in items:
        if not isinstance(item, Reasoning):
            raise InvalidMessageError(
                f"expected Reasoning items, got {type(item).__name__}", field="reasoning"
            )
    return items


@dataclass(frozen=True, slots=True, init=False)
class TextMessage(Message):
    """A text message; ``reasoning``, ``usage``, ``finish_reason`` and ``raw`` are set on replies.

    ``raw`` (the provider's response object) takes no part in equality or serialization.
    """

    role: Role
    content: str
    from_: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    raw: Any = field(compare=False, repr=False)

    def __init__(
        self,
        role: Role | str,
        content: str,
        from_: str | None = None,
        *,
        reasoning: Sequence[Reasoning] = (),
        usage: Usage | None = None,
        finish_reason: FinishReason | None = None,
        raw: Any = None,
    ) -> None:
        if not isinstance(content, str):
            raise InvalidMessageError(
                f"content must be a str, got {type(content).__name__}", field="content"
            )
        _set(self, "role", _as_role(role))
        _set(self, "content", content)
        _set(self, "from_", from_)
        _set(self, "reasoning", _reasoning_tuple(reasoning))
        _set(self, "usage", usage)
        _set(self, "finish_reason", finish_reason)
        _set(self, "raw", raw)

    def get_content(self) -> str | None:
        return self.content


@dataclass(frozen=True, slots=True, init=False)
class ImageMessage(Message):
    """An image, by URL or as bytes.

    Rules: exactly one of ``url`` / ``data``; a ``data:`` URL is parsed into ``data`` and
    ``media_type``; png, jpeg, gif and webp bytes are recognised by their magic bytes and that
    type wins over a conflicting declared one; ``image/jpg`` becomes ``image/jpeg``; other bytes
    need a declared ``media_type``. Breaking a rule raises ``InvalidMessageError``.
    ``base64_data`` and ``data_url`` are computed once per image and cached.
    """

    role: Role
    url: str | None
    from_: str | None
    data: bytes | None
    media_type: str | None
    detail: ImageDetail | None
    _base64: str | None = field(compare=False, repr=False, hash=False)
    _data_url: str | None = field(compare=False, repr=False, hash=False)

    def __init__(
        self,
        role: Role | str,
        url: str | None = None,
        from_: str | None = None,
        *,
        data: bytes | None = None,
        media_type: str | None = None,
        detail: ImageDetail | None = None,
    ) -> None:
        if (url is None) == (data is None):
            raise InvalidMessageError("exactly one of url and data must be given", field="url")
        if detail is not None and detail not in _DETAILS:
            raise InvalidMessageError(
                f"detail must be 'auto', 'low' or 'high', got {detail!r}", field="detail"
            )
        if url is not None:
            if not isinstance(url, str) or not url.strip():
                raise InvalidMessageError("url must be a non-empty string", field="url")
            if url[:5].lower() == "data:":
                data, declared = parse_data_url(url)
                media_type = media_type or declared
                url = None
        if data is not None:
            if not isinstance(data, bytes | bytearray | memoryview):
                raise InvalidMessageError(
                    f"data must be bytes, got {type(data).__name__}", field="data"
                )
            data = bytes(data)
            if not data:
                raise InvalidMessageError("image data is empty", field="data")
            media_type = sniff_image_type(data) or normalize_media_type(media_type)
            if media_type is None:
                raise InvalidMessageError(
                    "unrecognised image bytes need a declared media_type", field="media_type"
                )
        elif media_type is not None:
            media_type = normalize_media_type(media_type)
        _set(self, "role", _as_role(role))
        _set(self, "url", url)
        _set(self, "from_", from_)
        _set(self, "data", data)
        _set(self, "media_type", media_type)
        _set(self, "detail", detail)
        _set(self, "_base64", None)
        _set(self, "_data_url", None)

    @property
    def base64_data(self) -> str | None:
        """The image bytes as base64 text (no ``data:`` prefix), or ``None`` for URL images."""
        if self.data is None:
            return None
        if self._base64 is None:
            _set(self, "_base64", base64.b64encode(self.data).decode("ascii"))
        return self._base64

    @property
    def data_url(self) -> str:
        """The image as a URL: its ``url``, or a ``data:<media_type>;base64,...`` URL.

        Built once per image and cached, like ``base64_data``.
        """
        if self.url is not None:
            return self.url
        if self._data_url is None:
            # From the cached base64 when there is one; else straight from the bytes, so that
            # an image sent only as a data URL is not held twice.
            encoded = self._base64
            if encoded is None:
                assert self.data is not None
                encoded = base64.b64encode(self.data).decode("ascii")
            _set(self, "_data_url", f"data:{self.media_type};base64,{encoded}")
        assert self._data_url is not None
        return self._data_url


@dataclass(frozen=True, slots=True, init=False)
class MultiModalMessage(Message):
    """Text and images in one message; ``content`` is a non-empty sequence, in order."""

    role: Role
    content: tuple[TextMessage | ImageMessage, ...]
    from_: str | None

    def __init__(
        self,
        role: Role | str,
        content: Sequence[TextMessage | ImageMessage],
        from_: str | None = None,
    ) -> None:
        if isinstance(content, str | bytes):
            raise InvalidMessageError("content must be a sequence of messages", field="content")
        items = tuple(content)
        if not items:
            raise InvalidMessageError("content must not be empty", field="content")
        for position, item in enumerate(items):
            if not isinstance(item, TextMessage | ImageMessage):
                raise InvalidMessageError(
                    f"item {position} is a {type(item).__name__}; only TextMessage and "
                    "ImageMessage are allowed",
                    field=f"content[{position}]",
                )
        _set(self, "role", _as_role(role))
        _set(self, "content", items)
        _set(self, "from_", from_)


def _tool_call_tuple(tool_calls: Sequence[ToolCall]) -> tuple[ToolCall, ...]:
    items = tuple(tool_calls)
    for position, item in enumerate(items):
        if not isinstance(item, ToolCall):
            raise InvalidMessageError(
                f"expected ToolCall items, got {type(item).__name__}",
                field=f"tool_calls[{position}]",
            )
    return items


@dataclass(frozen=True, slots=True, init=False)
class ToolCallMessage(Message):
    """A model's request to call one or more tools; ``content`` is text produced beside them."""

    tool_calls: tuple[ToolCall, ...]
    from_: str | None
    content: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    raw: Any = field(compare=False, repr=False)

    def __init__(
        self,
        tool_calls: Sequence[ToolCall],
        from_: str | None = None,
        *,
        content: str | None = None,
        reasoning: Sequence[Reasoning] = (),
        usage: Usage | None = None,
        finish_reason: FinishReason | None = None,
        raw: Any = None,
    ) -> None:
        _set(self, "tool_calls", _tool_call_tuple(tool_calls))
        _set(self, "from_", from_)
        _set(self, "content", content)
        _set(self, "reasoning", _reasoning_tuple(reasoning))
        _set(self, "usage", usage)
        _set(self, "finish_reason", finish_reason)
        _set(self, "raw", raw)

    def get_content(self) -> str | None:
        return self.content

    def get_tool_calls(self) -> list[ToolCall] | None:
        return list(self.tool_calls)


def _join_results(tool_calls: Sequence[ToolCall]) -> str | None:
    results = [call.result for call in tool_calls if call.result is not None]
    return "\n".join(results) if results else None


@dataclass(frozen=True, slots=True, init=False)
class ToolCallResultMessage(Message):
    """The results of tool calls: each ``ToolCall`` carries its ``result`` (and ``is_error``)."""

    tool_calls: tuple[ToolCall, ...]
    from_: str | None

    def __init__(self, tool_calls: Sequence[ToolCall], from_: str | None = None) -> None:
        _set(self, "tool_calls", _tool_call_tuple(tool_calls))
        _set(self, "from_", from_)

    def get_content(self) -> str | None:
        return _join_results(self.tool_calls)


@dataclass(frozen=True, slots=True)
class ToolCallAggregateMessage(Message):
    """A tool-call message and its results, kept together."""

    tool_call_message: ToolCallMessage
    tool_call_result_message: ToolCallResultMessage
    from_: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tool_call_message, ToolCallMessage):
            raise InvalidMessageError(
                "tool_call_message must be a ToolCallMessage", field="tool_call_message"
            )
        if not isinstance(self.tool_call_result_message, ToolCallResultMessage):
            raise InvalidMessageError(
                "tool_call_result_message must be a ToolCallResultMessage",
                field="tool_call_result_message",
            )

    def get_content(self) -> str | None:
        return self.tool_call_result_message.get_content()

    def get_tool_calls(self) -> list[ToolCall] | None:
        return list(self.tool_call_message.tool_calls)


@dataclass(frozen=True, slots=True, init=False)
class TextMessageUpdate(Message):
    """A streamed text delta."""

    role: Role
    content: str
    from_: str | None

    def __init__(self, role: Role | str, content: str, from_: str | None = None) -> None:
        _set(self, "role", _as_role(role))
        _set(self, "content", content)
        _set(self, "from_", from_)

    def get_content(self) -> str | None:
        return self.content


@dataclass(frozen=True, slots=True)
class ReasoningMessageUpdate(Message):
    """A streamed reasoning delta."""

    content: str
    from_: str | None = None

    def get_content(self) -> str | None:
        return self.content


@dataclass(frozen=True, slots=True)
class ToolCallMessageUpdate(Message):
    """A streamed tool-call delta: ``function_arguments_update`` is the new fragment only.

    ``index`` identifies the call within its reply; ``tool_call_id`` and ``function_name`` are
    those of that call (the name as given by the call's first delta).
    """

    function_name: str
    function_arguments_update: str
    from_: str | None = None
    index: int = field(default=0, kw_only=True)
    tool_call_id: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True, init=False)
class MessageEnvelope(Message, Generic[T]):
    """Carries a raw provider object: a request message on the way in, a response on the way out.

    ``metadata`` is a read-only copy of the mapping given.
    """

    content: T = field(hash=False)
    from_: str | None
    metadata: Mapping[str, Any] = field(hash=False)

    def __init__(
        self, content: T, from_: str | None = None, *, metadata: Mapping[str, Any] | None = None
    ) -> None:
        _set(self, "content", content)
        _set(self, "from_", from_)
        _set(self, "metadata", dict(metadata) if metadata else {})


UPDATE_TYPES: Final[tuple[type[Message], ...]] = (
    TextMessageUpdate,
    ReasoningMessageUpdate,
    ToolCallMessageUpdate,
)
"""The streamed-delta message types; everything else a stream yields is a complete message."""
