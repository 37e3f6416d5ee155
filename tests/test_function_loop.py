"""The function-calling loop: question -> tool calls -> aggregate -> a valid next request.

The aggregates ``FunctionCallMiddleware`` produces go back through both providers' conversions
(and, end to end, through the real SDK clients over respx): every call must be answered in the
next request, failed calls included, on the streaming and the non-streaming path.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx
import pytest
import respx

from llmbridge import (
    FunctionCallMiddleware,
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    check_tool_pairing,
)
from llmbridge._agents import AgentMethods
from llmbridge.anthropic import AnthropicChatAgent, to_anthropic
from llmbridge.kit import result_text
from llmbridge.openai import OpenAIChatAgent, to_openai
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_tool_use_block,
    last_request_json,
    openai_client,
    openai_completion,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
)

AGENT = "assistant"
OPENAI_URL = "https://api.openai.com/v1/chat/completions"
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"
QUESTION = TextMessage(Role.USER, "What is the weather in Paris, and the time there?")
FINAL_TEXT = "It is 18C and 14:05 in Paris."


def get_weather(city: str) -> dict[str, Any]:
    """Get the current weather.

    Args:
        city: The city.
    """
    return {"city": city, "temperature": 18}


async def get_time(tz: str) -> str:
    """Get the local time.

    Args:
        tz: An IANA time zone.
    """
    return f"14:05 {tz}"


def tools() -> FunctionCallMiddleware:
    return FunctionCallMiddleware([get_weather, get_time])


# One reply with three parallel calls; the third lacks its argument and must still be answered.
CALLS = (
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1"),
    ToolCall("get_time", '{"tz": "Europe/Paris"}', tool_call_id="call_2"),
    ToolCall("get_weather", "{}", tool_call_id="call_3"),
)
RESULTS = (
    ({"city": "Paris", "temperature": 18}, False),  # a dict: a structured result (API.md 19.3)
    ("14:05 Europe/Paris", False),
    ("Invalid arguments for function 'get_weather': city: Field required.", True),
)
# Later rounds whose calls have no ids: their fallback ids (get_time_0 ...) repeat from one
# round to the next, and the request-level step makes them unique.
UNNAMED_CALLS = (ToolCall("get_time", '{"tz": "UTC"}'), ToolCall("get_time", '{"tz": "CET"}'))


class ScriptedModel(AgentMethods):
    """Replies with the next scripted message, on both paths."""

    def __init__(self, *replies: Message) -> None:
        self.name = AGENT
        self._replies = list(replies)

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return self._replies.pop(0)

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        yield self._replies.pop(0)


async def ask(agent: MiddlewareStreamingAgent, path: str, history: Sequence[Message]) -> Message:
    """The agent's complete reply to ``history``: the reply, or the stream's last message."""
    if path == "reply":
        return await agent.send(chat_history=history)
    received = [message async for message in agent.stream(chat_history=history)]
    return received[-1]


PATHS = pytest.mark.parametrize("path", ["reply", "stream"])


async def scripted_history(path: str) -> list[Message]:
    """The question and three rounds of tool calls, each run by the middleware."""
    model = ScriptedModel(
        ToolCallMessage(CALLS, AGENT, finish_reason="tool_calls"),
        ToolCallMessage(UNNAMED_CALLS, AGENT, finish_reason="tool_calls"),
        ToolCallMessage(UNNAMED_CALLS, AGENT, finish_reason="tool_calls"),
    )
    agent = model.register_streaming_middleware(tools())
    history: list[Message] = [QUESTION]
    for _ in range(3):
        reply = await ask(agent, path, history)
        assert isinstance(reply, ToolCallAggregateMessage)
        history.append(reply)
    return history


@PATHS
async def test_aggregates_answer_every_call(path: str) -> None:
    history = await scripted_history(path)

    first = history[1]
    assert isinstance(first, ToolCallAggregateMessage)
    answered = first.tool_call_result_message.tool_calls
    assert [(call.result, call.is_error) for call in answered] == list(RESULTS)
    assert [call.tool_call_id for call in answered] == ["call_1", "call_2", "call_3"]
    check_tool_pairing(history, agent_name=AGENT)  # raises on an unanswered call


def _openai_answers(messages: Sequence[Any]) -> list[tuple[list[str], list[str]]]:
    """Each assistant tool-call turn: its ids, and the ids of the tool messages right after it."""
    rounds = []
    for position, message in enumerate(messages):
        if message["role"] == "assistant" and message.get("tool_calls"):
            ids = [call["id"] for call in message["tool_calls"]]
            answers = []
            for following in messages[position + 1 :]:
                if following["role"] != "tool":
                    break
                answers.append(following["tool_call_id"])
            rounds.append((ids, answers))
    return rounds


def _anthropic_answers(messages: Sequence[Any]) -> list[tuple[list[str], list[str]]]:
    """Each assistant turn with tool_use blocks: its ids, and the next user turn's results."""
    rounds = []
    for assistant, user in itertools.pairwise(messages):
        blocks = assistant["content"] if isinstance(assistant["content"], list) else []
        uses = [b["id"] for b in blocks if b["type"] == "tool_use"]
        if assistant["role"] == "assistant" and uses:
            results = [b["tool_use_id"] for b in user["content"] if b["type"] == "tool_result"]
            assert user["role"] == "user"
            rounds.append((uses, results))
    return rounds


@PATHS
async def test_openai_next_request_answers_every_call(path: str) -> None:
    history = await scripted_history(path)

    request = to_openai(history, agent_name=AGENT)

    rounds = _openai_answers(request.messages)
    assert len(rounds) == 3
    for ids, answers in rounds:
        assert answers == ids
    assert len({i for ids, _ in rounds for i in ids}) == 7  # unique across rounds
    tool_messages = [m for m in request.messages if m["role"] == "tool"]
    assert [m["content"] for m in tool_messages[:3]] == [
        result_text(result) for result, _ in RESULTS
    ]
    assert request.messages[0] == {"role": "user", "content": QUESTION.content}


@PATHS
async def test_anthropic_next_request_answers_every_call(path: str) -> None:
    history = await scripted_history(path)

    request = to_anthropic(history, agent_name=AGENT)

    rounds = _anthropic_answers(request.messages)
    assert len(rounds) == 3
    for ids, answers in rounds:
        assert answers == ids
    assert len({i for ids, _ in rounds for i in ids}) == 7  # unique across rounds
    results = [
        block
        for message in request.messages
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block["type"] == "tool_result"
    ]
    assert [bool(block.get("is_error")) for block in results[:3]] == [e for _, e in RESULTS]
    assert [message["role"] for message in request.messages] == ["user", "assistant"] * 3 + ["user"]


# End to end: the real SDK clients, answered by respx.


def _contracts_json() -> list[FunctionContract]:
    return [FunctionContract.from_function(get_weather), FunctionContract.from_function(get_time)]


def openai_agent(router: respx.Router) -> MiddlewareStreamingAgent:
    model = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    return model.register_message_connector().register_streaming_middleware(tools())


def anthropic_agent(router: respx.Router) -> MiddlewareStreamingAgent:
    model = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    return model.register_message_connector().register_streaming_middleware(tools())


def openai_responses(path: str) -> list[httpx.Response]:
    if path == "reply":
        return [
            httpx.Response(200, json=openai_completion(tool_calls=CALLS)),
            httpx.Response(200, json=openai_completion(FINAL_TEXT)),
        ]
    return [
        openai_sse_response(openai_tool_call_chunks(CALLS, interleave=True)),
        openai_sse_response(openai_text_chunks([FINAL_TEXT[:9], FINAL_TEXT[9:]])),
    ]


def anthropic_responses(path: str) -> list[httpx.Response]:
    uses = [
        anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris"}),
        anthropic_tool_use_block("toolu_2", "get_time", {"tz": "Europe/Paris"}),
        anthropic_tool_use_block("toolu_3", "get_weather", {}),
    ]
    first = anthropic_message(uses, stop_reason="tool_use")
    second = anthropic_message(FINAL_TEXT)
    if path == "reply":
        return [httpx.Response(200, json=first), httpx.Response(200, json=second)]
    return [
        anthropic_sse_response(anthropic_stream_events(first)),
        anthropic_sse_response(anthropic_stream_events(second)),
    ]


async def _run_loop(agent: MiddlewareStreamingAgent, path: str) -> list[Message]:
    history: list[Message] = [QUESTION]
    while isinstance(reply := await ask(agent, path, history), ToolCallAggregateMessage):
        history.append(reply)
    history.append(reply)
    return history


@PATHS
async def test_openai_loop_end_to_end(path: str) -> None:
    router = respx.Router(assert_all_called=True)
    route = router.post(OPENAI_URL).mock(side_effect=openai_responses(path))

    history = await _run_loop(openai_agent(router), path)

    assert history[-1].get_content() == FINAL_TEXT
    assert len(route.calls) == 2
    first, second = (last_request_json(call) for call in route.calls)
    assert [tool["function"]["name"] for tool in first["tools"]] == ["get_weather", "get_time"]
    assert first["tools"][0]["function"]["parameters"] == _contracts_json()[0].parameters
    assert second["messages"][0] == {"role": "user", "content": QUESTION.content}
    assert second["messages"][1]["role"] == "assistant"
    assert [m["tool_call_id"] for m in second["messages"][2:]] == ["call_1", "call_2", "call_3"]
    assert [m["content"] for m in second["messages"][2:]] == [
        result_text(result) for result, _ in RESULTS
    ]
    ids = ["call_1", "call_2", "call_3"]
    assert _openai_answers(second["messages"]) == [(ids, ids)]


@PATHS
async def test_anthropic_loop_end_to_end(path: str) -> None:
    router = respx.Router(assert_all_called=True)
    route = router.post(ANTHROPIC_URL).mock(side_effect=anthropic_responses(path))

    history = await _run_loop(anthropic_agent(router), path)

    assert history[-1].get_content() == FINAL_TEXT
    assert len(route.calls) == 2
    first, second = (last_request_json(call) for call in route.calls)
    assert [tool["name"] for tool in first["tools"]] == ["get_weather", "get_time"]
    assert first["tools"][0]["input_schema"] == _contracts_json()[0].parameters
    ids = ["toolu_1", "toolu_2", "toolu_3"]
    assert _anthropic_answers(second["messages"]) == [(ids, ids)]
    results = second["messages"][2]["content"]
    assert [block.get("is_error", False) for block in results] == [e for _, e in RESULTS]
