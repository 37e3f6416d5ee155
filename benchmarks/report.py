"""Formatting of benchmark results as Markdown tables (printed, and pasted into README.md)."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.convert import ConversionResult
from benchmarks.documents import DocumentMemoryResult
from benchmarks.ids import IdRepairResult
from benchmarks.interleaved import InterleavedResult
from benchmarks.memory import MemoryResult
from benchmarks.percall import TARGET_PERCENT as PER_CALL_PERCENT
from benchmarks.percall import PerCallResult
from benchmarks.repeat import BASE_TURN, GROWTH_TARGET, RepeatResult
from benchmarks.soak import GROWTH_BOUND, SoakResult
from benchmarks.streams import StreamResult
from benchmarks.tracing import TARGET_PERCENT, TracingResult

__all__ = [
    "conversion_table",
    "document_memory_table",
    "id_repair_table",
    "interleaved_table",
    "memory_table",
    "per_call_table",
    "repeat_table",
    "soak_table",
    "stream_table",
    "tracing_table",
]

_MB = 1024 * 1024


def _verdict(ratio: float, target: float) -> str:
    return "met" if ratio <= target else f"MISSED by {ratio / target - 1:.0%}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def conversion_table(results: Sequence[ConversionResult]) -> str:
    """One row per provider: µs per message (library, floor), the ratio, the target, and the
    first conversion of the history (no kept pairing scan) beside them."""
    header = ["conversion", "messages", "library µs/msg", "floor µs/msg", "ratio", "target",
              "first conversion µs/msg", "first conversion ratio"]  # fmt: skip
    rows = [
        [
            f"`to_{result.provider.replace('-', '_')}`",
            f"{result.messages:,}",
            f"{result.library_us:.2f}",
            f"{result.floor_us:.2f}",
            f"{result.ratio:.2f}x",
            f"<= {result.target}x: {_verdict(result.ratio, result.target)}",
            "" if result.first_us is None else f"{result.first_us:.2f}",
            "" if result.first_ratio is None else f"{result.first_ratio:.2f}x",
        ]
        for result in results
    ]
    return _table(header, rows)


def interleaved_table(results: Sequence[InterleavedResult]) -> str:
    """One row per provider: µs per message of a round over the interleaved conversations
    (library, floor), the ratio and the resent-history target."""
    header = ["conversion", "conversations", "messages each", "library µs/msg", "floor µs/msg",
              "ratio", "target"]  # fmt: skip
    rows = [
        [
            f"`to_{result.provider.replace('-', '_')}`",
            f"{result.conversations:,}",
            f"{result.messages:,}",
            f"{result.library_us:.2f}",
            f"{result.floor_us:.2f}",
            f"{result.ratio:.2f}x",
            f"<= {result.target}x: {_verdict(result.ratio, result.target)}",
        ]
        for result in results
    ]
    return _table(header, rows)


def stream_table(results: Sequence[StreamResult]) -> str:
    """One row per provider: µs per chunk (library, floor, bare pass, SDK), ratios, and the two
    targets: against the floor aggregator (issue 12) and against the bare pass (issue 19)."""
    header = ["stream", "chunks", "library µs/chunk", "floor µs/chunk", "bare µs/chunk",
              "SDK µs/chunk", "library / floor", "library / bare", "SDK / bare",
              "SDK / library", "target (floor)", "target (bare)"]  # fmt: skip
    rows = [
        [
            result.provider,
            f"{result.chunks:,}",
            f"{result.library_us:.2f}",
            f"{result.floor_us:.2f}",
            f"{result.bare_us:.2f}",
            f"{result.sdk_us:.2f}",
            f"{result.ratio:.2f}x",
            f"{result.bare_ratio:.2f}x",
            f"{result.sdk_bare_ratio:.0f}x",
            f"{result.sdk_ratio:.1f}x" + ("" if result.sdk_ratio > 1 else " (SLOWER than the SDK)"),
            f"<= {result.target}x: {_verdict(result.ratio, result.target)}",
            f"<= {result.bare_target}x: {_verdict(result.bare_ratio, result.bare_target)}",
        ]
        for result in results
    ]
    return _table(header, rows)


def memory_table(results: Sequence[MemoryResult]) -> str:
    """One row per provider: payload MB, first and repeat peaks (and the floor's), the target."""
    header = ["memory", "images", "payload MB", "first peak MB", "repeat peak MB",
              "floor first peak MB", "target"]  # fmt: skip
    rows = [
        [
            f"`to_{result.provider.replace('-', '_')}`",
            f"{result.images} x {result.image_bytes / _MB:.0f} MB",
            f"{result.payload_bytes / _MB:.1f}",
            f"{result.first_peak / _MB:.1f} ({result.first_ratio:.2f}x)",
            f"{result.repeat_peak / _MB:.1f} ({result.repeat_ratio:.2f}x)",
            f"{result.floor_first_peak / _MB:.1f} ({result.floor_first_ratio:.2f}x)",
            f"<= {result.target}x: "
            + _verdict(max(result.first_ratio, result.repeat_ratio), result.target),
        ]
        for result in results
    ]
    return _table(header, rows)


def document_memory_table(results: Sequence[DocumentMemoryResult]) -> str:
    """One row per provider: payload MB, first and repeat peaks, base64 encodings, the targets."""
    header = ["documents", "PDFs", "payload MB", "first peak MB", "repeat peak MB",
              "base64 encodings", "target"]  # fmt: skip
    rows = [
        [
            f"`to_{result.provider.replace('-', '_')}`",
            f"{result.documents} x {result.document_bytes / _MB:.0f} MB",
            f"{result.payload_bytes / _MB:.1f}",
            f"{result.first_peak / _MB:.1f} ({result.first_ratio:.2f}x)",
            f"{result.repeat_peak / _MB:.1f} ({result.repeat_ratio:.2f}x)",
            f"{result.encodings} ({result.encodings / result.documents:.1f} per PDF)",
            f"<= {result.target}x: "
            + _verdict(max(result.first_ratio, result.repeat_ratio), result.target)
            + ", one encoding per PDF: "
            + ("met" if result.encodings == result.documents else "MISSED"),
        ]
        for result in results
    ]
    return _table(header, rows)


def id_repair_table(results: Sequence[IdRepairResult]) -> str:
    """One row per provider and loop length: µs per round without and with ids, the ratios."""
    header = ["id repair", "rounds", "no ids µs/round", "unique ids µs/round",
              "no ids / unique ids", "µs/round vs smallest loop"]  # fmt: skip
    rows = [
        [
            f"`to_{result.provider.replace('-', '_')}`",
            f"{result.rounds:,}",
            f"{result.no_ids_us:.2f}",
            f"{result.unique_ids_us:.2f}",
            f"{result.ratio:.2f}x",
            f"{result.growth:.2f}x",
        ]
        for result in results
    ]
    return _table(header, rows)


def tracing_table(results: Sequence[TracingResult]) -> str:
    """One row per provider and path: µs per call untraced, traced and with the floor (the bare
    OpenTelemetry SDK calls), the extra time in µs and in percent of the untraced call."""
    header = ["tracing", "path", "messages", "untraced µs/call", "traced µs/call",
              "floor µs/call", "extra µs", "overhead", "floor overhead", "target"]  # fmt: skip
    rows = [
        [
            result.provider,
            result.path,
            f"{result.messages:,}",
            f"{result.untraced_us:,.0f}",
            f"{result.traced_us:,.0f}",
            f"{result.floor_us:,.0f}",
            f"{result.traced_us - result.untraced_us:+,.0f}",
            f"{result.overhead_percent:+.1f}%",
            f"{result.floor_percent:+.1f}%",
            f"<= {TARGET_PERCENT:.0f}%: "
            + ("met" if result.overhead_percent <= TARGET_PERCENT else "MISSED"),
        ]
        for result in results
    ]
    return _table(header, rows)


def repeat_table(results: Sequence[RepeatResult]) -> str:
    """One row per wing and history length: µs per message of one turn, growth, the target."""
    header = ["repeated conversion", "history", "µs/msg", f"µs/msg vs {BASE_TURN} messages",
              "floor's, same runs", "growth over the floor's", "target"]  # fmt: skip
    rows = [
        [
            f"`{result.provider}`",
            f"{result.messages:,}",
            f"{result.us_per_message:.2f}",
            f"{result.growth:.2f}x",
            f"{result.floor_growth:.2f}x",
            f"{result.relative_growth:.2f}x",
            _growth_verdict(result),
        ]
        for result in results
    ]
    return _table(header, rows)


def _growth_verdict(result: RepeatResult) -> str:
    # Shorter histories pay the per-call overhead over fewer messages: only growth counts.
    if result.messages <= BASE_TURN:
        return "(reference)" if result.messages == BASE_TURN else "(fixed cost per call)"
    return f"<= {GROWTH_TARGET}x: {_verdict(result.relative_growth, GROWTH_TARGET)}"


def per_call_table(results: Sequence[PerCallResult]) -> str:
    """One row per wing and path: µs per call through the agent, the bare SDK and the hand-built
    call (floor conversion + SDK), the agent's overhead over the SDK (judged) and over the
    hand-built call."""
    header = ["per call", "path", "messages", "agent µs/call", "SDK µs/call",
              "hand-built µs/call", "extra µs", "overhead", "vs hand-built", "target"]  # fmt: skip
    rows = [
        [
            result.provider,
            result.path,
            f"{result.messages:,}",
            f"{result.agent_us:,.0f}",
            f"{result.sdk_us:,.0f}",
            f"{result.hand_us:,.0f}",
            f"{result.agent_us - result.sdk_us:+,.0f}",
            f"{result.overhead_percent:+.1f}%",
            f"{result.hand_percent:+.1f}%",
            f"<= {PER_CALL_PERCENT:.0f}%: "
            + ("met" if result.overhead_percent <= PER_CALL_PERCENT else "MISSED"),
        ]
        for result in results
    ]
    return _table(header, rows)


def soak_table(results: Sequence[SoakResult]) -> str:
    """One row per wing: conversions, retained bytes after the warm-up and at the end, growth."""
    header = ["soak", "conversions", "retained after warm-up", "retained at the end", "growth",
              "target"]  # fmt: skip
    rows = [
        [
            f"`{result.provider}`",
            f"{result.conversions:,} (warm-up {result.warm:,})",
            f"{result.warm_bytes:,} B",
            f"{result.final_bytes:,} B",
            f"{result.growth:+,} B",
            f"< {GROWTH_BOUND:,} B: " + ("met" if result.growth < GROWTH_BOUND else "MISSED"),
        ]
        for result in results
    ]
    return _table(header, rows)
