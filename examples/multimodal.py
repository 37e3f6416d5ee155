"""Images: one neutral MultiModalMessage, each provider's own image format.

Bytes are sniffed (png, jpeg, gif, webp) and sent as a data: URL to OpenAI and as a base64
source to Anthropic; URLs are passed on, never downloaded. The pure functions to_openai /
to_anthropic show the payloads without any HTTP; the agent then sends the same message.

    python examples/multimodal.py          # offline: llmbridge's scripted provider answers
    python examples/multimodal.py --live   # the real API (needs ANTHROPIC_API_KEY)
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys

import anthropic

from llmbridge import ImageMessage, MultiModalMessage, Role, TextMessage
from llmbridge.anthropic import AnthropicChatAgent, to_anthropic
from llmbridge.openai import to_openai
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]
# A 30x20 PNG: a blue, a white and a red vertical stripe.
FLAG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAB4AAAAUCAIAAAAVyRqTAAAAJ0lEQVR42mNgCF2CB/3HC947muJBDKNGjxo9avSo0aNG"
    "jxo9FI0GAHrmL1WzEAFzAAAAAElFTkSuQmCC"
)

question = MultiModalMessage(
    Role.USER,
    [
        TextMessage(Role.USER, "Which flag is this? Answer with the country only."),
        ImageMessage(Role.USER, data=FLAG, detail="low"),  # media_type sniffed: image/png
    ],
)


def show(title: str, payload: object) -> None:
    print(f"== {title}\n{json.dumps(payload, indent=2)}\n")


async def main() -> None:
    show("OpenAI request messages", to_openai([question], agent_name="assistant").messages)
    show("Anthropic request messages", to_anthropic([question], agent_name="assistant").messages)

    client = (
        anthropic.AsyncAnthropic() if LIVE else ScriptedProvider(["France."]).anthropic_client()
    )
    agent = AnthropicChatAgent(
        client, name="assistant", model="claude-haiku-4-5"
    ).register_message_connector()
    reply = await agent.send(question)
    print(f"{type(reply).__name__}: {reply.get_content()}")


if __name__ == "__main__":
    asyncio.run(main())
