"""Payload import, written once: one provider turn -> neutral messages, an envelope, or an error.

Each wing's importer reads a provider turn into neutral messages, or says why it cannot
(``Unmapped``); ``TurnImporter.add`` then makes the one decision every importer makes the same
way (API.md 16): the messages join the output, or strict mode raises ``InvalidMessageError``
naming the turn's index and field, or lenient mode keeps the turn as a ``MessageEnvelope``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import Message, MessageEnvelope

__all__ = ["TurnImporter", "Unmapped"]


@dataclass(frozen=True, slots=True)
class Unmapped:
    """Why one provider turn has no neutral form: the ``field`` at fault and the ``reason``."""

    field: str
    reason: str


class TurnImporter(ABC):
    """Template of a payload importer: ``add(turn, index)`` around the wing's ``read``.

    A subclass sets ``turn_name`` (how errors name a turn, e.g. ``"Anthropic request
    message"``), holds ``strict_mode`` and the output list ``out``, and implements ``read``.
    An ``InvalidMessageError`` that ``read`` raises (a value a neutral message refuses, such
    as a bad image) is raised again naming the index, in both modes.
    """

    __slots__ = ()
    turn_name: ClassVar[str]
    strict_mode: bool
    out: list[Message]

    @abstractmethod
    def read(self, turn: Any) -> list[Message] | Unmapped:
        """The neutral messages of ``turn``, or why it has none."""

    def add(self, turn: Any, index: int) -> None:
        """Import provider turn ``index``: its messages, an envelope, or (strict) an error."""
        try:
            messages = self.read(turn)
        except InvalidMessageError as error:
            raise error.at(index) from error
        if not isinstance(messages, Unmapped):
            self.out.extend(messages)
        elif self.strict_mode:
            raise InvalidMessageError(
                f"{self.turn_name} cannot be imported: {messages.reason}",
                index=index,
                field=messages.field,
            )
        else:
            self.out.append(MessageEnvelope(turn))
