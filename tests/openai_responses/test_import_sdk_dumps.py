"""Output items replayed as the SDK returns them import like their minimal form (issue 26,
defect 14): a history often holds ``response.output`` dumped with ``model_dump``, with its null
fields, item ``status`` and output-text ``logprobs``, and the API accepts it back."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from openai.types.responses import Response

from llmbridge import Message, MessageEnvelope, ToolCall, ToolCallMessage, ToolCallResultMessage
from llmbridge.openai import from_openai_responses, from_openai_responses_input, to_openai_responses
from llmbridge.testing import (
    openai_response,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
)

AGENT = "assistant"
REPLIES: dict[str, list[dict[str, Any]]] = {
    "text": [openai_response_message("Hello", item_id="msg_1")],
    "reasoning_then_text": [
        openai_response_reasoning("thinking", item_id="rs_1"),
        openai_response_message("Hello", item_id="msg_1"),
    ],
    "reasoning_then_calls": [
        openai_response_reasoning("thinking", item_id="rs_1"),
        openai_response_function_call("get_weather", '{"city":"Paris"}', call_id="call_1"),
        openai_response_function_call("get_time", "{}", call_id="call_2"),
    ],
    "text_then_call": [
        openai_response_message("Let me look.", item_id="msg_1"),
        openai_response_function_call("get_weather", '{"city":"Paris"}', call_id="call_1"),
    ],
}


def _answered(reply: Message) -> list[Message]:
    """``reply`` and, when it has calls, a result for each (a history must answer them)."""
    if not isinstance(reply, ToolCallMessage):
        return [reply]
    results = [
        ToolCall(
            call.function_name, call.function_arguments, tool_call_id=call.tool_call_id, result="ok"
        )
        for call in reply.tool_calls
    ]
    return [reply, ToolCallResultMessage(results)]


def _outputs(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"type": "function_call_output", "call_id": item["call_id"], "output": "ok"}
        for item in output
        if item["type"] == "function_call"
    ]


DUMPS: dict[str, dict[str, Any]] = {
    "model_dump": {"mode": "json"},
    "exclude_none": {"mode": "json", "exclude_none": True},
    "by_alias": {"mode": "json", "by_alias": True},
}


@pytest.mark.parametrize("dump", DUMPS.values(), ids=DUMPS.keys())
@pytest.mark.parametrize("output", REPLIES.values(), ids=REPLIES.keys())
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_sdk_dumped_output_items_import_as_the_reply_they_came_from(
    output: list[dict[str, Any]], dump: dict[str, Any], strict_mode: bool
) -> None:
    response = Response.model_validate(openai_response(output))
    items = [item.model_dump(**dump) for item in response.output] + _outputs(output)
    before = copy.deepcopy(items)

    imported = from_openai_responses_input(items, agent_name=AGENT, strict_mode=strict_mode)

    assert not any(isinstance(message, MessageEnvelope) for message in imported)
    reply = from_openai_responses(response, agent_name=AGENT)
    assert (
        to_openai_responses(imported, agent_name=AGENT).input
        == to_openai_responses(_answered(reply), agent_name=AGENT).input
    )
    assert items == before


def test_a_dumped_user_message_with_its_type_imports_as_text() -> None:
    item = {"type": "message", "role": "user", "content": "hi", "status": None}

    assert from_openai_responses_input([item], agent_name=AGENT, strict_mode=True) == (
        from_openai_responses_input([{"role": "user", "content": "hi"}], agent_name=AGENT)
    )
