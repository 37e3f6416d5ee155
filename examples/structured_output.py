"""Structured output: ask each provider for JSON that fits a pydantic model, then parse it.

One option, ``GenerateReplyOptions(output_schema=Model)``, becomes each provider's own
mechanism with the schema in the dialect it accepts (OpenAI Chat: a strict ``json_schema``
``response_format``; OpenAI Responses: ``text.format``; Anthropic: ``output_config.format``;
Gemini: ``responseJsonSchema``); ``parse_output`` turns the reply
into a validated model instance, or raises ``OutputValidationError`` with the text.

    python examples/structured_output.py          # offline: the scripted provider answers
    python examples/structured_output.py --live   # real APIs (OPENAI_, ANTHROPIC_, GEMINI_API_KEY)
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Literal

import anthropic
import openai
import pydantic
from google import genai

from llmbridge import (
    GenerateReplyOptions,
    MiddlewareStreamingAgent,
    OutputValidationError,
    parse_output,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.gemini import GeminiChatAgent
from llmbridge.openai import OpenAIChatAgent, OpenAIResponsesAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]


class Stop(pydantic.BaseModel):
    city: str
    nights: int = pydantic.Field(ge=1, le=14)


class Trip(pydantic.BaseModel):
    """A short trip plan."""

    title: str
    pace: Literal["slow", "busy"]
    stops: list[Stop] = pydantic.Field(min_length=1)
    budget_eur: int | None = None


# What the offline model answers: the JSON a provider's structured output would return.
ANSWER = (
    '{"title": "Rhine by train", "pace": "slow", "stops": [{"city": "Basel", "nights": 2}, '
    '{"city": "Cologne", "nights": 3}], "budget_eur": null}'
)


def make_agent(provider: str, offline: ScriptedProvider) -> MiddlewareStreamingAgent:
    """A connected provider agent: neutral messages in, neutral replies out."""
    if provider == "openai":
        openai_client = openai.AsyncOpenAI() if LIVE else offline.openai_client()
        agent = OpenAIChatAgent(openai_client, name="planner", model="gpt-4o-mini")
        return agent.register_message_connector()
    if provider == "openai-responses":
        responses_client = openai.AsyncOpenAI() if LIVE else offline.openai_client()
        responses = OpenAIResponsesAgent(responses_client, name="planner", model="gpt-5-mini")
        return responses.register_message_connector()
    if provider == "anthropic":
        anthropic_client = anthropic.AsyncAnthropic() if LIVE else offline.anthropic_client()
        return AnthropicChatAgent(
            anthropic_client, name="planner", model="claude-sonnet-4-5"
        ).register_message_connector()
    gemini_client = genai.Client() if LIVE else offline.gemini_client()
    return GeminiChatAgent(
        gemini_client, name="planner", model="gemini-2.5-flash"
    ).register_message_connector()


async def main() -> None:
    offline = ScriptedProvider([ANSWER] * 4)
    options = GenerateReplyOptions(output_schema=Trip, max_tokens=800)
    for provider in ("openai", "openai-responses", "anthropic", "gemini"):
        reply = await make_agent(provider, offline).send(
            "Plan five slow nights along the Rhine.", options=options
        )
        try:
            trip = parse_output(reply, Trip)
        except OutputValidationError as error:
            print(f"== {provider}: no valid trip ({error}); the text was {error.text!r}")
            continue
        print(f"== {provider}: {trip.title}, {sum(stop.nights for stop in trip.stops)} nights")
        for stop in trip.stops:
            print(f"   {stop.city}: {stop.nights}")
    if not LIVE:
        # The request shapes each provider got for the same model, as sent over the wire.
        openai_body, responses_body, anthropic_body, gemini_body = offline.bodies()
        shapes = {
            "openai response_format": openai_body["response_format"]["json_schema"]["name"],
            "openai-responses text.format": responses_body["text"]["format"]["name"],
            "anthropic output_config": sorted(anthropic_body["output_config"]["format"]),
            "gemini generationConfig": sorted(gemini_body["generationConfig"]),
        }
        print(json.dumps(shapes))


if __name__ == "__main__":
    asyncio.run(main())
