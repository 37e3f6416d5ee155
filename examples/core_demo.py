"""The core in one screen, offline: an EchoAgent behind two middlewares.

Run with ``make demo`` (or ``python examples/core_demo.py``).
"""

from __future__ import annotations

import asyncio

from llmbridge import (
    Agent,
    Message,
    MiddlewareContext,
    Role,
    TextMessage,
    dump_messages,
    load_messages,
)
from llmbridge.testing import EchoAgent


async def shout(context: MiddlewareContext, agent: Agent) -> Message:
    """A middleware: upper-cases the last message before the agent sees it."""
    *history, last = context.messages
    if isinstance(last, TextMessage):
        last = TextMessage(last.role, last.content.upper(), last.from_)
    return await agent.generate_reply([*history, last], context.options)


async def main() -> None:
    agent = EchoAgent("echo").register_middleware(shout, name="shout").register_print_message()
    print("== non-streaming: shout runs, then the echo agent; print shows the reply")
    await agent.send("hello, middleware chain")

    print("\n== streaming: a plain middleware is passed by, print shows each message once")
    history = [TextMessage(Role.SYSTEM, "be brief"), TextMessage(Role.USER, "streamed")]
    streamed = [message async for message in agent.stream(chat_history=history)]
    print(f"({len(streamed)} messages streamed)")

    print("\n== serialization round trip")
    text = dump_messages(history)
    print(text)
    assert load_messages(text) == history
    print("load_messages(dump_messages(history)) == history")


if __name__ == "__main__":
    asyncio.run(main())
