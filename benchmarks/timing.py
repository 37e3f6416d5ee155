"""The timing harness and the floor-equality check shared by every benchmark.

Rules: a measurement is the best of ``repeats`` runs; each run loops the callable enough times
to last at least ``min_time`` seconds (calibrated first, as ``timeit.Timer.autorange`` does);
callables compared with each other have their runs taken in turn (round robin);
the garbage collector is collected before and disabled during every run, for the library and
the floor alike, so that a collection triggered by one measurement never lands in another;
objects alive before a measurement starts are frozen (``gc.freeze``) for its duration.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = [
    "FloorMismatchError",
    "Settings",
    "Timing",
    "best_time",
    "best_times",
    "check_same",
    "first_difference",
]

_LOOP_STEPS: Final = (1, 2, 5)


@dataclass(frozen=True, slots=True)
class Settings:
    """How long and how often to measure: each run >= ``min_time`` s, best of ``repeats``."""

    min_time: float = 0.2
    repeats: int = 7


@dataclass(frozen=True, slots=True)
class Timing:
    """The best time of one call, in seconds, and how it was measured."""

    seconds: float
    loops: int
    repeats: int


class FloorMismatchError(AssertionError):
    """The library and the floor disagree: a benchmark would compare different work."""


def _run(fn: Callable[[], object], loops: int) -> float:
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        return time.perf_counter() - start
    finally:
        if enabled:
            gc.enable()


def _calibrate(fn: Callable[[], object], min_time: float) -> int:
    scale = 1
    while True:
        for step in _LOOP_STEPS:
            loops = step * scale
            if _run(fn, loops) >= min_time:
                return loops
        scale *= 10


def best_time(fn: Callable[[], object], settings: Settings) -> Timing:
    """Return the best per-call time of ``fn`` over ``settings.repeats`` calibrated runs."""
    return best_times({"fn": fn}, settings)["fn"]


def best_times(calls: Mapping[str, Callable[[], object]], settings: Settings) -> dict[str, Timing]:
    """Return the best per-call time of each callable, their runs taken in turn.

    Runs alternate between the callables (round robin), so that a slow spell of the machine
    (another process, a frequency change) weighs on all of them rather than on one.
    """
    # What is alive now (inputs, imported modules) is frozen out of the collector's reach, so
    # the collection before each run only walks what the runs themselves left behind.
    gc.collect()
    gc.freeze()
    try:
        loops = {name: _calibrate(fn, settings.min_time) for name, fn in calls.items()}
        best = dict.fromkeys(calls, math.inf)
        for _ in range(max(settings.repeats, 1)):
            for name, fn in calls.items():
                best[name] = min(best[name], _run(fn, loops[name]) / loops[name])
    finally:
        gc.unfreeze()
    return {name: Timing(best[name], loops[name], settings.repeats) for name in calls}


def first_difference(actual: object, expected: object, path: str = "$") -> str | None:
    """Return where ``actual`` and ``expected`` first differ (a JSON-path-like string), or None."""
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        for key in [*actual, *(key for key in expected if key not in actual)]:
            if key not in actual or key not in expected:
                side = "library" if key in actual else "floor"
                return f"{path}.{key}: only the {side} has it"
            found = first_difference(actual[key], expected[key], f"{path}.{key}")
            if found:
                return found
        return None
    if _is_list(actual) and _is_list(expected):
        assert isinstance(actual, Sequence)
        assert isinstance(expected, Sequence)
        for position, (left, right) in enumerate(zip(actual, expected, strict=False)):
            found = first_difference(left, right, f"{path}[{position}]")
            if found:
                return found
        if len(actual) != len(expected):
            return f"{path}: library has {len(actual)} items, floor {len(expected)}"
        return None
    if actual != expected or isinstance(actual, bool) != isinstance(expected, bool):
        return f"{path}: library {_short(actual)} != floor {_short(expected)}"
    return None


def _is_list(value: object) -> bool:
    return isinstance(value, list | tuple)


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def check_same(what: str, actual: object, expected: object) -> None:
    """Raise ``FloorMismatchError`` naming the first difference when the two outputs differ."""
    found = first_difference(actual, expected)
    if found is not None:
        raise FloorMismatchError(f"{what}: the floor differs from the library at {found}")
