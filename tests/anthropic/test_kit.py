"""The Anthropic builders of llmbridge.testing are faithful: the SDK's own stream accumulator
turns the built events into the very message the JSON builder describes."""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2
import pytest
import respx
from anthropic.types import Message as AnthropicMessage

from llmbridge.testing import (
    anthropic_client,
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_redacted_thinking_block,
    anthropic_sse,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from tests.anthropic.helpers import URL

BODY = anthropic_message(
    [
        anthropic_thinking_block("Plan: call both.", "sig-1"),
        anthropic_redacted_thinking_block("opaque=="),
        anthropic_text_block("Calling."),
        anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris", "days": [1, 2]}),
        anthropic_tool_use_block("toolu_2", "now"),
    ],
    stop_reason="tool_use",
    cache_read_input_tokens=3,
)
REQUEST: dict[str, Any] = {
    "model": "claude-test",
    "max_tokens": 10,
    "messages": [{"role": "user", "content": "hi"}],
}


def router_for(response: Any) -> respx.Router:
    router = respx.Router(assert_all_called=False)
    router.post(URL).mock(return_value=response)
    return router


@pytest.mark.parametrize("pieces", [1, 4])
async def test_sdk_accumulates_the_stream_into_the_json_message(pieces: int) -> None:
    client = anthropic_client(
        router_for(anthropic_sse_response(anthropic_stream_events(BODY, pieces=pieces)))
    )

    async with client.messages.stream(**REQUEST) as stream:
        final = await stream.get_final_message()

    assert final.model_dump() == AnthropicMessage.model_validate(BODY).model_dump()


def test_stream_shape() -> None:
    events = anthropic_stream_events(anthropic_message("Hi"), pieces=2)

    assert [event["type"] for event in events] == [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert events[0]["message"]["stop_reason"] is None
    assert anthropic_stream_events(anthropic_message("Hi"), message_stop=False)[-1]["type"] == (
        "message_delta"
    )


def test_tool_without_arguments_sends_no_input_json_delta() -> None:
    body = anthropic_message([anthropic_tool_use_block("t", "now")], stop_reason="tool_use")

    deltas = [e for e in anthropic_stream_events(body) if e["type"] == "content_block_delta"]

    assert deltas == []


@pytest.mark.parametrize("kind", ["server_tool_use", "mcp_tool_use"])
def test_server_and_mcp_tool_input_streams_as_input_json_delta(kind: str) -> None:
    block = {"type": kind, "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x y"}}
    events = anthropic_stream_events(anthropic_message([block]), pieces=2)

    start = next(e for e in events if e["type"] == "content_block_start")
    fragments = [e["delta"]["partial_json"] for e in events if e["type"] == "content_block_delta"]
    assert start["content_block"] == {**block, "input": {}}
    assert fragments[0] == "", "the API's first fragment is often empty"
    assert "".join(fragments) == '{"query": "x y"}'


def test_sse_frames_name_their_event() -> None:
    assert anthropic_sse([{"type": "ping"}]) == [b'event: ping\ndata: {"type": "ping"}\n\n']


async def test_error_event_reaches_the_sdk_as_a_status_error() -> None:
    events = [*anthropic_stream_events(anthropic_message("x"))[:2], anthropic_error_event()]
    client = anthropic_client(router_for(anthropic_sse_response(events)))

    with pytest.raises(anthropic.APIStatusError) as caught:
        async for _ in await client.messages.create(**REQUEST, stream=True):
            pass

    assert caught.value.type == "overloaded_error"


async def test_dropped_connection_reaches_the_sdk_as_a_read_error() -> None:
    events = anthropic_stream_events(anthropic_message("x"))[:2]
    client = anthropic_client(router_for(anthropic_sse_response(events, drop_connection=True)))

    with pytest.raises(httpx2.ReadError):
        async for _ in await client.messages.create(**REQUEST, stream=True):
            pass


async def test_error_response_is_the_sdk_error_for_its_status() -> None:
    response = anthropic_error_response(529, "overloaded_error", "busy", headers={"x-a": "1"})
    client = anthropic_client(router_for(response))

    with pytest.raises(anthropic.OverloadedError) as caught:
        await client.messages.create(**REQUEST)

    assert (caught.value.type, caught.value.api_message) == ("overloaded_error", "busy")
