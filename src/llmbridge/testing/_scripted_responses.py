"""How ``ScriptedProvider`` renders one scripted reply for the OpenAI Responses API.

The reply's parts become output items in the order the API sends them (reasoning, the message,
the function calls) with deterministic ids, and the stream of that response carries every
text, summary and argument delta in word-sized pieces, as the API streams.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal

from llmbridge._messages import ToolCall
from llmbridge.testing._responses import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
    openai_responses_sse,
)

__all__ = ["scripted_response", "scripted_response_sse", "words"]

_WORDS: Final = re.compile(r"\s*\S+|\s+")

# Neutral finish reason -> the Responses status and incomplete_details.reason that say it;
# every other reason is an ordinary completed response.
_ENDINGS: Final[dict[str, tuple[Literal["completed", "incomplete"], str]]] = {
    "length": ("incomplete", "max_output_tokens"),
    "content_filter": ("incomplete", "content_filter"),
}


def words(text: str) -> list[str]:
    """Split text as a model streams it: pieces of about one word, leading space included."""
    return _WORDS.findall(text)


def scripted_response(
    *,
    text: str,
    reasoning: str,
    calls: Sequence[ToolCall],
    finish_reason: str,
    usage: tuple[int, int],
    turn: int,
    model: str,
) -> dict[str, Any]:
    """The ``Response`` body of one scripted reply (``turn``: the request's number).

    Items: a reasoning item ``rs_<turn>`` (the text as its one summary part, a deterministic
    ``encrypted_content``) when there is reasoning, a message ``msg_<turn>`` when there is text,
    then one ``function_call`` per call (item id ``fc_<call id>``).
    """
    items: list[dict[str, Any]] = []
    if reasoning:
        digest = hashlib.sha256(reasoning.encode()).hexdigest()[:32]
        items.append(
            openai_response_reasoning(
                reasoning, item_id=f"rs_{turn:04d}", encrypted_content=f"enc-{digest}"
            )
        )
    if text:
        items.append(openai_response_message(text, item_id=f"msg_{turn:04d}"))
    items += [
        openai_response_function_call(
            call.function_name, call.function_arguments, call_id=call.tool_call_id or ""
        )
        for call in calls
    ]
    status, reason = _ENDINGS.get(finish_reason, ("completed", "max_output_tokens"))
    return openai_response(
        items,
        status=status,
        incomplete_reason=reason,
        input_tokens=usage[0],
        output_tokens=usage[1],
        response_id=f"resp_{turn:04d}",
        model=model,
    )


def scripted_response_sse(response: dict[str, Any]) -> list[bytes]:
    """The SSE frames of a stream of ``response``, every delta split into words."""
    return openai_responses_sse(_word_deltas(openai_response_events(response, pieces=1)))


def _word_deltas(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    for event in events:
        if not event["type"].endswith(".delta"):
            result.append(event)
            continue
        result += [{**event, "delta": piece} for piece in words(event["delta"]) or [""]]
    return [{**event, "sequence_number": number} for number, event in enumerate(result)]
