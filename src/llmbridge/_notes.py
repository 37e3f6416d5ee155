"""Conversion notes, and the one place where lenient and strict mode decide."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from llmbridge._errors import InvalidMessageError, UnsupportedMessageError

__all__ = ["ConversionNote", "NoteKind", "NoteRecorder", "log_notes"]

NoteKind = Literal["dropped", "merged", "renamed", "repaired", "omitted"]

logger: Final = logging.getLogger("llmbridge")

# Kinds that lose information: strict mode raises instead of recording them.
_LOSSY: Final = frozenset({"dropped", "renamed"})
_LEVELS: Final[dict[str, int]] = {
    "dropped": logging.WARNING,
    "renamed": logging.WARNING,
    "merged": logging.INFO,
    "repaired": logging.INFO,
    "omitted": logging.INFO,
}


@dataclass(frozen=True, slots=True)
class ConversionNote:
    """A change a conversion made to the conversation.

    ``index`` is the position of the neutral message concerned (``None`` when no single message
    is); ``kind`` is ``"dropped"`` or ``"renamed"`` (information lost: strict mode raises
    instead), or ``"merged"``, ``"repaired"``, ``"omitted"`` (nothing lost, never raises).
    """

    index: int | None
    kind: NoteKind
    detail: str


class NoteRecorder:
    """Collects the notes of one conversion and applies the lenient/strict decision.

    ``note()`` records a change, raising ``InvalidMessageError`` in strict mode when the change
    loses information; ``unsupported()`` does the same for a message type the target cannot
    carry, raising ``UnsupportedMessageError``.
    """

    __slots__ = ("notes", "strict_mode")

    def __init__(self, *, strict_mode: bool) -> None:
        self.strict_mode = strict_mode
        self.notes: list[ConversionNote] = []

    def note(
        self, index: int | None, kind: NoteKind, detail: str, *, field: str | None = None
    ) -> None:
        """Record a note; in strict mode a lossy kind raises ``InvalidMessageError``."""
        if self.strict_mode and kind in _LOSSY:
            raise InvalidMessageError(f"{detail} (strict mode)", index=index, field=field)
        self.notes.append(ConversionNote(index, kind, detail))

    def unsupported(self, index: int | None, detail: str) -> None:
        """Drop an unsupported message (note); strict mode raises ``UnsupportedMessageError``."""
        if self.strict_mode:
            raise UnsupportedMessageError(f"{detail} (strict mode)", index=index)
        self.notes.append(ConversionNote(index, "dropped", detail))


def log_notes(notes: Iterable[ConversionNote], *, source: str) -> None:
    """Log each note to the ``llmbridge`` logger: INFO, or WARNING for lossy kinds."""
    for note in notes:
        if logger.isEnabledFor(_LEVELS[note.kind]):
            where = f"message {note.index}" if note.index is not None else "request"
            logger.log(_LEVELS[note.kind], "%s: %s %s: %s", source, where, note.kind, note.detail)
