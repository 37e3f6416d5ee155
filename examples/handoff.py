"""Hand one conversation over: OpenAI Chat -> Anthropic -> Gemini -> OpenAI Responses, offline.

Each provider continues the history the ones before it wrote, with their tool-call ids, their
reasoning (signed or not) and their provider data; nothing but the provider agent changes. A
scripted model answers the real SDK clients over HTTP mocks. The script prints what each
provider received (the messages of the JSON body the SDK sent) and every conversion note:
reasoning of another provider "omitted", ids a target does not accept "repaired", and so on.
Wings that are not registered, or whose SDK is not installed, are skipped.

    python examples/handoff.py
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from llmbridge import (
    FunctionCallMiddleware,
    Message,
    MiddlewareStreamingAgent,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
)
from llmbridge.kit import load_provider, provider_info, provider_tags
from llmbridge.testing import ScriptedProvider, ScriptedReply

ORDER = ("openai", "anthropic", "gemini", "openai-responses")
# The ScriptedProvider client each wing's SDK uses (Responses is the OpenAI SDK too).
CLIENTS = {
    "openai": "openai_client",
    "anthropic": "anthropic_client",
    "gemini": "gemini_client",
    "openai-responses": "openai_client",
}
CITIES = ("Rome", "Paris", "Oslo", "Lisbon")
WEATHER = {"Rome": "24C", "Paris": "18C", "Oslo": "9C", "Lisbon": "21C"}


def get_weather(city: str) -> str:
    """The weather in a city (example data)."""
    return f"{WEATHER[city]} and clear"


def get_time(city: str) -> str:
    """The local time in a city (example data)."""
    return "14:05" if city != "Lisbon" else "13:05"


def script(city: str) -> list[ScriptedReply]:
    """What the offline model says for one city: two tool calls with reasoning, the answer."""
    calls = [
        ToolCall("get_weather", json.dumps({"city": city})),
        ToolCall("get_time", json.dumps({"city": city})),
    ]
    reasoning = [Reasoning(f"{city}: weather and time, two tools at once.")]
    answer = f"{city}: {get_weather(city)} at {get_time(city)}."
    return [ToolCallMessage(calls, content=f"Checking {city}.", reasoning=reasoning), answer]


def agent_for(tag: str, model: ScriptedProvider) -> MiddlewareStreamingAgent:
    """The only provider-specific line: the wing's agent on its SDK client, then the tools."""
    client = getattr(model, CLIENTS[tag])()
    agent = load_provider(tag).connected_agent(client, name="assistant", model="example")
    return agent.register_streaming_middleware(FunctionCallMiddleware([get_weather, get_time]))


def available(tag: str) -> bool:
    """Whether ``tag`` is registered, its SDK installed and the scripted model speaks it."""
    if tag not in provider_tags() or not hasattr(ScriptedProvider, CLIENTS[tag]):
        return False
    try:
        load_provider(tag)
    except ImportError:  # its extra is not installed: the example skips the wing
        return False
    return True


class Notes(logging.Handler):
    """Collects the conversion notes the connectors log (each once per conversation)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def show(body: dict[str, Any]) -> None:
    """The messages of a request body as the SDK sent them, one per line."""
    system = body.get("system") or body.get("system_instruction") or body.get("instructions")
    if system:
        print(f"  system: {json.dumps(system, ensure_ascii=False)}")
    for message in body.get("messages") or body.get("contents") or body.get("input") or ():
        print(f"  {json.dumps(message, ensure_ascii=False)}")


async def turn(tag: str, history: list[Message], city: str, notes: Notes) -> None:
    """One provider's part: a question, its tool round, its answer, appended to ``history``."""
    model = ScriptedProvider(script(city))
    agent = agent_for(tag, model)
    history.append(TextMessage(Role.USER, f"Weather and time in {city}?"))
    print(f"== {provider_info(tag).title} ({tag})")
    while True:
        reply = await agent.send(chat_history=history)  # one request to the model
        history.append(reply)
        print(f" request {len(model.bodies())} received:")
        show(model.bodies()[-1])
        for line in notes.lines:
            print(f"  note: {line}")
        notes.lines.clear()
        if not isinstance(reply, ToolCallAggregateMessage):
            break
    print(f"  -> {reply.get_content()}")


async def main() -> None:
    notes = Notes()
    logger = logging.getLogger("llmbridge")
    logger.addHandler(notes)
    logger.setLevel(logging.INFO)
    try:
        history: list[Message] = [TextMessage(Role.SYSTEM, "You are a travel assistant.")]
        tags = [tag for tag in ORDER if available(tag)]
        for tag, city in zip(tags, CITIES, strict=False):
            await turn(tag, history, city, notes)
        print(f"one conversation, {len(history)} neutral messages, through: {' -> '.join(tags)}")
    finally:
        logger.removeHandler(notes)
        logger.setLevel(logging.NOTSET)


if __name__ == "__main__":
    asyncio.run(main())
