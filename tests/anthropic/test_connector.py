"""AnthropicMessageConnector: glue between neutral messages and the agent, both paths."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import respx

from llmbridge import (
    Connector,
    FunctionCallMiddleware,
    GenerateReplyOptions,
    InvalidMessageError,
    Message,
    MessageEnvelope,
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
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.testing import (
    EchoAgent,
    anthropic_client,
    anthropic_error_event,
    anthropic_message,
    anthropic_sse,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from tests.anthropic.helpers import (
    MCP_RESULT,
    MCP_USE,
    UNMODELLED_BLOCKS,
    URL,
    assistant,
    text,
    tool_result,
    tool_use,
    user,
    web_search_reply,
    web_search_stream,
)
from tests.corpus import AGENT

OTHER = "critic"


def new_router() -> respx.Router:
    return respx.Router(assert_all_called=False)


def connected(router: respx.Router, **kwargs: Any) -> Any:
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test", **kwargs)
    return agent.register_message_connector()


async def collect(stream: Any, into: list[Message] | None = None) -> list[Message]:
    received = [] if into is None else into
    async for message in stream:
        received.append(message)
    return received


def test_connector_is_a_connector() -> None:
    assert isinstance(AnthropicMessageConnector(), Connector)


def test_unknown_name_policy_is_rejected_at_construction() -> None:
    with pytest.raises(ValueError, match="name_policy"):
        AnthropicMessageConnector(name_policy="shout")  # type: ignore[arg-type]


def test_process_incoming_messages_is_message_by_message() -> None:
    raw = {"role": "user", "content": "raw"}
    raw_envelope = MessageEnvelope(raw, "someone")
    messages = [
        TextMessage(Role.SYSTEM, "Be brief."),
        TextMessage(Role.USER, "a"),
        TextMessage(Role.USER, "b", OTHER),
        ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT),
        raw_envelope,
    ]

    envelopes = AnthropicMessageConnector().process_incoming_messages(EchoAgent(AGENT), messages)

    assert [(e.content, e.from_) for e in envelopes[:4]] == [
        ({"role": "system", "content": [text("Be brief.")]}, None),
        (user(text("a")), None),
        (user(text("b")), OTHER),
        (assistant(tool_use("c1", "f", {})), AGENT),
    ]
    assert envelopes[4] is raw_envelope


def test_process_incoming_messages_converts_fragments_without_the_pairing_step() -> None:
    lone = ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="c1", result="ok")])

    envelopes = AnthropicMessageConnector().process_incoming_messages(EchoAgent(AGENT), [lone])

    assert [e.content for e in envelopes] == [user(tool_result("c1", "ok"))]


async def test_echo_agent_sees_merged_turns_and_a_system_envelope() -> None:
    seen: list[Message] = []

    class Recorder(EchoAgent):
        async def generate_reply(
            self, messages: Any, options: GenerateReplyOptions | None = None
        ) -> Message:
            seen.extend(messages)
            return await super().generate_reply(messages, options)

    agent = Recorder(AGENT).register_message_connector(AnthropicMessageConnector())
    reply = await agent.send(
        TextMessage(Role.USER, "b"),
        chat_history=[TextMessage(Role.SYSTEM, "s"), TextMessage(Role.USER, "a")],
    )

    assert [m.content for m in seen if isinstance(m, MessageEnvelope)] == [
        {"role": "system", "content": [text("s")]},
        user(text("a"), text("b")),
    ]
    assert isinstance(reply, MessageEnvelope), "not a provider reply: returned unchanged"


async def test_strict_connector_rejects_a_reply_that_is_not_anthropic() -> None:
    agent = EchoAgent(AGENT).register_message_connector(AnthropicMessageConnector(strict_mode=True))

    with pytest.raises(UnsupportedMessageError):
        await agent.send("hi")


async def test_streaming_with_an_agent_that_sends_no_events_passes_messages_through() -> None:
    agent = EchoAgent(AGENT).register_message_connector(AnthropicMessageConnector())

    out = await collect(agent.stream("hi"))

    assert len(out) == 1
    assert isinstance(out[0], MessageEnvelope)


def test_post_process_message_converts_an_envelope_of_a_message() -> None:
    from anthropic.types import Message as AnthropicMessage

    message = AnthropicMessage.model_validate(anthropic_message("Hi"))

    reply = AnthropicMessageConnector().post_process_message(
        EchoAgent(AGENT), MessageEnvelope(message, AGENT)
    )

    assert reply == TextMessage(
        Role.ASSISTANT, "Hi", AGENT, usage=Usage(10, 5), finish_reason="stop"
    )


async def test_notes_are_logged_at_their_levels(caplog: pytest.LogCaptureFixture) -> None:
    router = new_router()
    router.post(URL).respond(json=anthropic_message("ok"))

    with caplog.at_level(logging.INFO, logger="llmbridge"):
        await connected(router).send(
            TextMessage(Role.USER, "b", OTHER), chat_history=[TextMessage(Role.USER, "a")]
        )

    levels = {
        record.getMessage().split(": ")[1].split()[-1]: record.levelno for record in caplog.records
    }
    assert levels == {"merged": logging.INFO, "dropped": logging.WARNING}


REPLIES = [
    pytest.param(anthropic_message("Hello, how can I help?"), id="text"),
    pytest.param(
        anthropic_message(
            [
                anthropic_thinking_block("Two tools.", "sig-1"),
                anthropic_text_block("Checking."),
                anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris"}),
                anthropic_tool_use_block("toolu_2", "now"),
            ],
            stop_reason="tool_use",
            cache_read_input_tokens=50,
        ),
        id="thinking_text_parallel_tools",
    ),
]


@pytest.mark.parametrize("body", REPLIES)
async def test_stream_ends_with_the_message_the_plain_path_returns(body: dict[str, Any]) -> None:
    router = new_router()
    router.post(URL).mock(
        side_effect=[
            respx.MockResponse(json=body),
            anthropic_sse_response(anthropic_stream_events(body)),
        ]
    )
    agent = connected(router)

    plain = await agent.send("hi")
    streamed = await collect(agent.stream("hi"))

    assert streamed[-1] == plain
    assert all(not isinstance(m, (TextMessage, ToolCallMessage)) for m in streamed[:-1])
    assert len(streamed) > 1


async def test_stream_updates_carry_text_and_tool_deltas_live() -> None:
    body = anthropic_message(
        [anthropic_text_block("Hi!"), anthropic_tool_use_block("toolu_1", "f", {"a": 1})],
        stop_reason="tool_use",
    )
    router = new_router()
    router.post(URL).mock(
        return_value=anthropic_sse_response(anthropic_stream_events(body, pieces=1))
    )

    out = await collect(connected(router).stream("go"))

    assert out[:3] == [
        TextMessageUpdate(Role.ASSISTANT, "Hi!", AGENT),
        ToolCallMessageUpdate("f", "", AGENT, index=1, tool_call_id="toolu_1"),
        ToolCallMessageUpdate("f", '{"a": 1}', AGENT, index=1, tool_call_id="toolu_1"),
    ]
    assert out[3].get_tool_calls() == [ToolCall("f", '{"a": 1}', tool_call_id="toolu_1")]


ERROR_EVENTS = [
    pytest.param("overloaded_error", 529, True, id="overloaded_is_retryable"),
    pytest.param("api_error", 500, True, id="api_error_is_retryable"),
    pytest.param("invalid_request_error", 400, False, id="invalid_request_is_not"),
    pytest.param("brand_new_error", None, False, id="unknown_type_has_no_status"),
]


@pytest.mark.parametrize(("error_type", "status", "retryable"), ERROR_EVENTS)
async def test_error_event_mid_stream_is_interrupted_with_the_partial_message(
    error_type: str, status: int | None, retryable: bool
) -> None:
    events = anthropic_stream_events(anthropic_message("Hello world"), pieces=2)
    cut = next(i for i, e in enumerate(events) if e["type"] == "content_block_stop")
    router = new_router()
    router.post(URL).mock(
        return_value=anthropic_sse_response([*events[:cut], anthropic_error_event(error_type)])
    )
    received: list[Message] = []

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"), into=received)

    error = caught.value
    assert [m.get_content() for m in received] == ["Hello ", "world"]
    assert error.partial == TextMessage(Role.ASSISTANT, "Hello world", AGENT, usage=Usage(10, 1))
    assert (error.status_code, error.retryable, error.provider) == (status, retryable, "anthropic")
    assert error.__cause__ is not None


async def test_error_event_before_any_content_has_no_partial() -> None:
    events = anthropic_stream_events(anthropic_message("x"))[:1]
    router = new_router()
    router.post(URL).mock(return_value=anthropic_sse_response([*events, anthropic_error_event()]))

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"))

    assert caught.value.partial is None


@pytest.mark.parametrize("message_delta", [False, True], ids=["mid_content", "after_stop_reason"])
async def test_dropped_connection_is_interrupted_and_retryable(message_delta: bool) -> None:
    body = anthropic_message(
        [anthropic_tool_use_block("toolu_1", "f", {"a": 1})], stop_reason="tool_use"
    )
    events = anthropic_stream_events(body, pieces=2)
    cut = next(
        i
        for i, e in enumerate(events)
        if e["type"] == ("message_stop" if message_delta else "content_block_stop")
    )
    router = new_router()
    router.post(URL).mock(return_value=anthropic_sse_response(events[:cut], drop_connection=True))

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"))

    assert (caught.value.status_code, caught.value.retryable) == (None, True)
    assert isinstance(caught.value.partial, ToolCallMessage)
    assert caught.value.partial.tool_calls[0].tool_call_id == "toolu_1"


async def test_stream_ending_without_a_stop_reason_is_interrupted() -> None:
    events = anthropic_stream_events(anthropic_message("Hello"))
    router = new_router()
    router.post(URL).mock(return_value=anthropic_sse_response(events[:-2]))

    with pytest.raises(StreamInterruptedError) as caught:
        await collect(connected(router).stream("hi"))

    assert caught.value.partial is not None
    assert caught.value.partial.get_content() == "Hello"


async def test_conversion_errors_raise_before_any_request() -> None:
    router = new_router()
    route = router.post(URL).respond(json=anthropic_message("ok"))

    with pytest.raises(InvalidMessageError):
        await connected(router).send(
            ToolCallMessage([ToolCall("f", "[1]", tool_call_id="c")], AGENT)
        )

    assert not route.called


# -- replies with blocks that have no neutral form, through the real SDK, both paths ----------


def plain_then_stream(
    body: dict[str, Any], events: list[dict[str, Any]] | None = None
) -> respx.Router:
    """The plain reply ``body``, then the stream ``events`` (default: the kit's of ``body``)."""
    router = new_router()
    router.post(URL).mock(
        side_effect=[
            respx.MockResponse(json=body),
            anthropic_sse_response(anthropic_stream_events(body) if events is None else events),
        ]
    )
    return router


async def outcome(reply: Any) -> Any:
    """The reply, or the type and text of the error raised while getting it."""
    try:
        return await reply
    except UnsupportedMessageError as exc:
        return (type(exc), str(exc))


async def last_of(stream: Any) -> Any:
    return (await collect(stream))[-1]


UNMODELLED = [
    pytest.param(anthropic_message([param.values[0], anthropic_text_block("Done.")]), id=param.id)
    for param in UNMODELLED_BLOCKS
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("body", UNMODELLED)
async def test_blocks_without_neutral_form_convert_the_same_streamed_and_not(
    body: dict[str, Any], strict_mode: bool
) -> None:
    connector = AnthropicMessageConnector(strict_mode=strict_mode)
    agent = AnthropicChatAgent(
        anthropic_client(plain_then_stream(body)), name=AGENT, model="claude-test"
    ).register_message_connector(connector)

    plain = await outcome(agent.send("hi"))
    streamed = await outcome(last_of(agent.stream("hi")))

    assert streamed == plain
    if strict_mode:
        assert plain[0] is UnsupportedMessageError
    else:
        assert isinstance(plain, TextMessage)


HOSTED_REPLIES = [
    *[
        pytest.param(web_search_reply(stop), web_search_stream(stop), id=f"web_search_{stop}")
        for stop in ("end_turn", "pause_turn")
    ],
    pytest.param(
        anthropic_message([MCP_USE, MCP_RESULT, anthropic_text_block("Done.")]), None, id="mcp"
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("body", "events"), HOSTED_REPLIES)
async def test_hosted_tool_replies_convert_the_same_streamed_and_not_in_both_modes(
    body: dict[str, Any], events: list[dict[str, Any]] | None, strict_mode: bool
) -> None:
    connector = AnthropicMessageConnector(strict_mode=strict_mode)
    agent = AnthropicChatAgent(
        anthropic_client(plain_then_stream(body, events)), name=AGENT, model="claude-test"
    ).register_message_connector(connector)

    plain = await agent.send("hi")
    streamed = await last_of(agent.stream("hi"))

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    assert plain.hosted_tools
    assert {call.provider for call in plain.hosted_tools} == {"anthropic"}


async def test_server_tool_stream_through_function_call_middleware_is_the_text_reply() -> None:
    ran: list[str] = []

    def lookup(arguments: str) -> str:
        ran.append(arguments)
        return "never asked for"

    body = web_search_reply("end_turn")
    agent = connected(
        plain_then_stream(body, web_search_stream("end_turn"))
    ).register_streaming_middleware(FunctionCallMiddleware(function_map={"lookup": lookup}))

    plain = await agent.send("What are the rate limits?")
    streamed = await collect(agent.stream("What are the rate limits?"))

    assert streamed[-1] == plain
    assert isinstance(plain, TextMessage)
    assert plain.get_content() == (
        "I'll look up the current rate limits.Based on the search results, the limit is 50 "
        "requests per minute on tier 1."
    )
    assert not any(isinstance(m, (ToolCallMessageUpdate, ToolCallMessage)) for m in streamed)
    assert ran == []


# -- a consumer that stops early closes the HTTP response at once ---------------------------


class OpenBody(httpx.AsyncByteStream):
    """An SSE body that sends its frames, then stays open as a slow server does.

    ``closed`` records the HTTP response being closed (the transport calls ``aclose``).
    """

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.frames = anthropic_sse(events)
        self.closed = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for frame in self.frames:
            yield frame
        await asyncio.Event().wait()

    async def aclose(self) -> None:
        self.closed = True


def open_stream() -> tuple[Any, OpenBody]:
    events = anthropic_stream_events(anthropic_message("Hello, world!"), pieces=3)
    body = OpenBody(events[:4])  # message_start, ping, the text block's start and first delta
    router = new_router()
    router.post(URL).mock(
        return_value=httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=body)
    )
    return connected(router), body


async def test_consumer_aclose_closes_the_http_response_at_once() -> None:
    agent, body = open_stream()
    stream = agent.stream("hi")

    first = await anext(stream)
    await stream.aclose()

    assert first == TextMessageUpdate(Role.ASSISTANT, "Hello", AGENT)
    assert body.closed


async def test_cancelled_consumer_closes_the_http_response_at_once() -> None:
    agent, body = open_stream()
    first_update = asyncio.Event()

    async def consume() -> None:
        async with contextlib.aclosing(agent.stream("hi")) as stream:
            async for _ in stream:
                first_update.set()
                await asyncio.Event().wait()  # busy with the update when cancelled

    task = asyncio.create_task(consume())
    await first_update.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert body.closed
