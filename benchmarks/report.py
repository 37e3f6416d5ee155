"""Formatting of benchmark results as Markdown tables (printed, and pasted into README.md)."""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.convert import ConversionResult
from benchmarks.documents import DocumentMemoryResult
from benchmarks.ids import IdRepairResult
from benchmarks.memory import MemoryResult
from benchmarks.streams import StreamResult
from benchmarks.tracing import TARGET_PERCENT, TracingResult

__all__ = [
    "conversion_table",
    "document_memory_table",
    "id_repair_table",
    "memory_table",
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
    """One row per provider: µs per message (library, floor), the ratio, the target."""
    header = ["conversion", "messages", "library µs/msg", "floor µs/msg", "ratio", "target"]
    rows = [
        [
            f"`to_{result.provider}`",
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
    """One row per provider: µs per chunk (library, floor, bare pass, SDK), ratios, target."""
    header = ["stream", "chunks", "library µs/chunk", "floor µs/chunk", "bare µs/chunk",
              "SDK µs/chunk", "library / floor", "library / bare", "SDK / bare",
              "SDK / library", "target"]  # fmt: skip
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
            f"{result.sdk_ratio:.1f}x",
            f"<= {result.target}x: {_verdict(result.ratio, result.target)} (floor), "
            f"{_verdict(result.bare_ratio, result.target)} (bare); "
            + ("faster than the SDK" if result.sdk_ratio > 1 else "SLOWER than the SDK"),
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
            f"`to_{result.provider}`",
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
            f"`to_{result.provider}`",
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
            f"`to_{result.provider}`",
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
