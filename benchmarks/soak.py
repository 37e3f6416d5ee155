"""Soak: many conversions with repairs keep no memory alive (tracemalloc, retained bytes).

Every registered wing whose package imports converts ``count`` fresh conversations through its
``request_payload``, each repaired by the pairing step (a user turn interrupts a call and its
result, and every call lacks an id, so the fallback ids repeat and get suffixes). The figure is
what ``tracemalloc`` counts as allocated after a full collection, once the first ``warm``
conversions have run (caches and interned strings settled) and again after the last: the growth
must stay under ``GROWTH_BOUND`` bytes, far below one retained conversation per conversion.
"""

from __future__ import annotations

import gc
import tracemalloc
from dataclasses import dataclass
from typing import Final

from benchmarks.repeat import repeat_cases
from llmbridge import Message, Role, TextMessage, ToolCall, ToolCallMessage, ToolCallResultMessage

__all__ = ["CONVERSIONS", "GROWTH_BOUND", "SoakResult", "repaired_conversation", "run_soak"]

CONVERSIONS: Final = 10_000
"""Conversions per wing by default."""

GROWTH_BOUND: Final = 1_000_000
"""The most retained bytes accepted after the warm-up (one conversation here is ~10 KB)."""

_TEXT_BYTES: Final = 10_000


@dataclass(frozen=True, slots=True)
class SoakResult:
    """One wing's retained bytes after the warm-up and after the last conversion."""

    provider: str
    conversions: int
    warm: int
    warm_bytes: int
    final_bytes: int

    @property
    def growth(self) -> int:
        """Bytes retained by the conversions after the warm-up."""
        return self.final_bytes - self.warm_bytes


def repaired_conversation(number: int) -> list[Message]:
    """A fresh ~10 KB conversation that the pairing step repairs (moves and id suffixes)."""
    calls = [ToolCall("lookup", f'{{"n": {number}}}')]
    results = [ToolCall("lookup", f'{{"n": {number}}}', result=f"found {number}")]
    return [
        TextMessage(Role.USER, f"{number} " + "x" * _TEXT_BYTES),
        ToolCallMessage(calls, "assistant"),
        TextMessage(Role.USER, "are you still there?"),
        ToolCallResultMessage(results),
        ToolCallMessage(calls, "assistant"),
        ToolCallResultMessage(results),
        TextMessage(Role.USER, "thanks"),
    ]


def _retained() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def run_soak(count: int = CONVERSIONS, *, warm: int | None = None) -> list[SoakResult]:
    """Convert ``count`` repaired conversations per wing under tracemalloc; retained bytes.

    ``warm`` (default a tenth of ``count``) conversions run before the first reading. Raises
    ``AssertionError`` when a conversion records no ``"repaired"`` note (it would soak nothing).
    """
    warm = max(1, count // 10) if warm is None else warm
    results = []
    for tag, convert in repeat_cases().items():
        tracemalloc.start()
        try:
            warm_bytes = 0
            for number in range(count):
                _, notes = convert(repaired_conversation(number))
                assert any(note.kind == "repaired" for note in notes), f"{tag}: no repair"
                if number + 1 == warm:
                    warm_bytes = _retained()
            final_bytes = _retained()
        finally:
            tracemalloc.stop()
        results.append(SoakResult(tag, count, warm, warm_bytes, final_bytes))
    return results
