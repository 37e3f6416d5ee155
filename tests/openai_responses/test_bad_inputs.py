"""The bad inputs R1-R11 the Responses API rejects: llmbridge never produces them.

One test per row: the neutral conversation that would lead there, and what llmbridge does
instead (a typed error naming the index, or the documented repair with its note); every
input sent goes through the strict validator. A property test closes the gap over generated
conversations, through the real SDK client.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
import respx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.openai import OpenAIResponsesAgent, OpenAIResponsesRequest, to_openai_responses
from llmbridge.testing import openai_client, openai_response
from tests.corpus import AGENT
from tests.openai_responses.test_import import responses_conversations
from tests.openai_responses.wire import check_input, check_request_body
from tests.strategies import conversations

TAG = "openai-responses"
USER = TextMessage(Role.USER, "Go")
CALL = ToolCall("f", "{}", tool_call_id="call_1", provider_data={TAG: {"id": "fc_1"}})
ANSWER = ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="call_1", result="ok")])
SIGNED = Reasoning("Think.", signature="enc", provider=TAG, provider_data={TAG: {"id": "rs_1"}})


def sent(messages: list[Message]) -> OpenAIResponsesRequest:
    request = to_openai_responses(messages, agent_name=AGENT)
    check_input(request.input)
    return request


def kinds(request: OpenAIResponsesRequest) -> list[str]:
    return [item.get("type", "message") for item in request.input]


def notes(request: OpenAIResponsesRequest, kind: str) -> list[str]:
    return [note.detail for note in request.notes if note.kind == kind]


@pytest.mark.parametrize("result", [None, "missing"], ids=["result None", "no result message"])
def test_R1_a_call_without_output_is_an_error_naming_the_call(result: str | None) -> None:
    messages: list[Message] = [USER, ToolCallMessage([CALL], AGENT)]
    if result is None:
        messages.append(ToolCallResultMessage([CALL]))
    with pytest.raises(InvalidMessageError, match="not answered") as caught:
        to_openai_responses(messages, agent_name=AGENT)
    assert caught.value.index == 1


def test_R2_an_output_without_call_is_an_error_naming_the_result() -> None:
    with pytest.raises(InvalidMessageError, match="answers no call") as caught:
        to_openai_responses([USER, ANSWER], agent_name=AGENT)
    assert caught.value.index == 1


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            ToolCallMessage([replace(CALL, provider_data={})], AGENT, reasoning=(SIGNED,)),
            id="call without its fc id",
        ),
        pytest.param(
            ToolCallMessage(
                [CALL],
                AGENT,
                content="Hm.",
                reasoning=(
                    replace(SIGNED, provider_data={TAG: {"id": "rs_1", "before": "msg_gone"}}),
                ),
            ),
            id="the item it preceded is gone: placed first, before a text without id",
        ),
    ],
)
def test_R3_reasoning_is_sent_only_before_an_item_with_its_own_id(message: Message) -> None:
    request = sent([USER, message, ANSWER])

    assert "reasoning" not in kinds(request)
    assert any("no item with its own id follows it" in note for note in notes(request, "omitted"))


def test_R3_reasoning_of_a_text_left_empty_is_not_sent() -> None:
    text = TextMessage(Role.ASSISTANT, " ", AGENT, reasoning=(SIGNED,))
    request = sent([USER, text, TextMessage(Role.USER, "More")])

    assert kinds(request) == ["message", "message"]


def test_R4_an_item_whose_reasoning_cannot_be_sent_goes_without_its_id() -> None:
    unsigned = replace(SIGNED, signature=None)
    request = sent([USER, ToolCallMessage([CALL], AGENT, reasoning=(unsigned,)), ANSWER])

    assert request.input[1] == {
        "type": "function_call",
        "call_id": "call_1",
        "name": "f",
        "arguments": "{}",
    }
    assert any("sent without its id" in note for note in notes(request, "omitted"))


@pytest.mark.parametrize(
    ("item_id", "rule"),
    [
        ("item_1", "R5 a foreign prefix"),
        ("call_1", "R5 a call id as item id"),
        ("msg_1", "R5 a message id on a call"),
        ("fc_a.b", "R6 characters outside [A-Za-z0-9_-]"),
        ("fc_", "R6 nothing after the prefix"),
    ],
    ids=lambda value: str(value),
)
def test_R5_R6_an_item_id_the_api_refuses_is_not_sent(item_id: str, rule: str) -> None:
    call = replace(CALL, provider_data={TAG: {"id": item_id}})
    request = sent([USER, ToolCallMessage([call], AGENT), ANSWER])

    assert "id" not in request.input[1], rule
    assert notes(request, "omitted") == [f"item id {item_id!r} is not a fc_ id: not sent"]


def test_R5_ids_of_other_providers_are_never_read() -> None:
    call = replace(CALL, provider_data={"anthropic": {"id": "fc_9"}, "openai": {"id": "fc_8"}})
    request = sent([USER, ToolCallMessage([call], AGENT), ANSWER])

    assert "id" not in request.input[1]


async def test_R7_stateless_requests_never_replay_what_only_the_server_holds() -> None:
    unsigned = replace(SIGNED, signature=None)
    messages: list[Message] = [
        USER,
        ToolCallMessage([CALL], AGENT, reasoning=(unsigned,)),
        ANSWER,
        TextMessage(
            Role.ASSISTANT,
            "Done.",
            AGENT,
            reasoning=(SIGNED,),
            provider_data={TAG: {"id": "msg_1"}},
        ),
    ]
    request = sent(messages)
    router = respx.Router(assert_all_called=False)
    route = router.post("https://api.openai.com/v1/responses").respond(json=openai_response("ok"))
    agent = OpenAIResponsesAgent(openai_client(router), name=AGENT, model="gpt-5-mini")
    await agent.generate_reply([MessageEnvelope(item) for item in request.input])

    (call,) = route.calls
    body = json.loads(call.request.content)
    check_request_body(body)  # R7: store=false with every reasoning item carrying its content
    assert body["store"] is False
    assert [item["id"] for item in body["input"] if item.get("type") == "reasoning"] == ["rs_1"]


def test_R8_an_item_id_is_sent_once() -> None:
    reply = ToolCallMessage([CALL], AGENT, reasoning=(SIGNED,))
    request = sent([USER, reply, ANSWER, TextMessage(Role.USER, "Again"), reply, ANSWER])

    ids = [item["id"] for item in request.input if "id" in item]
    assert ids == ["rs_1", "fc_1"]
    assert kinds(request).count("reasoning") == 1


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(TextMessage(Role.ASSISTANT, "Hi.", AGENT), id="own text"),
        pytest.param(TextMessage(Role.ASSISTANT, "Hi."), id="assistant text without sender"),
        pytest.param(ToolCallMessage([CALL], AGENT, content="Hi."), id="text beside calls"),
    ],
)
def test_R9_assistant_content_is_never_input_text(message: Message) -> None:
    messages: list[Message] = [USER, message]
    if isinstance(message, ToolCallMessage):
        messages.append(ANSWER)
    request = sent(messages)

    assistant = request.input[1]
    assert assistant["role"] == "assistant"
    assert isinstance(assistant["content"], str)


def test_R9_multimodal_content_from_the_agent_itself_is_an_error() -> None:
    message = MultiModalMessage(Role.USER, [TextMessage(Role.USER, "x")], AGENT)
    with pytest.raises(InvalidMessageError) as caught:
        to_openai_responses([USER, message], agent_name=AGENT)
    assert (caught.value.index, caught.value.field) == (1, "from_")


def test_R10_every_reasoning_item_has_a_summary() -> None:
    empty = replace(SIGNED, text="", provider_data={TAG: {"id": "rs_1", "before": "fc_1"}})
    request = sent([USER, ToolCallMessage([CALL], AGENT, reasoning=(empty,)), ANSWER])

    assert request.input[1]["summary"] == []


async def test_R11_tools_are_flat_with_strict_explicit() -> None:
    router = respx.Router(assert_all_called=False)
    route = router.post("https://api.openai.com/v1/responses").respond(json=openai_response("ok"))
    agent = OpenAIResponsesAgent(openai_client(router), name=AGENT, model="gpt-5-mini")
    options = GenerateReplyOptions(functions=[FunctionContract("f")], tool_choice="f")
    await agent.generate_reply([MessageEnvelope({"role": "user", "content": "Hi"})], options)

    (call,) = route.calls
    body = json.loads(call.request.content)
    check_request_body(body)
    assert body["tools"] == [
        {
            "type": "function",
            "name": "f",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        }
    ]
    assert body["tool_choice"] == {"type": "function", "name": "f"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    conversation=st.one_of(conversations(envelopes=False), responses_conversations()),
    strict_mode=st.booleans(),
    name_policy=st.sampled_from(["drop", "prefix"]),
)
def test_no_conversation_produces_an_input_the_validator_refuses(
    conversation: list[Message], strict_mode: bool, name_policy: str
) -> None:
    try:
        request = to_openai_responses(
            conversation,
            agent_name=AGENT,
            strict_mode=strict_mode,
            name_policy=name_policy,  # type: ignore[arg-type]
        )
    except (InvalidMessageError, UnsupportedMessageError) as error:
        index = error.index
        assert index is None or 0 <= index < len(conversation)
        return
    check_request_body(
        {
            "model": "m",
            "input": request.input,
            "store": False,
            "include": ["reasoning.encrypted_content"],
        }
    )
