"""Bugs the cross-provider histories (tests/handoff) found in this wing, each a minimal history."""

from __future__ import annotations

from dataclasses import replace

from llmbridge import Reasoning, Role, TextMessage, ToolCall, ToolCallMessage, ToolCallResultMessage
from llmbridge.openai import to_openai_responses
from tests.corpus import AGENT
from tests.openai_responses.wire import check_input

OWN = {"openai-responses": {"id": "fc_1"}}


def test_a_reply_whose_call_ids_are_made_unique_keeps_its_item_ids_and_reasoning() -> None:
    # Another provider's turn used call_1 first (a scripted or handed-over history): the
    # repair suffixes this reply's id; it used to rebuild the message without provider_data,
    # so the message item lost msg_1 and the reasoning before it was left out.
    earlier = ToolCall("f", "{}", tool_call_id="call_1")
    call = ToolCall("f", "{}", tool_call_id="call_1", provider_data=OWN)
    reasoning = Reasoning(
        "think",
        signature="enc",
        provider="openai-responses",
        provider_data={"openai-responses": {"id": "rs_1", "summary": ["think"], "before": "msg_1"}},
    )
    reply = ToolCallMessage(
        [call],
        AGENT,
        content="Checking.",
        reasoning=[reasoning],
        provider_data={"openai-responses": {"id": "msg_1"}},
    )
    messages = [
        TextMessage(Role.USER, "Hi"),
        ToolCallMessage([earlier], AGENT),
        ToolCallResultMessage([replace(earlier, result="x")]),
        TextMessage(Role.USER, "Again"),
        reply,
        ToolCallResultMessage([replace(call, result="ok")]),
    ]

    request = to_openai_responses(messages, agent_name=AGENT)

    check_input(request.input)
    assert [item.get("id") for item in request.input[4:7]] == ["rs_1", "msg_1", "fc_1"]
    assert request.input[6]["call_id"] == "call_1_1"
    assert [note.kind for note in request.notes] == ["repaired"]
