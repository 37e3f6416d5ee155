"""Streaming: deltas as they arrive, then exactly one complete message.

A stream yields TextMessageUpdate / ReasoningMessageUpdate / ToolCallMessageUpdate deltas live,
and always ends with one complete TextMessage or ToolCallMessage, equal to what send() returns
for the same reply (usage and finish reason included). Uses OpenAI; Anthropic streams the same
neutral types.

    python examples/streaming.py          # offline: llmbridge's scripted provider answers
    python examples/streaming.py --live   # the real API (needs OPENAI_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys

import openai

from llmbridge import (
    Message,
    TextMessage,
    TextMessageUpdate,
    ToolCallMessage,
    ToolCallMessageUpdate,
)
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]
QUESTION = "Write a haiku about message formats."
SCRIPT = ["Many shapes of talk,\none neutral tongue between them,\nagents understand."]


async def main() -> None:
    client = openai.AsyncOpenAI() if LIVE else ScriptedProvider(SCRIPT).openai_client()
    agent = OpenAIChatAgent(client, name="poet", model="gpt-4o-mini").register_message_connector()

    final: Message | None = None
    updates = 0
    async for message in agent.stream(QUESTION):
        if isinstance(message, TextMessageUpdate):
            print(message.content, end="", flush=True)  # text appears as it arrives
            updates += 1
        elif isinstance(message, ToolCallMessageUpdate):
            print(f"[{message.index}] {message.function_arguments_update}", end="", flush=True)
            updates += 1
        else:
            final = message  # the complete message always comes last
    assert isinstance(final, TextMessage | ToolCallMessage)
    print(f"\n\n{updates} updates, then one {type(final).__name__} from {final.from_}")
    print(f"finish_reason={final.finish_reason}, usage={final.usage}")


if __name__ == "__main__":
    asyncio.run(main())
