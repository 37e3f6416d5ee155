"""How each neutral message takes part in tool pairing, decided once per message."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Final, Literal, TypeAlias

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
    "RawTurn",
    "RawTurnHook",
    "TurnKind",
    "generic_raw_turn",
    "turn_kind",
]

RawTurn: TypeAlias = Literal["assistant", "movable", "opaque"]
"""How a provider message given as-is (an envelope's content) takes part in tool pairing:
``"assistant"`` (an assistant turn), ``"movable"`` (a turn that may be moved after the results
it interrupts) or ``"opaque"`` (left alone: it may carry results the neutral step cannot see)."""

RawTurnHook: TypeAlias = Callable[[Any], RawTurn]
"""A provider's classifier of its own raw request messages (see ``prepare_conversation``)."""


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
_RAW_KINDS: Final[dict[str, TurnKind]] = {
    "assistant": ASSISTANT,
    "movable": MOVABLE,
    "opaque": OPAQUE,
}
_SYSTEM: Final = str(Role.SYSTEM)
_ASSISTANT_ROLE: Final = str(Role.ASSISTANT)
_PLAIN_ROLES: Final = frozenset({"user", "system", "developer"})


def generic_raw_turn(payload: Any) -> RawTurn:
    """The classification used when no provider hook is given: the common chat convention.

    A dict with role ``"assistant"`` is an assistant turn; one with role ``"user"``,
    ``"system"`` or ``"developer"`` and text content (a string, or none) is movable; anything
    else is opaque (its content may hold tool results, which only its provider can read).
    """
    if not isinstance(payload, dict):
        return "opaque"
    role = payload.get("role")
    if not isinstance(role, str):
        return "opaque"
    if role == _ASSISTANT_ROLE:
        return "assistant"
    if role in _PLAIN_ROLES and isinstance(payload.get("content", ""), str):
        return "movable"
    return "opaque"


def turn_kind(
    message: Message, agent_name: str, raw_turn: RawTurnHook = generic_raw_turn
) -> TurnKind:
    """Classify ``message`` as the pairing step sees it, for the agent named ``agent_name``."""
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
        case MessageEnvelope(content=payload):
            return _RAW_KINDS.get(raw_turn(payload), OPAQUE)
        case _:
            return OPAQUE
