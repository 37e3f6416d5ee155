"""The cost a user pays per call: a connected agent against the bare SDK call, same payload.

Each wing that ``_WIRES`` knows how to answer (and whose package imports) is built from the
registry: ``default_http_client`` over ``RespxTransport``, ``sdk_client``, ``connected_agent``.
The agent sends the deterministic conversation (``conversation_for(tag, size)``); the reference
is the same SDK client's own call with the hand-built payload of the floor (``floors.py``,
one per wing) and the other settings the agent sent (model, token
limit, ``stream``; for Gemini the same config fields, as the dict the SDK accepts). Before
timing, the request the SDK reference puts on the wire (URL and JSON body) is checked equal to
the agent's. respx answers both with the same text reply, or its SSE stream (which the SDK
reference reads to the end). The figure is llmbridge's extra time over the SDK call, in percent
of the SDK call's time: conversion, the agent and connector, the reply or stream aggregation.
A third figure, the hand-built call, converts with the floor on every call before the same SDK
call (what an integration without llmbridge pays per call): the agent's extra time over it is
what llmbridge costs beyond the least code doing the same job.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx
import respx

from benchmarks.conversation import AGENT
from benchmarks.convert import conversation_for
from benchmarks.floors import anthropic_floor, gemini_floor, openai_floor, responses_floor
from benchmarks.timing import Settings, best_times, check_same
from benchmarks.tracing import anthropic_answer, gemini_answer, openai_answer, responses_answer
from llmbridge import Message
from llmbridge.kit import load_provider, provider_info, provider_tags
from llmbridge.testing import RespxTransport

__all__ = [
    "PATHS",
    "TARGET_PERCENT",
    "WINGS",
    "PerCallResult",
    "per_call_contenders",
    "run_per_call",
]

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
    hand_us: float

    @property
    def overhead_percent(self) -> float:
        """The agent's extra time over the SDK call, in percent of the SDK call's time."""
        return (self.agent_us - self.sdk_us) / self.sdk_us * 100

    @property
    def hand_percent(self) -> float:
        """The agent's extra time over the hand-built call (floor conversion + SDK call), in
        percent of the hand-built call's time."""
        return (self.agent_us - self.hand_us) / self.hand_us * 100


Arguments = dict[str, Any]


def _openai_arguments(messages: Sequence[Message], sent: Arguments) -> Arguments:
    return {**sent, "messages": openai_floor(messages, AGENT)}


def _responses_arguments(messages: Sequence[Message], sent: Arguments) -> Arguments:
    return {**sent, "input": responses_floor(messages, AGENT)}


def _anthropic_arguments(messages: Sequence[Message], sent: Arguments) -> Arguments:
    system, turns = anthropic_floor(messages, AGENT)
    arguments = {**sent, "messages": turns}
    if system is not None:
        arguments["system"] = system
    return arguments


def _gemini_arguments(messages: Sequence[Message], sent: Arguments) -> Arguments:
    # The wire body is camelCase JSON the SDK builds from (model, contents, config): the
    # reference passes the config fields the agent sets, as a dict, the SDK's cheapest form.
    system, contents = gemini_floor(messages, AGENT)
    config: Arguments = {
        "automatic_function_calling": {"disable": True},
        "automatic_continuation": False,
    }
    if system:
        config["system_instruction"] = {"parts": system}
    return {"model": provider_info("gemini").default_model, "contents": contents, "config": config}


async def _openai_call(client: Any, arguments: Arguments, stream: bool) -> object:
    reply = await client.chat.completions.create(**arguments)
    return [chunk async for chunk in reply] if stream else reply


async def _responses_call(client: Any, arguments: Arguments, stream: bool) -> object:
    reply = await client.responses.create(**arguments)
    return [event async for event in reply] if stream else reply


async def _anthropic_call(client: Any, arguments: Arguments, stream: bool) -> object:
    reply = await client.messages.create(**arguments)
    return [event async for event in reply] if stream else reply


async def _gemini_call(client: Any, arguments: Arguments, stream: bool) -> object:
    models = client.aio.models
    if not stream:
        return await models.generate_content(**arguments)
    return [chunk async for chunk in await models.generate_content_stream(**arguments)]


@dataclass(frozen=True, slots=True)
class _Wire:
    route: dict[str, str]
    answer: Callable[[httpx.Request], httpx.Response]
    arguments: Callable[[Sequence[Message], Arguments], Arguments]
    call: Callable[[Any, Arguments, bool], Any]


# What differs per wing: where its SDK posts (respx patterns), how respx answers, the
# hand-built arguments (from the agent's sent body: its settings), the SDK call.
_WIRES: Final = {
    "openai": _Wire(
        {"url": "https://api.openai.com/v1/chat/completions"},
        openai_answer,
        _openai_arguments,
        _openai_call,
    ),
    "openai-responses": _Wire(
        {"url": "https://api.openai.com/v1/responses"},
        responses_answer,
        _responses_arguments,
        _responses_call,
    ),
    "anthropic": _Wire(
        {"url": "https://api.anthropic.com/v1/messages"},
        anthropic_answer,
        _anthropic_arguments,
        _anthropic_call,
    ),
    "gemini": _Wire(
        {"host": "generativelanguage.googleapis.com"},
        gemini_answer,
        _gemini_arguments,
        _gemini_call,
    ),
}


WINGS: Final = tuple(_WIRES)
"""The wings the per-call benchmark knows how to answer."""

PATHS: Final = ("send", "stream")


def _last_request(route: respx.Route) -> dict[str, Any]:
    request = route.calls.last.request
    return {"url": str(request.url), "body": json.loads(request.content)}


def per_call_contenders(
    loop: asyncio.AbstractEventLoop, tag: str, messages: Sequence[Message], path: str
) -> dict[str, Callable[[], object]]:
    """``agent``, ``sdk`` and ``hand`` (floor conversion + SDK) calls of ``tag`` on ``path``,
    run on ``loop``; the first two have run once, their wire requests checked equal."""
    wire = _WIRES[tag]
    wing = load_provider(tag)
    router = respx.Router()
    route = router.post(**wire.route).mock(side_effect=wire.answer)
    http_client = wing.default_http_client(transport=RespxTransport(router))
    client = wing.sdk_client(api_key="test-key", http_client=http_client, max_retries=0)
    agent = wing.connected_agent(client, name=AGENT, model=provider_info(tag).default_model)
    stream = path == "stream"

    async def through_agent() -> object:
        if not stream:
            return await agent.send(chat_history=messages)
        return [item async for item in agent.stream(chat_history=messages)]

    loop.run_until_complete(through_agent())
    sent = _last_request(route)
    arguments = wire.arguments(messages, sent["body"])
    loop.run_until_complete(wire.call(client, arguments, stream))
    check_same(f"{tag} {path} request", _last_request(route), sent)
    return {
        "agent": lambda: loop.run_until_complete(through_agent()),
        "sdk": lambda: loop.run_until_complete(wire.call(client, arguments, stream)),
        "hand": lambda: loop.run_until_complete(
            wire.call(client, wire.arguments(messages, sent["body"]), stream)
        ),
    }


def run_per_call(size: int = 100, settings: Settings | None = None) -> list[PerCallResult]:
    """Time each wing's connected call and its bare SDK call, sending and streaming.

    Raises ``FloorMismatchError`` when the SDK call with the hand-built arguments puts another
    request on the wire than the agent's.
    """
    settings = settings or Settings()
    loop = asyncio.new_event_loop()
    results = []
    try:
        for tag in provider_tags():
            if tag not in _WIRES:
                continue  # no respx answer for this wing's API yet
            messages = conversation_for(tag, size)
            for path in PATHS:
                timings = best_times(per_call_contenders(loop, tag, messages, path), settings)
                results.append(
                    PerCallResult(
                        tag,
                        path,
                        len(messages),
                        timings["agent"].seconds * 1e6,
                        timings["sdk"].seconds * 1e6,
                        timings["hand"].seconds * 1e6,
                    )
                )
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
    return results
