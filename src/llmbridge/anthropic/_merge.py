"""Where converted blocks go: merged into alternating turns, or kept one envelope per message.

The converter in ``_request`` emits, per neutral message, the blocks of one role (or system
blocks, or a provider message passed through). A sink decides what becomes of them:
``TurnSink`` builds a whole request (consecutive same-role turns merged, tool results and
thinking moved to the front of their turn); ``PayloadSink`` keeps each message separate, as
``process_incoming_messages`` returns them.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from llmbridge import MessageEnvelope
from llmbridge.kit import NoteRecorder

__all__ = ["Block", "PayloadSink", "Sink", "TurnSink"]

Block = dict[str, Any]

# Blocks that must open their turn: tool results in a user turn, thinking in an assistant turn.
_FRONT: Final[dict[str, frozenset[str]]] = {
    "user": frozenset({"tool_result"}),
    "assistant": frozenset({"thinking", "redacted_thinking"}),
}
_MERGED: Final = {role: f"merged into the preceding {role} turn" for role in _FRONT}
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


def _raw_blocks(content: Any) -> list[Block] | None:
    """A provider message's content as a new list of blocks (a str is one text block); ``None``
    when it has none to merge."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else None
    if isinstance(content, list) and content and all(_is_block(b) for b in content):
        return list(content)
    return None


def _is_block(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("type"), str)


class TurnSink:
    """Builds the request: system blocks, and turns where consecutive same roles are merged.

    A merge records a ``"merged"`` note on the later message; moving tool results (user) or
    thinking (assistant) to the front of a merged turn records a ``"repaired"`` note, and so
    does system text that comes after a turn (it moves to the top-level ``system``). A
    passed-through provider message merges with neighbouring turns of its role like any other
    (its content as blocks, in a new turn dict: the caller's dict is never changed); alone, it
    is sent as it is. ``first_indices[i]`` is the neutral index of the first message of
    ``messages[i]``.
    """

    __slots__ = (
        "_has_other",
        "_last_index",
        "_last_role",
        "_raw",
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
        # Whether the open turn is a provider message as given (not yet merged into).
        self._raw = False

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
            self._raw = False
            return
        self._merge(role, blocks, index, True, has_other)

    def _merge(
        self, role: str, blocks: list[Block], index: int, front_first: bool, has_other: bool
    ) -> None:
        front = _FRONT[role]
        if self._raw:
            # Merging into a provider message as given: its blocks go into a new turn.
            opened = _raw_blocks(self.messages[-1].get("content")) or []
            self.messages[-1] = {"role": role, "content": opened}
            self._has_other = any(b.get("type") not in front for b in opened)
            self._raw = False
        content: list[Block] = self.messages[-1]["content"]
        self._recorder.record(index, "merged", _MERGED[role])
        # Neutral blocks come front kinds first; a provider message's may not.
        brings_front = (
            blocks[0].get("type") in front
            if front_first
            else any(b.get("type") in front for b in blocks)
        )
        if self._has_other and brings_front:
            merged = [*content, *blocks]
            content[:] = [b for b in merged if b.get("type") in front]
            content.extend(b for b in merged if b.get("type") not in front)
            self._recorder.record(index, "repaired", _REORDERED[role])
        else:
            content.extend(blocks)
        self._has_other = self._has_other or has_other

    def add_system(self, blocks: list[Block], index: int) -> None:
        """Append to the top-level system blocks (noted when a turn came before)."""
        if self.messages:
            self._recorder.record(
                index,
                "repaired",
                "system text after the start of the conversation moved to the top-level system",
            )
        self.system.extend(blocks)

    def trim_prefill(self) -> int | None:
        """Strip trailing whitespace from a final assistant turn's last text (a prefill, which
        Anthropic refuses with trailing whitespace; a text left empty goes); return the neutral
        index it came from.

        A provider message sent as it is stays as it is."""
        if self._last_role != "assistant" or self._raw:
            return None
        content: list[Block] = self.messages[-1]["content"]
        last = content[-1]
        if last["type"] != "text":
            return None
        text: str = last["text"]
        trimmed = text.rstrip()
        if trimmed == text:
            return None
        if trimmed:
            # A new dict rather than an edit in place: built blocks are never mutated.
            content[-1] = {**last, "text": trimmed}
        elif len(content) > 1:
            del content[-1]  # whitespace after a hosted tool block: an empty block is a 400
        else:
            return None
        return self._last_index

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Lift a system dict into ``system``; merge a user or assistant dict with an open turn
        of its role, else start a turn with the dict itself."""
        payload = envelope.content
        role = payload.get("role")
        if role == "system":
            content = payload.get("content")
            if isinstance(content, str):
                self.system.append({"type": "text", "text": content})
            elif content:
                self.system.extend(content)
            return
        blocks = _raw_blocks(payload.get("content"))
        if role == self._last_role and blocks is not None:
            self._last_index = index
            front = _FRONT[role]
            has_other = any(b.get("type") not in front for b in blocks)
            self._merge(role, blocks, index, False, has_other)
            return
        self.messages.append(payload)
        self.first_indices.append(index)
        self._last_index = index
        # A message whose content cannot be read as blocks is never merged with.
        self._last_role = role if blocks is not None else None
        self._raw = True


class PayloadSink:
    """One payload per converted message, in order, with the neutral index of each.

    System text becomes ``{"role": "system", "content": [text blocks]}``, which
    ``AnthropicChatAgent`` lifts into the top-level ``system``; an envelope's dict is kept as
    it is (the same object, so the connector passes the envelope itself on).
    """

    __slots__ = ("indices", "payloads")

    def __init__(self) -> None:
        self.payloads: list[Any] = []
        self.indices: list[int] = []

    def add(self, role: str, blocks: list[Block], index: int) -> None:
        """Keep the message's blocks as one provider message."""
        self.payloads.append({"role": role, "content": blocks})
        self.indices.append(index)

    def add_system(self, blocks: list[Block], index: int) -> None:
        """Keep system text blocks as a system message."""
        self.payloads.append({"role": "system", "content": blocks})
        self.indices.append(index)

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Keep the envelope's own dict."""
        self.payloads.append(envelope.content)
        self.indices.append(index)
