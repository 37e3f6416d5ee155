"""A call's ``namespace``, ``caller`` and ``async`` go back to Responses with it (issue 26,
defect 11): the API answers a replayed call without its namespace with 400 "Missing namespace
for function_call", and the SDK models all three on ``ResponseFunctionToolCall``."""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import ToolCall, ToolCallMessage, ToolCallResultMessage
from llmbridge.openai import (
    OpenAIResponsesStreamAggregator,
    from_openai_responses,
    from_openai_responses_input,
    to_openai_responses,
)
from llmbridge.testing import openai_response, openai_response_events, openai_response_function_call
from tests.openai_responses.sdk import fetched, streamed
from tests.openai_responses.wire import check_input

AGENT = "assistant"
TAG = "openai-responses"
CONTEXTS: dict[str, dict[str, Any]] = {
    "namespace": {"namespace": "weather"},
    "program_caller": {"caller": {"type": "program", "caller_id": "call_prog"}},
    "direct_caller_and_async": {"caller": {"type": "direct"}, "async": True},
    "all_three": {
        "namespace": "weather",
        "caller": {"type": "program", "caller_id": "call_prog"},
        "async": False,
    },
}


def _call_item(context: dict[str, Any]) -> dict[str, Any]:
    item = openai_response_function_call("get_weather", '{"city":"Paris"}', call_id="call_1")
    return {**item, **context}


def _answered(message: ToolCallMessage) -> list[Any]:
    (call,) = message.tool_calls
    result = ToolCall(
        call.function_name, call.function_arguments, tool_call_id="call_1", result="sunny"
    )
    return [message, ToolCallResultMessage([result])]


@pytest.mark.parametrize("context", CONTEXTS.values(), ids=CONTEXTS.keys())
async def test_a_replied_calls_context_is_kept_and_sent_back(context: dict[str, Any]) -> None:
    response = await fetched(openai_response([_call_item(context)]))

    reply = from_openai_responses(response, agent_name=AGENT)
    assert isinstance(reply, ToolCallMessage)
    assert reply.tool_calls[0].provider_data[TAG] == {"id": "fc_call_1", **context}
    sent = to_openai_responses(_answered(reply), agent_name=AGENT).input
    check_input(sent)
    assert sent[0] == {
        "type": "function_call",
        "id": "fc_call_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city":"Paris"}',
        **context,
    }


@pytest.mark.parametrize("context", CONTEXTS.values(), ids=CONTEXTS.keys())
def test_an_imported_calls_context_round_trips(context: dict[str, Any]) -> None:
    item = {k: v for k, v in _call_item(context).items() if k != "status"}
    items = [item, {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}]

    messages = from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)

    assert to_openai_responses(messages, agent_name=AGENT).input == items


@pytest.mark.parametrize("output", ["full", "empty"], ids=["terminal_output", "done_items"])
@pytest.mark.parametrize("context", CONTEXTS.values(), ids=CONTEXTS.keys())
async def test_a_streamed_calls_context_equals_the_replied_one(
    context: dict[str, Any], output: Any
) -> None:
    body = openai_response([_call_item(context)])
    aggregator = OpenAIResponsesStreamAggregator(AGENT)
    for event in await streamed(openai_response_events(body, terminal_output=output)):
        aggregator.add(event)

    streamed_reply = aggregator.finish()
    assert streamed_reply == from_openai_responses(await fetched(body), agent_name=AGENT)
    assert isinstance(streamed_reply, ToolCallMessage)
    assert streamed_reply.tool_calls[0].provider_data[TAG] == {"id": "fc_call_1", **context}
