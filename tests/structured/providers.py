"""The four providers' connected agents over their real SDK clients and respx, answering a
structured reply; every body they send goes through that provider's strict wire validator."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final

import httpx
import respx

from llmbridge import MiddlewareStreamingAgent, Role, TextMessage
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.gemini import GeminiChatAgent
from llmbridge.openai import OpenAIChatAgent, OpenAIResponsesAgent
from llmbridge.testing import (
    ScriptedProvider,
    gemini_client,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    openai_client,
    openai_response,
    openai_response_events,
    openai_responses_sse_response,
)
from tests.anthropic.wire import assert_valid_request
from tests.gemini import wire as gemini_wire
from tests.openai import wire as openai_wire
from tests.openai_responses import wire as responses_wire

TAGS: Final = ("openai", "openai-responses", "anthropic", "gemini")
"""Every provider tag with structured output, in the order the snapshot shows them."""
# The request field that carries the output format, per provider (Gemini: two config fields).
FORMAT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "openai": ("response_format",),
    "openai-responses": ("text",),
    "anthropic": ("output_config",),
    "gemini": ("responseMimeType", "responseJsonSchema"),
}
_GEMINI_FINISH: Final = {"stop": "STOP", "length": "MAX_TOKENS"}


class Served:
    """One provider's connected agent answering ``replies`` in order (text, finish reason
    ``"stop"`` or ``"length"``), for ``send`` and ``stream`` alike; ``bodies()`` validates."""

    def __init__(self, tag: str, replies: Sequence[tuple[str, str]], **agent_kwargs: Any) -> None:
        self.tag = tag
        self._replies = list(replies)
        self._scripted = ScriptedProvider(
            [TextMessage(Role.ASSISTANT, text, finish_reason=finish) for text, finish in replies]
        )
        self._router = respx.Router(assert_all_called=False)
        self._router.route().mock(side_effect=self._answer)
        self.agent = self._agent(agent_kwargs)

    def _agent(self, kwargs: dict[str, Any]) -> MiddlewareStreamingAgent:
        name = "assistant"
        match self.tag:
            case "openai":
                client = self._scripted.openai_client()
                return OpenAIChatAgent(
                    client, name=name, model="gpt-4o-mini", **kwargs
                ).register_message_connector()
            case "anthropic":
                aclient = self._scripted.anthropic_client()
                return AnthropicChatAgent(
                    aclient, name=name, model="claude-sonnet-4-5", **kwargs
                ).register_message_connector()
            case "openai-responses":
                rclient = openai_client(self._router)
                return OpenAIResponsesAgent(
                    rclient, name=name, model="gpt-5-mini", **kwargs
                ).register_message_connector()
            case _:
                gclient = gemini_client(self._router)
                return GeminiChatAgent(
                    gclient, name=name, model="gemini-2.5-flash", **kwargs
                ).register_message_connector()

    def _answer(self, request: httpx.Request) -> httpx.Response:
        text, finish = self._replies[len(self._router.calls) - 1]
        body = json.loads(request.content)
        if self.tag == "openai-responses":
            status = "completed" if finish == "stop" else "incomplete"
            response = openai_response(text, status=status)
            if body.get("stream"):
                return openai_responses_sse_response(openai_response_events(response))
            return httpx.Response(200, json=response)
        response = gemini_response(text, finish_reason=_GEMINI_FINISH[finish])
        if re.search(r":streamGenerateContent", request.url.path):
            return gemini_sse_response(gemini_stream_chunks(response))
        return httpx.Response(200, json=response)

    def bodies(self) -> list[dict[str, Any]]:
        """Every body sent so far, each checked by the provider's strict wire validator."""
        if self.tag in ("openai", "anthropic"):
            for request in self._scripted.requests:
                if self.tag == "openai":
                    openai_wire.check_request_body(request.body)
                else:
                    assert_valid_request(request.body)
            return self._scripted.bodies()
        sent = []
        for call in self._router.calls:
            if self.tag == "gemini":
                gemini_wire.check_request(call.request)
            else:
                responses_wire.check_request_body(json.loads(call.request.content))
            sent.append(json.loads(call.request.content))
        return sent

    def format_fields(self) -> dict[str, Any]:
        """The output-format fields of the last body (Gemini's sit in ``generationConfig``)."""
        body = self.bodies()[-1]
        where = body.get("generationConfig", {}) if self.tag == "gemini" else body
        return {field: where.get(field) for field in FORMAT_FIELDS[self.tag]}
