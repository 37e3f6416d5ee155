"""``python -m benchmarks`` (``make bench``): run the benchmarks and print Markdown tables.

``--only`` picks benchmarks; ``--profile`` prints the functions with the highest cumulative
time of one library call instead (cProfile), to find hot spots when a target is missed:
``<wing>`` a conversion, ``<wing>-stream`` a stream aggregation, ``percall-<wing>-<path>`` a
connected agent's call (``send`` or ``stream``) over ``RespxTransport``. The closing note
names every missed target and the profile that shows what bounds it.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import platform
import pstats
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from importlib.metadata import version

from benchmarks.convert import conversation_for, conversion_cases, run_conversion
from benchmarks.documents import run_document_memory
from benchmarks.ids import ROUNDS, run_id_repair
from benchmarks.interleaved import CONVERSATIONS, MESSAGES, run_interleaved
from benchmarks.memory import run_memory
from benchmarks.percall import PATHS, WINGS, per_call_contenders, run_per_call
from benchmarks.repeat import TURNS, run_repeat
from benchmarks.report import (
    conversion_table,
    document_memory_table,
    id_repair_table,
    interleaved_table,
    memory_table,
    per_call_table,
    repeat_table,
    soak_table,
    stream_table,
    tracing_table,
)
from benchmarks.soak import CONVERSIONS, run_soak
from benchmarks.streams import StreamShape, run_streams, stream_cases
from benchmarks.timing import Settings
from benchmarks.tracing import run_tracing

_BENCHMARKS = (
    "convert",
    "interleaved",
    "repeat",
    "streams",
    "memory",
    "documents",
    "soak",
    "ids",
    "percall",
    "tracing",
)
_PROFILES = (
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "openai-stream",
    "openai-responses-stream",
    "anthropic-stream",
    "gemini-stream",
    *(f"percall-{wing}-{path}" for wing in WINGS for path in PATHS),
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--only", action="append", choices=_BENCHMARKS, help="repeatable")
    parser.add_argument("--messages", type=int, default=1000, help="conversation size")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed run")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs; the best counts")
    parser.add_argument("--text-deltas", type=int, default=2000, help="text deltas per stream")
    parser.add_argument("--calls", type=int, default=3, help="parallel tool calls per stream")
    parser.add_argument("--fragments", type=int, default=500, help="fragments per call (>= 2)")
    parser.add_argument("--images", type=int, default=20, help="images in the memory case")
    parser.add_argument("--image-mb", type=float, default=4.0, help="MB per image")
    parser.add_argument("--documents", type=int, default=20, help="PDFs in the documents case")
    parser.add_argument("--document-mb", type=float, default=4.0, help="MB per PDF")
    parser.add_argument(
        "--rounds", type=int, nargs="+", default=list(ROUNDS), help="agent-loop lengths (ids)"
    )
    parser.add_argument(
        "--conversions", type=int, default=CONVERSIONS, help="conversions per wing (soak)"
    )
    parser.add_argument(
        "--interleaved",
        type=int,
        nargs=2,
        default=[CONVERSATIONS, MESSAGES],
        metavar=("CONVERSATIONS", "MESSAGES"),
        help="conversations through one connector, and their length (interleaved)",
    )
    parser.add_argument(
        "--turns", type=int, nargs="+", default=list(TURNS), help="history lengths (repeat)"
    )
    parser.add_argument(
        "--traced-messages",
        type=int,
        default=100,
        help="conversation size of the per-call and tracing cases",
    )
    parser.add_argument("--profile", choices=_PROFILES, help="profile one library call")
    return parser


def _profile(
    target: str, messages: int, shape: StreamShape, *, runs: int = 20, top: int = 25
) -> None:
    call: Callable[[], object]
    loop = asyncio.new_event_loop()
    if target.startswith("percall-"):
        wing, path = target.removeprefix("percall-").rsplit("-", 1)
        call = per_call_contenders(loop, wing, conversation_for(wing, messages), path)["agent"]
    elif target.endswith("-stream"):
        provider = target.removesuffix("-stream")
        call = stream_cases(shape)[provider]
    else:
        conversation = conversation_for(target, messages)
        library = conversion_cases()[target][0]
        library(conversation)  # warm the per-image base64 caches, as a repeat call would find
        call = partial(library, conversation)
    profiler = cProfile.Profile()
    try:
        for _ in range(runs):  # several calls, so that one-off pauses do not dominate the table
            profiler.runcall(call)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def _missed(table: str, profile: Callable[[list[str]], str | None]) -> Iterator[str]:
    """One line per row of ``table`` with a missed target: its first cells, the profile."""
    for line in table.splitlines()[2:]:
        if "MISSED" not in line:
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = profile(cells)
        hint = f": `python -m benchmarks --profile {name}` shows what bounds it" if name else ""
        yield f"- {' '.join(cells[:2])}{hint}"


def _closing_note(missed: Sequence[str]) -> str:
    if not missed:
        return "Closing note: every target met."
    return "\n".join(["Closing note: targets missed in this run", *missed])


def _header() -> str:
    names = ("openai", "anthropic", "google-genai", "pydantic", "opentelemetry-sdk")
    versions = ", ".join(f"{name} {version(name)}" for name in names)
    return f"Python {platform.python_version()} on {platform.machine()}; {versions}"


def _conversion_profile(cells: list[str]) -> str:
    return cells[0].strip("`").removeprefix("to_").replace("_", "-")


def _stream_profile(cells: list[str]) -> str:
    return f"{cells[0]}-stream"


def _per_call_profile(cells: list[str]) -> str:
    return f"percall-{cells[0]}-{cells[1]}"


def _no_profile(cells: list[str]) -> None:
    return None


class _Report:
    """Prints each table under its title and keeps its missed targets for the closing note."""

    def __init__(self) -> None:
        self.missed: list[str] = []

    def show(
        self, title: str, table: str, profile: Callable[[list[str]], str | None] = _no_profile
    ) -> None:
        print(title + "\n")
        print(table + "\n", flush=True)
        self.missed += _missed(table, profile)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the chosen benchmarks (all by default), print their tables and a closing note."""
    args = _parser().parse_args(argv)
    shape = StreamShape(args.text_deltas, args.calls, args.fragments)
    if args.profile:
        per_call = args.profile.startswith("percall-")
        _profile(args.profile, args.traced_messages if per_call else args.messages, shape)
        return
    settings = Settings(args.min_time, args.repeats)
    chosen = args.only or _BENCHMARKS
    report = _Report()
    print(_header())
    print(f"Timing: best of {settings.repeats} runs, each >= {settings.min_time} s, gc off.\n")
    if "convert" in chosen:
        report.show(
            f"Conversion of a {args.messages:,}-message mixed conversation",
            conversion_table(run_conversion(args.messages, settings)),
            _conversion_profile,
        )
    if "interleaved" in chosen:
        conversations, messages = args.interleaved
        report.show(
            f"{conversations:,} conversations of {messages:,} messages interleaved through one "
            "connector, each sent again in turn",
            interleaved_table(run_interleaved(conversations, messages, settings)),
            _conversion_profile,
        )
    if "repeat" in chosen:
        report.show(
            "Repeated conversion: turn N of an agent loop converts its N-message history",
            repeat_table(run_repeat(args.turns, settings)),
        )
    if "streams" in chosen:
        report.show(
            f"Stream aggregation: {shape.text_deltas:,} text deltas + {shape.calls} x "
            f"{shape.fragments} tool-call fragments",
            stream_table(run_streams(shape, settings)),
            _stream_profile,
        )
    _memory_sections(report, args, chosen)
    if "ids" in chosen:
        report.show(
            "Tool-id repair: agent loops whose calls carry no ids, against unique ids",
            id_repair_table(run_id_repair(args.rounds, settings)),
        )
    _call_sections(report, args, chosen, settings)
    print(_closing_note(report.missed), flush=True)


def _memory_sections(report: _Report, args: argparse.Namespace, chosen: Sequence[str]) -> None:
    if "memory" in chosen:
        image_bytes = int(args.image_mb * 1024 * 1024)
        report.show(
            "Peak memory (tracemalloc) of one conversion, against the payload size",
            memory_table(run_memory(args.images, image_bytes)),
        )
    if "documents" in chosen:
        document_bytes = int(args.document_mb * 1024 * 1024)
        report.show(
            "Peak memory of converting large PDFs, and their base64 encodings",
            document_memory_table(run_document_memory(args.documents, document_bytes)),
        )
    if "soak" in chosen:
        report.show(
            f"Soak: {args.conversions:,} conversions with repairs per wing, memory retained "
            "(tracemalloc)",
            soak_table(run_soak(args.conversions)),
        )


def _call_sections(
    report: _Report, args: argparse.Namespace, chosen: Sequence[str], settings: Settings
) -> None:
    if "percall" in chosen:
        report.show(
            f"The cost per call: a connected agent's call with a {args.traced_messages:,}-message "
            "conversation over RespxTransport, against the SDK's own call with the hand-built "
            "payload (built once), and the hand-built call (the floor's conversion on every "
            "call, then the same SDK call)",
            per_call_table(run_per_call(args.traced_messages, settings)),
            _per_call_profile,
        )
    if "tracing" in chosen:
        report.show(
            f"Tracing overhead: a connected agent's call with a {args.traced_messages:,}-message "
            "conversation over RespxTransport, traced and untraced",
            tracing_table(run_tracing(args.traced_messages, settings)),
        )


if __name__ == "__main__":
    main()
