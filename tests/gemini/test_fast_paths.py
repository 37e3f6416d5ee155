"""The Gemini wing's fast paths give what the general paths give (hypothesis properties)."""

from __future__ import annotations

import base64
import random
from typing import Any
from unittest import mock

from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import LLMBridgeError, Message, MessageEnvelope, ToolCallResultMessage
from llmbridge.gemini import GeminiStreamAggregator, to_gemini
from llmbridge.gemini._contents import ContentSink
from llmbridge.gemini._joiner import join_parts
from llmbridge.testing import gemini_function_call_part, gemini_text_part
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
    """``_keep_call_order`` (one pass first) only skips a sort that would change nothing: the
    request, its notes or its error are those of always sorting."""
    messages = [_shuffled(message, rng) for message in messages]
    for at, envelope in extra:
        messages.insert(min(at, len(messages)), envelope)
    fast = _outcome(messages)
    with mock.patch.object(ContentSink, "_keep_call_order", ContentSink._order_responses):
        general = _outcome(messages)
    assert fast == general


# -- stream: parts joined as they arrive, usage folded now and then -------------------------

SIGNATURES = st.one_of(st.none(), st.just(base64.b64encode(b"sig").decode()))
PARTS = st.one_of(
    st.builds(
        gemini_text_part, st.text(max_size=3), thought=st.booleans(), thought_signature=SIGNATURES
    ),
    st.builds(gemini_function_call_part, st.just("f"), thought_signature=SIGNATURES),
    st.just({"inlineData": {"mimeType": "image/png", "data": "AAAA"}}),
)


def _is_text(part: types.Part) -> bool:
    return part.text is not None and part.function_call is None


def _join_by_rescanning(parts: list[types.Part]) -> list[types.Part]:
    """The rule of ``join_parts`` the plain way: look back at the last part for each part."""
    joined: list[types.Part] = []
    pieces: list[str] = []
    for part in parts:
        last = joined[-1] if joined else None
        if (
            last is not None
            and _is_text(part)
            and _is_text(last)
            and last.thought_signature is None
            and bool(last.thought) == bool(part.thought)
        ):
            pieces.append(part.text or "")
            if part.thought_signature is not None:
                joined[-1] = last.model_copy(update={"thought_signature": part.thought_signature})
            continue
        if len(pieces) > 1:
            joined[-1] = joined[-1].model_copy(update={"text": "".join(pieces)})
        pieces = [part.text or ""] if _is_text(part) else []
        joined.append(part)
    if len(pieces) > 1:
        joined[-1] = joined[-1].model_copy(update={"text": "".join(pieces)})
    return joined


@given(raw=st.lists(PARTS, min_size=1, max_size=12))
def test_parts_joined_as_they_arrive_equal_the_rescanning_rule(raw: list[dict[str, Any]]) -> None:
    parts = [types.Part.model_validate(part) for part in raw]
    before = [part.model_copy() for part in parts]
    expected = _join_by_rescanning(parts)
    assert join_parts(parts) == expected
    aggregator = GeminiStreamAggregator(AGENT)
    for part in parts:
        content = types.Content(role="model", parts=[part])
        aggregator.add(types.GenerateContentResponse(candidates=[types.Candidate(content=content)]))
    joined = aggregator.joined().candidates
    assert joined is not None
    assert joined[0].content is not None
    assert (joined[0].content.parts or []) == expected
    assert parts == before  # nothing given was changed


USAGE = st.fixed_dictionaries(
    {},
    optional={
        "prompt_token_count": st.one_of(st.none(), st.integers(0, 9)),
        "candidates_token_count": st.one_of(st.none(), st.integers(0, 9)),
        "thoughts_token_count": st.one_of(st.none(), st.integers(0, 9)),
        "cached_content_token_count": st.one_of(st.none(), st.integers(0, 9)),
    },
)


@settings(max_examples=60)
@given(usages=st.lists(st.one_of(st.none(), USAGE), max_size=200))
def test_usage_folded_in_batches_keeps_the_last_value_of_each_field(
    usages: list[dict[str, Any] | None],
) -> None:
    """However many chunks (more than a fold batch), each field's last non-None value wins."""
    aggregator = GeminiStreamAggregator(AGENT)
    expected: dict[str, Any] = {}
    for usage in usages:
        metadata = None
        if usage is not None:
            metadata = types.GenerateContentResponseUsageMetadata(**usage)
            expected.update({name: value for name, value in usage.items() if value is not None})
        aggregator.add(types.GenerateContentResponse(usage_metadata=metadata))
        if len(expected) % 3 == 1:  # joining mid-stream (a partial reply) folds too
            aggregator.joined()
    joined = aggregator.joined().usage_metadata
    if not expected:
        assert joined is None
    else:
        assert joined == types.GenerateContentResponseUsageMetadata(**expected)
