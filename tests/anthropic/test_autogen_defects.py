"""Each defect of AutoGen.NET's Anthropic connector (research/autogen-dotnet.md section 4) is
absent here: real ids kept, parallel calls kept together, image URLs never downloaded, inputs
never mutated, thinking never lost (plus the smaller ones noted there)."""

from __future__ import annotations

import copy
from typing import Any

import respx
from anthropic.types import Message as AnthropicMessage

from llmbridge import (
    GenerateReplyOptions,
    ImageMessage,
    MessageEnvelope,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import AnthropicChatAgent, from_anthropic
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
from tests.anthropic.helpers import URL, convert, stream_final
from tests.corpus import AGENT

TWO_CALLS_OF_ONE_TOOL = anthropic_message(
    [
        anthropic_text_block("Checking two cities."),
        anthropic_tool_use_block("toolu_A", "get_weather", {"city": "Paris"}),
        anthropic_tool_use_block("toolu_B", "get_weather", {"city": "Rome"}),
    ],
    stop_reason="tool_use",
)


def connected(router: respx.Router) -> Any:
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    return agent.register_message_connector()


def test_real_tool_ids_are_kept_outbound_and_inbound() -> None:
    reply = from_anthropic(AnthropicMessage.model_validate(TWO_CALLS_OF_ONE_TOOL), agent_name=AGENT)
    assert isinstance(reply, ToolCallMessage)
    results = ToolCallResultMessage(
        [
            ToolCall("get_weather", "{}", tool_call_id="toolu_A", result="sunny"),
            ToolCall("get_weather", "{}", tool_call_id="toolu_B", result="rain"),
        ]
    )

    request = convert([TextMessage(Role.USER, "weather?"), reply, results])

    assert [call.tool_call_id for call in reply.tool_calls] == ["toolu_A", "toolu_B"]
    assert [block["id"] for block in request.messages[1]["content"][1:]] == ["toolu_A", "toolu_B"]
    assert [block["tool_use_id"] for block in request.messages[2]["content"]] == [
        "toolu_A",
        "toolu_B",
    ]


def test_parallel_calls_and_their_text_stay_in_one_message_every_way() -> None:
    reply = from_anthropic(AnthropicMessage.model_validate(TWO_CALLS_OF_ONE_TOOL), agent_name=AGENT)
    streamed = stream_final(TWO_CALLS_OF_ONE_TOOL)

    request = convert([reply], check_pairing=False)

    assert isinstance(reply, ToolCallMessage)
    assert reply.content == "Checking two cities."
    assert len(reply.tool_calls) == 2
    assert streamed == reply
    assert len(request.messages) == 1
    assert [block["type"] for block in request.messages[0]["content"]] == [
        "text",
        "tool_use",
        "tool_use",
    ]


async def test_image_urls_are_never_downloaded() -> None:
    router = respx.Router()  # every request must match a route: an unmocked GET fails loudly
    image_route = router.get("https://example.com/cat.png").respond(content=b"never")
    messages_route = router.post(URL).respond(json=anthropic_message("A cat."))

    await connected(router).send(ImageMessage(Role.USER, "https://example.com/cat.png"))

    assert not image_route.called
    assert messages_route.call_count == 1
    assert last_request_json(messages_route)["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
    ]


async def test_inputs_are_never_mutated_by_the_connected_agent() -> None:
    raw_user = {"role": "user", "content": [{"type": "text", "text": "raw"}]}
    history = [
        TextMessage(Role.SYSTEM, "sys"),
        MessageEnvelope(raw_user),
        TextMessage(Role.ASSISTANT, "noted", AGENT),
        TextMessage(Role.USER, "more"),
        MessageEnvelope({"role": "system", "content": [{"type": "text", "text": "raw sys"}]}),
        TextMessage(Role.USER, "and more"),
    ]
    options = GenerateReplyOptions(extra={"metadata": {"user_id": "u"}}, stop_sequences=["X"])
    before = (copy.deepcopy(history), copy.deepcopy(options))
    router = respx.Router(assert_all_called=False)
    router.post(URL).mock(
        side_effect=[
            respx.MockResponse(json=anthropic_message("ok")),
            anthropic_sse_response(anthropic_stream_events(anthropic_message("ok"))),
        ]
    )
    agent = connected(router)

    await agent.send(chat_history=history, options=options)
    async for _ in agent.stream(chat_history=history, options=options):
        pass

    assert (history, options) == before


def test_thinking_survives_a_round_trip_unmodified_and_first() -> None:
    blocks = [
        anthropic_thinking_block("Step 1, step 2.", "sig-Zx9"),
        anthropic_text_block("I'll look it up."),
        anthropic_tool_use_block("toolu_1", "search", {"q": "x"}),
    ]
    reply = from_anthropic(
        AnthropicMessage.model_validate(anthropic_message(blocks, stop_reason="tool_use")),
        agent_name=AGENT,
    )

    request = convert([reply], check_pairing=False)

    assert request.messages[0]["content"] == blocks


def test_tool_without_arguments_works_when_streamed() -> None:
    body = anthropic_message([anthropic_tool_use_block("toolu_1", "now")], stop_reason="tool_use")
    final = stream_final(body)

    assert final.get_tool_calls() == [ToolCall("now", "{}", tool_call_id="toolu_1")]


def test_stop_reason_and_cache_usage_are_kept() -> None:
    body = anthropic_message("hi", stop_reason="max_tokens", cache_read_input_tokens=40)

    reply = from_anthropic(AnthropicMessage.model_validate(body), agent_name=AGENT)

    assert reply.finish_reason == "length"
    assert reply.usage is not None
    assert reply.usage.cache_read_tokens == 40
