"""The cost a user pays per call: a connected agent against the bare SDK call, same payload.

Each wing that ``_WIRES`` knows how to answer (and whose package imports) is built from the
registry: ``default_http_client`` over ``RespxTransport``, ``sdk_client``, ``connected_agent``.
The agent sends the deterministic conversation (``make_conversation(size)``); the reference is
the same SDK client's own call with the hand-built payload of the floor (``floors.py``) and the
other fields the agent sent (model, token limit, ``stream``), checked equal to the agent's body
before timing. respx answers both with the same text reply, or its SSE stream (which the SDK
reference reads to the end). The figure is llmbridge's extra time over the SDK call, in percent
of the SDK call's time: conversion, the connector, the reply or the stream aggregation.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx
import respx

from benchmarks.conversation import AGENT, make_conversation
from benchmarks.floors import anthropic_floor, openai_floor
from benchmarks.timing import Settings, best_times, check_same
from benchmarks.tracing import anthropic_answer, openai_answer
from llmbridge import Message
from llmbridge.kit import load_provider, provider_info, provider_tags
from llmbridge.testing import RespxTransport

__all__ = ["TARGET_PERCENT", "PerCallResult", "run_per_call"]

TARGET_PERCENT: Final = 10.0
"""The highest accepted overhead of llmbridge, in percent of the SDK call's own time."""


@dataclass(frozen=True, slots=True)
class PerCallResult:
    """One wing's connected call against the bare SDK call, in µs, and the overhead."""

    provider: str
    path: str
    messages: int
    agent_us: float
    sdk_us: float

    @property
    def overhead_percent(self) -> float:
        """The agent's extra time over the SDK call, in percent of the SDK call's time."""
        return (self.agent_us - self.sdk_us) / self.sdk_us * 100


def _openai_body(messages: Sequence[Message], sent: dict[str, Any]) -> dict[str, Any]:
    return {**sent, "messages": openai_floor(messages, AGENT)}


def _anthropic_body(messages: Sequence[Message], sent: dict[str, Any]) -> dict[str, Any]:
    system, turns = anthropic_floor(messages, AGENT)
    body = {**sent, "messages": turns}
    if system is not None:
        body["system"] = system
    return body


async def _openai_call(client: Any, body: dict[str, Any]) -> object:
    if not body.get("stream"):
        return await client.chat.completions.create(**body)
    return [chunk async for chunk in await client.chat.completions.create(**body)]


async def _anthropic_call(client: Any, body: dict[str, Any]) -> object:
    if not body.get("stream"):
        return await client.messages.create(**body)
    return [event async for event in await client.messages.create(**body)]


@dataclass(frozen=True, slots=True)
class _Wire:
    url: str
    answer: Callable[[httpx.Request], httpx.Response]
    body: Callable[[Sequence[Message], dict[str, Any]], dict[str, Any]]
    call: Callable[[Any, dict[str, Any]], Any]


# What differs per wing: where its SDK posts, how respx answers, the hand-built body, the call.
_WIRES: Final = {
    "openai": _Wire(
        "https://api.openai.com/v1/chat/completions", openai_answer, _openai_body, _openai_call
    ),
    "anthropic": _Wire(
        "https://api.anthropic.com/v1/messages", anthropic_answer, _anthropic_body, _anthropic_call
    ),
}


def _timed_pair(
    loop: asyncio.AbstractEventLoop, tag: str, messages: Sequence[Message], path: str
) -> dict[str, Callable[[], object]]:
    wire = _WIRES[tag]
    wing = load_provider(tag)
    router = respx.Router()
    route = router.post(wire.url).mock(side_effect=wire.answer)
    http_client = wing.default_http_client(transport=RespxTransport(router))
    client = wing.sdk_client(api_key="test-key", http_client=http_client, max_retries=0)
    agent = wing.connected_agent(client, name=AGENT, model=provider_info(tag).default_model)

    async def through_agent() -> object:
        if path == "send":
            return await agent.send(chat_history=messages)
        return [item async for item in agent.stream(chat_history=messages)]

    loop.run_until_complete(through_agent())
    sent = json.loads(route.calls.last.request.content)
    body = wire.body(messages, sent)
    check_same(f"{tag} {path} request body", sent, body)
    return {
        "agent": lambda: loop.run_until_complete(through_agent()),
        "sdk": lambda: loop.run_until_complete(wire.call(client, body)),
    }


def run_per_call(size: int = 100, settings: Settings | None = None) -> list[PerCallResult]:
    """Time each wing's connected call and its bare SDK call, sending and streaming.

    Raises ``FloorMismatchError`` when the hand-built body differs from the agent's.
    """
    settings = settings or Settings()
    messages = make_conversation(size)
    loop = asyncio.new_event_loop()
    results = []
    try:
        for tag in provider_tags():
            if tag not in _WIRES:
                continue  # no respx answer for this wing's API yet
            for path in ("send", "stream"):
                timings = best_times(_timed_pair(loop, tag, messages, path), settings)
                results.append(
                    PerCallResult(
                        tag,
                        path,
                        size,
                        timings["agent"].seconds * 1e6,
                        timings["sdk"].seconds * 1e6,
                    )
                )
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    return results
