"""Stream aggregators against generated replies split into chunks at random points.

Any valid completion, streamed with text, reasoning and tool-call arguments split anywhere,
parallel calls interleaved, ids and names repeated or not and a usage chunk or not, aggregates
to exactly what the non-streaming conversion returns (or raises the same error).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import LLMBridgeError, Message, RefusalError, ToolCall, ToolCallMessageUpdate
from llmbridge.anthropic import AnthropicStreamAggregator, from_anthropic
from llmbridge.openai import OpenAIStreamAggregator, from_openai
from llmbridge.testing import openai_chunk, openai_completion, openai_usage, openai_usage_chunk
from tests.corpus import AGENT
from tests.reliability.helpers import (
    anthropic_event_models,
    anthropic_message_model,
    openai_chunk_models,
    openai_completion_model,
)

SHORT = settings(max_examples=60)
texts = st.text(max_size=30)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
json_objects = st.dictionaries(st.text(max_size=6), json_values, max_size=4)


@st.composite
def pieces(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at random points (maybe inside an escape or a multi-byte character)."""
    cuts = sorted(draw(st.sets(st.integers(1, max(len(text) - 1, 1)), max_size=6)))
    bounds = [0, *(c for c in cuts if c < len(text)), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


@st.composite
def interleaved(draw: st.DrawFn, streams: list[list[Any]]) -> list[Any]:
    """Merge ``streams`` in a random order that keeps each stream's own order."""
    queues = [list(s) for s in streams if s]
    merged: list[Any] = []
    while queues:
        queue = queues[draw(st.integers(0, len(queues) - 1))]
        merged.append(queue.pop(0))
        queues = [q for q in queues if q]
    return merged


def outcome(produce: Any) -> Any:
    """The message produced, or the error's type and text (refusals with their text)."""
    try:
        return produce()
    except LLMBridgeError as error:
        return (type(error), getattr(error, "refusal", None))


# -- OpenAI ----------------------------------------------------------------------------------


@st.composite
def openai_replies(draw: st.DrawFn) -> dict[str, Any]:
    names = st.sampled_from(["get_weather", "now", "search"])
    arguments = st.one_of(json_objects.map(json.dumps), st.text(max_size=20), st.just(""))
    count = draw(st.integers(0, 3))
    calls = [
        ToolCall(draw(names), draw(arguments), tool_call_id=f"call_{i}_{draw(st.integers(0, 9))}")
        for i in range(count)
    ]
    finish = draw(st.sampled_from(["stop", "length", "tool_calls", "content_filter"]))
    return {
        "content": draw(st.one_of(st.none(), texts)),
        "tool_calls": calls,
        "refusal": draw(st.one_of(st.none(), st.none(), texts)),
        "reasoning_content": draw(st.one_of(st.none(), texts)),
        "finish_reason": finish,
        "usage": draw(
            st.one_of(st.none(), st.builds(openai_usage, st.integers(0, 99), st.integers(0, 99)))
        ),
    }


@st.composite
def openai_chunks(draw: st.DrawFn, reply: dict[str, Any]) -> list[dict[str, Any]]:
    streams: list[list[dict[str, Any]]] = []
    for key in ("content", "refusal", "reasoning_content"):
        if reply[key]:
            streams.append([{key: piece} for piece in draw(pieces(reply[key]))])
    for index, call in enumerate(reply["tool_calls"]):
        repeat = draw(st.booleans())
        fragments = draw(pieces(call.function_arguments)) or [""]
        deltas = []
        for position, fragment in enumerate(fragments):
            delta: dict[str, Any] = {"index": index, "function": {"arguments": fragment}}
            if position == 0 or repeat:  # id, type and name once, or in every delta
                delta["id"] = call.tool_call_id
                delta["type"] = "function"
                delta["function"]["name"] = call.function_name
            deltas.append({"tool_calls": [delta]})
        streams.append(deltas)
    deltas = draw(interleaved(streams))
    chunks = [openai_chunk({"role": "assistant", "content": ""})]
    chunks += [openai_chunk(delta) for delta in deltas]
    chunks.append(openai_chunk({}, finish_reason=reply["finish_reason"]))
    if reply["usage"] is not None:
        chunks.append(openai_usage_chunk(reply["usage"]))
    return chunks


def check_openai(reply: dict[str, Any], chunks: list[dict[str, Any]]) -> None:
    completion = openai_completion(**reply)
    expected = outcome(lambda: from_openai(openai_completion_model(completion), agent_name=AGENT))
    aggregator = OpenAIStreamAggregator(AGENT)
    updates = [u for chunk in openai_chunk_models(chunks) for u in aggregator.add(chunk)]

    assert outcome(aggregator.finish) == expected
    fragments: dict[int, str] = {}
    for update in updates:
        if isinstance(update, ToolCallMessageUpdate):
            fragments[update.index] = (
                fragments.get(update.index, "") + update.function_arguments_update
            )
    assert [fragments.get(i, "") for i in range(len(reply["tool_calls"]))] == [
        call.function_arguments for call in reply["tool_calls"]
    ]


@st.composite
def openai_cases(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    reply = draw(openai_replies())
    return reply, draw(openai_chunks(reply))


@SHORT
@given(openai_cases())
def test_openai_stream_aggregates_to_the_non_streaming_reply(case: Any) -> None:
    check_openai(*case)


@pytest.mark.fuzz
@given(openai_cases())
def test_openai_stream_fuzz(case: Any) -> None:
    check_openai(*case)


# -- Anthropic -------------------------------------------------------------------------------


@st.composite
def anthropic_blocks(draw: st.DrawFn) -> list[dict[str, Any]]:
    kinds = draw(st.lists(st.sampled_from(["text", "thinking", "redacted", "tool"]), max_size=4))
    blocks: list[dict[str, Any]] = []
    for position, kind in enumerate(kinds):
        if kind == "text":
            blocks.append({"type": "text", "text": draw(texts)})
        elif kind == "thinking":
            blocks.append({"type": "thinking", "thinking": draw(texts), "signature": "sig"})
        elif kind == "redacted":
            blocks.append({"type": "redacted_thinking", "data": "opaque=="})
        else:
            tool_input = draw(json_objects)
            blocks.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_{position}",
                    "name": "get_weather",
                    "input": tool_input,
                }
            )
    return blocks


@st.composite
def anthropic_cases(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    blocks = draw(anthropic_blocks())
    stop_reason = draw(
        st.sampled_from(
            ["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"]
        )
    )
    usage = {"input_tokens": draw(st.integers(0, 99)), "output_tokens": draw(st.integers(0, 99))}
    if draw(st.booleans()):
        usage["cache_read_input_tokens"] = draw(st.integers(0, 99))
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage,
    }
    start_usage = {**usage, "output_tokens": 1}
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {**message, "content": [], "stop_reason": None, "usage": start_usage},
        }
    ]
    for index, block in enumerate(blocks):
        events += draw(block_events(index, block))
        if draw(st.booleans()):
            events.append({"type": "ping"})
    final_usage = {"output_tokens": usage["output_tokens"]}
    if draw(st.booleans()):  # some streams repeat the input counts, cumulative
        final_usage.update(usage)
    delta = {"stop_reason": stop_reason, "stop_sequence": None}
    events.append({"type": "message_delta", "delta": delta, "usage": final_usage})
    if draw(st.booleans()):
        events.append({"type": "message_stop"})
    return message, events


@st.composite
def block_events(draw: st.DrawFn, index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
    kind = block["type"]
    deltas: list[dict[str, Any]] = []
    start = dict(block)
    if kind == "text":
        start["text"] = ""
        deltas = [{"type": "text_delta", "text": p} for p in draw(pieces(block["text"]))]
    elif kind == "thinking":
        start.update(thinking="", signature="")
        deltas = [
            {"type": "thinking_delta", "thinking": p} for p in draw(pieces(block["thinking"]))
        ]
        deltas.append({"type": "signature_delta", "signature": block["signature"]})
    elif kind == "tool_use":
        start["input"] = {}
        # Any serialization of the input, cut anywhere; a tool without arguments may send none.
        indent = draw(st.sampled_from([None, 1]))
        text = json.dumps(block["input"], indent=indent, ensure_ascii=draw(st.booleans()))
        if block["input"] or draw(st.booleans()):
            parts = ["", *draw(pieces(text))] if draw(st.booleans()) else draw(pieces(text))
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in parts]
    events = [{"type": "content_block_start", "index": index, "content_block": start}]
    events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
    events.append({"type": "content_block_stop", "index": index})
    return events


def check_anthropic(message: dict[str, Any], events: list[dict[str, Any]]) -> None:
    expected = outcome(lambda: from_anthropic(anthropic_message_model(message), agent_name=AGENT))
    aggregator = AnthropicStreamAggregator(AGENT)
    for event in anthropic_event_models(events):
        aggregator.add(event)

    actual = outcome(aggregator.finish)

    assert actual == expected
    if isinstance(actual, Message) and not isinstance(actual, tuple):
        assert actual.raw is not None


@SHORT
@given(anthropic_cases())
def test_anthropic_stream_aggregates_to_the_non_streaming_reply(case: Any) -> None:
    check_anthropic(*case)


@pytest.mark.fuzz
@given(anthropic_cases())
def test_anthropic_stream_fuzz(case: Any) -> None:
    check_anthropic(*case)


def test_outcome_tells_refusals_apart() -> None:
    def refuse() -> Message:
        raise RefusalError("no", refusal="because")

    assert outcome(refuse) == (RefusalError, "because")
    assert outcome(refuse) != (RefusalError, "other")
