"""How each neutral message takes part in tool pairing, decided once per message."""

from __future__ import annotations

import enum
from collections.abc import Collection
from typing import Any, Final

from llmbridge._messages import (
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)

__all__ = [
    "AGGREGATE",
    "ASSISTANT",
    "CALL",
    "MOVABLE",
    "OPAQUE",
    "RESULT",
    "TurnKind",
    "turn_kind",
]


class TurnKind(enum.Enum):
    """How a neutral message takes part in tool pairing."""

    CALL = "call"  # becomes an assistant turn with tool calls
    AGGREGATE = "aggregate"  # a call and its results in one message
    RESULT = "result"  # becomes tool results
    ASSISTANT = "assistant"  # becomes an assistant turn without tool calls
    MOVABLE = "movable"  # any other turn: may be moved after the results it interrupts
    OPAQUE = "opaque"  # raw results, unknown raw messages, types the conversion drops: left alone


# Enum attribute access is slow on the hot path: module constants are plain global loads.
CALL: Final = TurnKind.CALL
AGGREGATE: Final = TurnKind.AGGREGATE
RESULT: Final = TurnKind.RESULT
ASSISTANT: Final = TurnKind.ASSISTANT
MOVABLE: Final = TurnKind.MOVABLE
OPAQUE: Final = TurnKind.OPAQUE
_SYSTEM: Final = str(Role.SYSTEM)
_ASSISTANT_ROLE: Final = str(Role.ASSISTANT)

# Raw provider messages (envelopes of dicts) with these roles do not become assistant turns.
_RAW_MOVABLE_ROLES: Final = frozenset({"user", "system", "developer"})


def _raw_turn(payload: dict[Any, Any], roles: Collection[str] | None) -> TurnKind:
    # A provider message given as-is becomes the turn its role names (the wire would reject an
    # assistant or user turn between a call and its results just the same). One that carries
    # tool results (Anthropic "tool_result" blocks; OpenAI's role "tool" is not movable) is
    # left alone: it may answer the calls, which the neutral check cannot see. So is one whose
    # role the target does not take (``roles``): the conversion drops it.
    role = payload.get("role")
    if not isinstance(role, str) or (roles is not None and role not in roles):
        return OPAQUE
    if role == _ASSISTANT_ROLE:
        return ASSISTANT
    if role not in _RAW_MOVABLE_ROLES:
        return OPAQUE
    content = payload.get("content")
    if isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_result" for block in content
    ):
        return OPAQUE
    return MOVABLE


def turn_kind(
    message: Message, agent_name: str, envelope_roles: Collection[str] | None = None
) -> TurnKind:
    """Classify ``message`` as the pairing step sees it, for the agent named ``agent_name``.

    ``envelope_roles`` are the roles of raw provider messages (envelopes of dicts) the target
    takes; an envelope of another role is left alone, as the conversion drops it. ``None``:
    every role is taken.
    """
    # This runs for every message of every request: the common types first, no helper calls.
    if isinstance(message, TextMessage):
        role, from_ = message.role, message.from_
        if role != _SYSTEM and (from_ == agent_name or (from_ is None and role == _ASSISTANT_ROLE)):
            return ASSISTANT
        return MOVABLE
    if isinstance(message, ToolCallMessage):
        return CALL if message.from_ is None or message.from_ == agent_name else OPAQUE
    if isinstance(message, ToolCallResultMessage):
        return RESULT
    match message:
        case ToolCallAggregateMessage(from_=from_):
            return AGGREGATE if from_ is None or from_ == agent_name else MOVABLE
        case ImageMessage() | MultiModalMessage():
            return MOVABLE
        case MessageEnvelope(content=dict() as payload):
            return _raw_turn(payload, envelope_roles)
        case _:
            return OPAQUE
