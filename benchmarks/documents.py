"""Peak memory of converting a conversation of large PDFs, and how often their base64 is computed.

Twenty 4 MB PDFs (each followed by a short question) are converted by each provider on fresh
document objects (first) and again on the same objects (repeat), as ``memory.py`` does for
images. The peak is what ``tracemalloc`` sees allocated during the call above what was
allocated before it, the payload included; the payload size is ``deep_size`` of it. Every call
of ``base64.b64encode`` made by the neutral model's media module over both conversions is
counted: the target is one per document (the first conversion's), none on the repeat. The
document size limits (``max_document_bytes``, Gemini's inline bytes per request) are lifted: the
case measures copies. All four wings are measured.
"""

from __future__ import annotations

import base64
import random
import tracemalloc
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import llmbridge._messages._media as media_module
from benchmarks.memory import LIBRARY, TARGET, Peaks, deep_size, peak
from llmbridge import DocumentMessage, Message, Role, TextMessage

__all__ = ["DocumentMemoryResult", "big_document_conversation", "run_document_memory"]


@dataclass(frozen=True, slots=True)
class DocumentMemoryResult(Peaks):
    """Peak bytes of a first and a repeat conversion, the payload size, the base64 encodings."""

    provider: str
    documents: int
    document_bytes: int
    payload_bytes: int
    first_peak: int
    repeat_peak: int
    encodings: int
    target: float


def big_document_conversation(
    count: int = 20, document_size: int = 4 * 1024 * 1024, *, seed: int = 0
) -> list[Message]:
    """A system message, then ``count`` user PDFs of ``document_size`` bytes, each followed by a
    short question (the bytes after the ``%PDF-`` header are random, as compressed streams are)."""
    rng = random.Random(seed)
    messages: list[Message] = [TextMessage(Role.SYSTEM, "Summarise the documents.")]
    for position in range(count):
        data = b"%PDF-1.7\n" + rng.randbytes(document_size - 9)
        messages.append(DocumentMessage(Role.USER, data=data, filename=f"report-{position}.pdf"))
        messages.append(TextMessage(Role.USER, f"What does report {position} say?"))
    return messages


@contextmanager
def _counted_encodings(counter: list[int]) -> Iterator[None]:
    """Count the media module's ``b64encode`` calls (it reaches the function as ``base64.x``)."""

    def b64encode(data: bytes, altchars: bytes | None = None) -> bytes:
        counter.append(len(data))
        return base64.b64encode(data, altchars)

    counting = types.SimpleNamespace(b64encode=b64encode, b64decode=base64.b64decode)
    original = media_module.base64
    media_module.base64 = counting  # type: ignore[assignment]
    try:
        yield
    finally:
        media_module.base64 = original


def run_document_memory(
    count: int = 20, document_size: int = 4 * 1024 * 1024
) -> list[DocumentMemoryResult]:
    """Measure each provider's peak memory and base64 encodings for ``count`` PDFs."""
    results = []
    for provider, convert in LIBRARY.items():
        payload_bytes = deep_size(convert(big_document_conversation(count, document_size)))
        fresh = big_document_conversation(count, document_size)
        encoded: list[int] = []
        tracemalloc.start()
        try:
            with _counted_encodings(encoded):
                first = peak(convert, fresh)
                repeat = peak(convert, fresh)
        finally:
            tracemalloc.stop()
        results.append(
            DocumentMemoryResult(
                provider, count, document_size, payload_bytes, first, repeat, len(encoded), TARGET
            )
        )
    return results
