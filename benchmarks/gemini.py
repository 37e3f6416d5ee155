"""Gemini's benchmark pieces: the conversation it takes, its floors, and a stream of chunks.

Kept in one module so the shared benchmark modules only name them. Gemini needs a user turn
first (``to_gemini`` raises for a conversation that opens with a model turn, as the API would),
so the conversion benchmark sends the shared conversation with one user message put after the
system message. Gemini streams each function call whole, so its stream is ``text_deltas`` text
chunks and one chunk per call (the ``fragments`` of the other providers' streams are joined into
that call's ``args``); every chunk carries the cumulative usage, the last one the finish reason.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, Final

from google.genai import types

from benchmarks.conversation import make_conversation
from llmbridge import (
    ImageMessage,
    Message,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    Usage,
)

__all__ = [
    "GeminiFloorAggregator",
    "gemini_bare",
    "gemini_conversation",
    "gemini_floor",
    "gemini_sdk",
    "gemini_stream",
]

Payload = dict[str, Any]

OPENING: Final = TextMessage(Role.USER, "Hello.")
"""The user turn put first, after the system message: a Gemini conversation opens with one."""


def gemini_conversation(size: int = 1000, *, seed: int = 0) -> list[Message]:
    """The shared benchmark conversation with ``OPENING`` after its system message."""
    messages = make_conversation(size, seed=seed)
    return [messages[0], OPENING, *messages[1:]]


# --- Conversion floor ----------------------------------------------------------------------


def _parts(message: Message, agent_name: str) -> tuple[str, list[Payload]]:
    match message:
        case TextMessage(content=text, from_=from_, role=role):
            own = from_ == agent_name or (from_ is None and role == Role.ASSISTANT)
            return ("model" if own else "user"), [{"text": text}]
        case ImageMessage():
            inline = {"mime_type": message.media_type, "data": message.base64_data}
            return "user", [{"inline_data": inline}]
        case ToolCallMessage():
            parts: list[Payload] = [{"text": message.content}] if message.content else []
            for call in message.tool_calls:
                arguments = call.function_arguments
                args = json.loads(arguments) if arguments else {}
                parts.append(
                    {
                        "function_call": {
                            "name": call.function_name,
                            "args": args,
                            "id": call.tool_call_id,
                        }
                    }
                )
            return "model", parts
        case ToolCallResultMessage():
            return "user", [
                {
                    "function_response": {
                        "name": call.function_name,
                        "id": call.tool_call_id,
                        "response": {"output": call.result},
                    }
                }
                for call in message.tool_calls
            ]
    raise TypeError(f"the floor does not translate {type(message).__name__}")


def gemini_floor(
    messages: Sequence[Message], agent_name: str
) -> tuple[list[Payload], list[Payload]]:
    """Translate the benchmark conversation to Gemini ``(system_instruction, contents)``, by hand.

    System text goes to the system parts; image URLs are dropped (the conversation's are plain
    https URLs, which Gemini cannot fetch); consecutive same-role contents merge their parts.
    """
    system: list[Payload] = []
    contents: list[Payload] = []
    for message in messages:
        if isinstance(message, TextMessage) and message.role == Role.SYSTEM:
            system.append({"text": message.content})
            continue
        if isinstance(message, ImageMessage) and message.url is not None:
            continue
        role, parts = _parts(message, agent_name)
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"] += parts
        else:
            contents.append({"role": role, "parts": parts})
    return system, contents


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


class GeminiFloorAggregator:
    """A minimal Gemini stream aggregator: updates per chunk, one message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.text: list[str] = []
        self.calls: list[ToolCall] = []
        self.usage: dict[str, int] = {}
        self.reason = "stop"

    def add(self, chunk: types.GenerateContentResponse) -> list[Message]:
        """Fold one chunk in and return its updates."""
        usage = chunk.usage_metadata
        if usage is not None:
            self.usage["prompt"] = usage.prompt_token_count or 0
            self.usage["candidates"] = usage.candidates_token_count or 0
            self.usage["thoughts"] = usage.thoughts_token_count or 0
        updates: list[Message] = []
        for candidate in chunk.candidates or ():
            for part in candidate.content.parts or () if candidate.content else ():
                call = part.function_call
                if call is not None:
                    index = len(self.calls)
                    name = call.name or ""
                    arguments = json.dumps(call.args or {}, ensure_ascii=False)
                    call_id = call.id or f"{name}_{index}"
                    self.calls.append(ToolCall(name, arguments, tool_call_id=call_id))
                    updates.append(
                        ToolCallMessageUpdate(
                            name, arguments, self.agent_name, index=index, tool_call_id=call_id
                        )
                    )
                elif part.text:
                    self.text.append(part.text)
                    updates.append(TextMessageUpdate(Role.ASSISTANT, part.text, self.agent_name))
            if candidate.finish_reason is not None and self.calls:
                self.reason = "tool_calls"
        return updates

    def finish(self) -> Message:
        """The complete reply."""
        u = self.usage
        usage = Usage(u["prompt"], u["candidates"] + u["thoughts"], reasoning_tokens=u["thoughts"])
        content = "".join(self.text)
        if self.calls:
            return ToolCallMessage(
                self.calls,
                self.agent_name,
                content=content or None,
                usage=usage,
                finish_reason=self.reason,
            )
        return TextMessage(
            Role.ASSISTANT, content, self.agent_name, usage=usage, finish_reason=self.reason
        )


def gemini_bare(chunks: Sequence[types.GenerateContentResponse]) -> tuple[str, list[str]]:
    """Join a Gemini stream's text and serialize each call's ``args`` (calls arrive whole)."""
    text: list[str] = []
    calls: list[str] = []
    for chunk in chunks:
        for candidate in chunk.candidates or ():
            for part in candidate.content.parts or () if candidate.content else ():
                if part.function_call is not None:
                    calls.append(json.dumps(part.function_call.args or {}))
                elif part.text:
                    text.append(part.text)
    return "".join(text), calls


def gemini_sdk(chunks: Sequence[types.GenerateContentResponse]) -> tuple[str, list[Any]]:
    """What the SDK offers instead of an accumulator: each chunk's ``.text`` and
    ``.function_calls`` accessors (google-genai has no stream accumulator)."""
    text: list[str] = []
    calls: list[Any] = []
    for chunk in chunks:
        function_calls = chunk.function_calls
        if function_calls:
            calls += [call.args for call in function_calls]
        else:
            text.append(chunk.text or "")
    return "".join(text), calls
