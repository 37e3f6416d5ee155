"""Shared helpers of the Gemini tests: routes, and SDK responses reduced to plain data."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from google.genai import types

MODEL = "gemini-2.5-flash"
GEMINI_API = "https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash"
GENERATE = r":generateContent$"
STREAM = r":streamGenerateContent\?alt=sse$"


def part_data(part: types.Part) -> dict[str, Any]:
    """The fields of a parsed part that the builders set, without the unset ones."""
    data: dict[str, Any] = {}
    if part.text is not None:
        data["text"] = part.text
    if part.thought:
        data["thought"] = True
    if part.thought_signature is not None:
        data["signature"] = part.thought_signature
    if part.function_call is not None:
        call = part.function_call
        data["call"] = (call.id, call.name, call.args)
    return data


def usage_data(usage: types.GenerateContentResponseUsageMetadata | None) -> dict[str, int]:
    """The token counts a parsed usage carries, by SDK field name."""
    if usage is None:
        return {}
    counts = usage.model_dump(exclude_none=True)
    return {key: value for key, value in counts.items() if key.endswith("_count")}


def response_data(response: types.GenerateContentResponse) -> dict[str, Any]:
    """A parsed response reduced to what the builders set (one candidate at most)."""
    data: dict[str, Any] = {
        "usage": usage_data(response.usage_metadata),
        "response_id": response.response_id,
        "model_version": response.model_version,
    }
    if response.prompt_feedback is not None and response.prompt_feedback.block_reason:
        data["block_reason"] = response.prompt_feedback.block_reason.value
    for candidate in response.candidates or []:
        content = candidate.content
        data["parts"] = [part_data(part) for part in (content.parts or [])] if content else []
        data["finish_reason"] = candidate.finish_reason.value if candidate.finish_reason else None
    return data


def joined(chunks: list[types.GenerateContentResponse]) -> dict[str, Any]:
    """A stream's chunks joined into one response: text deltas of one part concatenated.

    A text piece continues the previous part when both are text of the same kind (thought or
    not) and the previous one has no signature yet (a signature ends its part); usage, ids and
    the finish reason are the last chunk's.
    """
    parts: list[dict[str, Any]] = []
    for chunk in chunks:
        for candidate in chunk.candidates or []:
            for part in (candidate.content.parts or []) if candidate.content else []:
                piece = part_data(part)
                last = parts[-1] if parts else None
                if (
                    last is not None
                    and "text" in piece
                    and "text" in last
                    and "signature" not in last
                    and last.get("thought") == piece.get("thought")
                ):
                    last["text"] += piece.pop("text")
                    last.update(piece)
                else:
                    parts.append(piece)
    data = response_data(chunks[-1])
    if "parts" in data:
        data["parts"] = parts
    return data


async def drain(stream: AsyncIterator[Any], into: list[Any]) -> list[Any]:
    """Consume ``stream`` into ``into`` (kept when the stream raises)."""
    async for item in stream:
        into.append(item)
    return into
