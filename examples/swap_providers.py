"""Swap providers: the same neutral conversation and agent code, OpenAI then Anthropic.

Only the line that builds the provider agent differs; the connector, the tools, the history
and the replies are the same neutral types for both.

    python examples/swap_providers.py          # offline: llmbridge's scripted provider answers
    python examples/swap_providers.py --live   # the real APIs (OPENAI_API_KEY, ANTHROPIC_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys

import anthropic
import openai

from llmbridge import (
    FunctionCallMiddleware,
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider, ScriptedReply

LIVE = "--live" in sys.argv[1:]


def convert_currency(amount: float, currency: str) -> str:
    """Convert an amount of euros to another currency (example rates).

    Args:
        amount: The amount in euros.
        currency: The target currency code, for example "USD".
    """
    rates = {"USD": 1.08, "GBP": 0.85, "JPY": 162.0}
    return f"{amount * rates[currency]:.2f} {currency}"


# What the offline model says: one tool call, then the answer.
SCRIPT: list[ScriptedReply] = [
    ToolCallMessage([ToolCall("convert_currency", '{"amount": 40, "currency": "USD"}')]),
    "40 euros are about 43.20 US dollars.",
]


def provider_agent(provider: str) -> OpenAIChatAgent | AnthropicChatAgent:
    """The only provider-specific code: which SDK client and which provider agent."""
    offline = ScriptedProvider(SCRIPT)
    if provider == "openai":
        openai_client = openai.AsyncOpenAI() if LIVE else offline.openai_client()
        return OpenAIChatAgent(openai_client, name="assistant", model="gpt-4o-mini")
    anthropic_client = anthropic.AsyncAnthropic() if LIVE else offline.anthropic_client()
    return AnthropicChatAgent(anthropic_client, name="assistant", model="claude-haiku-4-5")


def make_agent(provider: str) -> MiddlewareStreamingAgent:
    """The same stack on top of either: connector, then tools (outermost)."""
    return (
        provider_agent(provider)
        .register_message_connector()
        .register_streaming_middleware(FunctionCallMiddleware([convert_currency]))
    )


async def ask(agent: MiddlewareStreamingAgent, question: str) -> list[Message]:
    """Provider-independent: ask, run the tool calls, ask again until the model answers."""
    history: list[Message] = [
        TextMessage(Role.SYSTEM, "You convert currencies. Always use the tool."),
        TextMessage(Role.USER, question),
    ]
    while True:
        reply = await agent.send(chat_history=history)
        history.append(reply)
        if not isinstance(reply, ToolCallAggregateMessage):
            return history


async def main() -> None:
    for provider in ("openai", "anthropic"):
        history = await ask(make_agent(provider), "How much is 40 EUR in USD?")
        print(f"== {provider}")
        for message in history[2:]:
            print(f"{type(message).__name__}: {message.get_content()}")


if __name__ == "__main__":
    asyncio.run(main())
