"""Custom middleware: where you register it decides what it sees.

A middleware registered *after* the connector runs outside it and sees neutral messages; one
registered *before* runs inside and sees the provider's own types (request dicts in
MessageEnvelopes, the SDK's ChatCompletion out). The last registered runs first.

    python examples/custom_middleware.py          # offline: llmbridge's scripted provider answers
    python examples/custom_middleware.py --live   # the real API (needs OPENAI_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

import openai

from llmbridge import (
    Agent,
    Message,
    MessageEnvelope,
    MiddlewareContext,
    Role,
    TextMessage,
)
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]


async def provider_view(context: MiddlewareContext, agent: Agent) -> Message:
    """Inside the connector: provider payloads in, the SDK's response out."""
    roles = [m.content["role"] for m in context.messages if isinstance(m, MessageEnvelope)]
    print(f"inside:  {agent.name} sends OpenAI roles {roles}")
    reply = await agent.generate_reply(context.messages, context.options)
    assert isinstance(reply, MessageEnvelope)  # the provider agent's own reply type
    print(f"inside:  got {type(reply.content).__name__} back")
    return reply


async def neutral_view(context: MiddlewareContext, agent: Agent) -> Message:
    """Outside the connector: neutral messages in and out."""
    print(f"outside: {[type(m).__name__ for m in context.messages]}")
    reply = await agent.generate_reply(context.messages, context.options)
    print(f"outside: got {type(reply).__name__}: {reply.get_content()!r}")
    return reply


def shorten(messages: Sequence[Message]) -> Sequence[Message]:
    """A pre-process step: keep the system message and the last four messages."""
    system = [m for m in messages if isinstance(m, TextMessage) and m.role == Role.SYSTEM]
    return [*system, *[m for m in messages if m not in system][-4:]]


async def main() -> None:
    offline = ScriptedProvider(["Hello from inside the chain!"])
    client = openai.AsyncOpenAI() if LIVE else offline.openai_client()
    agent = (
        OpenAIChatAgent(client, name="assistant", model="gpt-4o-mini")
        .register_middleware(provider_view)  # first registered: innermost
        .register_message_connector()
        .register_middleware(neutral_view)
        .register_pre_process(shorten)  # last registered: runs first
    )
    history = [TextMessage(Role.SYSTEM, "Be cheerful.")]
    history += [TextMessage(Role.USER, f"message {i}") for i in range(6)]
    await agent.send("Say hello.", chat_history=history)


if __name__ == "__main__":
    asyncio.run(main())
