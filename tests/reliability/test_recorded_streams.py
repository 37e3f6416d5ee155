"""The SDKs' own recorded SSE streams, through both connectors: stream == non-stream for each.

The non-streaming reply for the same response is what each SDK's own stream helper accumulates
from the recording (anthropic's ``messages.stream`` final message, openai's
``chat.completions.stream`` completion snapshot), served as the plain response body. So the
oracle is the SDK, not llmbridge; the data files and their origin are in ``tests/fixtures``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from llmbridge import LLMBridgeError, Message, ToolCallMessage
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import anthropic_client, openai_client
from tests.corpus import AGENT
from tests.reliability.helpers import ANTHROPIC_URL, OPENAI_URL, PROVIDERS, Provider

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
URLS = {"openai": OPENAI_URL, "anthropic": ANTHROPIC_URL}
HI = [{"role": "user", "content": "Hi"}]

# Recordings where llmbridge parts from the SDK's accumulator on purpose.
PARTS_FROM_THE_SDK = {
    # A max_tokens stop inside the tool input: the SDK completes the cut JSON (partial
    # parsing); llmbridge never guesses the rest and keeps the arguments as they arrived.
    "anthropic/incomplete_partial_json_response",
}


def recordings() -> list[Any]:
    return [
        pytest.param(provider, path, id=f"{provider}/{path.stem}")
        for provider in PROVIDERS
        for path in sorted((FIXTURES / provider).glob("*.sse"))
    ]


def router_for(provider: Provider, sse: bytes, plain: Any = None) -> respx.Router:
    """Streaming requests get the recording; plain ones the JSON body ``plain``."""

    def answer(request: httpx.Request) -> httpx.Response:
        if json.loads(request.content).get("stream"):
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=sse)
        return httpx.Response(200, json=plain)

    router = respx.Router(assert_all_called=False)
    router.post(URLS[provider]).mock(side_effect=answer)
    return router


async def sdk_accumulated(provider: Provider, sse: bytes) -> Any:
    """The reply the SDK's own stream helper assembles from the recording, as a JSON body."""
    router = router_for(provider, sse)
    if provider == "anthropic":
        async with anthropic_client(router).messages.stream(
            model="claude-test", max_tokens=1024, messages=HI
        ) as stream:
            reply: Any = await stream.get_final_message()
    else:
        # The snapshot, not get_final_completion(): that one refuses a "length" finish.
        async with openai_client(router).chat.completions.stream(
            model="gpt-4o", messages=HI
        ) as stream:
            await stream.until_done()
            reply = stream.current_completion_snapshot
    # Blocks the SDK does not model are TextBlocks of another type: pydantic would warn.
    return reply.model_dump(mode="json", warnings=False)


def connected(provider: Provider, router: respx.Router) -> Any:
    if provider == "anthropic":
        agent: Any = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    else:
        agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o")
    return agent.register_message_connector()


async def outcome(reply: Awaitable[Message]) -> Any:
    """The reply, or the type of the llmbridge error raised instead."""
    try:
        return await reply
    except LLMBridgeError as exc:
        return type(exc)


async def last_streamed(stream: Any) -> Message:
    items = [item async for item in stream]
    return items[-1]


@pytest.mark.parametrize(("provider", "path"), recordings())
async def test_recorded_stream_ends_in_the_non_streaming_reply(
    provider: Provider, path: Path
) -> None:
    sse = path.read_bytes()
    agent = connected(provider, router_for(provider, sse, await sdk_accumulated(provider, sse)))

    plain = await outcome(agent.send("Hi"))
    streamed = await outcome(last_streamed(agent.stream("Hi")))

    if f"{provider}/{path.stem}" not in PARTS_FROM_THE_SDK:
        assert streamed == plain
        return
    assert isinstance(streamed, ToolCallMessage)
    assert isinstance(plain, ToolCallMessage)
    (cut,), (completed,) = streamed.tool_calls, plain.tool_calls
    assert cut.function_arguments == streamed_arguments(sse, index=1), "kept as it arrived"
    assert cut == replace(completed, function_arguments=cut.function_arguments)
    assert replace(streamed, tool_calls=[completed]) == plain, "all else is equal"


def streamed_arguments(sse: bytes, *, index: int) -> str:
    """The ``input_json_delta`` fragments of content block ``index``, joined as they came."""
    events = [
        json.loads(line[len("data:") :])
        for line in sse.decode().splitlines()
        if line.startswith("data:")
    ]
    return "".join(
        event["delta"]["partial_json"]
        for event in events
        if event["type"] == "content_block_delta"
        and event["index"] == index
        and event["delta"]["type"] == "input_json_delta"
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_recordings_are_there(provider: Provider) -> None:
    assert sorted((FIXTURES / provider).glob("*.sse")), f"no recorded {provider} stream"
