"""Many conversations interleaved through one connector: its kept scans must hold.

A server converses with many users at once through one connector (or ``asyncio.gather`` runs
agents that share one), so each conversation's history is sent again in turn with the others.
Every conversation is ``conversation_for(provider, messages, seed=k)``; one round converts each
of them once, in the same order, through one ``ScanCache`` (the connector's) after a round that
fills it; the floor converts the same conversations in the same order. The figure is µs per
message of a round against the floor's, judged by the resent-history target
(``convert.TARGETS``): a cache that thrashed would scan every history from the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from benchmarks.convert import TARGETS, Convert, conversation_for, conversion_cases
from benchmarks.timing import Settings, best_times
from llmbridge import Message
from llmbridge.kit import ScanCache

__all__ = ["CONVERSATIONS", "MESSAGES", "InterleavedResult", "run_interleaved"]

CONVERSATIONS: Final = 1000
"""How many conversations go through the one connector (issue 26, defect 5)."""

MESSAGES: Final = 100
"""The length of each conversation."""


@dataclass(frozen=True, slots=True)
class InterleavedResult:
    """One provider's round over the interleaved conversations: µs per message."""

    provider: str
    conversations: int
    messages: int
    library_us: float
    floor_us: float
    target: float

    @property
    def ratio(self) -> float:
        """Library time over floor time (measured in the same run)."""
        return self.library_us / self.floor_us


def _round(convert: Convert, conversations: Sequence[Sequence[Message]], *args: object) -> None:
    for messages in conversations:
        convert(messages, *args)


def run_interleaved(
    conversations: int = CONVERSATIONS,
    messages: int = MESSAGES,
    settings: Settings | None = None,
) -> list[InterleavedResult]:
    """Time a round over ``conversations`` conversations of ``messages`` messages, per provider."""
    settings = settings or Settings()
    results = []
    for provider, (library, floor) in conversion_cases().items():
        histories = [conversation_for(provider, messages, seed=k) for k in range(conversations)]
        scans = ScanCache()
        _round(library, histories, scans)  # the connector has seen every conversation once
        timings = best_times(
            {
                "library": lambda: _round(library, histories, scans),  # noqa: B023
                "floor": lambda: _round(floor, histories),  # noqa: B023
            },
            settings,
        )
        total = conversations * messages
        results.append(
            InterleavedResult(
                provider,
                conversations,
                messages,
                timings["library"].seconds / total * 1e6,
                timings["floor"].seconds / total * 1e6,
                TARGETS[provider],
            )
        )
    return results
