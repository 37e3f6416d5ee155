"""Where converted blocks go: merged into alternating turns, or kept one envelope per message.

The converter in ``_request`` emits, per neutral message, the blocks of one role (or system
blocks, or a provider message passed through). A sink decides what becomes of them:
``TurnSink`` builds a whole request (consecutive same-role turns merged, tool results and
thinking moved to the front of their turn); ``EnvelopeSink`` keeps each message separate, as
``process_incoming_messages`` returns them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol

from llmbridge._messages import Message, MessageEnvelope
from llmbridge._notes import NoteRecorder

__all__ = ["Block", "EnvelopeSink", "Sink", "TurnSink"]

Block = dict[str, Any]

# Blocks that must open their turn: tool results in a user turn, thinking in an assistant turn.
_FRONT: Final[dict[str, frozenset[str]]] = {
    "user": frozenset({"tool_result"}),
    "assistant": frozenset({"thinking", "redacted_thinking"}),
}
_REORDERED: Final[dict[str, str]] = {
    "user": "tool results moved before the other blocks of the merged user turn",
    "assistant": "thinking blocks moved to the front of the merged assistant turn",
}


class Sink(Protocol):
    """Receives the converter's output for one neutral message at a time."""

    def add(self, role: str, blocks: list[Block], index: int) -> None:
        """Take the blocks (front kinds first) of one ``user`` or ``assistant`` message."""
        ...

    def add_system(self, blocks: list[Block], index: int) -> None:
        """Take text blocks for the top-level ``system``."""
        ...

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Take a provider message given as-is (an envelope of a dict)."""
        ...


class TurnSink:
    """Builds the request: system blocks, and turns where consecutive same roles are merged.

    A merge records a ``"merged"`` note on the later message; moving tool results (user) or
    thinking (assistant) to the front of a merged turn records a ``"repaired"`` note, and so
    does system text that comes after a turn (it moves to the top-level ``system``). A
    passed-through provider message is its own turn and is never merged or changed.
    ``first_indices[i]`` is the neutral index of the first message of ``messages[i]``.
    """

    __slots__ = (
        "_has_other",
        "_last_index",
        "_last_role",
        "_recorder",
        "first_indices",
        "messages",
        "system",
    )

    def __init__(self, recorder: NoteRecorder, system: list[Block]) -> None:
        self._recorder = recorder
        self.system = system
        self.messages: list[Any] = []
        self.first_indices: list[int] = []
        self._last_role: str | None = None
        self._last_index = 0  # the neutral index of the last message added to the open turn
        # Whether the open turn holds a block that is not of its role's front kind.
        self._has_other = False

    def add(self, role: str, blocks: list[Block], index: int) -> None:
        """Start a turn, or merge into the open one when it has the same role."""
        self._last_index = index
        front = _FRONT[role]
        has_other = blocks[-1]["type"] not in front  # a message's blocks are front kinds first
        if role != self._last_role:
            self.messages.append({"role": role, "content": blocks})
            self.first_indices.append(index)
            self._last_role = role
            self._has_other = has_other
            return
        content: list[Block] = self.messages[-1]["content"]
        self._recorder.note(index, "merged", f"merged into the preceding {role} turn")
        if self._has_other and blocks[0]["type"] in front:
            merged = [*content, *blocks]
            content[:] = [b for b in merged if b["type"] in front]
            content.extend(b for b in merged if b["type"] not in front)
            self._recorder.note(index, "repaired", _REORDERED[role])
        else:
            content.extend(blocks)
        self._has_other = self._has_other or has_other

    def add_system(self, blocks: list[Block], index: int) -> None:
        """Append to the top-level system blocks (noted when a turn came before)."""
        if self.messages:
            self._recorder.note(
                index,
                "repaired",
                "system text after the start of the conversation moved to the top-level system",
            )
        self.system.extend(blocks)

    def trim_prefill(self) -> int | None:
        """Strip trailing whitespace from a final assistant turn's last text (a prefill, which
        Anthropic refuses with trailing whitespace); return the neutral index it came from."""
        if self._last_role != "assistant":
            return None
        content: list[Block] = self.messages[-1]["content"]
        last = content[-1]
        if last["type"] != "text":
            return None
        text: str = last["text"]
        trimmed = text.rstrip()
        if trimmed == text:
            return None
        # A new dict rather than an edit in place: built blocks are never mutated.
        content[-1] = {**last, "text": trimmed}
        return self._last_index

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Lift a system dict into ``system``; any other dict is a turn of its own, unchanged."""
        payload = envelope.content
        if payload.get("role") == "system":
            content = payload.get("content")
            if isinstance(content, str):
                self.system.append({"type": "text", "text": content})
            elif content:
                self.system.extend(content)
            return
        self.messages.append(payload)
        self.first_indices.append(index)
        self._last_role = None  # never merge with a message given as-is


class EnvelopeSink:
    """One ``MessageEnvelope`` per converted message, keeping the source message's ``from_``.

    System text becomes an envelope of ``{"role": "system", "content": [text blocks]}``, which
    ``AnthropicChatAgent`` lifts into the top-level ``system``.
    """

    __slots__ = ("_sources", "envelopes")

    def __init__(self, sources: Sequence[Message]) -> None:
        self._sources = sources
        self.envelopes: list[Message] = []

    def add(self, role: str, blocks: list[Block], index: int) -> None:
        """Wrap the message's blocks as one provider message."""
        payload = {"role": role, "content": blocks}
        self.envelopes.append(MessageEnvelope(payload, self._sources[index].from_))

    def add_system(self, blocks: list[Block], index: int) -> None:
        """Wrap system text blocks as a system message."""
        payload = {"role": "system", "content": blocks}
        self.envelopes.append(MessageEnvelope(payload, self._sources[index].from_))

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Keep the envelope itself."""
        self.envelopes.append(envelope)
