"""Shared helpers of the OpenAI tests: validated conversion, SDK models from builder JSON."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import respx
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from llmbridge import Message
from llmbridge.openai import OpenAIRequest, to_openai
from llmbridge.testing import openai_usage_chunk
from tests.corpus import AGENT
from tests.openai import wire

CHAT_URL = "https://api.openai.com/v1/chat/completions"


def convert(
    messages: Sequence[Message],
    *,
    strict_mode: bool = False,
    check_pairing: bool = True,
    agent_name: str = AGENT,
) -> OpenAIRequest:
    """``to_openai``, with every produced payload put through the strict wire validator.

    A whole request (pairing step on) must pass the conversation checks; fragments converted
    message by message must pass the per-message checks.
    """
    request = to_openai(
        messages, agent_name=agent_name, strict_mode=strict_mode, check_pairing=check_pairing
    )
    if check_pairing:
        wire.check_messages(request.messages)
    else:
        for position, payload in enumerate(request.messages):
            wire.check_message(payload, f"messages[{position}]")
    assert len(request.indices) == len(request.messages)
    return request


def completion(data: dict[str, Any]) -> ChatCompletion:
    """A ``ChatCompletion`` model from builder JSON, as the SDK would parse it."""
    return ChatCompletion.model_validate(data)


def chunks(data: Sequence[dict[str, Any]]) -> list[ChatCompletionChunk]:
    """``ChatCompletionChunk`` models from builder JSON."""
    return [ChatCompletionChunk.model_validate(item) for item in data]


def constructed_chunks(data: Sequence[dict[str, Any]]) -> list[ChatCompletionChunk]:
    """The chunks the SDK builds from ``data``: without validation, so ``null`` stays ``None``."""
    return [ChatCompletionChunk.model_construct(**item) for item in data]


def azure_filter_chunk(*, finish_reason: str | None = None) -> dict[str, Any]:
    """A chunk of Azure OpenAI's asynchronous content filter: results, no delta."""
    safe = {"filtered": False, "severity": "safe"}
    return {
        "id": "chatcmpl-azure",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-4o-2024-08-06",
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "delta": None,
                "content_filter_offsets": {
                    "check_offset": 35,
                    "start_offset": 35,
                    "end_offset": 48,
                },
                "content_filter_results": {
                    "hate": safe,
                    "self_harm": safe,
                    "sexual": safe,
                    "violence": safe,
                },
            }
        ],
    }


def null_choices_chunk(usage: dict[str, Any]) -> dict[str, Any]:
    """A chunk with ``"choices": null``, as some OpenAI-compatible servers send (with usage)."""
    return {**openai_usage_chunk(usage), "choices": None}


# Every router a test makes, with the body keys it sends on purpose through extra_body; the
# autouse fixture of conftest.py validates every request they received once the test is done.
_ROUTERS: list[tuple[respx.Router, tuple[str, ...]]] = []


def new_router(*, extra_keys: Sequence[str] = ()) -> respx.Router:
    """A respx router whose chat requests are all put through the wire validator after the test."""
    router = respx.Router(assert_all_called=False)
    _ROUTERS.append((router, tuple(extra_keys)))
    return router


def check_every_sent_body() -> int:
    """Validate every chat request body the routers of this test received; return their count."""
    checked = 0
    while _ROUTERS:
        router, extra_keys = _ROUTERS.pop()
        for call in router.calls:
            if str(call.request.url) == CHAT_URL:
                wire.check_request_body(json.loads(call.request.content), extra_keys=extra_keys)
                checked += 1
    return checked


def sent_bodies(route: respx.Route, *, extra_keys: Sequence[str] = ()) -> list[Any]:
    """Every request body the SDK sent on ``route``, each checked by the wire validator.

    ``extra_keys`` are settings deliberately sent through ``extra_body``.
    """
    bodies = [json.loads(call.request.content) for call in route.calls]
    for body in bodies:
        wire.check_request_body(body, extra_keys=extra_keys)
    return bodies


async def drain(stream: AsyncIterator[Any], into: list[Any] | None = None) -> list[Any]:
    """Consume ``stream``, appending each item to ``into`` (kept when the stream raises)."""
    received = into if into is not None else []
    async for item in stream:
        received.append(item)
    return received
