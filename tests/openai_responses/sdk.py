"""Responses bodies read back by the real ``AsyncOpenAI`` over respx, requests wire-checked."""

from __future__ import annotations

import json
from typing import Any

import httpx
import respx
from openai.types.responses import Response, ResponseStreamEvent

from llmbridge.testing import openai_client, openai_responses_sse_response
from tests.openai_responses import wire

URL = "https://api.openai.com/v1/responses"
REQUEST: dict[str, Any] = {
    "model": "gpt-5-mini",
    "input": [{"role": "user", "content": "Hi"}],
    "store": False,
    "include": ["reasoning.encrypted_content"],
}


def _checked(route: respx.Route) -> None:
    for call in route.calls:
        wire.check_request_body(json.loads(call.request.content))


async def fetched(body: dict[str, Any]) -> Response:
    """``body`` as the real ``AsyncOpenAI`` returns it from ``responses.create``."""
    router = respx.Router(assert_all_called=True)
    route = router.post(URL).mock(return_value=httpx.Response(200, json=body))
    response = await openai_client(router).responses.create(**REQUEST)
    _checked(route)
    return response


async def streamed(events: list[dict[str, Any]]) -> list[ResponseStreamEvent]:
    """``events`` as the real ``AsyncOpenAI`` yields them from ``responses.create(stream=True)``."""
    router = respx.Router(assert_all_called=True)
    route = router.post(URL).mock(return_value=openai_responses_sse_response(events))
    stream = await openai_client(router).responses.create(**REQUEST, stream=True)
    received = [event async for event in stream]
    _checked(route)
    return received
