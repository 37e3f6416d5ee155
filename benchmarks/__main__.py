"""``python -m benchmarks`` (``make bench``): run the benchmarks and print Markdown tables.

``--only`` picks benchmarks; ``--profile`` prints the functions with the highest cumulative
time of one library call instead (cProfile), to find hot spots when a target is missed.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
from collections.abc import Callable, Sequence
from functools import partial
from importlib.metadata import version

from benchmarks.convert import conversation_for, conversion_cases, run_conversion
from benchmarks.documents import run_document_memory
from benchmarks.ids import ROUNDS, run_id_repair
from benchmarks.memory import run_memory
from benchmarks.report import (
    conversion_table,
    document_memory_table,
    id_repair_table,
    memory_table,
    stream_table,
    tracing_table,
)
from benchmarks.streams import StreamShape, run_streams, stream_cases
from benchmarks.timing import Settings
from benchmarks.tracing import run_tracing

_BENCHMARKS = ("convert", "streams", "memory", "documents", "ids", "tracing")
_PROFILES = (
    "openai",
    "anthropic",
    "gemini",
    "openai-stream",
    "anthropic-stream",
    "gemini-stream",
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
        "--traced-messages", type=int, default=100, help="conversation size of the tracing case"
    )
    parser.add_argument("--profile", choices=_PROFILES, help="profile one library call")
    return parser


def _profile(
    target: str, messages: int, shape: StreamShape, *, runs: int = 20, top: int = 25
) -> None:
    call: Callable[[], object]
    if target.endswith("-stream"):
        provider = target.removesuffix("-stream")
        call = stream_cases(shape)[provider]
    else:
        conversation = conversation_for(target, messages)
        library = conversion_cases()[target][0]
        library(conversation)  # warm the per-image base64 caches, as a repeat call would find
        call = partial(library, conversation)
    profiler = cProfile.Profile()
    for _ in range(runs):  # several calls, so that one-off pauses do not dominate the table
        profiler.runcall(call)
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def _header() -> str:
    names = ("openai", "anthropic", "google-genai", "pydantic", "opentelemetry-sdk")
    versions = ", ".join(f"{name} {version(name)}" for name in names)
    return f"Python {platform.python_version()} on {platform.machine()}; {versions}"


def main(argv: Sequence[str] | None = None) -> None:
    """Run the chosen benchmarks (all by default) and print their tables."""
    args = _parser().parse_args(argv)
    shape = StreamShape(args.text_deltas, args.calls, args.fragments)
    if args.profile:
        _profile(args.profile, args.messages, shape)
        return
    settings = Settings(args.min_time, args.repeats)
    chosen = args.only or _BENCHMARKS
    print(_header())
    print(f"Timing: best of {settings.repeats} runs, each >= {settings.min_time} s, gc off.\n")
    if "convert" in chosen:
        print(f"Conversion of a {args.messages:,}-message mixed conversation\n")
        print(conversion_table(run_conversion(args.messages, settings)) + "\n", flush=True)
    if "streams" in chosen:
        print(
            f"Stream aggregation: {shape.text_deltas:,} text deltas + {shape.calls} x "
            f"{shape.fragments} tool-call fragments\n"
        )
        print(stream_table(run_streams(shape, settings)) + "\n", flush=True)
    if "memory" in chosen:
        print("Peak memory (tracemalloc) of one conversion, against the payload size\n")
        image_bytes = int(args.image_mb * 1024 * 1024)
        print(memory_table(run_memory(args.images, image_bytes)) + "\n", flush=True)
    if "documents" in chosen:
        print("Peak memory of converting large PDFs, and their base64 encodings\n")
        document_bytes = int(args.document_mb * 1024 * 1024)
        results = run_document_memory(args.documents, document_bytes)
        print(document_memory_table(results) + "\n", flush=True)
    if "ids" in chosen:
        print("Tool-id repair: agent loops whose calls carry no ids, against unique ids\n")
        print(id_repair_table(run_id_repair(args.rounds, settings)) + "\n", flush=True)
    if "tracing" in chosen:
        print(
            f"Tracing overhead: a connected agent's call with a {args.traced_messages:,}-message "
            "conversation over RespxTransport, traced and untraced\n"
        )
        print(tracing_table(run_tracing(args.traced_messages, settings)), flush=True)


if __name__ == "__main__":
    main()
