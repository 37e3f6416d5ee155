"""The neutral messages: provider-independent, immutable values with value equality."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._image import ImageDetail, ImageMessage
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
    freeze_provider_data,
)
from llmbridge._messages._values import (
    Message,
    Reasoning,
    Role,
    ToolCall,
    Usage,
    as_role,
    reasoning_tuple,
    set_field,
)

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


@dataclass(frozen=True, slots=True, init=False)
class TextMessage(Message):
    """A text message; ``reasoning``, ``usage``, ``finish_reason`` and ``raw`` are set on replies.

    ``raw`` (the provider's response object) takes no part in equality or serialization.
    ``provider_data`` (provider tag -> JSON-compatible mapping, frozen at every level) does;
    only the connector of that tag reads its entry. Raises ``InvalidMessageError`` for content
    that is not a ``str`` and for ``provider_data`` that is not JSON-compatible.
    """

    role: Role
    content: str
    from_: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    provider_data: ProviderData
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
        provider_data: ProviderData = NO_PROVIDER_DATA,
        raw: Any = None,
    ) -> None:
        if not isinstance(content, str):
            raise InvalidMessageError(
                f"content must be a str, got {type(content).__name__}", field="content"
            )
        set_field(self, "role", as_role(role))
        set_field(self, "content", content)
        set_field(self, "from_", from_)
        set_field(self, "reasoning", reasoning_tuple(reasoning))
        set_field(self, "usage", usage)
        set_field(self, "finish_reason", finish_reason)
        if provider_data is not NO_PROVIDER_DATA:  # the default skips a call: a message per delta
            provider_data = freeze_provider_data(provider_data)
        set_field(self, "provider_data", provider_data)
        set_field(self, "raw", raw)

    def get_content(self) -> str | None:
        return self.content


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
        set_field(self, "role", as_role(role))
        set_field(self, "content", items)
        set_field(self, "from_", from_)


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
    """A model's request to call one or more tools; ``content`` is text produced beside them.

    ``provider_data`` is as on ``TextMessage``; ``raw`` takes no part in equality.
    """

    tool_calls: tuple[ToolCall, ...]
    from_: str | None
    content: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    provider_data: ProviderData
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
        provider_data: ProviderData = NO_PROVIDER_DATA,
        raw: Any = None,
    ) -> None:
        set_field(self, "tool_calls", _tool_call_tuple(tool_calls))
        set_field(self, "from_", from_)
        set_field(self, "content", content)
        set_field(self, "reasoning", reasoning_tuple(reasoning))
        set_field(self, "usage", usage)
        set_field(self, "finish_reason", finish_reason)
        if provider_data is not NO_PROVIDER_DATA:  # the default skips a call: a message per delta
            provider_data = freeze_provider_data(provider_data)
        set_field(self, "provider_data", provider_data)
        set_field(self, "raw", raw)

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
        set_field(self, "tool_calls", _tool_call_tuple(tool_calls))
        set_field(self, "from_", from_)

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
        set_field(self, "role", as_role(role))
        set_field(self, "content", content)
        set_field(self, "from_", from_)

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


# Slots declared by hand, not slots=True: that makes a second class, and the frozen __setattr__
# dataclass writes for the first one fails (TypeError, not FrozenInstanceError) on instances of
# the second, which broke MessageEnvelope[T](...) (typing sets __orig_class__ and expects an
# AttributeError when it cannot).
@dataclass(frozen=True, init=False)
class MessageEnvelope(Message, Generic[T]):
    """Carries a raw provider object: a request message on the way in, a response on the way out.

    ``metadata`` is a read-only view (``types.MappingProxyType``) of a copy of the mapping given.
    ``MessageEnvelope[T](content)`` constructs as ``MessageEnvelope(content)`` does. Equality
    compares content, ``from_`` and metadata; the hash is that of ``from_``.
    """

    __slots__ = ("content", "from_", "metadata")
    content: T
    from_: str | None
    metadata: Mapping[str, Any]

    def __init__(
        self, content: T, from_: str | None = None, *, metadata: Mapping[str, Any] | None = None
    ) -> None:
        set_field(self, "content", content)
        set_field(self, "from_", from_)
        set_field(self, "metadata", MappingProxyType(dict(metadata) if metadata else {}))

    def __hash__(self) -> int:
        # The content (a dict, an SDK model) and the metadata need not be hashable.
        return hash(self.from_)

    def __reduce__(self) -> tuple[Any, ...]:
        # A mapping proxy neither pickles nor deep-copies: rebuild from a plain copy.
        return (_envelope, (self.content, self.from_, dict(self.metadata)))


def _envelope(content: Any, from_: str | None, metadata: dict[str, Any]) -> MessageEnvelope[Any]:
    return MessageEnvelope(content, from_, metadata=metadata)


UPDATE_TYPES: Final[tuple[type[Message], ...]] = (
    TextMessageUpdate,
    ReasoningMessageUpdate,
    ToolCallMessageUpdate,
)
"""The streamed-delta message types; everything else a stream yields is a complete message."""
