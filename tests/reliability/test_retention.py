"""Conversions keep nothing alive after they return (a long-running agent service must not grow)."""

from __future__ import annotations

import gc
import tracemalloc

from llmbridge import Message, Role, TextMessage, ToolCall, ToolCallMessage, ToolCallResultMessage
from tests.reliability.helpers import PROVIDERS, convert

CONVERSATIONS = 1_000
FIRST_CHECK = 200
TEXT_BYTES = 100_000
# Far below one retained conversation per conversion: 800 of them would be about 80 MB.
GROWTH_BOUND = 1_000_000


def _interrupted_conversation(number: int) -> list[Message]:
    """About 100 KB, with a user turn between a call and its result: the pairing repair runs."""
    call_id = f"call_{number}"
    return [
        TextMessage(Role.USER, f"{number} " + "x" * TEXT_BYTES),
        ToolCallMessage([ToolCall("lookup", "{}", tool_call_id=call_id)], "assistant"),
        TextMessage(Role.USER, "are you still there?"),
        ToolCallResultMessage([ToolCall("lookup", "{}", tool_call_id=call_id, result="found")]),
    ]


def _retained() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def test_repaired_conversations_are_not_retained_after_conversion() -> None:
    tracemalloc.start()
    try:
        after_first = 0
        for number in range(CONVERSATIONS):
            messages = _interrupted_conversation(number)
            for provider in PROVIDERS:
                notes = convert(provider, messages).notes
                assert any(note.kind == "repaired" for note in notes)
            del messages
            if number + 1 == FIRST_CHECK:
                after_first = _retained()
        growth = _retained() - after_first
    finally:
        tracemalloc.stop()
    assert growth < GROWTH_BOUND, (
        f"{growth:,} bytes retained by {CONVERSATIONS - FIRST_CHECK} more conversions"
    )
