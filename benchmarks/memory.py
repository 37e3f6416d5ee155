"""Peak memory of converting a conversation with large inline images, against the payload size.

The peak is what ``tracemalloc`` sees allocated during one conversion call, above what was
allocated before it, the returned payload included. It is measured twice on the same image
objects: first (each image's base64 text not computed yet) and repeat (cached, as on every
later turn of an agent loop). The payload size is the in-memory size of the returned payload:
every dict, list and string reachable from it, each object counted once. The per-image size
limits (``max_image_bytes``) are lifted here: the case measures copies, not what an API accepts;
so is Gemini's 20 MB of inline data per request (``lifted_inline_limit``), which has no
parameter. All four wings are measured, each against its own floor.
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

import llmbridge.gemini._media as gemini_media
from benchmarks.conversation import AGENT, big_image_conversation
from benchmarks.floors import anthropic_floor, gemini_floor, openai_floor, responses_floor
from llmbridge import Message
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import to_gemini
from llmbridge.openai import to_openai, to_openai_responses

__all__ = [
    "LIBRARY",
    "TARGET",
    "MemoryResult",
    "Peaks",
    "deep_size",
    "lifted_inline_limit",
    "peak",
    "run_memory",
]

TARGET: Final = 1.5
"""The highest accepted ratio of peak memory to payload size."""


class Peaks:
    """The ratios of a memory result (images here, documents in ``documents.py``): the peaks of
    a first and a repeat conversion over the payload size; the result dataclass has the fields."""

    __slots__ = ()
    provider: str
    payload_bytes: int
    first_peak: int
    repeat_peak: int
    target: float

    @property
    def first_ratio(self) -> float:
        """First conversion's peak over the payload size."""
        return self.first_peak / self.payload_bytes

    @property
    def repeat_ratio(self) -> float:
        """Repeat conversion's peak over the payload size."""
        return self.repeat_peak / self.payload_bytes


@dataclass(frozen=True, slots=True)
class MemoryResult(Peaks):
    """Peak bytes of a first and a repeat conversion, and the payload's size in bytes."""

    provider: str
    images: int
    image_bytes: int
    payload_bytes: int
    first_peak: int
    repeat_peak: int
    floor_first_peak: int
    target: float

    @property
    def floor_first_ratio(self) -> float:
        """The floor's first-conversion peak over the payload size."""
        return self.floor_first_peak / self.payload_bytes


def deep_size(payload: object) -> int:
    """Return the bytes of every dict, list, tuple and scalar reachable from ``payload``, once."""
    seen: set[int] = set()
    stack = [payload]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return total


Convert = Callable[[Sequence[Message]], object]


# The per-image and per-document size limits are lifted: these cases measure copies, not what an
# API accepts (4 MB of bytes is 5.6 MB of base64, over Anthropic's default 5 MB per image).
def _openai(messages: Sequence[Message]) -> object:
    request = to_openai(messages, agent_name=AGENT, max_image_bytes=None, max_document_bytes=None)
    return request.messages


def _anthropic(messages: Sequence[Message]) -> object:
    request = to_anthropic(
        messages, agent_name=AGENT, max_image_bytes=None, max_document_bytes=None
    )
    return request.system, request.messages


def _responses(messages: Sequence[Message]) -> object:
    request = to_openai_responses(
        messages, agent_name=AGENT, max_image_bytes=None, max_document_bytes=None
    )
    return request.input


@contextmanager
def lifted_inline_limit() -> Iterator[None]:
    """Lift Gemini's limit of inline bytes per request (``to_gemini`` reads it on every call)."""
    original = gemini_media.MAX_INLINE_BYTES
    gemini_media.MAX_INLINE_BYTES = sys.maxsize  # type: ignore[misc]
    try:
        yield
    finally:
        gemini_media.MAX_INLINE_BYTES = original  # type: ignore[misc]


def _gemini(messages: Sequence[Message]) -> object:
    with lifted_inline_limit():
        request = to_gemini(messages, agent_name=AGENT)
    return request.system_instruction, request.contents


LIBRARY: Final[dict[str, Convert]] = {
    "openai": _openai,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
"""Each wing's conversion with every size limit lifted, returning the payload (here and in
``documents.py``)."""

_FLOORS: Final[dict[str, Convert]] = {
    "openai": lambda messages: openai_floor(messages, AGENT),
    "openai-responses": lambda messages: responses_floor(messages, AGENT),
    "anthropic": lambda messages: anthropic_floor(messages, AGENT),
    "gemini": lambda messages: gemini_floor(messages, AGENT),
}


def peak(convert: Callable[[Sequence[Message]], object], messages: Sequence[Message]) -> int:
    """Bytes allocated at the peak of one ``convert`` call (tracemalloc must be tracing)."""
    gc.collect()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    payload = convert(messages)
    peak = tracemalloc.get_traced_memory()[1] - before
    del payload
    return peak


def run_memory(count: int = 20, image_size: int = 4 * 1024 * 1024) -> list[MemoryResult]:
    """Measure the peak memory of converting ``count`` images of ``image_size`` bytes.

    Each provider (and its floor) gets fresh image objects, so its first conversion pays
    for the base64 text of every image.
    """
    results = []
    for provider, library in LIBRARY.items():
        floor = _FLOORS[provider]
        messages = big_image_conversation(count, image_size)
        payload_bytes = deep_size(library(messages))
        fresh = big_image_conversation(count, image_size)
        floor_fresh = big_image_conversation(count, image_size)
        tracemalloc.start()
        try:
            first = peak(library, fresh)
            repeat = peak(library, fresh)
            floor_first = peak(floor, floor_fresh)
        finally:
            tracemalloc.stop()
        results.append(
            MemoryResult(
                provider, count, image_size, payload_bytes, first, repeat, floor_first, TARGET
            )
        )
    return results
