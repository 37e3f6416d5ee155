"""GeminiChatAgent: the exact generateContent bodies it sends, its envelopes and its errors."""

from __future__ import annotations

from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    InvalidMessageError,
    MessageEnvelope,
    RateLimitError,
    Role,
    StreamInterruptedError,
    TextMessage,
    UnsupportedMessageError,
)
from llmbridge.gemini import GeminiChatAgent
from llmbridge.testing import (
    gemini_client,
    gemini_error,
    gemini_error_response,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    last_request_json,
)
from tests.gemini.helpers import GENERATE, MODEL, STREAM, drain

HELLO = MessageEnvelope({"role": "user", "parts": [{"text": "Hello"}]})
WEATHER = FunctionContract(
    "get_weather",
    "The weather in a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
NOW = FunctionContract("now")
WEATHER_DECLARATION = {
    "name": "get_weather",
    "description": "The weather in a city.",
    "parameters_json_schema": WEATHER.parameters,
}
NOW_DECLARATION = {"name": "now", "parameters_json_schema": {"type": "object", "properties": {}}}
USER_HELLO = [{"parts": [{"text": "Hello"}], "role": "user"}]


async def body_of(
    router: respx.Router, agent_kwargs: dict[str, Any], options: GenerateReplyOptions | None
) -> dict[str, Any]:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("Hi!"))
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="assistant", model=MODEL, **agent_kwargs)
    await agent.generate_reply([HELLO], options)
    body: dict[str, Any] = last_request_json(route)
    return body


@pytest.mark.parametrize(
    ("agent_kwargs", "options", "body"),
    [
        pytest.param({}, None, {"contents": USER_HELLO, "generationConfig": {}}, id="bare request"),
        pytest.param(
            {"system_message": "Be brief.", "max_output_tokens": 100, "temperature": 0.2},
            None,
            {
                "contents": USER_HELLO,
                "systemInstruction": {"parts": [{"text": "Be brief."}]},
                "generationConfig": {"temperature": 0.2, "maxOutputTokens": 100},
            },
            id="constructor settings",
        ),
        pytest.param(
            {"max_output_tokens": 100, "temperature": 0.2, "top_k": 3},
            GenerateReplyOptions(
                max_tokens=7, temperature=0.9, stop_sequences=["END"], extra={"top_k": 5}
            ),
            {
                "contents": USER_HELLO,
                "generationConfig": {
                    "temperature": 0.9,
                    "topK": 5.0,
                    "maxOutputTokens": 7,
                    "stopSequences": ["END"],
                },
            },
            id="per-call options win over constructor settings",
        ),
        pytest.param(
            {"functions": [WEATHER]},
            GenerateReplyOptions(functions=[NOW, WEATHER], tool_choice="auto"),
            {
                "contents": USER_HELLO,
                "tools": [{"functionDeclarations": [WEATHER_DECLARATION, NOW_DECLARATION]}],
                "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
                "generationConfig": {},
            },
            id="functions: constructor first, first of a name wins; auto is AUTO",
        ),
        pytest.param(
            {"functions": [NOW]},
            GenerateReplyOptions(tool_choice="none"),
            {
                "contents": USER_HELLO,
                "tools": [{"functionDeclarations": [NOW_DECLARATION]}],
                "toolConfig": {"functionCallingConfig": {"mode": "NONE"}},
                "generationConfig": {},
            },
            id="tool_choice none is NONE",
        ),
        pytest.param(
            {"functions": [NOW]},
            GenerateReplyOptions(tool_choice="required"),
            {
                "contents": USER_HELLO,
                "tools": [{"functionDeclarations": [NOW_DECLARATION]}],
                "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
                "generationConfig": {},
            },
            id="tool_choice required is ANY",
        ),
        pytest.param(
            {"functions": [NOW, WEATHER]},
            GenerateReplyOptions(tool_choice="get_weather"),
            {
                "contents": USER_HELLO,
                "tools": [{"functionDeclarations": [NOW_DECLARATION, WEATHER_DECLARATION]}],
                "toolConfig": {
                    "functionCallingConfig": {
                        "mode": "ANY",
                        "allowedFunctionNames": ["get_weather"],
                    }
                },
                "generationConfig": {},
            },
            id="a function name is ANY with allowed_function_names",
        ),
        pytest.param(
            {"tools": [types.Tool(google_search=types.GoogleSearch())]},
            GenerateReplyOptions(functions=[NOW]),
            {
                "contents": USER_HELLO,
                "tools": [{"googleSearch": {}}, {"functionDeclarations": [NOW_DECLARATION]}],
                "generationConfig": {},
            },
            id="functions come after tools given in the settings",
        ),
    ],
)
async def test_the_request_body(
    agent_kwargs: dict[str, Any],
    options: GenerateReplyOptions | None,
    body: dict[str, Any],
    router: respx.Router,
) -> None:
    assert await body_of(router, agent_kwargs, options) == body


def test_the_config_always_turns_automatic_calls_and_continuation_off(
    router: respx.Router,
) -> None:
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="assistant", model=MODEL, functions=[NOW])

    config = agent.request_arguments([HELLO])["config"]

    assert config.automatic_function_calling == types.AutomaticFunctionCallingConfig(disable=True)
    assert config.automatic_continuation is False


async def test_system_envelopes_follow_the_system_message(router: respx.Router) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("Hi!"))
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="assistant", model=MODEL, system_message="First.")
    system = MessageEnvelope({"role": "system", "parts": [{"text": "Second."}]})

    reply = await agent.generate_reply([system, HELLO])

    assert last_request_json(route)["systemInstruction"] == {
        "parts": [{"text": "First."}, {"text": "Second."}]
    }
    assert isinstance(reply, MessageEnvelope)
    assert isinstance(reply.content, types.GenerateContentResponse)
    assert reply.from_ == "assistant"
    assert reply.content.text == "Hi!"


async def test_streaming_yields_each_chunk_in_an_envelope(router: respx.Router) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello there, friend."))
    route = router.post(url__regex=STREAM).mock(return_value=gemini_sse_response(chunks))
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="assistant", model=MODEL)

    received = [item async for item in agent.generate_streaming_reply([HELLO])]

    assert len(received) == len(chunks)
    assert all(isinstance(item.content, types.GenerateContentResponse) for item in received)
    assert "".join(item.content.text or "" for item in received) == "Hello there, friend."
    assert last_request_json(route)["contents"] == USER_HELLO


@pytest.mark.parametrize(
    ("kwargs", "options", "message"),
    [
        pytest.param(
            {"automatic_function_calling": {}},
            None,
            "automatic_function_calling",
            id="automatic function calling is the agent's",
        ),
        pytest.param(
            {"system_instruction": "x"},
            None,
            "system_instruction",
            id="the system instruction is the agent's",
        ),
        pytest.param(
            {},
            GenerateReplyOptions(extra={"automatic_continuation": True}),
            "automatic_continuation",
            id="automatic continuation per call",
        ),
        pytest.param(
            {},
            GenerateReplyOptions(tool_choice="get_weather"),
            "needs tools",
            id="a tool choice without functions",
        ),
    ],
)
def test_reserved_settings_and_bad_tool_choices_are_value_errors(
    kwargs: dict[str, Any], options: GenerateReplyOptions | None, message: str, router: respx.Router
) -> None:
    client = gemini_client(router)
    with pytest.raises(ValueError, match=message):
        GeminiChatAgent(client, name="a", model=MODEL, **kwargs).request_arguments([HELLO], options)


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        pytest.param(
            [TextMessage(Role.USER, "hi")], UnsupportedMessageError, id="a neutral message"
        ),
        pytest.param(
            [MessageEnvelope({"role": "tool", "content": "x"})],
            UnsupportedMessageError,
            id="another provider's message",
        ),
        pytest.param(
            [MessageEnvelope({"role": "system", "parts": [{"text": "x"}]})],
            InvalidMessageError,
            id="no content left",
        ),
    ],
)
def test_inputs_the_agent_does_not_take(
    messages: list[Any], error: type[Exception], router: respx.Router
) -> None:
    client = gemini_client(router)
    with pytest.raises(error):
        GeminiChatAgent(client, name="a", model=MODEL).request_arguments(messages)


def test_the_agent_needs_a_genai_client() -> None:
    with pytest.raises(TypeError, match=r"google\.genai\.Client"):
        GeminiChatAgent(object(), name="a", model=MODEL)  # type: ignore[arg-type]


def test_a_vertex_client_makes_a_vertex_agent(router: respx.Router) -> None:
    gemini = gemini_client(router)
    vertex = gemini_client(router, vertexai=True, project="p", location="us-central1")

    assert GeminiChatAgent(gemini, name="a", model=MODEL).provider == "gemini"
    assert GeminiChatAgent(vertex, name="a", model=MODEL).provider == "vertex"


async def test_an_api_error_maps_by_its_code(router: respx.Router) -> None:
    router.post(url__regex=GENERATE).mock(
        return_value=gemini_error_response(429, "RESOURCE_EXHAUSTED", "slow down")
    )
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="a", model=MODEL)

    with pytest.raises(RateLimitError) as raised:
        await agent.generate_reply([HELLO])

    assert raised.value.provider == "gemini"
    assert raised.value.status_code == 429


async def test_an_error_chunk_mid_stream_is_a_stream_interruption(router: respx.Router) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello there, friend."))
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks[:1], error=gemini_error(503, "UNAVAILABLE"))
    )
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name="a", model=MODEL)
    received: list[Any] = []

    with pytest.raises(StreamInterruptedError) as raised:
        await drain(agent.generate_streaming_reply([HELLO]), received)

    assert len(received) == 1
    assert raised.value.retryable
