"""OpenAIChatRequestMessageConnector: with an echo agent (as AutoGen tests it) and over respx."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import openai
import pytest

from llmbridge import (
    ContentFilteredError,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MiddlewareContext,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    Reasoning,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    UnsupportedMessageError,
    register_message_connector,
)
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import (
    EchoAgent,
    openai_client,
    openai_completion,
    openai_error_event,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
)
from tests.corpus import AGENT
from tests.openai import wire
from tests.openai.helpers import (
    CHAT_URL,
    azure_filter_chunk,
    chunks,
    drain,
    new_router,
    null_choices_chunk,
    sent_bodies,
)

CALLS = [
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_A"),
    ToolCall("get_time", '{"tz": "CET"}', tool_call_id="call_B"),
]
USAGE = openai_usage(40, 12, cached_tokens=16)


# --- with EchoAgent: the connector alone -------------------------------------------------------


def test_incoming_messages_become_envelopes_keeping_the_source_sender() -> None:
    raw = MessageEnvelope({"role": "user", "content": "raw"}, "someone")
    messages = [
        TextMessage(Role.USER, "Hi", "user"),
        raw,
        ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="x", result="1")], "tools"),
    ]
    connector = OpenAIChatRequestMessageConnector()

    converted = connector.process_incoming_messages(EchoAgent(AGENT), messages)

    assert converted[1] is raw
    assert [m.from_ for m in converted] == ["user", "someone", "tools"]
    assert [m.content for m in converted] == [  # type: ignore[attr-defined]
        {"role": "user", "content": "Hi", "name": "user"},
        {"role": "user", "content": "raw"},
        {"role": "tool", "tool_call_id": "x", "content": "1"},
    ]
    for envelope in converted:
        wire.check_message(envelope.content)  # type: ignore[attr-defined]


async def test_echoed_request_envelope_is_returned_unchanged_when_lenient() -> None:
    agent = EchoAgent(AGENT).register_message_connector(OpenAIChatRequestMessageConnector())

    reply = await agent.send("Hi")

    assert reply == MessageEnvelope({"role": "user", "content": "Hi"}, AGENT)


async def test_echoed_request_envelope_raises_when_strict() -> None:
    agent = EchoAgent(AGENT).register_message_connector(OpenAIChatRequestMessageConnector(True))

    with pytest.raises(UnsupportedMessageError, match="strict mode"):
        await agent.send("Hi")


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
async def test_streamed_non_chunks_go_through_post_processing(strict_mode: bool) -> None:
    connector = OpenAIChatRequestMessageConnector(strict_mode)
    agent = register_message_connector(EchoAgent(AGENT), connector)

    async def collect() -> list[Message]:
        return [item async for item in agent.stream("Hi")]

    if strict_mode:
        with pytest.raises(UnsupportedMessageError):
            await collect()
    else:
        assert await collect() == [MessageEnvelope({"role": "user", "content": "Hi"}, AGENT)]


async def test_pairing_violation_stops_the_request_before_the_agent_is_called() -> None:
    router = new_router()
    route = router.post(CHAT_URL).respond(json=openai_completion("never"))
    agent = connected(router)

    with pytest.raises(InvalidMessageError) as caught:
        await agent.send(chat_history=[TextMessage(Role.USER, "go"), ToolCallMessage(CALLS, AGENT)])

    assert caught.value.index == 1
    assert not route.called


def test_notes_are_logged_at_their_levels(caplog: pytest.LogCaptureFixture) -> None:
    connector = OpenAIChatRequestMessageConnector()
    messages = [TextMessage(Role.USER, "x", "Dr. Who"), TextMessageUpdate(Role.USER, "y")]
    messages.append(TextMessage(Role.ASSISTANT, "z", AGENT, reasoning=[Reasoning("r")]))

    with caplog.at_level(logging.INFO, logger="llmbridge"):
        connector.process_incoming_messages(EchoAgent(AGENT), messages)

    assert [(r.levelno, r.getMessage().split(":")[1].strip()) for r in caplog.records] == [
        (logging.WARNING, "message 0 renamed"),
        (logging.WARNING, "message 1 dropped"),
        (logging.INFO, "message 2 omitted"),
    ]


# --- end to end: connector + OpenAIChatAgent + real SDK over respx -----------------------------


def connected(router: Any, **kwargs: Any) -> Any:
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini", **kwargs)
    return agent.register_message_connector()


REPLIES = [
    pytest.param(
        openai_completion("Sunny.", usage=USAGE),
        openai_text_chunks(["Sun", "ny."], usage=USAGE),
        id="text",
    ),
    pytest.param(
        openai_completion("Checking.", tool_calls=CALLS, usage=USAGE),
        openai_tool_call_chunks(CALLS, content="Checking.", interleave=True, usage=USAGE),
        id="parallel_tool_calls",
    ),
]


@pytest.mark.parametrize("done", [True, False], ids=["with_done", "without_done"])
@pytest.mark.parametrize(("reply", "stream"), REPLIES)
async def test_stream_ends_with_the_message_send_returns(
    reply: dict[str, Any], stream: list[dict[str, Any]], done: bool
) -> None:
    router = new_router()
    route = router.post(CHAT_URL)
    route.side_effect = [
        httpx.Response(200, json=reply),
        openai_sse_response(stream, done=done),
    ]
    agent = connected(router)

    sent = await agent.send("Weather?")
    streamed = [item async for item in agent.stream("Weather?")]

    *updates, final = streamed
    assert final == sent
    assert final.usage.input_tokens == 40
    assert all(isinstance(u, TextMessageUpdate | ToolCallMessageUpdate) for u in updates)
    assert len(sent_bodies(route)) == 2


async def test_tool_round_trip_sends_a_valid_second_request() -> None:
    router = new_router()
    route = router.post(CHAT_URL)
    route.side_effect = [
        httpx.Response(200, json=openai_completion(tool_calls=CALLS)),
        httpx.Response(200, json=openai_completion("18C and 14:05.")),
    ]
    agent = connected(router)
    history: list[Message] = [TextMessage(Role.USER, "Weather and time?")]

    calls = await agent.send(chat_history=history)
    results = ToolCallResultMessage(
        [ToolCall("", "", tool_call_id=c.tool_call_id, result="ok") for c in calls.tool_calls]
    )
    answer = await agent.send(chat_history=[*history, calls, results])

    assert answer.content == "18C and 14:05."
    second = sent_bodies(route)[1]
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "tool", "tool"]


def frames_until_failure() -> list[dict[str, Any]]:
    return openai_tool_call_chunks(CALLS, fragment_size=6, finish_reason=None)[:4]


INTERRUPTIONS = [
    pytest.param(
        openai_sse_response(
            [*openai_text_chunks(["Hel"], finish_reason=None), openai_error_event()], done=False
        ),
        TextMessage(Role.ASSISTANT, "Hel", AGENT),
        True,
        id="server_error_event_after_text",
    ),
    pytest.param(
        openai_sse_response([openai_error_event(error_type="invalid_request_error")], done=False),
        None,
        False,
        id="error_event_before_any_chunk",
    ),
    pytest.param(
        openai_sse_response(frames_until_failure(), error=httpx.ReadError("connection reset")),
        ToolCallMessage([ToolCall("get_weather", '{"city": "Pa', tool_call_id="call_A")], AGENT),
        True,
        id="dropped_connection_inside_a_tool_call",
    ),
]


@pytest.mark.parametrize(("response", "partial", "retryable"), INTERRUPTIONS)
async def test_failure_inside_a_stream_is_interrupted_with_the_partial(
    response: httpx.Response, partial: Message | None, retryable: bool
) -> None:
    router = new_router()
    router.post(CHAT_URL).mock(return_value=response)
    received: list[Message] = []

    with pytest.raises(StreamInterruptedError) as caught:
        await drain(connected(router).stream("Hi"), received)

    error = caught.value
    assert error.partial == partial
    assert (error.provider, error.status_code, error.retryable) == ("openai", None, retryable)
    assert isinstance(error.__cause__, openai.APIError) or isinstance(
        error.__cause__.__cause__,
        openai.APIError,  # type: ignore[union-attr]
    )
    assert all(not isinstance(item, TextMessage | ToolCallMessage) for item in received)


async def test_failure_before_the_stream_starts_keeps_its_own_error() -> None:
    router = new_router()
    router.post(CHAT_URL).respond(
        429, json={"error": {"message": "Slow down"}}, headers={"retry-after": "2"}
    )

    with pytest.raises(RateLimitError) as caught:
        [item async for item in connected(router).stream("Hi")]

    assert caught.value.retry_after == 2.0


async def test_unavailable_before_the_stream_is_not_an_interruption() -> None:
    router = new_router()
    router.post(CHAT_URL).mock(side_effect=httpx.ConnectError("refused"))

    with pytest.raises(ProviderUnavailableError) as caught:
        [item async for item in connected(router).stream("Hi")]

    assert not isinstance(caught.value, StreamInterruptedError)


async def test_content_filter_raises_after_the_updates_that_came_before() -> None:
    router = new_router()
    stream = openai_text_chunks(["Some ", "text"], finish_reason="content_filter")
    router.post(CHAT_URL).mock(return_value=openai_sse_response(stream))
    received: list[Message] = []

    with pytest.raises(ContentFilteredError):
        await drain(connected(router).stream("Hi"), received)

    assert [m.get_content() for m in received] == ["Some ", "text"]


async def test_abandoned_stream_closes_the_inner_stream() -> None:
    closed: list[bool] = []

    class Inner(EchoAgent):
        async def generate_streaming_reply(self, messages: Any, options: Any = None) -> Any:
            try:
                for chunk in stream_models():
                    yield MessageEnvelope(chunk, self.name)
            finally:
                closed.append(True)

    def stream_models() -> list[Any]:
        return chunks(openai_text_chunks(["a", "b", "c"]))

    connector = OpenAIChatRequestMessageConnector()
    iterator = connector.invoke_streaming(
        MiddlewareContext([TextMessage(Role.USER, "Hi")]), Inner(AGENT)
    )
    first = await anext(iterator)
    await iterator.aclose()  # type: ignore[attr-defined]

    assert first == TextMessageUpdate(Role.ASSISTANT, "a", AGENT)
    assert closed == [True]


# --- chunks the SDK passes through unvalidated, and how a stream may end ----------------------


async def test_azure_content_filter_chunks_with_null_delta_stream_through() -> None:
    stream = openai_text_chunks(["Hello ", "world!"], usage=USAGE)
    stream.insert(2, azure_filter_chunk())
    stream.insert(-1, null_choices_chunk(USAGE))
    router = new_router()
    router.post(CHAT_URL).mock(
        side_effect=[
            httpx.Response(200, json=openai_completion("Hello world!", usage=USAGE)),
            openai_sse_response(stream),
        ]
    )
    agent = connected(router)

    sent = await agent.send("Hi")
    streamed = [item async for item in agent.stream("Hi")]

    assert streamed[-1] == sent
    assert [item.get_content() for item in streamed[:-1]] == ["Hello ", "world!"]


async def test_done_without_a_finish_reason_is_an_interruption_not_a_clean_end() -> None:
    # The SDK's stream ends alike on [DONE] and on a body that closed without it, so a reply
    # that never got its finish reason may be cut anywhere: retry, never trust it.
    router = new_router()
    stream = openai_text_chunks(["Hel", "lo"], finish_reason=None)
    router.post(CHAT_URL).mock(return_value=openai_sse_response(stream, done=True))
    received: list[Message] = []

    with pytest.raises(StreamInterruptedError) as caught:
        await drain(connected(router).stream("Hi"), received)

    assert [item.get_content() for item in received] == ["Hel", "lo"]
    assert caught.value.retryable is True
    assert caught.value.partial == TextMessage(Role.ASSISTANT, "Hello", AGENT)


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"foo": 1}, id="object_without_choices"),
        pytest.param({"choices": None}, id="choices_null"),
        pytest.param([], id="array"),
        pytest.param("upstream timed out", id="string"),
    ],
)
async def test_http_200_body_that_is_no_completion_is_a_provider_response_error(
    body: Any, strict_mode: bool
) -> None:
    router = new_router()
    router.post(CHAT_URL).respond(json=body)
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    connected_agent = agent.register_message_connector(
        OpenAIChatRequestMessageConnector(strict_mode=strict_mode)
    )

    with pytest.raises(ProviderResponseError, match="not an OpenAI chat completion") as caught:
        await connected_agent.send("Hi")

    assert type(caught.value) is ProviderResponseError
