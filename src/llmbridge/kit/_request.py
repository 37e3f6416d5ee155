"""``ProviderRequest``: the common base of every ``to_*`` conversion result."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from llmbridge.kit._notes import ConversionNote

__all__ = ["ProviderRequest"]

_NO_IDS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True, kw_only=True)
class ProviderRequest:
    """A neutral conversation converted for one provider.

    ``messages`` is the provider's list of turns or items; ``indices[i]`` is the index of the
    neutral message that ``messages[i]`` came from (a merged turn names its first message);
    ``notes`` records what the conversion changed; ``tool_ids`` (read-only) maps a neutral
    ``tool_call_id`` to the id sent, for the ids the target's ``ToolIdRule`` changed. Provider
    subclasses add their own fields (``system``, ``system_instruction``).

    Raises ``ValueError`` when ``indices`` does not have one entry per element of ``messages``.
    """

    messages: Sequence[Any]
    indices: tuple[int, ...]
    notes: tuple[ConversionNote, ...] = ()
    tool_ids: Mapping[str, str] = field(default_factory=lambda: _NO_IDS)

    def __post_init__(self) -> None:
        if len(self.indices) != len(self.messages):
            raise ValueError(
                f"indices has {len(self.indices)} entries for {len(self.messages)} messages"
            )
        if not isinstance(self.indices, tuple):
            object.__setattr__(self, "indices", tuple(self.indices))
        if not isinstance(self.notes, tuple):
            object.__setattr__(self, "notes", tuple(self.notes))
        if self.tool_ids is not _NO_IDS and not isinstance(self.tool_ids, MappingProxyType):
            object.__setattr__(self, "tool_ids", MappingProxyType(dict(self.tool_ids or {})))

    def agent_input(self) -> Iterator[tuple[Any, int | None]]:
        """The payloads a provider agent receives, each with its neutral index.

        The base class yields ``messages`` with ``indices``; a subclass whose request has other
        parts the agent takes as messages (a top-level system prompt) yields those first, with
        index ``None`` (no sender). ``MessageConnector`` wraps each in a ``MessageEnvelope``.
        """
        yield from zip(self.messages, self.indices, strict=True)
