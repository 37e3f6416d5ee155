"""Conversion cost: ``to_openai`` / ``to_openai_responses`` / ``to_anthropic`` / ``to_gemini``
against hand-written floors, same run.

The library functions run as a user calls them (lenient, every validation and note on, the
pairing step on), on a history sent again, as an agent loop sends it each turn through one
connector (the kit goes on from the connector's kept pairing scan of those messages, a
``ScanCache``: the figure the target judges); the "first conversion" column times the same call
with a cache that has not seen the history. Before timing, each library result
is checked equal to its floor's. Gemini converts the shared conversation with a user turn first
(``benchmarks.gemini.gemini_conversation``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final

from benchmarks.conversation import AGENT, make_conversation
from benchmarks.floors import anthropic_floor, gemini_floor, openai_floor, responses_floor
from benchmarks.gemini import gemini_conversation
from benchmarks.timing import Settings, best_times, check_same
from llmbridge import Message
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import to_gemini
from llmbridge.kit import ScanCache
from llmbridge.openai import to_openai, to_openai_responses

__all__ = [
    "TARGETS",
    "ConversionResult",
    "conversation_for",
    "conversion_cases",
    "run_conversion",
]

TARGETS: Final = {"openai": 2.0, "openai-responses": 2.0, "anthropic": 2.0, "gemini": 2.0}
"""The highest accepted ratio of library time to floor time, per provider (issue 19: 2.0x for
all four wings)."""


@dataclass(frozen=True, slots=True)
class ConversionResult:
    """One provider's conversion timing: microseconds per message, library and floor."""

    provider: str
    messages: int
    library_us: float
    floor_us: float
    target: float
    first_us: float | None = None
    """The library with no kept pairing scan: a history converted for the first time."""

    @property
    def ratio(self) -> float:
        """Library time over floor time (measured in the same run)."""
        return self.library_us / self.floor_us

    @property
    def first_ratio(self) -> float | None:
        """The first conversion's time over the floor's (``None`` when not measured)."""
        return None if self.first_us is None else self.first_us / self.floor_us


_SCANS: Final = ScanCache()
"""The kept scans of the library conversions, as a connector owns them."""


def _openai_library(messages: Sequence[Message], scans: ScanCache = _SCANS) -> object:
    return to_openai(messages, agent_name=AGENT, scans=scans).messages


def _responses_library(messages: Sequence[Message], scans: ScanCache = _SCANS) -> object:
    return to_openai_responses(messages, agent_name=AGENT, scans=scans).input


def _anthropic_library(messages: Sequence[Message], scans: ScanCache = _SCANS) -> object:
    request = to_anthropic(messages, agent_name=AGENT, scans=scans)
    return request.system, request.messages


def _gemini_library(messages: Sequence[Message], scans: ScanCache = _SCANS) -> object:
    request = to_gemini(messages, agent_name=AGENT, scans=scans)
    return request.system_instruction, request.contents


def _first_sight(library: Convert, messages: Sequence[Message]) -> object:
    # A cache that has not seen the history: a conversation's first conversion.
    return library(messages, ScanCache())


def _openai_floor(messages: Sequence[Message]) -> object:
    return openai_floor(messages, AGENT)


def _responses_floor(messages: Sequence[Message]) -> object:
    return responses_floor(messages, AGENT)


def _anthropic_floor(messages: Sequence[Message]) -> object:
    return anthropic_floor(messages, AGENT)


def _gemini_floor(messages: Sequence[Message]) -> object:
    return gemini_floor(messages, AGENT)


Convert = Callable[..., object]
"""A conversion: ``(messages) -> payload``; the library's also take ``(messages, scans)``."""

# The conversation each provider converts (default: the shared one).
_CONVERSATIONS: Final[dict[str, Callable[..., list[Message]]]] = {"gemini": gemini_conversation}


def conversation_for(provider: str, size: int, *, seed: int = 0) -> list[Message]:
    """The benchmark conversation ``provider`` converts (see the module docstring)."""
    return _CONVERSATIONS.get(provider, make_conversation)(size, seed=seed)


def conversion_cases() -> dict[str, tuple[Convert, Convert]]:
    """``provider -> (library conversion, floor conversion)``, each returning the payload."""
    return {
        "openai": (_openai_library, _openai_floor),
        "openai-responses": (_responses_library, _responses_floor),
        "anthropic": (_anthropic_library, _anthropic_floor),
        "gemini": (_gemini_library, _gemini_floor),
    }


def run_conversion(
    size: int = 1000, settings: Settings | None = None, *, seed: int = 0
) -> list[ConversionResult]:
    """Time every provider's conversion of one ``size``-message conversation.

    Raises ``FloorMismatchError`` when a floor's payload differs from the library's.
    """
    settings = settings or Settings()
    results = []
    for provider, (library, floor) in conversion_cases().items():
        messages = conversation_for(provider, size, seed=seed)
        check_same(f"{provider} conversion", library(messages), floor(messages))
        calls = {
            "library": partial(library, messages),
            "floor": partial(floor, messages),
            "first": partial(_first_sight, library, messages),
        }
        timings = best_times(calls, settings)
        library_us, floor_us, first_us = (
            timings[name].seconds / len(messages) * 1e6 for name in calls
        )
        results.append(
            ConversionResult(provider, size, library_us, floor_us, TARGETS[provider], first_us)
        )
    return results
