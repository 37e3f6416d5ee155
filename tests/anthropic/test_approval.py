"""Approval snapshots: the shared corpus through to_anthropic, and an exact request body the SDK
sent.

Review ``snapshots/anthropic/test_approval/`` like code, beside ``snapshots/openai/test_approval/``:
each payload must be what API.md 4.2 says, and every one of them has passed the strict wire
validator before being pinned (``conftest.py``).
"""

from __future__ import annotations

from typing import Any

import respx

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    LLMBridgeError,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import AnthropicChatAgent, to_anthropic
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
    last_request_json,
)
from tests.anthropic.helpers import URL
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT, approval_rows


def converted(message: Message, *, strict_mode: bool, name_policy: str = "drop") -> dict[str, Any]:
    try:
        request = to_anthropic(
            [message],
            agent_name=AGENT,
            strict_mode=strict_mode,
            name_policy=name_policy,  # type: ignore[arg-type]
            check_pairing=False,
        )
    except LLMBridgeError as error:
        return {"error": f"{type(error).__name__}: {error}"}
    return {
        "system": request.system,
        "messages": request.messages,
        "notes": [f"{note.index} {note.kind}: {note.detail}" for note in request.notes],
    }


def test_corpus_converts_as_approved(snapshot: Any) -> None:
    assert approval_rows(converted) == snapshot


async def collect(stream: Any) -> list[Message]:
    return [message async for message in stream]


def connected(router: respx.Router, **kwargs: Any) -> Any:
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test", **kwargs)
    return agent.register_message_connector()


async def test_multi_turn_request_body_sent_by_the_sdk_is_as_approved(snapshot: Any) -> None:
    """The exact body the real SDK sent on the third turn of a tool loop with thinking."""
    first = anthropic_message(
        [
            anthropic_thinking_block("The user wants weather and time; call both.", "sig-turn-1"),
            anthropic_text_block("Let me check both."),
            anthropic_tool_use_block("toolu_01Weather", "get_weather", {"city": "Paris"}),
            anthropic_tool_use_block("toolu_01Time", "get_time", {"tz": "Europe/Paris"}),
        ],
        stop_reason="tool_use",
    )
    second = anthropic_message(
        [
            anthropic_thinking_block("Both answered.", "sig-turn-2"),
            anthropic_text_block("18C at 14:05."),
        ]
    )
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).mock(
        side_effect=[
            respx.MockResponse(json=first),
            anthropic_sse_response(anthropic_stream_events(second)),
            respx.MockResponse(json=anthropic_message("You're welcome!")),
        ]
    )
    agent = connected(
        router,
        system_message="You are a weather bot.",
        thinking={"type": "enabled", "budget_tokens": 2048},
    )
    options = GenerateReplyOptions(
        functions=[
            FunctionContract(
                "get_weather",
                "Current weather in a city.",
                {"type": "object", "properties": {"city": {"type": "string"}}},
            ),
            FunctionContract("get_time", "Local time in a time zone."),
        ],
        tool_choice="auto",
        extra={"metadata": {"user_id": "u-1"}},
    )
    history: list[Message] = [
        TextMessage(Role.SYSTEM, "Answer in one sentence."),
        TextMessage(Role.USER, "Weather and time in Paris?"),
    ]

    calls = await agent.send(chat_history=history, options=options)
    results = ToolCallResultMessage(
        [
            ToolCall("get_weather", "{}", tool_call_id="toolu_01Weather", result="18C, sunny"),
            ToolCall("get_time", "{}", tool_call_id="toolu_01Time", result="14:05"),
        ],
        "tools",
    )
    history += [calls, results]
    answer = (await collect(agent.stream(chat_history=history, options=options)))[-1]
    history += [answer, TextMessage(Role.USER, "Thanks!")]
    await agent.send(chat_history=history, options=options)

    assert isinstance(calls, ToolCallMessage)
    assert calls.reasoning == (
        Reasoning(
            "The user wants weather and time; call both.",
            signature="sig-turn-1",
            provider="anthropic",
        ),
    )
    body = last_request_json(route)
    assert_valid_request(body)
    assert body == snapshot
