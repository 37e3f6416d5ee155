"""Quickstart: a neutral conversation, sent through OpenAI, answered as a neutral message.

python examples/quickstart.py          # offline: llmbridge's scripted provider answers
python examples/quickstart.py --live   # the real API (needs OPENAI_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys

import openai

from llmbridge import Role, TextMessage, dump_messages
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]


async def main() -> None:
    # Offline, the real SDK client talks to a scripted provider instead of the network.
    client = (
        openai.AsyncOpenAI()
        if LIVE
        else ScriptedProvider(["Paris is the capital of France."]).openai_client()
    )
    # The connector makes the agent speak neutral messages, both ways.
    agent = OpenAIChatAgent(
        client, name="assistant", model="gpt-4o-mini"
    ).register_message_connector()

    history = [TextMessage(Role.SYSTEM, "Answer in one sentence.")]
    reply = await agent.send("What is the capital of France?", chat_history=history)

    assert isinstance(reply, TextMessage)  # a text reply (a ToolCallMessage when it calls tools)
    print(f"{type(reply).__name__} from {reply.from_}: {reply.content}")
    print(f"finish_reason={reply.finish_reason}, usage={reply.usage}")
    # Conversations are plain JSON: store them, load them back, convert them offline.
    print(dump_messages([*history, reply], indent=2))


if __name__ == "__main__":
    asyncio.run(main())
