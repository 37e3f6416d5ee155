"""OpenAIResponsesConnector on OpenAIResponsesAgent over the real SDK and respx (API.md 12, 14)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from llmbridge import (
    Message,
    MessageEnvelope,
    MiddlewareStreamingAgent,
    ProviderUnavailableError,
    RateLimitError,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCallMessageUpdate,
    register_message_connector,
)
from llmbridge.openai import (
    OpenAIResponsesAgent,
    OpenAIResponsesConnector,
    from_openai_responses,
)
from llmbridge.testing import (
    openai_client,
    openai_response,
    openai_response_events,
    openai_response_message,
    openai_responses_error_event,
    openai_responses_sse_response,
)
from tests.openai_responses.sdk import URL
from tests.openai_responses.test_testing_kit import PARALLEL_CALLS
from tests.openai_responses.wire import check_request_body

AGENT = "assistant"
TAG = "openai-responses"
HI = TextMessage(Role.USER, "Hi")
FIRST_BODY = {
    "model": "gpt-5-mini",
    "input": [{"role": "user", "content": "Hi"}],
    "store": False,
    "include": ["reasoning.encrypted_content"],
}


def connected(
    *replies: httpx.Response | Exception, connector: OpenAIResponsesConnector | None = None
) -> tuple[MiddlewareStreamingAgent, respx.Route]:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).mock(side_effect=list(replies))
    agent = OpenAIResponsesAgent(openai_client(router), name=AGENT, model="gpt-5-mini")
    return register_message_connector(agent, connector), route


def bodies(route: respx.Route) -> list[dict[str, Any]]:
    sent = [json.loads(call.request.content) for call in route.calls]
    for body in sent:
        check_request_body(body)
    return sent


async def drain(agent: MiddlewareStreamingAgent, messages: list[Message]) -> list[Message]:
    return [message async for message in agent.generate_streaming_reply(messages)]


def test_the_connector_is_the_default_of_the_responses_agent() -> None:
    agent, _ = connected()

    assert isinstance(agent.middlewares[0], OpenAIResponsesConnector)
    assert repr(OpenAIResponsesConnector(True, "prefix")) == (
        "OpenAIResponsesConnector(strict_mode=True, name_policy='prefix', max_image_bytes=20971520)"
    )


def test_an_unknown_name_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="name_policy"):
        OpenAIResponsesConnector(name_policy="keep")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(openai_response("Hello!"), id="text"),
        pytest.param(PARALLEL_CALLS, id="parallel_calls_with_reasoning"),
    ],
)
async def test_a_reply_is_the_neutral_conversion_of_the_response(body: dict[str, Any]) -> None:
    agent, route = connected(httpx.Response(200, json=body))

    reply = await agent.send(HI)

    raw = reply.raw  # type: ignore[attr-defined]
    assert reply == from_openai_responses(raw, agent_name=AGENT)
    assert reply.from_ == AGENT
    assert bodies(route) == [FIRST_BODY]


@pytest.mark.parametrize(
    "events",
    [
        pytest.param(openai_response_events(openai_response("Hello!")), id="text"),
        pytest.param(openai_response_events(PARALLEL_CALLS), id="parallel_calls"),
        pytest.param(
            openai_response_events(PARALLEL_CALLS, terminal_output="null"), id="output_null"
        ),
    ],
)
async def test_a_stream_yields_updates_then_the_message_send_returns(
    events: list[dict[str, Any]],
) -> None:
    body = {**events[-1]["response"]}
    body["output"] = [e["item"] for e in events if e["type"] == "response.output_item.done"]
    agent, route = connected(openai_responses_sse_response(events), httpx.Response(200, json=body))

    streamed = await drain(agent, [HI])
    sent = await agent.send(HI)

    *updates, final = streamed
    assert final == sent
    updates_of = (TextMessageUpdate, ReasoningMessageUpdate, ToolCallMessageUpdate)
    assert updates
    assert all(isinstance(update, updates_of) for update in updates)
    text = "".join(u.content for u in updates if isinstance(u, TextMessageUpdate))
    assert text == (final.get_content() or "")
    assert bodies(route) == [{**FIRST_BODY, "stream": True}, FIRST_BODY]


async def test_a_failed_response_mid_stream_is_interrupted_with_the_partial() -> None:
    failed = openai_response([openai_response_message("Hel", status="incomplete")], status="failed")
    agent, _ = connected(openai_responses_sse_response(openai_response_events(failed)))

    with pytest.raises(StreamInterruptedError) as raised:
        await drain(agent, [HI])

    assert (raised.value.provider, raised.value.retryable) == (TAG, True)
    assert raised.value.partial == TextMessage(Role.ASSISTANT, "Hel", AGENT)


async def test_an_error_event_mid_stream_is_interrupted_with_the_partial() -> None:
    events = openai_response_events(openai_response("Hello, world!"))[:6]
    events.append(openai_responses_error_event(sequence_number=6, code="invalid_prompt"))
    agent, _ = connected(openai_responses_sse_response(events))

    with pytest.raises(StreamInterruptedError) as raised:
        await drain(agent, [HI])

    assert (raised.value.provider, raised.value.retryable) == (TAG, False)
    assert raised.value.partial == TextMessage(Role.ASSISTANT, "Hello, wor", AGENT)


async def test_a_dropped_connection_mid_stream_is_a_retryable_interruption() -> None:
    events = openai_response_events(openai_response("Hello, world!"))[:6]
    cut = openai_responses_sse_response(events, error=httpx.ReadError("connection reset"))
    agent, _ = connected(cut)

    with pytest.raises(StreamInterruptedError) as raised:
        await drain(agent, [HI])

    assert (raised.value.provider, raised.value.retryable) == (TAG, True)
    assert raised.value.partial == TextMessage(Role.ASSISTANT, "Hello, wor", AGENT)


async def test_a_stream_cut_before_its_terminal_event_is_an_interruption() -> None:
    events = openai_response_events(openai_response("Hello"))[:-1]
    agent, _ = connected(openai_responses_sse_response(events))

    with pytest.raises(StreamInterruptedError, match="before its terminal event") as raised:
        await drain(agent, [HI])

    assert raised.value.partial == TextMessage(Role.ASSISTANT, "Hello", AGENT)


@pytest.mark.parametrize(
    ("status", "error"),
    [(429, RateLimitError), (503, ProviderUnavailableError)],
    ids=["rate_limited", "unavailable"],
)
@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
async def test_an_http_error_before_the_reply_keeps_its_class_and_the_tag(
    status: int, error: type[Exception], streaming: bool
) -> None:
    failure = httpx.Response(status, json={"error": {"message": "busy", "type": "x"}})
    agent, _ = connected(failure)

    with pytest.raises(error) as raised:
        await (drain(agent, [HI]) if streaming else agent.send(HI))

    assert not isinstance(raised.value, StreamInterruptedError)
    assert raised.value.provider == TAG  # type: ignore[attr-defined]


async def test_process_incoming_messages_converts_without_the_pairing_step() -> None:
    agent, _ = connected()
    connector = agent.middlewares[0]
    assert isinstance(connector, OpenAIResponsesConnector)

    converted = connector.process_incoming_messages(agent, [HI])

    assert converted == [MessageEnvelope({"role": "user", "content": "Hi"})]
