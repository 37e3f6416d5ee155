"""What OpenAI Chat sends of a reply's citations and hosted tools (API.md 19.4, 19.5): neither.

Citations are reply metadata (Chat messages have no annotations: no note). Hosted tool calls of
any provider, ``"openai"`` included, have no place in a Chat message: an ``"omitted"`` note per
provider group, never raising; the payload is the one the message gives without them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from llmbridge import (
    Citation,
    HostedToolCall,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import openai_client, openai_completion
from tests.corpus import AGENT
from tests.openai.helpers import CHAT_URL, convert, new_router, sent_bodies

MODES = pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
QUESTION = TextMessage(Role.USER, "Where is the Eiffel tower?")
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_A")
RESULT = ToolCallResultMessage([dataclasses.replace(CALL, result="18C")])


def hosted(provider: str, name: str = "web_search") -> HostedToolCall:
    return HostedToolCall(
        name,
        json.dumps({"query": "Eiffel tower"}),
        id=f"{provider}_1",
        result="Eiffel Tower https://en.wikipedia.org/wiki/Eiffel_Tower",
        provider=provider,
        provider_data={provider: {"position": 0, "block": {"type": f"{name}_call"}}},
    )


ANTHROPIC, RESPONSES, GEMINI, OPENAI = (
    hosted("anthropic"),
    hosted("openai-responses"),
    hosted("gemini", "code_execution"),
    hosted("openai"),
)
SOURCE = Citation(0, 5, url="https://en.wikipedia.org/wiki/Paris", provider="anthropic")


def text_reply(**fields: Any) -> TextMessage:
    return TextMessage(Role.ASSISTANT, "Paris, on the Champ de Mars.", AGENT, **fields)


def call_reply(**fields: Any) -> ToolCallMessage:
    return ToolCallMessage([CALL], AGENT, content="Paris. Checking the weather.", **fields)


def aggregate(sender: str, **fields: Any) -> ToolCallAggregateMessage:
    calls = ToolCallMessage([CALL], sender, content="Checking.", **fields)
    return ToolCallAggregateMessage(calls, dataclasses.replace(RESULT, from_=sender), sender)


def conversation(message: Message) -> list[Message]:
    if isinstance(message, ToolCallMessage):
        return [QUESTION, message, RESULT]
    return [QUESTION, message]


def without_metadata(message: Message) -> Message:
    """``message`` with no citations and no hosted tools (its aggregate's calls alike)."""
    if isinstance(message, ToolCallAggregateMessage):
        calls = message.tool_call_message
        bare = dataclasses.replace(calls, citations=(), hosted_tools=())
        return dataclasses.replace(message, tool_call_message=bare)
    if isinstance(message, TextMessage | ToolCallMessage):
        return dataclasses.replace(message, citations=(), hosted_tools=())
    return message


HOSTED = {
    "text_from_self_anthropic": (text_reply(hosted_tools=[ANTHROPIC]), [("anthropic",)]),
    "text_from_self_openai_tagged": (text_reply(hosted_tools=[OPENAI]), [("openai",)]),
    "text_from_self_mixed": (
        text_reply(hosted_tools=[ANTHROPIC, OPENAI, GEMINI]),
        [("anthropic", "gemini"), ("openai",)],
    ),
    "text_without_sender": (
        TextMessage(Role.ASSISTANT, "Paris.", hosted_tools=[RESPONSES]),
        [("openai-responses",)],
    ),
    "text_from_another_agent": (
        TextMessage(Role.ASSISTANT, "Paris.", "researcher", hosted_tools=[GEMINI]),
        [("gemini",)],
    ),
    "tool_calls_from_self": (call_reply(hosted_tools=[RESPONSES]), [("openai-responses",)]),
    "aggregate_from_self": (aggregate(AGENT, hosted_tools=[OPENAI]), [("openai",)]),
    "aggregate_from_another_agent": (
        aggregate("researcher", hosted_tools=[ANTHROPIC]),
        [("anthropic",)],
    ),
    "beside_reasoning": (
        text_reply(hosted_tools=[ANTHROPIC], reasoning=[Reasoning("r", provider="anthropic")]),
        [("anthropic",)],
    ),
}


def _hosted_notes(notes: Sequence[Any]) -> list[Any]:
    return [note for note in notes if "hosted tool calls" in note.detail]


@MODES
@pytest.mark.parametrize(("message", "groups"), HOSTED.values(), ids=HOSTED.keys())
def test_hosted_tools_are_never_sent_to_chat_and_noted(
    message: Message, groups: list[tuple[str, ...]], strict_mode: bool
) -> None:
    request = convert(conversation(message), strict_mode=strict_mode)
    plain = convert(conversation(without_metadata(message)), strict_mode=strict_mode)

    assert request.messages == plain.messages
    assert "web_search_call" not in json.dumps(request.messages)
    noted = _hosted_notes(request.notes)
    assert [(note.index, note.kind) for note in noted] == [(1, "omitted")] * len(groups)
    for note, providers in zip(noted, groups, strict=True):
        assert all(provider in note.detail for provider in providers)
        assert "OpenAI Chat Completions" in note.detail
    others = [note for note in request.notes if note not in noted]
    assert others == list(plain.notes)


@MODES
@pytest.mark.parametrize(
    "message",
    [
        text_reply(citations=[SOURCE]),
        call_reply(citations=[SOURCE]),
        aggregate(AGENT, citations=[SOURCE]),
        TextMessage(Role.ASSISTANT, "Paris.", "researcher", citations=[SOURCE]),
    ],
    ids=["text_from_self", "tool_calls_from_self", "aggregate_from_self", "another_agent"],
)
def test_citations_are_never_sent_and_need_no_note(message: Message, strict_mode: bool) -> None:
    request = convert(conversation(message), strict_mode=strict_mode)
    plain = convert(conversation(without_metadata(message)), strict_mode=strict_mode)

    assert request.messages == plain.messages
    assert request.notes == plain.notes


@MODES
async def test_the_sdk_sends_the_history_without_reply_metadata(strict_mode: bool) -> None:
    history: list[Message] = [
        QUESTION,
        text_reply(hosted_tools=[ANTHROPIC, OPENAI], citations=[SOURCE]),
        TextMessage(Role.USER, "And the weather?"),
        call_reply(hosted_tools=[RESPONSES], citations=[SOURCE]),
        RESULT,
    ]
    router = new_router()
    route = router.post(CHAT_URL).mock(
        side_effect=[httpx.Response(200, json=openai_completion("18C.")) for _ in range(2)]
    )
    connector = OpenAIChatRequestMessageConnector(strict_mode)
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    connected = agent.register_message_connector(connector)

    await connected.send(chat_history=history)
    await connected.send(chat_history=[without_metadata(message) for message in history])

    with_metadata, plain = sent_bodies(route)
    assert with_metadata == plain
    assert [message["role"] for message in plain["messages"]] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
    ]
