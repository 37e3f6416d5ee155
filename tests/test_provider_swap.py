"""Provider swap (API.md section 8): one neutral conversation, any connected agent, same replies.

The agents run on the real SDK clients, answered by ``ScriptedProvider`` over respx. The
default connector is chosen by the innermost agent's type, through any number of layers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import pytest

from llmbridge import (
    Agent,
    FunctionCallMiddleware,
    GenerateReplyOptions,
    Message,
    MiddlewareAgent,
    MiddlewareContext,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    register_default_connector,
    register_message_connector,
    register_middleware,
)
from llmbridge._agents._registry import _DEFAULTS
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.gemini import GeminiChatAgent, GeminiMessageConnector
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import EchoAgent, ScriptedProvider
from tests.corpus import AGENT, CORPUS

PROVIDERS = ("openai", "anthropic", "gemini")
CONNECTORS: dict[str, type] = {
    "openai": OpenAIChatRequestMessageConnector,
    "anthropic": AnthropicMessageConnector,
    "gemini": GeminiMessageConnector,
}
PATHS = pytest.mark.parametrize("path", ["send", "stream"])

# A multi-agent history with an earlier tool round, a reply from another agent and an image.
HISTORY: list[Message] = [
    CORPUS["system_text"],
    CORPUS["user_text"],
    CORPUS["aggregate_from_self"],
    CORPUS["text_from_self"],
    CORPUS["text_from_other_agent"],
    CORPUS["multimodal"],
]
CALLS = [
    ToolCall("get_weather", '{"city": "Rome"}', tool_call_id="call_7"),
    ToolCall("get_time", '{"tz": "Europe/Rome"}', tool_call_id="call_8"),
]
SCRIPT = [ToolCallMessage(CALLS, content="Checking Rome."), "Rome: 24C at 14:05."]


def get_weather(city: str) -> str:
    """Get the weather in a city."""
    return f"24C in {city}"


async def get_time(tz: str) -> str:
    """Get the local time in a time zone."""
    return f"14:05 {tz}"


def provider_agent(provider: str, scripted: ScriptedProvider) -> Any:
    if provider == "openai":
        return OpenAIChatAgent(scripted.openai_client(), name=AGENT, model="gpt-test")
    if provider == "gemini":
        return GeminiChatAgent(scripted.gemini_client(), name=AGENT, model="gemini-test")
    return AnthropicChatAgent(scripted.anthropic_client(), name=AGENT, model="claude-test")


def connected(provider: str, scripted: ScriptedProvider) -> MiddlewareStreamingAgent:
    """The only provider-specific line is the provider agent; the stack is the same."""
    return register_message_connector(
        provider_agent(provider, scripted)
    ).register_streaming_middleware(FunctionCallMiddleware([get_weather, get_time]))


async def converse(agent: MiddlewareStreamingAgent, path: str) -> list[Message]:
    replies: list[Message] = []
    while len(replies) < 4:
        history = [*HISTORY, *replies]
        if path == "send":
            reply = await agent.send(chat_history=history)
        else:
            reply = [m async for m in agent.stream(chat_history=history)][-1]
        replies.append(reply)
        if not isinstance(reply, ToolCallAggregateMessage):
            break
    return replies


def _calls(reply: Message) -> list[ToolCall] | None:
    """The reply's calls without ``provider_data``: opaque state of one provider (signatures)."""
    calls = reply.get_tool_calls()
    if calls is None:
        return None
    return [dataclasses.replace(call, provider_data={}) for call in calls]


def shape(replies: Sequence[Message]) -> list[tuple[Any, ...]]:
    """What must not depend on the provider: types, senders, text, calls, results, finish."""
    rows: list[tuple[Any, ...]] = []
    for reply in replies:
        source = reply.tool_call_message if isinstance(reply, ToolCallAggregateMessage) else reply
        results = reply.get_content() if isinstance(reply, ToolCallAggregateMessage) else None
        rows.append(
            (
                type(reply),
                reply.from_,
                getattr(source, "content", None),
                _calls(reply),
                results,
                getattr(source, "finish_reason", None),
            )
        )
    return rows


@PATHS
async def test_same_conversation_same_neutral_replies_from_every_provider(path: str) -> None:
    shapes = {}
    for provider in PROVIDERS:
        scripted = ScriptedProvider(SCRIPT)
        shapes[provider] = shape(await converse(connected(provider, scripted), path))
        assert scripted.remaining == 0

    assert shapes["anthropic"] == shapes["openai"]
    assert shapes["gemini"] == shapes["openai"]
    aggregate, answer = shapes["openai"]
    assert aggregate[0] is ToolCallAggregateMessage
    assert aggregate[3] == CALLS
    assert aggregate[4] == "24C in Rome\n14:05 Europe/Rome"
    assert answer == (TextMessage, AGENT, "Rome: 24C at 14:05.", None, None, "stop")


@PATHS
async def test_every_provider_answers_every_call_in_the_next_request(path: str) -> None:
    openai_scripted, anthropic_scripted = ScriptedProvider(SCRIPT), ScriptedProvider(SCRIPT)
    gemini_scripted = ScriptedProvider(SCRIPT)
    await converse(connected("openai", openai_scripted), path)
    await converse(connected("anthropic", anthropic_scripted), path)
    await converse(connected("gemini", gemini_scripted), path)

    openai_last = openai_scripted.bodies()[-1]["messages"]
    assert [m["tool_call_id"] for m in openai_last if m["role"] == "tool"][-2:] == [
        "call_7",
        "call_8",
    ]
    anthropic_last = anthropic_scripted.bodies()[-1]["messages"][-1]["content"]
    assert [block["tool_use_id"] for block in anthropic_last] == ["call_7", "call_8"]
    gemini_last = gemini_scripted.bodies()[-1]["contents"][-1]["parts"]
    assert [part["functionResponse"]["id"] for part in gemini_last] == ["call_7", "call_8"]


OWN_HISTORY: list[Message] = [
    TextMessage(Role.USER, "Weather in Rome?"),
    ToolCallMessage(CALLS[:1], AGENT),
    ToolCallResultMessage(
        [ToolCall("get_weather", '{"city": "Rome"}', tool_call_id="call_7", result="24C")]
    ),
    TextMessage(Role.ASSISTANT, "24C in Rome.", AGENT),
    TextMessage(Role.USER, "Thanks."),
]
# Self detection: the agent's own call and text are assistant turns, the rest user turns.
OWN_ROLES = {
    "openai": ["user", "assistant", "tool", "assistant", "user"],
    "anthropic": ["user", "assistant", "user", "assistant", "user"],
    "gemini": ["user", "model", "user", "model", "user"],
}
# Where each provider's request body keeps its turns.
TURNS_KEY = {"openai": "messages", "anthropic": "messages", "gemini": "contents"}


@pytest.mark.parametrize("provider", PROVIDERS)
@PATHS
async def test_renamed_outer_agent_still_sends_its_own_history_as_self(
    provider: str, path: str
) -> None:
    scripted = ScriptedProvider(["You are welcome."])
    connector = CONNECTORS[provider]()
    agent = MiddlewareStreamingAgent(provider_agent(provider, scripted), [connector], name="outer")

    if path == "send":
        reply = await agent.send(chat_history=OWN_HISTORY)
    else:
        reply = [m async for m in agent.stream(chat_history=OWN_HISTORY)][-1]

    assert agent.name == "outer"
    assert reply.from_ == AGENT
    sent = scripted.bodies()[-1][TURNS_KEY[provider]]
    assert [message["role"] for message in sent] == OWN_ROLES[provider]


async def passthrough(context: MiddlewareContext, agent: Agent) -> Message:
    return await agent.generate_reply(context.messages, context.options)


@pytest.mark.parametrize(("provider", "connector_type"), CONNECTORS.items(), ids=PROVIDERS)
async def test_default_connector_is_found_through_layers(
    provider: str, connector_type: type
) -> None:
    scripted = ScriptedProvider(["Hello.", "Hello again."])
    layered = register_middleware(
        provider_agent(provider, scripted).register_pre_process(list), passthrough
    )

    agent = register_message_connector(layered)

    assert isinstance(agent, MiddlewareStreamingAgent)
    assert isinstance(agent.middlewares[-1], connector_type)
    reply = await agent.send("Hi")
    assert isinstance(reply, TextMessage)
    assert (reply.role, reply.content, reply.from_) == (Role.ASSISTANT, "Hello.", AGENT)
    assert [m async for m in agent.stream("Hi")][-1].get_content() == "Hello again."


class SyncOnlyAgent:
    """A third-party agent that does not stream."""

    name = "sync"

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return messages[-1]


class StreamingThirdParty(EchoAgent):
    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        for message in messages:
            yield message


class SubclassedOpenAIAgent(OpenAIChatAgent):
    """A user's own subclass of a built-in agent: it inherits the built-in default."""


@pytest.fixture
def registry() -> Iterator[None]:
    saved = dict(_DEFAULTS)
    yield
    _DEFAULTS.clear()
    _DEFAULTS.update(saved)


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize(
    ("agent", "streams"),
    [(SyncOnlyAgent(), False), (StreamingThirdParty("stream"), True)],
    ids=["agent that does not stream: MiddlewareAgent", "streaming agent: streaming result"],
)
def test_result_streams_exactly_when_the_agent_does(agent: Agent, streams: bool) -> None:
    register_default_connector(type(agent), OpenAIChatRequestMessageConnector)

    connected_agent = register_message_connector(register_middleware(agent, passthrough))

    assert isinstance(connected_agent, MiddlewareAgent)
    assert isinstance(connected_agent, MiddlewareStreamingAgent) is streams


def test_subclass_of_a_built_in_agent_uses_its_default() -> None:
    agent = SubclassedOpenAIAgent(ScriptedProvider([]).openai_client(), name=AGENT, model="m")

    assert isinstance(
        register_message_connector(agent).middlewares[-1], OpenAIChatRequestMessageConnector
    )


def test_unknown_inner_type_is_named_through_layers() -> None:
    layered = register_middleware(register_middleware(SyncOnlyAgent(), passthrough), passthrough)

    with pytest.raises(TypeError, match=r"SyncOnlyAgent.*register_default_connector"):
        register_message_connector(layered)
