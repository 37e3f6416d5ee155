"""Tool-id repair cost: agent loops whose calls carry no provider ids.

Without ids every round's call falls back to the same id (``now_0``), so the pairing step gives
each repeat a suffix (``now_0_1``, ``now_0_2``, ...). The same loop with unique ids needs no
repair: it is the reference, timed in the same run. Cost per round that stays flat from the
smallest loop to the largest means the repair is linear in the number of rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Final

from benchmarks.conversation import AGENT
from benchmarks.convert import conversion_cases
from benchmarks.timing import Settings, best_times
from llmbridge import Message, Role, TextMessage, ToolCall, ToolCallMessage, ToolCallResultMessage

__all__ = ["ROUNDS", "IdRepairResult", "loop_conversation", "run_id_repair"]

ROUNDS: Final = (2000, 8000)
"""The agent-loop lengths timed by default."""


@dataclass(frozen=True, slots=True)
class IdRepairResult:
    """One provider and loop length: µs per round without ids and with unique ids."""

    provider: str
    rounds: int
    no_ids_us: float
    unique_ids_us: float
    smallest_no_ids_us: float  # the same provider's figure at the smallest loop of the run

    @property
    def ratio(self) -> float:
        """Time without ids over time with unique ids (measured in the same run)."""
        return self.no_ids_us / self.unique_ids_us

    @property
    def growth(self) -> float:
        """Cost per round without ids over that of the smallest loop (1.0: linear)."""
        return self.no_ids_us / self.smallest_no_ids_us


def loop_conversation(rounds: int, *, ids: bool) -> list[Message]:
    """``rounds`` x (user question, the agent's call of ``now``, its result).

    With ``ids`` false the calls have no ``tool_call_id``: every round falls back to ``now_0``.
    """
    messages: list[Message] = []
    for number in range(rounds):
        call_id = f"call_{number}" if ids else None
        messages += [
            TextMessage(Role.USER, f"what time is it now ({number})?"),
            ToolCallMessage([ToolCall("now", "{}", tool_call_id=call_id)], AGENT),
            ToolCallResultMessage([ToolCall("now", "{}", tool_call_id=call_id, result="noon")]),
        ]
    return messages


def run_id_repair(
    rounds: Sequence[int] = ROUNDS, settings: Settings | None = None
) -> list[IdRepairResult]:
    """Time every provider's conversion on loops of each length, without and with ids."""
    settings = settings or Settings()
    results: list[IdRepairResult] = []
    for provider, (library, _) in conversion_cases().items():
        smallest: float | None = None
        for count in sorted(rounds):
            calls = {
                "no ids": partial(library, loop_conversation(count, ids=False)),
                "unique ids": partial(library, loop_conversation(count, ids=True)),
            }
            timings = best_times(calls, settings)
            no_ids, unique = (timings[name].seconds / count * 1e6 for name in calls)
            smallest = no_ids if smallest is None else smallest
            results.append(IdRepairResult(provider, count, no_ids, unique, smallest))
    return results
