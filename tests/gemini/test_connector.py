"""GeminiMessageConnector: GeminiChatAgent speaking neutral messages, plain and streaming."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
import respx

from llmbridge import (
    Message,
    MessageEnvelope,
    ProviderUnavailableError,
    RateLimitError,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.gemini import SKIP_THOUGHT_SIGNATURE, GeminiChatAgent, GeminiMessageConnector
from llmbridge.gemini._connector import provider_of
from llmbridge.kit import MessageConnector
from llmbridge.testing import (
    gemini_client,
    gemini_error,
    gemini_error_response,
    gemini_function_call_part,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    gemini_text_part,
    last_request_json,
)
from tests.corpus import AGENT
from tests.gemini.helpers import GENERATE, MODEL, STREAM, drain

SIG = base64.b64encode(b"sig-1").decode()
REPLIES = [
    pytest.param(gemini_response("Hello there."), id="text"),
    pytest.param(
        gemini_response(
            [
                gemini_text_part("Two lookups.", thought=True, thought_signature=SIG),
                gemini_text_part("Checking."),
                gemini_function_call_part("get_weather", {"city": "Paris"}, thought_signature=SIG),
                gemini_function_call_part("now"),
            ],
            thoughts_token_count=9,
        ),
        id="thought, text and parallel calls",
    ),
]


def connected(router: respx.Router, **client_kwargs: Any) -> Any:
    client = gemini_client(router, **client_kwargs)
    agent = GeminiChatAgent(client, name=AGENT, model=MODEL)
    return agent.register_message_connector()


async def collect(stream: AsyncIterator[Message]) -> list[Message]:
    return [message async for message in stream]


def test_the_connector_is_a_kit_connector_and_checks_its_settings() -> None:
    assert isinstance(GeminiMessageConnector(), MessageConnector)
    with pytest.raises(ValueError, match="name_policy"):
        GeminiMessageConnector(name_policy="keep")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="provider"):
        GeminiMessageConnector(provider="openai")


def test_it_is_the_default_connector_of_gemini_chat_agent(router: respx.Router) -> None:
    agent = GeminiChatAgent(gemini_client(router), name=AGENT, model=MODEL)

    connected_agent = agent.register_message_connector()

    [connector] = connected_agent.middlewares
    assert isinstance(connector, GeminiMessageConnector)
    assert connector.strict_mode is False
    assert connector.name_policy == "drop"


async def test_a_neutral_conversation_goes_out_as_contents_and_comes_back_neutral(
    router: respx.Router,
) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("Bonjour!"))
    agent = connected(router)

    reply = await agent.send(
        chat_history=[TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "Hi")]
    )

    assert reply == TextMessage(
        Role.ASSISTANT, "Bonjour!", AGENT, usage=Usage(10, 5), finish_reason="stop"
    )
    body = last_request_json(route)
    assert body["contents"] == [{"parts": [{"text": "Hi"}], "role": "user"}]
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}


@pytest.mark.parametrize("body", REPLIES)
async def test_a_stream_ends_with_the_message_the_plain_path_returns(
    body: dict[str, Any], router: respx.Router
) -> None:
    router.post(url__regex=GENERATE).respond(json=body)
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(gemini_stream_chunks(body))
    )
    agent = connected(router)

    plain = await agent.send("hi")
    streamed = await collect(agent.stream("hi"))

    assert streamed[-1] == plain
    assert all(not isinstance(m, TextMessage | ToolCallMessage) for m in streamed[:-1])
    assert len(streamed) > 1


async def test_stream_updates_are_live_and_calls_arrive_whole(router: respx.Router) -> None:
    body = REPLIES[1].values[0]
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(gemini_stream_chunks(body, pieces=2))
    )

    streamed = await collect(connected(router).stream("hi"))

    assert streamed[:-1] == [
        ReasoningMessageUpdate("Two lo", AGENT),
        ReasoningMessageUpdate("okups.", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "Check", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "ing.", AGENT),
        ToolCallMessageUpdate(
            "get_weather", '{"city": "Paris"}', AGENT, index=0, tool_call_id="get_weather_0"
        ),
        ToolCallMessageUpdate("now", "{}", AGENT, index=1, tool_call_id="now_1"),
    ]


async def test_an_error_chunk_mid_stream_is_interrupted_with_the_partial(
    router: respx.Router,
) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello"))[:2]
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks, error=gemini_error())
    )
    received: list[Message] = []

    with pytest.raises(StreamInterruptedError) as caught:
        await drain(connected(router).stream("hi"), received)

    error = caught.value
    assert (error.status_code, error.retryable, error.provider) == (503, True, "gemini")
    assert error.partial == TextMessage(Role.ASSISTANT, "Hell", AGENT, usage=Usage(10, 3))
    assert [m.get_content() for m in received] == ["He", "ll"]
    assert isinstance(error.__cause__, Exception)


async def test_an_error_chunk_before_any_content_is_interrupted_without_partial(
    router: respx.Router,
) -> None:
    router.post(url__regex=STREAM).mock(return_value=gemini_sse_response([], error=gemini_error()))

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"))

    assert caught.value.partial is None
    assert caught.value.status_code == 503


async def test_an_http_error_on_the_stream_request_maps_by_its_code(router: respx.Router) -> None:
    router.post(url__regex=STREAM).mock(
        return_value=gemini_error_response(429, "RESOURCE_EXHAUSTED", "slow down")
    )

    with pytest.raises(RateLimitError) as caught:
        await collect(connected(router).stream("hi"))

    assert not isinstance(caught.value, StreamInterruptedError)
    assert caught.value.status_code == 429


async def test_a_dropped_connection_is_interrupted_and_retryable(router: respx.Router) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello"))[:1]
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks, drop_connection=True)
    )

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"))

    assert caught.value.retryable
    assert caught.value.partial == TextMessage(Role.ASSISTANT, "He", AGENT, usage=Usage(10, 1))


async def test_a_stream_without_a_finish_reason_is_interrupted(router: respx.Router) -> None:
    chunks = gemini_stream_chunks(gemini_response("Hello"))[:-1]
    router.post(url__regex=STREAM).mock(return_value=gemini_sse_response(chunks))

    with pytest.raises(StreamInterruptedError, match="no finish reason") as caught:
        await collect(connected(router).stream("hi"))

    assert caught.value.partial is not None


async def test_a_failed_plain_call_maps_by_its_code(router: respx.Router) -> None:
    router.post(url__regex=GENERATE).mock(return_value=gemini_error_response(503, "UNAVAILABLE"))

    with pytest.raises(ProviderUnavailableError) as caught:
        await connected(router).send("hi")

    assert caught.value.retryable


def test_process_incoming_messages_is_message_by_message(router: respx.Router) -> None:
    agent = GeminiChatAgent(gemini_client(router), name=AGENT, model=MODEL)
    call = ToolCall("now", "{}", tool_call_id="c1", result="12:00")
    messages = [
        TextMessage(Role.USER, "a"),
        TextMessage(Role.USER, "b"),
        ToolCallResultMessage([call]),
    ]

    envelopes = GeminiMessageConnector().process_incoming_messages(agent, messages)

    assert [e.content for e in envelopes if isinstance(e, MessageEnvelope)] == [
        {"role": "user", "parts": [{"text": "a"}]},
        {"role": "user", "parts": [{"text": "b"}]},
        {
            "role": "user",
            "parts": [
                {"function_response": {"name": "now", "id": "c1", "response": {"output": "12:00"}}}
            ],
        },
    ]


async def test_strict_mode_refuses_a_reply_that_is_not_gemini(router: respx.Router) -> None:
    agent = GeminiChatAgent(gemini_client(router), name=AGENT, model=MODEL)
    other = TextMessage(Role.ASSISTANT, "x", AGENT)

    assert GeminiMessageConnector().post_process_message(agent, other) is other
    with pytest.raises(UnsupportedMessageError):
        GeminiMessageConnector(strict_mode=True).post_process_message(agent, other)


# -- the provider tag: "vertex" for a Vertex AI client ------------------------------------------

SIGNED_TURN = [
    TextMessage(Role.USER, "Weather?"),
    ToolCallMessage(
        [
            ToolCall(
                "get_weather",
                '{"city": "Paris"}',
                tool_call_id="w1",
                provider_data={"gemini": {"thought_signature": SIG}},
            )
        ],
        AGENT,
    ),
    ToolCallResultMessage([ToolCall("get_weather", "{}", tool_call_id="w1", result="sunny")]),
]


@pytest.mark.parametrize(
    ("client_kwargs", "tag", "sent_signature"),
    [
        pytest.param({}, "gemini", SIG, id="Gemini API client: its own signature goes back"),
        pytest.param(
            {"vertexai": True, "project": "p", "location": "us-central1"},
            "vertex",
            SKIP_THOUGHT_SIGNATURE,
            id="Vertex AI client: the Gemini API signature is foreign, the bypass goes out",
        ),
    ],
)
async def test_the_tag_follows_the_client(
    client_kwargs: dict[str, Any], tag: str, sent_signature: str, router: respx.Router
) -> None:
    body = gemini_response(
        [gemini_text_part("hm", thought=True, thought_signature=SIG), gemini_text_part("Sunny.")]
    )
    route = router.post(url__regex=GENERATE).respond(json=body)

    reply = await connected(router, **client_kwargs).send(chat_history=SIGNED_TURN)

    assert reply.reasoning == (Reasoning("hm", signature=SIG, provider=tag),)
    model_turn = last_request_json(route)["contents"][1]
    assert model_turn["parts"][0]["thoughtSignature"] == sent_signature


def test_a_fixed_provider_wins_over_the_client(router: respx.Router) -> None:
    vertex = GeminiChatAgent(
        gemini_client(router, vertexai=True, project="p", location="l"), name=AGENT, model=MODEL
    )

    assert provider_of(vertex) == "vertex"
    assert GeminiMessageConnector(provider="gemini")._for(vertex).provider == "gemini"
    assert GeminiMessageConnector()._for(vertex).provider == "vertex"


def test_the_tag_is_found_through_middleware_layers(router: respx.Router) -> None:
    vertex = GeminiChatAgent(
        gemini_client(router, vertexai=True, project="p", location="l"), name=AGENT, model=MODEL
    )

    async def passing(context: Any, agent: Any) -> Message:
        reply: Message = await agent.generate_reply(context.messages, context.options)
        return reply

    layered = vertex.register_middleware(passing)

    assert provider_of(layered) == "vertex"
    assert provider_of(object()) == "gemini"
