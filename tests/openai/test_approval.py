"""Approval snapshots: the shared corpus through to_openai, and an exact request body the SDK sent.

Review ``snapshots/openai/test_approval/`` like code: each payload must be what API.md 4.1
says, and every one of them has passed the strict wire validator before being pinned.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
    Message,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import openai_client, openai_completion
from tests.corpus import AGENT, CORPUS, PNG
from tests.openai.helpers import CHAT_URL, convert, new_router, sent_bodies


def converted(message: Message, *, strict_mode: bool) -> dict[str, Any]:
    try:
        request = convert([message], strict_mode=strict_mode, check_pairing=False)
    except LLMBridgeError as error:
        return {"error": f"{type(error).__name__}: {error}"}
    return {
        "messages": request.messages,
        "notes": [f"{note.index} {note.kind}: {note.detail}" for note in request.notes],
    }


def test_corpus_converts_as_approved(snapshot: Any) -> None:
    assert len(CORPUS) >= 15
    result = {}
    for name, message in CORPUS.items():
        lenient = converted(message, strict_mode=False)
        strict = converted(message, strict_mode=True)
        # Most rows convert alike in both modes; only the differences are spelled out twice.
        result[name] = {"lenient": lenient, "strict": "same" if strict == lenient else strict}

    assert result == snapshot


WEATHER = FunctionContract(
    "get_weather",
    "Current weather of a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)

CONVERSATION: list[Message] = [
    TextMessage(Role.SYSTEM, "Answer in one sentence."),
    TextMessage(Role.USER, "What is the weather in Paris and Rome?", "Zoë"),
    ToolCallAggregateMessage(
        ToolCallMessage(
            [
                ToolCall("get_weather", '{"city": "Paris"}'),
                ToolCall("get_weather", '{"city": "Rome"}'),
            ],
            AGENT,
            reasoning=[Reasoning("Two cities, two calls.", provider="openai")],
        ),
        ToolCallResultMessage(
            [
                ToolCall("get_weather", '{"city": "Paris"}', result="18C, sunny"),
                ToolCall("get_weather", '{"city": "Rome"}', result="24C, clear"),
            ]
        ),
        AGENT,
    ),
    TextMessage(Role.ASSISTANT, "Paris: 18C and sunny; Rome: 24C and clear.", AGENT),
    MultiModalMessage(
        Role.USER,
        [TextMessage(Role.USER, "And where was this taken?"), ImageMessage(Role.USER, data=PNG)],
        "Zoë",
    ),
    ToolCallMessage(
        [ToolCall("get_weather", '{"city": "Paris"}')], AGENT, content="Let me check again."
    ),
    TextMessage(Role.USER, "Also, is it raining?", "critic"),
    ToolCallResultMessage([ToolCall("get_weather", '{"city": "Paris"}', result="18C, dry")]),
    ImageMessage(
        Role.USER, "data:image/png;base64," + base64.b64encode(PNG).decode(), detail="low"
    ),
]


async def test_multi_turn_request_body_sent_by_the_sdk_is_as_approved(snapshot: Any) -> None:
    router = new_router()
    route = router.post(CHAT_URL).respond(json=openai_completion("It looks like Paris."))
    agent = OpenAIChatAgent(
        openai_client(router),
        name=AGENT,
        model="gpt-4o-mini",
        system_message="You are a weather assistant.",
        temperature=0.3,
        functions=[WEATHER],
    ).register_message_connector()

    reply = await agent.send(
        chat_history=CONVERSATION,
        options=GenerateReplyOptions(max_tokens=200, tool_choice="auto", stop_sequences=["\n\n"]),
    )

    assert reply.get_content() == "It looks like Paris."
    (body,) = sent_bodies(route)
    assert body == snapshot


def test_multi_turn_conversation_is_refused_in_strict_mode_for_its_lossy_names() -> None:
    with pytest.raises(InvalidMessageError) as caught:
        convert(CONVERSATION, strict_mode=True)

    assert (caught.value.index, caught.value.field) == (1, "from_")
