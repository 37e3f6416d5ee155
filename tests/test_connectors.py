"""register_message_connector and the default-connector registry."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from llmbridge import (
    Agent,
    Message,
    MessageEnvelope,
    MiddlewareAgent,
    MiddlewareContext,
    MiddlewareStreamingAgent,
    Role,
    StreamingAgent,
    TextMessage,
    register_default_connector,
    register_message_connector,
    register_middleware,
)
from llmbridge._agents._registry import _DEFAULTS
from llmbridge.testing import EchoAgent


class WrappingConnector:
    """Wraps texts in envelopes on the way in and unwraps them on the way out."""

    name = "wrapping"

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        return [MessageEnvelope(m.get_content(), m.from_) for m in messages]

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        assert isinstance(reply, MessageEnvelope)
        return TextMessage(Role.ASSISTANT, f"unwrapped {reply.content}", agent.name)

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        reply = await agent.generate_reply(self.process_incoming_messages(agent, context.messages))
        return self.post_process_message(agent, reply)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        incoming = self.process_incoming_messages(agent, context.messages)
        async for reply in agent.generate_streaming_reply(incoming):
            yield self.post_process_message(agent, reply)


class ThirdPartyAgent(EchoAgent):
    pass


class SubclassAgent(ThirdPartyAgent):
    pass


@pytest.fixture
def registry() -> object:
    saved = dict(_DEFAULTS)
    yield _DEFAULTS
    _DEFAULTS.clear()
    _DEFAULTS.update(saved)


async def test_explicit_connector() -> None:
    agent = register_message_connector(EchoAgent("echo"), WrappingConnector())
    assert isinstance(agent, MiddlewareStreamingAgent)
    assert await agent.send("hi") == TextMessage(Role.ASSISTANT, "unwrapped hi", "echo")
    streamed = [m async for m in agent.stream("yo")]
    assert streamed == [TextMessage(Role.ASSISTANT, "unwrapped yo", "echo")]


@pytest.mark.usefixtures("registry")
async def test_default_follows_base_classes_through_layers() -> None:
    register_default_connector(ThirdPartyAgent, WrappingConnector)

    async def passthrough(context: MiddlewareContext, agent: Agent) -> Message:
        return await agent.generate_reply(context.messages, context.options)

    layered = register_middleware(
        register_middleware(SubclassAgent("sub"), passthrough), passthrough
    )
    connected = register_message_connector(layered)
    assert isinstance(connected, MiddlewareStreamingAgent)
    assert isinstance(connected.middlewares[-1], WrappingConnector)
    assert (await connected.send("x")).get_content() == "unwrapped x"


@pytest.mark.usefixtures("registry")
def test_method_form() -> None:
    register_default_connector(ThirdPartyAgent, WrappingConnector)
    assert isinstance(ThirdPartyAgent("t").register_message_connector(), MiddlewareAgent)


def test_unknown_type_raises_type_error_naming_the_fix() -> None:
    class Unknown:
        name = "u"

        async def generate_reply(
            self, messages: Sequence[Message], options: object = None
        ) -> Message:
            return messages[-1]

    with pytest.raises(TypeError, match=r"Unknown.*register_default_connector"):
        register_message_connector(Unknown())  # type: ignore[arg-type]


def test_register_default_needs_a_class() -> None:
    with pytest.raises(TypeError, match="must be a class"):
        register_default_connector("EchoAgent", WrappingConnector)  # type: ignore[arg-type]
