"""What each wing sends for the results ``FunctionResult`` gives (API.md 19.3): an error text,
a structured result and a parts result, through the real SDK clients (``ScriptedProvider`` over
respx), on both paths and in both modes."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import pytest

from llmbridge import (
    FunctionCallMiddleware,
    FunctionResult,
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.gemini import GeminiChatAgent, GeminiMessageConnector
from llmbridge.openai import (
    OpenAIChatAgent,
    OpenAIChatRequestMessageConnector,
    OpenAIResponsesAgent,
    OpenAIResponsesConnector,
)
from llmbridge.testing import ScriptedProvider
from tests.strategies import PNG

AGENT = "assistant"
ERROR = "no such city: Atlantis"
PNG_BASE64 = base64.b64encode(PNG).decode()
DATA_URL = f"data:image/png;base64,{PNG_BASE64}"
CALLS = [
    ToolCall("lookup", '{"city": "Atlantis"}', tool_call_id="call_1"),
    ToolCall("stats", "{}", tool_call_id="call_2"),
    ToolCall("chart", "{}", tool_call_id="call_3"),
]


def lookup(city: str) -> FunctionResult:
    """Look a city up."""
    return FunctionResult(f"no such city: {city}", is_error=True)


async def stats() -> FunctionResult:
    """Statistics."""
    return FunctionResult({"mean": 1.5, "unit": "°C"})


def chart() -> FunctionResult:
    """A chart."""
    return FunctionResult([TextMessage(Role.TOOL, "the chart"), ImageMessage(Role.TOOL, data=PNG)])


def _openai(body: dict[str, Any]) -> list[Any]:
    messages = body["messages"]
    answers: list[Any] = [m["content"] for m in messages if m["role"] == "tool"]
    # Tool messages take text only: the image follows them in a user message.
    moved = messages[-1]
    assert moved["role"] == "user"
    assert moved["content"][1] == {"type": "image_url", "image_url": {"url": DATA_URL}}
    return answers


def _responses(body: dict[str, Any]) -> list[Any]:
    items = body["input"]
    return [item["output"] for item in items if item.get("type") == "function_call_output"]


def _anthropic(body: dict[str, Any]) -> list[Any]:
    blocks = body["messages"][-1]["content"]
    return [{k: v for k, v in b.items() if k not in ("type", "tool_use_id")} for b in blocks]


def _gemini(body: dict[str, Any]) -> list[Any]:
    parts = body["contents"][-1]["parts"]
    return [
        {k: v for k, v in p["functionResponse"].items() if k not in ("id", "name")} for p in parts
    ]


IMAGE_BLOCK = {"type": "image", "source": {"type": "base64", "media_type": "image/png"}}
IMAGE_BLOCK["source"]["data"] = PNG_BASE64  # type: ignore[index]
# Per wing: its agent and connector, how its last request shows the answers, and the answers
# to the error text, the structured result and the parts result.
WINGS: dict[str, tuple[Any, Any, Callable[[dict[str, Any]], list[Any]], list[Any]]] = {
    "openai": (
        OpenAIChatAgent,
        OpenAIChatRequestMessageConnector,
        _openai,
        [ERROR, '{"mean":1.5,"unit":"°C"}', "the chart"],
    ),
    "openai-responses": (
        OpenAIResponsesAgent,
        OpenAIResponsesConnector,
        _responses,
        [
            ERROR,
            '{"mean":1.5,"unit":"°C"}',
            [
                {"type": "input_text", "text": "the chart"},
                {"type": "input_image", "image_url": DATA_URL, "detail": "auto"},
            ],
        ],
    ),
    "anthropic": (
        AnthropicChatAgent,
        AnthropicMessageConnector,
        _anthropic,
        [
            {"is_error": True, "content": ERROR},
            {"content": '{"mean":1.5,"unit":"°C"}'},
            {"content": [{"type": "text", "text": "the chart"}, IMAGE_BLOCK]},
        ],
    ),
    "gemini": (
        GeminiChatAgent,
        GeminiMessageConnector,
        _gemini,
        [
            {"response": {"error": ERROR}},
            {"response": {"mean": 1.5, "unit": "°C"}},
            {
                "response": {"output": "the chart"},
                "parts": [{"inline_data": {"mime_type": "image/png", "data": PNG_BASE64}}],
            },
        ],
    ),
}


def _client(tag: str, scripted: ScriptedProvider) -> Any:
    if tag in ("openai", "openai-responses"):
        return scripted.openai_client()
    if tag == "anthropic":
        return scripted.anthropic_client()
    return scripted.gemini_client()


async def _reply(agent: Any, path: str, history: list[Message]) -> Message:
    if path == "send":
        return await agent.send(chat_history=history)  # type: ignore[no-any-return]
    return [message async for message in agent.stream(chat_history=history)][-1]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("path", ["send", "stream"])
@pytest.mark.parametrize("tag", WINGS)
async def test_each_wing_sends_the_function_results_as_its_api_takes_them(
    tag: str, path: str, strict_mode: bool
) -> None:
    agent_type, connector_type, answers_of, expected = WINGS[tag]
    scripted = ScriptedProvider([ToolCallMessage(CALLS), "Atlantis is a myth."])
    client = _client(tag, scripted)  # kept in a variable: a collected Gemini client closes
    model = agent_type(client, name=AGENT, model="model-test")
    connected = model.register_message_connector(connector_type(strict_mode))
    agent = connected.register_streaming_middleware(FunctionCallMiddleware([lookup, stats, chart]))
    history: list[Message] = [TextMessage(Role.USER, "Atlantis: weather, stats, chart?")]

    aggregate = await _reply(agent, path, history)
    assert isinstance(aggregate, ToolCallAggregateMessage)
    final = await _reply(agent, path, [*history, aggregate])

    assert final.get_content() == "Atlantis is a myth."
    assert answers_of(scripted.bodies()[-1]) == expected
