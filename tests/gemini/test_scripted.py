"""ScriptedProvider serves Gemini: generateContent and streamGenerateContent from one script."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import errors, types

from llmbridge import (
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    Usage,
)
from llmbridge.gemini._response import from_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.testing import ScriptedProvider, gemini_error_response
from tests.corpus import AGENT
from tests.gemini import wire
from tests.gemini.helpers import MODEL

CALLS = (ToolCall("get_weather", '{"city": "Paris"}'), ToolCall("now", ""))
SCRIPT: dict[str, Any] = {
    "plain string": "Hello there, traveller.",
    "text cut by length": TextMessage(Role.ASSISTANT, "It is", finish_reason="length"),
    "tool calls with text": ToolCallMessage(CALLS, content="Let me check."),
    "tool calls with ids": ToolCallMessage([ToolCall("now", "{}", tool_call_id="c1")]),
    "reasoning": TextMessage(Role.ASSISTANT, "Yes.", reasoning=[Reasoning("Think twice.")]),
    "given usage": TextMessage(Role.ASSISTANT, "Hi.", usage=Usage(40, 3)),
}


async def ask(provider: ScriptedProvider, *, stream: bool) -> Any:
    """One request through the real SDK; the neutral reply (from_gemini or the aggregator)."""
    client = provider.gemini_client()  # kept: a collected Client closes its HTTP clients
    if not stream:
        response = await client.aio.models.generate_content(model=MODEL, contents="hi")
        return from_gemini(response, agent_name=AGENT)
    aggregator = GeminiStreamAggregator(AGENT)
    updates = []
    async for chunk in await client.aio.models.generate_content_stream(model=MODEL, contents="hi"):
        updates += aggregator.add(chunk)
    return aggregator.finish(), updates


@pytest.mark.parametrize("kind", list(SCRIPT))
async def test_a_stream_ends_with_the_reply_the_plain_call_gets(kind: str) -> None:
    plain = await ask(ScriptedProvider([SCRIPT[kind]]), stream=False)
    streamed, _ = await ask(ScriptedProvider([SCRIPT[kind]]), stream=True)

    assert streamed == plain


async def test_replies_keep_text_calls_finish_reason_and_usage() -> None:
    provider = ScriptedProvider(list(SCRIPT.values()))
    replies = [await ask(provider, stream=False) for _ in SCRIPT]

    assert replies[0].get_content() == "Hello there, traveller."
    assert replies[1].finish_reason == "length"
    calls = replies[2]
    assert isinstance(calls, ToolCallMessage)
    assert calls.content == "Let me check."
    assert calls.finish_reason == "tool_calls"
    assert [(c.function_name, c.function_arguments, c.tool_call_id) for c in calls.tool_calls] == [
        ("get_weather", '{"city": "Paris"}', "get_weather_0"),
        ("now", "{}", "now_1"),
    ]
    assert replies[3].tool_calls[0].tool_call_id == "c1"
    assert replies[5].usage == Usage(40, 3)


async def test_the_first_call_and_the_reasoning_are_signed_deterministically() -> None:
    first = await ask(ScriptedProvider([SCRIPT["tool calls with text"]]), stream=False)
    again = await ask(ScriptedProvider([SCRIPT["tool calls with text"]]), stream=False)
    thought = await ask(ScriptedProvider([SCRIPT["reasoning"]]), stream=False)

    signed, unsigned = first.tool_calls
    assert set(signed.provider_data["gemini"]) == {"thought_signature"}
    assert unsigned.provider_data == {}
    assert first == again
    [reasoning] = thought.reasoning
    assert (reasoning.text, reasoning.provider) == ("Think twice.", "gemini")
    assert reasoning.signature


async def test_a_stream_sends_a_piece_per_word_and_each_call_whole() -> None:
    _, text_updates = await ask(ScriptedProvider(["one two three"]), stream=True)
    _, call_updates = await ask(ScriptedProvider([ToolCallMessage(CALLS)]), stream=True)

    assert [u.content for u in text_updates] == ["one t", "wo th", "ree"]
    assert call_updates == [
        ToolCallMessageUpdate(
            "get_weather", '{"city": "Paris"}', AGENT, index=0, tool_call_id="get_weather_0"
        ),
        ToolCallMessageUpdate("now", "{}", AGENT, index=1, tool_call_id="now_1"),
    ]


async def test_requests_are_recorded_with_the_gemini_tag_url_and_body() -> None:
    provider = ScriptedProvider(["a", "b"])

    await ask(provider, stream=False)
    await ask(provider, stream=True)

    assert [(r.provider, r.stream) for r in provider.requests] == [
        ("gemini", False),
        ("gemini", True),
    ]
    assert provider.requests[1].url.endswith(f"/models/{MODEL}:streamGenerateContent?alt=sse")
    assert provider.bodies("gemini")[0]["contents"] == [{"parts": [{"text": "hi"}], "role": "user"}]
    for body in provider.bodies("gemini"):
        wire.check_request_body(body)


async def test_a_scripted_response_is_sent_as_it_is() -> None:
    provider = ScriptedProvider([gemini_error_response(429, "RESOURCE_EXHAUSTED")])

    with pytest.raises(errors.ClientError) as caught:
        await ask(provider, stream=False)
    assert caught.value.code == 429


@pytest.mark.parametrize(
    ("script", "fragment"),
    [
        pytest.param([], "no scripted reply left for request 1", id="running out of script"),
        pytest.param(
            [ToolCallMessage([ToolCall("f", "[1]")])], "not a JSON object", id="array arguments"
        ),
    ],
)
async def test_problems_are_a_readable_gemini_400(script: list[Any], fragment: str) -> None:
    with pytest.raises(errors.ClientError, match=fragment) as caught:
        await ask(ScriptedProvider(script), stream=False)
    assert (caught.value.code, caught.value.status) == (400, "INVALID_ARGUMENT")


async def test_the_model_version_echoes_the_requested_model() -> None:
    client = ScriptedProvider(["x"]).gemini_client()

    response = await client.aio.models.generate_content(model="gemini-3-pro", contents="hi")

    assert isinstance(response, types.GenerateContentResponse)
    assert response.model_version == "gemini-3-pro"
