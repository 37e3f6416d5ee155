"""Gemini's benchmark inputs: the conversation it converts and the stream it aggregates.

Kept in one module so the shared benchmark modules only name them (its floors are with the
other wings' in ``floors.py`` and ``stream_floors.py``). Gemini needs a user turn first
(``to_gemini`` raises for a conversation that opens with a model turn, as the API would), so the
conversion benchmark sends the shared conversation with one user message put after the system
message. Gemini streams each function call whole, so its stream is ``text_deltas`` text chunks
and one chunk per call (the ``fragments`` of the other providers' streams are joined into that
call's ``args``); every chunk carries the cumulative usage, the last one the finish reason.
"""

from __future__ import annotations

import random
from typing import Any, Final

from google.genai import types

from benchmarks.conversation import make_conversation
from llmbridge import Message, Role, TextMessage

__all__ = ["gemini_conversation", "gemini_stream"]

Payload = dict[str, Any]

OPENING: Final = TextMessage(Role.USER, "Hello.")
"""The user turn put first, after the system message: a Gemini conversation opens with one."""


def gemini_conversation(size: int = 1000, *, seed: int = 0) -> list[Message]:
    """The shared benchmark conversation with ``OPENING`` after its system message."""
    messages = make_conversation(size, seed=seed)
    return [messages[0], OPENING, *messages[1:]]


# --- Stream --------------------------------------------------------------------------------

_TOOLS: Final = ("get_weather", "get_time", "search_flights")
_WORDS: Final = ("the", "weather", "in", "paris", "is", "sunny", "and", "warm", "today")


def gemini_stream(
    text_deltas: int = 2000, calls: int = 3, fragments: int = 500, *, seed: int = 0
) -> list[types.GenerateContentResponse]:
    """Return a ``streamGenerateContent`` stream as SDK ``GenerateContentResponse`` chunks.

    ``text_deltas`` one-word text chunks, then ``calls`` function calls, each whole in one
    chunk and without an id (as the Gemini API sends them), its ``query`` argument as long as
    ``fragments`` words; cumulative usage on every chunk, ``STOP`` on the last one.
    """
    rng = random.Random(seed)
    pieces: list[Payload] = [{"text": rng.choice(_WORDS) + " "} for _ in range(text_deltas)]
    for position in range(calls):
        query = " ".join(rng.choices(_WORDS, k=fragments))
        call = {"name": _TOOLS[position % len(_TOOLS)], "args": {"query": query}}
        pieces.append({"functionCall": call})
    raw = []
    for step, part in enumerate(pieces):
        usage = {
            "promptTokenCount": 1200,
            "candidatesTokenCount": step + 1,
            "thoughtsTokenCount": 40,
        }
        candidate: Payload = {"content": {"role": "model", "parts": [part]}, "index": 0}
        if step == len(pieces) - 1:
            candidate["finishReason"] = "STOP"
        raw.append(
            {
                "candidates": [candidate],
                "usageMetadata": usage,
                "modelVersion": "gemini-bench",
                "responseId": "resp_bench",
            }
        )
    return [types.GenerateContentResponse.model_validate(chunk) for chunk in raw]
