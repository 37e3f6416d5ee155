"""The Gemini wing's fast paths give what the general paths give (hypothesis properties)."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import LLMBridgeError, Message, MessageEnvelope, ToolCallResultMessage
from llmbridge.gemini import to_gemini
from llmbridge.gemini._contents import ContentSink
from tests.corpus import AGENT
from tests.strategies import conversations

CALL_A = {"function_call": {"name": "a", "args": {}, "id": "a1"}}
CALL_B = {"function_call": {"name": "b", "args": {}, "id": "b1"}}
ANSWER_A = {"function_response": {"name": "a", "id": "a1", "response": {"output": "A"}}}
ANSWER_B = {"function_response": {"name": "b", "id": "b1", "response": {"output": "B"}}}
NO_ID = {"function_response": {"name": "c", "response": {"output": "C"}}}

# Gemini contents given as they are: calls, responses in and out of call order, mixed parts.
gemini_envelopes = st.sampled_from(
    [
        MessageEnvelope({"role": "model", "parts": [CALL_A, CALL_B]}),
        MessageEnvelope({"role": "model", "parts": [CALL_B]}),
        MessageEnvelope({"role": "user", "parts": [ANSWER_B, ANSWER_A]}),
        MessageEnvelope({"role": "user", "parts": [ANSWER_A]}),
        MessageEnvelope({"role": "user", "parts": [{"text": "hi"}, ANSWER_A]}),
        MessageEnvelope({"role": "user", "parts": [NO_ID, ANSWER_B]}),
        MessageEnvelope({"role": "user", "parts": [{"text": "hi"}]}),
    ]
)


def _shuffled(message: Message, rng: random.Random) -> Message:
    """The message with its results in another order (results out of call order)."""
    if not isinstance(message, ToolCallResultMessage):
        return message
    calls = list(message.tool_calls)
    rng.shuffle(calls)
    return ToolCallResultMessage(calls, message.from_)


def _outcome(messages: list[Message]) -> Any:
    try:
        request = to_gemini(messages, agent_name=AGENT)
    except LLMBridgeError as error:
        return type(error), str(error)
    return request.system_instruction, request.contents, request.indices, request.notes


@settings(max_examples=150)
@given(
    messages=conversations(envelopes=True),
    extra=st.lists(st.tuples(st.integers(0, 30), gemini_envelopes), max_size=4),
    rng=st.randoms(use_true_random=False),
)
def test_responses_in_call_order_skip_the_sort_with_the_same_result(
    messages: list[Message], extra: list[tuple[int, Message]], rng: random.Random
) -> None:
    """``_in_call_order`` (one pass) only skips a sort that would change nothing: the request,
    its notes or its error are those of always sorting."""
    messages = [_shuffled(message, rng) for message in messages]
    for at, envelope in extra:
        messages.insert(min(at, len(messages)), envelope)
    fast = _outcome(messages)
    with mock.patch.object(ContentSink, "_in_call_order", lambda self, parts: False):
        general = _outcome(messages)
    assert fast == general
