"""``TextMessage``: the text message (its own module: tool results may hold text parts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llmbridge._errors import InvalidMessageError
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

__all__ = ["FinishReason", "TextMessage", "set_reply_fields"]

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
        set_reply_fields(
            self,
            from_=from_,
            reasoning=reasoning,
            usage=usage,
            finish_reason=finish_reason,
            provider_data=provider_data,
            raw=raw,
        )

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
