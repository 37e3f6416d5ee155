"""A user's test file: pin what llmbridge sends each provider, and test an agent offline.

Needs `pip install 'llmbridge[openai,anthropic,testing]' pytest pytest-asyncio`. The two
fixtures come from llmbridge's pytest plugin: no conftest. Run `pytest --snapshot-update` once,
review `__snapshots__/test_my_agent/*.json` and commit it; from then on a change in what a
provider is sent fails the test with a diff.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from llmbridge import Role, TextMessage, ToolCall, ToolCallMessage, ToolCallResultMessage
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ConversionSnapshot, ScriptedProvider

ARGUMENTS = '{"city": "Paris"}'
HISTORY = [
    TextMessage(Role.SYSTEM, "You are a weather assistant. Be brief."),
    TextMessage(Role.USER, "What is the weather in Paris?", "Zoë"),
    ToolCallMessage([ToolCall("get_weather", ARGUMENTS, tool_call_id="call_1")], "assistant"),
    ToolCallResultMessage(
        [ToolCall("get_weather", ARGUMENTS, tool_call_id="call_1", result="18C and sunny")]
    ),
]


def test_conversions_are_pinned(conversion_snapshot: ConversionSnapshot) -> None:
    # One line: every installed provider's payload and notes, as one JSON snapshot.
    conversion_snapshot(HISTORY)


def test_strict_mode_refusals_are_pinned(conversion_snapshot: ConversionSnapshot) -> None:
    # Strict mode raises where lenient mode notes a loss: the snapshot pins each error.
    document = conversion_snapshot(HISTORY, providers=["openai", "anthropic"], strict_mode=True)

    assert document["anthropic"]["error"].startswith("InvalidMessageError: message 1")


@pytest.mark.asyncio
@pytest.mark.parametrize("stream", [False, True], ids=["send", "stream"])
async def test_my_agent_answers_from_the_tool_result(
    scripted_provider: Callable[..., ScriptedProvider], stream: bool
) -> None:
    model = scripted_provider(["It is 18C and sunny in Paris."])
    agent = OpenAIChatAgent(
        model.openai_client(), name="assistant", model="gpt-4o-mini"
    ).register_message_connector()

    if stream:
        replies = [message async for message in agent.stream(chat_history=HISTORY)]
    else:
        replies = [await agent.send(chat_history=HISTORY)]

    assert replies[-1].get_content() == "It is 18C and sunny in Paris."
    (sent,) = model.bodies()  # the request body exactly as the SDK sent it
    assert [message["role"] for message in sent["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
    ]
