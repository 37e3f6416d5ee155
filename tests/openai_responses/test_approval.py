"""Approval snapshots: the shared corpus through to_openai_responses, and a tool loop's bodies.

Review ``snapshots/openai_responses/test_approval/`` like code: each payload must be what API.md
14 says, and every one of them has passed the strict Responses wire validator before being pinned.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from llmbridge import (
    FunctionCallMiddleware,
    LLMBridgeError,
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
)
from llmbridge.openai import OpenAIResponsesAgent, to_openai_responses
from llmbridge.testing import (
    openai_client,
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
    openai_responses_sse_response,
)
from tests.corpus import AGENT, CORPUS
from tests.openai_responses import wire
from tests.openai_responses.sdk import URL


def converted(message: Message, *, strict_mode: bool) -> dict[str, Any]:
    try:
        request = to_openai_responses(
            [message], agent_name=AGENT, strict_mode=strict_mode, check_pairing=False
        )
    except LLMBridgeError as error:
        return {"error": f"{type(error).__name__}: {error}"}
    for position, item in enumerate(request.input):
        wire.check_item(item, f"input[{position}]")
    return {
        "input": request.input,
        "notes": [f"{note.index} {note.kind}: {note.detail}" for note in request.notes],
    }


def test_corpus_converts_as_approved(snapshot: Any) -> None:
    assert len(CORPUS) >= 15
    result = {}
    for name, message in CORPUS.items():
        lenient = converted(message, strict_mode=False)
        strict = converted(message, strict_mode=True)
        # Most rows convert alike in both modes; only the differences are spelled out twice.
        result[name] = {"lenient": lenient, "strict": "same" if strict == lenient else strict}

    assert result == snapshot


def get_weather(city: str) -> str:
    """Get the weather in a city."""
    return f"18C in {city}"


QUESTION = TextMessage(Role.USER, "Weather in Paris?")
# A reasoning model's first reply: its reasoning item, then the call it decided on.
CALLING = openai_response(
    [
        openai_response_reasoning(
            "The user wants Paris weather.", item_id="rs_loop1", encrypted_content="enc-loop-1"
        ),
        openai_response_function_call(
            "get_weather", '{"city": "Paris"}', call_id="call_paris", item_id="fc_loop1"
        ),
    ],
    reasoning_tokens=8,
)
ANSWER = openai_response([openai_response_message("It is 18C in Paris.", item_id="msg_loop2")])


def tool_loop(*replies: httpx.Response) -> tuple[MiddlewareStreamingAgent, respx.Route]:
    router = respx.Router(assert_all_called=True)
    route = router.post(URL).mock(side_effect=list(replies))
    agent = OpenAIResponsesAgent(
        openai_client(router),
        name=AGENT,
        model="gpt-5-mini",
        system_message="You are a weather assistant.",
    ).register_message_connector()
    return agent.register_streaming_middleware(FunctionCallMiddleware([get_weather])), route


async def run_loop(agent: MiddlewareStreamingAgent, path: str) -> list[Message]:
    replies: list[Message] = []
    for _ in range(2):
        history = [QUESTION, *replies]
        if path == "send":
            replies.append(await agent.send(chat_history=history))
        else:
            replies.append([m async for m in agent.stream(chat_history=history)][-1])
    return replies


def loop_replies(path: str) -> list[httpx.Response]:
    if path == "send":
        return [httpx.Response(200, json=CALLING), httpx.Response(200, json=ANSWER)]
    return [
        openai_responses_sse_response(openai_response_events(CALLING)),
        openai_responses_sse_response(openai_response_events(ANSWER)),
    ]


@pytest.mark.parametrize("path", ["send", "stream"])
async def test_a_tool_loop_replays_the_reasoning_and_the_call_with_their_ids(
    path: str, snapshot: Any
) -> None:
    agent, route = tool_loop(*loop_replies(path))

    aggregate, answer = await run_loop(agent, path)

    assert isinstance(aggregate, ToolCallAggregateMessage)
    assert aggregate.get_content() == "18C in Paris"
    assert answer.get_content() == "It is 18C in Paris."
    bodies = [json.loads(call.request.content) for call in route.calls]
    for body in bodies:
        wire.check_request_body(body)
    second = {key: value for key, value in bodies[1].items() if key != "stream"}
    assert second["input"][1:3] == [
        {
            "type": "reasoning",
            "id": "rs_loop1",
            "summary": [{"type": "summary_text", "text": "The user wants Paris weather."}],
            "encrypted_content": "enc-loop-1",
        },
        {
            "type": "function_call",
            "id": "fc_loop1",
            "call_id": "call_paris",
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
        },
    ]
    # Both paths pin the same body (two equal files): streaming changes only the stream flag.
    assert second == snapshot(name="second_request_body")
