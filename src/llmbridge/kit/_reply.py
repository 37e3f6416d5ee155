"""The outbound rules of a reply (provider -> neutral), coded once for every provider.

A provider's response and stream conversions both gather a ``ReplyParts`` and hand it to
``build_reply``; a stream aggregator's ``partial`` uses ``partial_reply``. So a streamed reply
equals the non-streamed one by construction, and every provider applies the same table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from llmbridge._errors import ContentFilteredError, EmptyResponseError, RefusalError
from llmbridge._messages import (
    Citation,
    HostedToolCall,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    Usage,
)

__all__ = ["ReplyParts", "build_reply", "partial_reply"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplyParts:
    """What one provider reply is made of, in neutral terms.

    ``text`` is the reply's text (``None`` or ``""``: none); ``reasoning`` and ``tool_calls`` in
    the order the provider gave them; ``finish_reason`` already mapped to the neutral values
    (``"stop"``, ``"length"``, ``"tool_calls"``, ``"content_filter"``, ``"refusal"``,
    ``"pause"``) or the provider's raw string; ``refusal`` is ``None`` when the model did not
    refuse and the refusal text otherwise (any string, ``""`` included, is a refusal);
    ``content_filtered`` says the provider's filter stopped the reply; ``provider_data``
    (``None``: none) goes on the message built, frozen there (provider tag -> JSON-compatible
    mapping; ``build_reply`` and ``partial_reply`` raise ``InvalidMessageError`` for other values).
    ``citations`` (offsets in ``text``) and ``hosted_tools`` (tools the provider ran itself) go on
    the message built, as the provider gave them; they never make a reply on their own, except a
    reply of hosted tools only that paused (``finish_reason == "pause"``), which is a
    ``TextMessage`` with ``""``, so it can be sent back and continued.
    """

    text: str | None = None
    reasoning: tuple[Reasoning, ...] = ()
    tool_calls: tuple[ToolCall, ...] = field(default=())
    finish_reason: str | None = None
    usage: Usage | None = None
    refusal: str | None = None
    content_filtered: bool = False
    provider_data: Mapping[str, Mapping[str, Any]] | None = None
    citations: tuple[Citation, ...] = ()
    hosted_tools: tuple[HostedToolCall, ...] = ()


def partial_reply(parts: ReplyParts, *, agent_name: str, raw: Any = None) -> Message | None:
    """The message ``parts`` make so far, unchecked: for ``StreamAggregator.partial``.

    A ``ToolCallMessage`` when there are tool calls, else a ``TextMessage`` when there is text,
    reasoning or a hosted tool call, else ``None``. Never raises for a refusal or a content filter.
    """
    provider_data = {} if parts.provider_data is None else parts.provider_data
    if parts.tool_calls:
        return ToolCallMessage(
            parts.tool_calls,
            agent_name,
            content=parts.text or None,
            reasoning=parts.reasoning,
            usage=parts.usage,
            finish_reason=parts.finish_reason,
            provider_data=provider_data,
            raw=raw,
            citations=parts.citations,
            hosted_tools=parts.hosted_tools,
        )
    if parts.text or parts.reasoning or parts.hosted_tools:
        return TextMessage(
            Role.ASSISTANT,
            parts.text or "",
            agent_name,
            reasoning=parts.reasoning,
            usage=parts.usage,
            finish_reason=parts.finish_reason,
            provider_data=provider_data,
            raw=raw,
            citations=parts.citations,
            hosted_tools=parts.hosted_tools,
        )
    return None


def build_reply(parts: ReplyParts, *, agent_name: str, raw: Any) -> Message:
    """Apply the outbound table to one reply and return the neutral message (from ``agent_name``).

    In order: a content filter raises ``ContentFilteredError``; a refusal raises
    ``RefusalError`` (``.refusal`` is the refusal text); tool calls give a ``ToolCallMessage``
    (text beside them as ``content``); text, or hosted tool calls only with finish reason
    ``"pause"``, gives a ``TextMessage``; anything else raises ``EmptyResponseError``. Every error
    carries ``raw`` as ``.response``.
    """
    if parts.content_filtered or parts.finish_reason == "content_filter":
        raise ContentFilteredError(
            "the provider stopped the reply with its content filter", response=raw
        )
    if parts.refusal is not None:
        detail = f": {parts.refusal}" if parts.refusal else ""
        raise RefusalError(f"the model refused{detail}", refusal=parts.refusal, response=raw)
    if parts.tool_calls or parts.text or (parts.hosted_tools and parts.finish_reason == "pause"):
        message = partial_reply(parts, agent_name=agent_name, raw=raw)
        assert message is not None  # tool calls or text make a message
        return message
    raise EmptyResponseError(
        f"the reply holds neither text nor tool calls (finish reason {parts.finish_reason!r})",
        response=raw,
    )
