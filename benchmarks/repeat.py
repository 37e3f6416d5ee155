"""Repeated conversion: turn N of an agent loop converts the whole N-message history again.

Every registered wing (``llmbridge.kit.provider_tags()``) whose package imports is measured
through its ``request_payload``, the function ``llmbridge convert`` uses, so a new wing joins
without a change here. Turn N's conversation is ``conversation_for(tag, N)`` (the same seed, so each
is the history the previous turns grew, closed by the user's new question). The figure is µs per
message of one turn; it stays flat when the total cost grows linearly with the history. A
longer history also costs more per message for reasons that are not the code's (more objects than
the CPU caches hold), so the OpenAI floor (``floors.openai_floor``, plain dicts, no checks) is
timed on the same histories in the same runs: the judged figure is a wing's growth over the
floor's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeAlias

from benchmarks.conversation import AGENT
from benchmarks.convert import conversation_for
from benchmarks.floors import openai_floor
from benchmarks.timing import Settings, best_times
from llmbridge import ConversionNote, Message
from llmbridge.kit import ProviderWing, load_provider, provider_tags

__all__ = ["BASE_TURN", "GROWTH_TARGET", "TURNS", "RepeatResult", "repeat_cases", "run_repeat"]

TURNS: Final = (10, 100, 1000)
"""The history lengths measured by default."""

BASE_TURN: Final = 100
"""The history whose µs per message the others are compared with (when measured)."""

GROWTH_TARGET: Final = 1.25
"""The highest accepted growth of µs per message from ``BASE_TURN`` messages to a longer
history, over the floor's growth on the same histories (flat, give or take the noise of a
shared machine: linear total cost)."""


@dataclass(frozen=True, slots=True)
class RepeatResult:
    """One wing's cost of converting an N-message history, per message, and its growth.

    ``growth`` is this history's µs per message over that of the ``BASE_TURN``-message history
    (or of the shortest one measured when there is none) in the same run; ``floor_growth`` the
    same ratio for the floor, timed in the same runs.
    """

    provider: str
    messages: int
    us_per_message: float
    growth: float
    floor_growth: float

    @property
    def relative_growth(self) -> float:
        """The wing's growth over the floor's: what the code adds beyond the machine's share."""
        return self.growth / self.floor_growth


Payload: TypeAlias = tuple[dict[str, Any], tuple[ConversionNote, ...]]
Convert: TypeAlias = Callable[[Sequence[Message]], Payload]


def _convert(wing: ProviderWing, messages: Sequence[Message]) -> Payload:
    return wing.request_payload(messages, agent_name=AGENT, strict_mode=False, name_policy="drop")


def repeat_cases() -> dict[str, Convert]:
    """``tag -> conversion`` (payload and notes) for every registered wing whose SDK is
    installed."""
    cases: dict[str, Convert] = {}
    for tag in provider_tags():
        try:
            wing = load_provider(tag)
        except ImportError:
            continue  # its extra is not installed: nothing to measure
        cases[tag] = partial(_convert, wing)
    return cases


def run_repeat(
    turns: Sequence[int] = TURNS, settings: Settings | None = None
) -> list[RepeatResult]:
    """Time each wing's conversion of the history of every turn in ``turns``.

    The histories of one wing take their runs in turn (round robin), so a busy spell of the
    machine weighs on every length alike and the growth ratio is taken within one run.
    """
    settings = settings or Settings()
    sizes = sorted(set(turns))
    base = BASE_TURN if BASE_TURN in sizes else sizes[0]
    results = []
    for tag, convert in repeat_cases().items():
        # Gemini's history opens with a user turn (``conversation_for``); the others share one.
        histories = {size: conversation_for(tag, size) for size in sizes}
        calls: dict[str, Callable[[], object]] = {}
        for size, history in histories.items():
            calls[f"wing {size}"] = partial(convert, history)
            calls[f"floor {size}"] = partial(openai_floor, history, AGENT)
        timings = best_times(calls, settings)
        per_message = {name: timing.seconds / int(name.split()[1]) * 1e6
                       for name, timing in timings.items()}  # fmt: skip
        results.extend(
            RepeatResult(
                tag,
                size,
                per_message[f"wing {size}"],
                per_message[f"wing {size}"] / per_message[f"wing {base}"],
                per_message[f"floor {size}"] / per_message[f"floor {base}"],
            )
            for size in histories
        )
    return results
