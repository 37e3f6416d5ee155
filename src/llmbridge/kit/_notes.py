"""Conversion notes, and the one place where lenient and strict mode decide."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from llmbridge._errors import InvalidMessageError, UnsupportedMessageError

if TYPE_CHECKING:
    from llmbridge._messages import Message

__all__ = ["ConversionNote", "NoteKind", "NoteLog", "NoteRecorder", "log_notes"]

NoteKind = Literal["dropped", "merged", "renamed", "repaired", "omitted"]
"""The kinds of change a conversion records; ``dropped`` and ``renamed`` lose information."""

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
    """Collects the notes of one conversion and applies the lenient/strict decision, once.

    ``record(index, kind, detail)`` appends a ``ConversionNote``; in strict mode a lossy kind
    (``"dropped"``, ``"renamed"``) raises instead: ``error`` (default ``InvalidMessageError``,
    which also names ``field``; ``UnsupportedMessageError`` for a message type the target
    cannot carry). The other kinds never raise. ``notes`` lists what was recorded, in order.
    """

    __slots__ = ("notes", "strict_mode")

    def __init__(self, strict_mode: bool = False) -> None:
        self.strict_mode = strict_mode
        self.notes: list[ConversionNote] = []

    def record(
        self,
        index: int | None,
        kind: NoteKind,
        detail: str,
        *,
        error: type[InvalidMessageError] | type[UnsupportedMessageError] | None = None,
        field: str | None = None,
    ) -> None:
        """Record a note, or raise ``error`` in strict mode for a lossy kind (see the class)."""
        if self.strict_mode and kind in _LOSSY:
            reason = f"{detail} (strict mode)"
            if error is not None and issubclass(error, UnsupportedMessageError):
                raise error(reason, index=index)
            raise (error or InvalidMessageError)(reason, index=index, field=field)
        self.notes.append(ConversionNote(index, kind, detail))


def _log(note: ConversionNote, source: str) -> None:
    where = f"message {note.index}" if note.index is not None else "request"
    logger.log(_LEVELS[note.kind], "%s: %s %s: %s", source, where, note.kind, note.detail)


def log_notes(notes: Iterable[ConversionNote], *, source: str) -> None:
    """Log each note to the ``llmbridge`` logger: INFO, or WARNING for lossy kinds."""
    for note in notes:
        if logger.isEnabledFor(_LEVELS[note.kind]):
            _log(note, source)


class NoteLog:
    """Logs a connector's notes once each: a note already logged is not logged again.

    Every request carries the whole conversation, so without this a long conversation would
    log its history's notes again on every turn. A note is identified by its kind, its detail
    and the neutral message it is about (the message value's hash, so a history rebuilt from
    JSON counts as the same); a note about no single message (``index`` ``None``), or about a
    message that cannot be hashed, by the note alone. The record keeps the ``max_keys`` most
    recently seen notes (least recently seen forgotten first), so memory stays bounded.
    Levels are those of ``log_notes``. Safe to share between threads.
    """

    __slots__ = ("_lock", "_seen", "max_keys", "source")

    def __init__(self, source: str, *, max_keys: int = 4096) -> None:
        if max_keys < 1:
            raise ValueError(f"max_keys must be at least 1, got {max_keys}")
        self.source = source
        self.max_keys = max_keys
        self._seen: OrderedDict[Hashable, None] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many notes the log remembers (at most ``max_keys``)."""
        return len(self._seen)

    def log(self, notes: Iterable[ConversionNote], messages: Sequence[Message]) -> None:
        """Log the notes of one conversion of ``messages`` that this log has not seen yet."""
        for note in notes:
            if logger.isEnabledFor(_LEVELS[note.kind]) and self._first_time(note, messages):
                _log(note, self.source)

    def _first_time(self, note: ConversionNote, messages: Sequence[Message]) -> bool:
        key = _key(note, messages)
        with self._lock:
            if key in self._seen:
                self._seen.move_to_end(key)
                return False
            self._seen[key] = None
            if len(self._seen) > self.max_keys:
                self._seen.popitem(last=False)
        return True


def _key(note: ConversionNote, messages: Sequence[Message]) -> Hashable:
    if note.index is None or not 0 <= note.index < len(messages):
        return note
    message = messages[note.index]
    # Hashing is the only test of hashability: a frozen value may hold an unhashable field.
    try:
        value = hash(message)
    except TypeError:
        return note
    # The message's hash, not the message: the record must not keep images alive.
    return (note.kind, note.detail, type(message).__name__, value)
