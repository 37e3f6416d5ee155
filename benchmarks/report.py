"""Formatting of benchmark results as Markdown tables (printed, and pasted into README.md)."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.convert import ConversionResult
from benchmarks.documents import DocumentMemoryResult
from benchmarks.ids import IdRepairResult
from benchmarks.interleaved import InterleavedResult
from benchmarks.memory import MemoryResult, Peaks
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
_PEAK_COLUMNS = ("payload MB", "first peak MB", "repeat peak MB")


def _verdict(ratio: float, target: float) -> str:
    return "met" if ratio <= target else f"MISSED by {ratio / target - 1:.0%}"


def _function_name(provider: str) -> str:
    return f"`to_{provider.replace('-', '_')}`"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _ratio_cells(library_us: float, floor_us: float, target: float) -> list[str]:
    """The library and floor µs, their ratio and the verdict against ``target``."""
    ratio = library_us / floor_us
    return [f"{library_us:.2f}", f"{floor_us:.2f}", f"{ratio:.2f}x",
            f"<= {target}x: {_verdict(ratio, target)}"]  # fmt: skip


def conversion_table(results: Sequence[ConversionResult]) -> str:
    """One row per provider: µs per message (library, floor), the ratio, the target, and the
    first conversion of the history (no kept pairing scan) beside them."""
    header = ["conversion", "messages", "library µs/msg", "floor µs/msg", "ratio", "target",
              "first conversion µs/msg", "first conversion ratio"]  # fmt: skip
    rows = [
        [
            _function_name(result.provider),
            f"{result.messages:,}",
            *_ratio_cells(result.library_us, result.floor_us, result.target),
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
            _function_name(result.provider),
            f"{result.conversations:,}",
            f"{result.messages:,}",
            *_ratio_cells(result.library_us, result.floor_us, result.target),
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


def _peak_row(result: Peaks, count: int, size: int, extra: str, also: str = "") -> list[str]:
    # A peak-memory row: the wing, `count x size`, payload, first and repeat peaks (each with
    # its ratio), the table's own column `extra`, the target's verdict and then `also`.
    worst = max(result.first_ratio, result.repeat_ratio)
    return [
        _function_name(result.provider),
        f"{count} x {size / _MB:.0f} MB",
        f"{result.payload_bytes / _MB:.1f}",
        f"{result.first_peak / _MB:.1f} ({result.first_ratio:.2f}x)",
        f"{result.repeat_peak / _MB:.1f} ({result.repeat_ratio:.2f}x)",
        extra,
        f"<= {result.target}x: {_verdict(worst, result.target)}{also}",
    ]


def _memory_row(result: MemoryResult) -> list[str]:
    floor = f"{result.floor_first_peak / _MB:.1f} ({result.floor_first_ratio:.2f}x)"
    return _peak_row(result, result.images, result.image_bytes, floor)


def _document_row(result: DocumentMemoryResult) -> list[str]:
    encodings = f"{result.encodings} ({result.encodings / result.documents:.1f} per PDF)"
    each = "met" if result.encodings == result.documents else "MISSED"
    also = f", one encoding per PDF: {each}"
    return _peak_row(result, result.documents, result.document_bytes, encodings, also)


def memory_table(results: Sequence[MemoryResult]) -> str:
    """One row per provider: payload MB, first and repeat peaks (and the floor's), the target."""
    header = ["memory", "images", *_PEAK_COLUMNS, "floor first peak MB", "target"]
    return _table(header, [_memory_row(result) for result in results])


def document_memory_table(results: Sequence[DocumentMemoryResult]) -> str:
    """One row per provider: payload MB, first and repeat peaks, base64 encodings, the targets."""
    header = ["documents", "PDFs", *_PEAK_COLUMNS, "base64 encodings", "target"]
    return _table(header, [_document_row(result) for result in results])


def id_repair_table(results: Sequence[IdRepairResult]) -> str:
    """One row per provider and loop length: µs per round without and with ids, the ratios."""
    header = ["id repair", "rounds", "no ids µs/round", "unique ids µs/round",
              "no ids / unique ids", "µs/round vs smallest loop"]  # fmt: skip
    rows = [
        [
            _function_name(result.provider),
            f"{result.rounds:,}",
            f"{result.no_ids_us:.2f}",
            f"{result.unique_ids_us:.2f}",
            f"{result.ratio:.2f}x",
            f"{result.growth:.2f}x",
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


def _call_row(
    result: PerCallResult | TracingResult,
    calls: tuple[float, float, float],
    extra: float,
    other_percent: float,
    target: float,
) -> list[str]:
    # A per-call row: wing, path, messages, three µs per call (in the table's column order), the
    # extra µs, the judged overhead and the other percentage, the target's verdict.
    return [
        result.provider,
        result.path,
        f"{result.messages:,}",
        *(f"{us:,.0f}" for us in calls),
        f"{extra:+,.0f}",
        f"{result.overhead_percent:+.1f}%",
        f"{other_percent:+.1f}%",
        f"<= {target:.0f}%: " + ("met" if result.overhead_percent <= target else "MISSED"),
    ]


def _per_call_row(result: PerCallResult) -> list[str]:
    calls = (result.agent_us, result.sdk_us, result.hand_us)
    extra = result.agent_us - result.sdk_us
    return _call_row(result, calls, extra, result.hand_percent, PER_CALL_PERCENT)


def _tracing_row(result: TracingResult) -> list[str]:
    calls = (result.untraced_us, result.traced_us, result.floor_us)
    extra = result.traced_us - result.untraced_us
    return _call_row(result, calls, extra, result.floor_percent, TARGET_PERCENT)


def per_call_table(results: Sequence[PerCallResult]) -> str:
    """One row per wing and path: µs per call through the agent, the bare SDK and the hand-built
    call (floor conversion + SDK), the agent's overhead over the SDK (judged) and over the
    hand-built call."""
    header = ["per call", "path", "messages", "agent µs/call", "SDK µs/call",
              "hand-built µs/call", "extra µs", "overhead", "vs hand-built", "target"]  # fmt: skip
    return _table(header, [_per_call_row(result) for result in results])


def tracing_table(results: Sequence[TracingResult]) -> str:
    """One row per provider and path: µs per call untraced, traced and with the floor (the bare
    OpenTelemetry SDK calls), the extra time in µs and in percent of the untraced call."""
    header = ["tracing", "path", "messages", "untraced µs/call", "traced µs/call",
              "floor µs/call", "extra µs", "overhead", "floor overhead", "target"]  # fmt: skip
    return _table(header, [_tracing_row(result) for result in results])


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
