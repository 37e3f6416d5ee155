"""The OpenAI builders of llmbridge.testing: SDK-parseable JSON and the promised stream shapes."""

from __future__ import annotations

import json

import httpx
import pytest

from llmbridge import ToolCall
from llmbridge.testing import (
    openai_chunk,
    openai_completion,
    openai_error_event,
    openai_sse,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
    openai_usage_chunk,
)
from tests.openai.helpers import chunks, completion

CALLS = [ToolCall("a", '{"x": 1}', tool_call_id="id_a"), ToolCall("b", "[2]")]


@pytest.mark.parametrize(
    ("kwargs", "finish_reason"),
    [
        pytest.param({"content": "hi"}, "stop", id="text_finishes_with_stop"),
        pytest.param({"tool_calls": CALLS}, "tool_calls", id="tool_calls_finish_with_tool_calls"),
        pytest.param({"content": "x", "finish_reason": "length"}, "length", id="explicit_reason"),
    ],
)
def test_completion_parses_as_the_sdk_model(kwargs: dict[str, object], finish_reason: str) -> None:
    parsed = completion(openai_completion(**kwargs, usage=openai_usage(5, 2)))  # type: ignore[arg-type]

    assert parsed.choices[0].finish_reason == finish_reason
    assert parsed.usage is not None
    assert parsed.usage.total_tokens == 7


def test_completion_tool_calls_get_ids() -> None:
    parsed = completion(openai_completion(tool_calls=CALLS))

    calls = parsed.choices[0].message.tool_calls or []
    assert [call.id for call in calls] == ["id_a", "call_1"]


def test_usage_details() -> None:
    usage = openai_usage(10, 4, cached_tokens=6, reasoning_tokens=1)

    assert usage["prompt_tokens_details"] == {"cached_tokens": 6}
    assert usage["completion_tokens_details"] == {"reasoning_tokens": 1}


def arguments_by_index(data: list[dict[str, object]]) -> dict[int, str]:
    joined: dict[int, str] = {}
    for chunk in chunks(data):
        for choice in chunk.choices:
            for call in choice.delta.tool_calls or ():
                fragment = call.function.arguments if call.function else None
                joined[call.index] = joined.get(call.index, "") + (fragment or "")
    return joined


@pytest.mark.parametrize("interleave", [False, True], ids=["sequential", "interleaved"])
@pytest.mark.parametrize("fragment_size", [1, 3, 100])
def test_tool_call_fragments_join_back_to_the_arguments(
    interleave: bool, fragment_size: int
) -> None:
    data = openai_tool_call_chunks(CALLS, fragment_size=fragment_size, interleave=interleave)

    assert arguments_by_index(data) == {0: '{"x": 1}', 1: "[2]"}


def test_interleaved_deltas_alternate_between_calls() -> None:
    data = openai_tool_call_chunks(CALLS, fragment_size=2, interleave=True)

    order = [c["choices"][0]["delta"]["tool_calls"][0]["index"] for c in data[1:-1]]
    assert order == [0, 1, 0, 1, 0, 1, 0, 0]


def test_repeated_ids_and_reverse_indices() -> None:
    data = openai_tool_call_chunks(CALLS, repeat_id_and_name=True, reverse_indices=True)

    deltas = [c["choices"][0]["delta"]["tool_calls"][0] for c in data[1:-1]]
    assert deltas[0]["index"] == 1
    assert all("id" in delta and "name" in delta["function"] for delta in deltas)


def test_text_chunks_end_with_finish_and_usage_chunk_without_choices() -> None:
    data = openai_text_chunks(["a"], usage=openai_usage())

    assert data[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert data[-2]["choices"][0]["finish_reason"] == "stop"
    assert data[-1] == openai_usage_chunk(openai_usage())
    assert data[-1]["choices"] == []
    assert chunks(data)[-1].usage is not None


def test_sse_frames_end_with_done_unless_told_not_to() -> None:
    events = [openai_chunk({"content": "x"}), openai_error_event("boom")]

    frames = openai_sse(events)

    assert frames[-1] == b"data: [DONE]\n\n"
    assert json.loads(frames[1].removeprefix(b"data: "))["error"]["message"] == "boom"
    assert openai_sse(events, done=False) == frames[:-1]


async def test_sse_response_streams_frames_then_raises_the_dropped_connection() -> None:
    response = openai_sse_response([openai_chunk({"content": "x"})], error=httpx.ReadError("gone"))
    received: list[bytes] = []

    async def read() -> None:
        async for frame in response.aiter_raw():
            received.append(frame)

    with pytest.raises(httpx.ReadError):
        await read()

    assert response.headers["content-type"] == "text/event-stream"
    assert received == openai_sse([openai_chunk({"content": "x"})], done=False)
