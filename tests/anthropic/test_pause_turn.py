"""``pause_turn`` (API.md 19.5, 19.7): a long server-tool turn the API paused. The reply, sent back
as the last message, is continued by the API, so it must go out as the final assistant turn
exactly as it came (nothing trimmed, refused or reordered), through the agent and through
``FunctionCallMiddleware``; the continuation's first block answers the paused search, in the same
assistant turn.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from llmbridge import FunctionCallMiddleware, HostedToolCall, Message, Role, TextMessage
from llmbridge.anthropic import from_anthropic, to_anthropic
from llmbridge.testing import (
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
)
from tests.anthropic.helpers import URL
from tests.anthropic.rev3 import connected, recorded, sdk_message, without_nulls
from tests.anthropic.wire import assert_valid_http_request
from tests.corpus import AGENT

PAUSED = recorded("pause-turn-web-search.json")
WAITING_ID = PAUSED["content"][-1]["id"]  # the paused turn ends in a search without result
CONTINUED = anthropic_message(
    [
        {
            "type": "web_search_tool_result",
            "tool_use_id": WAITING_ID,
            "content": [
                {
                    "type": "web_search_result",
                    "title": "Air quality",
                    "url": "https://aqi.example/sf",
                    "encrypted_content": "Eq1",
                }
            ],
        },
        anthropic_text_block("All fifteen searches are done."),
    ]
)


class Server:
    """Answers the paused reply first and the continuation next; keeps each request body."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.router = respx.Router(assert_all_called=False)
        self.router.post(URL).mock(side_effect=self.answer)

    def answer(self, request: httpx.Request) -> httpx.Response:
        body = assert_valid_http_request(request)
        self.bodies.append(body)
        reply = PAUSED if len(self.bodies) == 1 else CONTINUED
        if body.get("stream"):
            return anthropic_sse_response(anthropic_stream_events(reply))
        return httpx.Response(200, json=reply)


async def ask(agent: Any, history: list[Message], stream: bool) -> Message:
    if stream:
        return [m async for m in agent.stream(chat_history=history)][-1]
    reply: Message = await agent.send(chat_history=history)
    return reply


@pytest.mark.parametrize("stream", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("middleware", [False, True], ids=["agent", "function_call_middleware"])
@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
async def test_a_paused_reply_goes_back_as_the_last_turn_unchanged_and_is_continued(
    stream: bool, middleware: bool, strict: bool
) -> None:
    server = Server()
    agent = connected(server.router, strict=strict)
    if middleware:
        agent = agent.register_streaming_middleware(
            FunctionCallMiddleware(function_map={"never": lambda arguments: "not asked"})
        )
    question = TextMessage(Role.USER, "Run these fifteen searches.")

    paused = await ask(agent, [question], stream)
    continued = await ask(agent, [question, paused], stream)

    assert isinstance(paused, TextMessage)
    assert paused.finish_reason == "pause"
    assert server.bodies[1]["messages"][-1] == {
        "role": "assistant",
        "content": without_nulls(PAUSED["content"]),
    }
    assert isinstance(continued, TextMessage)
    assert continued.content == "All fifteen searches are done."
    (answer,) = continued.hosted_tools
    assert (answer.id, answer.name, answer.result) == (
        WAITING_ID,
        "web_search",
        "Air quality https://aqi.example/sf",
    )


def test_the_continuation_joins_the_paused_turn_in_one_assistant_turn() -> None:
    question = TextMessage(Role.USER, "Run these fifteen searches.")
    paused = from_anthropic(sdk_message(PAUSED), agent_name=AGENT)
    continued = from_anthropic(sdk_message(CONTINUED), agent_name=AGENT)

    request = to_anthropic([question, paused, continued], agent_name=AGENT, strict_mode=True)

    blocks = request.messages[-1]["content"]
    assert blocks[: len(PAUSED["content"])] == without_nulls(PAUSED["content"])
    assert blocks[len(PAUSED["content"])] == CONTINUED["content"][0]
    assert [(n.index, n.kind) for n in request.notes] == [(2, "merged")]


def test_a_paused_reply_of_another_provider_sends_nothing_of_its_hosted_tools() -> None:
    foreign = TextMessage(
        Role.ASSISTANT,
        "",
        AGENT,
        finish_reason="pause",
        hosted_tools=[HostedToolCall("web_search", "{}", id="ws_1", provider="openai")],
    )
    question = TextMessage(Role.USER, "Search.")

    request = to_anthropic([question, foreign], agent_name=AGENT, strict_mode=True)

    assert request.messages == [{"role": "user", "content": [anthropic_text_block("Search.")]}]
    assert [(n.index, n.kind) for n in request.notes] == [(1, "omitted")]
    assert json.dumps(request.messages).count("ws_1") == 0
