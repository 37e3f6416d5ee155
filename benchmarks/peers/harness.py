"""The side-by-side runs: each job timed for the floor, llmbridge, the SDK and every peer found.

Four jobs, on the inputs of ``make bench`` (``make_conversation``, ``openai_stream``,
``anthropic_stream``): neutral -> OpenAI Chat messages, neutral -> Anthropic system + messages,
OpenAI stream -> final message, Anthropic stream -> final message. Every contender of a job is
timed in the same ``best_times`` call (runs taken in turn), and the figure is its time over the
floor's. A peer's own input (its message objects) is built from the neutral conversation before
timing, so its figure is the translation alone; a peer whose package is not installed, or that
has no function for a job, shows ``-``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final

from benchmarks.conversation import anthropic_stream, make_conversation, openai_stream
from benchmarks.convert import conversion_cases
from benchmarks.peers.adapters import PEERS, peer_cases
from benchmarks.streams import StreamShape, stream_contenders
from benchmarks.timing import Settings, best_times

__all__ = ["COLUMNS", "JOBS", "JobResult", "peers_table", "run_peers"]

JOBS: Final = {
    "openai": "neutral -> OpenAI Chat messages",
    "anthropic": "neutral -> Anthropic system + messages",
    "openai-stream": "OpenAI stream -> final message",
    "anthropic-stream": "Anthropic stream -> final message",
}
"""The jobs, by key, with the title of their row."""

COLUMNS: Final = ("llmbridge", "SDK", *PEERS)
"""The contenders after the floor, in table order."""


@dataclass(frozen=True, slots=True)
class JobResult:
    """One job's floor time (µs per call) and every contender's time over it."""

    job: str
    floor_us: float
    ratios: Mapping[str, float]


def _inputs(messages: int, shape: StreamShape) -> tuple[Any, Any, Any]:
    return (
        make_conversation(messages),
        openai_stream(shape.text_deltas, shape.calls, shape.fragments),
        anthropic_stream(shape.text_deltas, shape.calls, shape.fragments),
    )


def _own_cases(
    conversation: Any, chunks: Any, events: Any
) -> dict[str, dict[str, Callable[[], object]]]:
    convert = conversion_cases()
    return {
        **{
            job: {
                "floor": partial(convert[job][1], conversation),
                "llmbridge": partial(convert[job][0], conversation),
            }
            for job in ("openai", "anthropic")
        },
        "openai-stream": stream_contenders("openai", chunks),
        "anthropic-stream": stream_contenders("anthropic", events),
    }


def run_peers(
    messages: int = 1000,
    shape: StreamShape | None = None,
    settings: Settings | None = None,
    *,
    with_peers: bool = True,
) -> list[JobResult]:
    """Time every job for the floor, llmbridge, the SDK and (``with_peers``) each peer found."""
    settings = settings or Settings()
    conversation, chunks, events = _inputs(messages, shape or StreamShape(2000, 3, 500))
    cases = _own_cases(conversation, chunks, events)
    if with_peers:
        for job, contenders in peer_cases(conversation, chunks, events).items():
            cases[job].update(contenders)
    results = []
    for job, calls in cases.items():
        timings = best_times(calls, settings)
        floor = timings["floor"].seconds
        ratios = {name: timings[name].seconds / floor for name in calls if name != "floor"}
        results.append(JobResult(job, floor * 1e6, ratios))
    return results


def peers_table(results: Sequence[JobResult]) -> str:
    """One row per job: the floor (1.0x, and its µs per call), then each contender's ratio."""
    header = ["work", "floor µs/call", "floor", *COLUMNS]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for result in results:
        cells = [
            f"{result.ratios[name]:.1f}x" if name in result.ratios else "-" for name in COLUMNS
        ]
        row = [JOBS[result.job], f"{result.floor_us:,.0f}", "1.0x", *cells]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)
