"""``python -m benchmarks.peers`` (``make bench-peers``): the side-by-side table, one run."""

from __future__ import annotations

import argparse
import platform
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from benchmarks.peers.harness import peers_table, run_peers
from benchmarks.streams import StreamShape
from benchmarks.timing import Settings

_PACKAGES = ("openai", "anthropic", "langchain-core", "langchain-openai", "langchain-anthropic",
             "pydantic-ai-slim", "litellm")  # fmt: skip


def _versions() -> str:
    found = []
    for name in _PACKAGES:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)


def main(argv: Sequence[str] | None = None) -> None:
    """Time every job for the floor, llmbridge, the SDK and each installed peer; print a table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.peers", description=__doc__)
    parser.add_argument("--messages", type=int, default=1000, help="conversation size")
    parser.add_argument("--text-deltas", type=int, default=2000, help="text deltas per stream")
    parser.add_argument("--calls", type=int, default=3, help="parallel tool calls per stream")
    parser.add_argument("--fragments", type=int, default=500, help="fragments per call (>= 2)")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument("--no-peers", action="store_true", help="llmbridge, SDK and floor only")
    args = parser.parse_args(argv)
    shape = StreamShape(args.text_deltas, args.calls, args.fragments)
    settings = Settings(args.min_time, args.repeats)
    print(f"Python {platform.python_version()} on {platform.machine()}; {_versions()}")
    print(f"Timing: best of {settings.repeats} runs, each >= {settings.min_time} s, gc off.")
    print(
        f"Inputs: a {args.messages:,}-message conversation; streams of {shape.text_deltas:,} "
        f"text deltas + {shape.calls} x {shape.fragments} tool-call fragments. Time over the "
        "floor's, measured in the same run.\n"
    )
    results = run_peers(args.messages, shape, settings, with_peers=not args.no_peers)
    print(peers_table(results), flush=True)


if __name__ == "__main__":
    main()
