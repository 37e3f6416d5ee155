"""``TextMessage``: the text message (its own module: tool results may hold text parts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._citation import Citation, citation_tuple
from llmbridge._messages._hosted_tool import HostedToolCall, hosted_tool_tuple
from llmbridge._messages._media import OMITTED_WHEN_EMPTY
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
    freeze_provider_data,
)
from llmbridge._messages._values import (
    Message,
    Reasoning,
    Role,
    Usage,
    as_role,
    reasoning_tuple,
    set_field,
)

__all__ = [
    "Citations",
    "FinishReason",
    "HostedTools",
    "TextMessage",
    "set_reply_fields",
    "set_rev3_fields",
]

FinishReason = str
"""One of ``stop``, ``length``, ``tool_calls``, ``content_filter``, ``refusal``, ``pause``, or
the provider's raw string for anything else."""
Citations = Annotated[tuple[Citation, ...], OMITTED_WHEN_EMPTY]
"""The type of a reply's ``citations`` (left out of its JSON when empty)."""
HostedTools = Annotated[tuple[HostedToolCall, ...], OMITTED_WHEN_EMPTY]
"""The type of a reply's ``hosted_tools`` (left out of its JSON when empty)."""


@dataclass(frozen=True, slots=True, init=False)
class TextMessage(Message):
    """A text message; ``reasoning``, ``usage``, ``finish_reason`` and ``raw`` are set on replies.

    ``raw`` (the provider's response object) takes no part in equality or serialization.
    ``provider_data`` (provider tag -> JSON-compatible mapping, frozen at every level) does;
    only the connector of that tag reads its entry. ``citations`` are the sources of spans of
    ``content`` and ``hosted_tools`` the tools the provider ran itself.
    Raises ``InvalidMessageError`` for content that is not a ``str``, for ``provider_data``
    that is not JSON-compatible and for citations or hosted tools that break their rules (a
    citation past the end of ``content``).
    """

    role: Role
    content: str
    from_: str | None
    reasoning: tuple[Reasoning, ...]
    usage: Usage | None
    finish_reason: FinishReason | None
    provider_data: ProviderData
    citations: Citations
    hosted_tools: HostedTools
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
        citations: Sequence[Citation] = (),
        hosted_tools: Sequence[HostedToolCall] = (),
        raw: Any = None,
    ) -> None:
        if not isinstance(content, str):
            raise InvalidMessageError(
                f"content must be a str, got {type(content).__name__}", field="content"
            )
        set_field(self, "role", as_role(role))
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


def set_reply_fields(
    message: Message,
    *,
    from_: str | None,
    reasoning: Sequence[Reasoning],
    usage: Usage | None,
    finish_reason: FinishReason | None,
    provider_data: ProviderData,
    raw: Any,
) -> None:
    """Set the fields a reply message (text, tool calls) has beside its content.

    ``reasoning`` becomes a tuple and ``provider_data`` is frozen; raises
    ``InvalidMessageError`` for ``reasoning`` items or ``provider_data`` that break their rules.
    """
    set_field(message, "from_", from_)
    set_field(message, "reasoning", reasoning_tuple(reasoning))
    set_field(message, "usage", usage)
    set_field(message, "finish_reason", finish_reason)
    if provider_data is not NO_PROVIDER_DATA:  # the default skips a call: a message per delta
        provider_data = freeze_provider_data(provider_data)
    set_field(message, "provider_data", provider_data)
    set_field(message, "raw", raw)


def set_rev3_fields(
    message: Message,
    content: str | None,
    citations: Sequence[Citation],
    hosted_tools: Sequence[HostedToolCall],
) -> None:
    """Set a reply's ``citations`` (each within ``content``) and ``hosted_tools``.

    Raises ``InvalidMessageError`` naming the item that breaks its rule.
    """
    # The empty defaults skip the checks: a reply is built per request, most without either.
    set_field(
        message, "citations", citations if citations == () else citation_tuple(citations, content)
    )
    set_field(
        message,
        "hosted_tools",
        hosted_tools if hosted_tools == () else hosted_tool_tuple(hosted_tools),
    )
