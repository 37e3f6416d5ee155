"""What neutral messages are made of: ``Role``, ``Reasoning``, ``Usage``, and the
``Message`` base class (with the construction helpers the message types share)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Final, TypeVar

import pydantic_core

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
    freeze_provider_data,
)

if TYPE_CHECKING:  # the annotation of get_tool_calls only (ToolCall's module imports this one)
    from llmbridge._messages._tool_call import ToolCall

__all__ = [
    "Message",
    "Reasoning",
    "Role",
    "Usage",
    "as_json_text",
    "as_role",
    "reasoning_tuple",
    "set_field",
    "typed_tuple",
]

_T = TypeVar("_T")


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
set_field: Final = object.__setattr__


def as_role(role: Role | str) -> Role:
    return role if type(role) is Role else Role(role)


def slot_setters(cls: type, *names: str) -> tuple[Callable[[object, object], None], ...]:
    """The ``__set__`` of each named slot of the frozen class ``cls``, for its ``__init__``.

    Only for the stream updates, built once per delta: a slot's own descriptor skips the name
    lookup ``object.__setattr__`` makes, so an update is built in about three quarters of the
    time and a stream aggregates 15-25% faster (make bench --only streams, Responses and
    Anthropic).
    """
    return tuple(vars(cls)[name].__set__ for name in names)


@dataclass(frozen=True, slots=True)
class Reasoning:
    """Model reasoning attached to a reply.

    ``signature`` and ``redacted_data`` are opaque to llmbridge and are only ever sent back to
    the ``provider`` that produced them. ``provider_data`` (provider tag -> JSON-compatible
    mapping, frozen) is read only by the connector of that tag; raises ``InvalidMessageError``
    for a value that is not JSON-compatible.
    """

    text: str
    signature: str | None = field(default=None, kw_only=True)
    redacted_data: str | None = field(default=None, kw_only=True)
    provider: str | None = field(default=None, kw_only=True)
    provider_data: ProviderData = field(default=NO_PROVIDER_DATA, kw_only=True)

    def __post_init__(self) -> None:
        if self.provider_data is not NO_PROVIDER_DATA:
            set_field(self, "provider_data", freeze_provider_data(self.provider_data))


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


class Message:
    """Base class of every neutral message.

    ``from_`` is the sender's agent name (``None``: the caller, or unknown). A message can be
    referenced weakly (``weakref.ref``), as a ``kit.ScanCache`` holds the conversations it
    keeps scans of.
    """

    __slots__ = ("__weakref__",)
    from_: str | None

    def get_content(self) -> str | None:
        """The message's text, or ``None`` for messages that carry none."""
        return None

    def get_tool_calls(self) -> list[ToolCall] | None:
        """The tool calls the message carries, or ``None``."""
        return None


def reasoning_tuple(reasoning: Sequence[Reasoning]) -> tuple[Reasoning, ...]:
    items = tuple(reasoning)
    for item in items:
        if not isinstance(item, Reasoning):
            raise InvalidMessageError(
                f"expected Reasoning items, got {type(item).__name__}", field="reasoning"
            )
    return items


def as_json_text(value: object, field_name: str) -> str:
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


def typed_tuple(items: Sequence[_T], cls: type[_T], field_name: str) -> tuple[_T, ...]:
    """``items`` as a tuple of ``cls`` instances; raises ``InvalidMessageError`` (field
    ``<field_name>[i]``) for the first item of another type."""
    result = tuple(items)
    for position, item in enumerate(result):
        if not isinstance(item, cls):
            raise InvalidMessageError(
                f"expected {cls.__name__} items, got {type(item).__name__}",
                field=f"{field_name}[{position}]",
            )
    return result
