"""The neutral messages: provider-independent, immutable values with value equality."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._citation import Citation
from llmbridge._messages._documents import AudioMessage, DocumentMessage
from llmbridge._messages._hosted_tool import HostedToolCall
from llmbridge._messages._image import ImageMessage
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
)
from llmbridge._messages._text import (
    Citations,
    FinishReason,
    HostedTools,
    TextMessage,
    set_reply_fields,
    set_rev3_fields,
)
from llmbridge._messages._tool_call import ToolCall, joined_results
from llmbridge._messages._values import (
    Message,
    Reasoning,
    Role,
    Usage,
    as_role,
    set_field,
    slot_setters,
    typed_tuple,
)
from llmbridge._messages._video import VideoMessage

__all__ = [
    "UPDATE_TYPES",
    "MessageEnvelope",
    "MultiModalMessage",
    "ReasoningMessageUpdate",
    "TextMessageUpdate",
    "ToolCallAggregateMessage",
    "ToolCallMessage",
    "ToolCallMessageUpdate",
    "ToolCallResultMessage",
]

T = TypeVar("T")
_MULTIMODAL_ITEMS: Final = (TextMessage, ImageMessage, DocumentMessage, AudioMessage, VideoMessage)


@dataclass(frozen=True, slots=True, init=False)
class MultiModalMessage(Message):
    """Text, images, documents, audio and video in one message; ``content`` is a non-empty
    sequence, in order. Raises ``InvalidMessageError`` for an empty one and for any other item."""

    role: Role
    content: tuple[TextMessage | ImageMessage | DocumentMessage | AudioMessage | VideoMessage, ...]
    from_: str | None

    def __init__(
        self,
        role: Role | str,
        content: Sequence[
            TextMessage | ImageMessage | DocumentMessage | AudioMessage | VideoMessage
        ],
        from_: str | None = None,
    ) -> None:
        if isinstance(content, str | bytes):
            raise InvalidMessageError("content must be a sequence of messages", field="content")
        items = tuple(content)
        if not items:
            raise InvalidMessageError("content must not be empty", field="content")
        for position, item in enumerate(items):
            if not isinstance(item, _MULTIMODAL_ITEMS):
                raise InvalidMessageError(
                    f"item {position} is a {type(item).__name__}; only TextMessage, "
                    "ImageMessage, DocumentMessage, AudioMessage and VideoMessage are allowed",
                    field=f"content[{position}]",
                )
        set_field(self, "role", as_role(role))
        set_field(self, "content", items)
        set_field(self, "from_", from_)


@dataclass(frozen=True, slots=True, init=False)
class ToolCallMessage(Message):
    """A model's request to call one or more tools; ``content`` is text produced beside them.

    ``provider_data``, ``citations`` and ``hosted_tools`` are as on ``TextMessage`` (citations
    are spans of ``content``); ``raw`` takes no part in equality.
    """

    tool_calls: tuple[ToolCall, ...]
    from_: str | None
    content: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    provider_data: ProviderData
    citations: Citations
    hosted_tools: HostedTools
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
        citations: Sequence[Citation] = (),
        hosted_tools: Sequence[HostedToolCall] = (),
        raw: Any = None,
    ) -> None:
        set_field(self, "tool_calls", typed_tuple(tool_calls, ToolCall, "tool_calls"))
        set_field(self, "content", content)
        set_reply_fields(
            self,
            from_=from_,
            reasoning=reasoning,
            usage=usage,
            finish_reason=finish_reason,
            provider_data=provider_data,
            raw=raw,
        )
        set_rev3_fields(self, content, citations, hosted_tools)

    def get_content(self) -> str | None:
        return self.content

    def get_tool_calls(self) -> list[ToolCall] | None:
        return list(self.tool_calls)


@dataclass(frozen=True, slots=True, init=False)
class ToolCallResultMessage(Message):
    """The results of tool calls: each ``ToolCall`` carries its ``result`` (and ``is_error``).

    ``get_content()`` joins the results' texts with ``"\n"`` (of a parts result, its text
    parts); ``None`` when there is none.
    """

    tool_calls: tuple[ToolCall, ...]
    from_: str | None

    def __init__(self, tool_calls: Sequence[ToolCall], from_: str | None = None) -> None:
        set_field(self, "tool_calls", typed_tuple(tool_calls, ToolCall, "tool_calls"))
        set_field(self, "from_", from_)

    def get_content(self) -> str | None:
        return joined_results(self.tool_calls)


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
        _TEXT_ROLE(self, role if type(role) is Role else Role(role))
        _TEXT_CONTENT(self, content)
        _TEXT_FROM(self, from_)

    def get_content(self) -> str | None:
        return self.content


@dataclass(frozen=True, slots=True, init=False)
class ReasoningMessageUpdate(Message):
    """A streamed reasoning delta."""

    content: str
    from_: str | None = None

    def __init__(self, content: str, from_: str | None = None) -> None:
        _REASONING_CONTENT(self, content)
        _REASONING_FROM(self, from_)

    def get_content(self) -> str | None:
        return self.content


@dataclass(frozen=True, slots=True, init=False)
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

    def __init__(
        self,
        function_name: str,
        function_arguments_update: str,
        from_: str | None = None,
        *,
        index: int = 0,
        tool_call_id: str | None = None,
    ) -> None:
        _CALL_NAME(self, function_name)
        _CALL_ARGUMENTS(self, function_arguments_update)
        _CALL_FROM(self, from_)
        _CALL_INDEX(self, index)
        _CALL_ID(self, tool_call_id)


# An update is built per delta: its fields are set through the slots' own descriptors.
_TEXT_ROLE, _TEXT_CONTENT, _TEXT_FROM = slot_setters(TextMessageUpdate, "role", "content", "from_")
_REASONING_CONTENT, _REASONING_FROM = slot_setters(ReasoningMessageUpdate, "content", "from_")
_CALL_NAME, _CALL_ARGUMENTS, _CALL_FROM, _CALL_INDEX, _CALL_ID = slot_setters(
    ToolCallMessageUpdate,
    "function_name",
    "function_arguments_update",
    "from_",
    "index",
    "tool_call_id",
)


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
