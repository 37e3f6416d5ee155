"""OpenAIResponsesAgent over the real SDK and respx: inputs, options, exact bodies (API.md 14)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai
import pytest
import respx
from openai.types.responses import Response, ResponseStreamEvent

from llmbridge import (
    BadRequestError,
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
    ProviderAPIError,
    ProviderUnavailableError,
    RateLimitError,
    Role,
    TextMessage,
    UnsupportedMessageError,
)
from llmbridge.openai import OpenAIResponsesAgent, to_openai_responses
from llmbridge.testing import (
    openai_client,
    openai_response,
    openai_response_events,
    openai_responses_sse_response,
)
from tests.corpus import AGENT
from tests.openai_responses.wire import check_request_body

URL = "https://api.openai.com/v1/responses"
SECRET = "sk-proj-SECRETkey0123456789abcdef"
MODEL = "gpt-5-mini"
USER = MessageEnvelope({"role": "user", "content": "Hi"})
WEATHER = FunctionContract(
    "get_weather", "Weather of a city.", {"type": "object", "properties": {}}
)
TIME = FunctionContract("get_time")
STATELESS = {"model": MODEL, "store": False, "include": ["reasoning.encrypted_content"]}
WEATHER_TOOL = {
    "type": "function",
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {}},
    "strict": False,
    "description": "Weather of a city.",
}
TIME_TOOL = {
    "type": "function",
    "name": "get_time",
    "parameters": {"type": "object", "properties": {}},
    "strict": False,
}


def make_agent(router: respx.Router, **kwargs: Any) -> OpenAIResponsesAgent:
    client = openai_client(router, api_key=SECRET)
    return OpenAIResponsesAgent(client, name=AGENT, model=MODEL, **kwargs)


def bodies(route: respx.Route, *, extra_keys: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every body the SDK sent on ``route``, each checked by the strict Responses validator."""
    sent = [json.loads(call.request.content) for call in route.calls]
    for body in sent:
        check_request_body(body, extra_keys=extra_keys)
    return sent


async def body_of(
    kwargs: dict[str, Any],
    options: GenerateReplyOptions | None = None,
    messages: list[Message] | None = None,
    *,
    extra_keys: tuple[str, ...] = (),
) -> dict[str, Any]:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).respond(json=openai_response("ok"))
    reply = await make_agent(router, **kwargs).generate_reply(messages or [USER], options)
    assert isinstance(reply, MessageEnvelope)
    assert isinstance(reply.content, Response)
    assert reply.from_ == AGENT
    (body,) = bodies(route, extra_keys=extra_keys)
    return body


OPTION_CASES = [
    pytest.param({}, None, STATELESS, id="stateless_by_default"),
    pytest.param(
        {"system_message": "Be nice.", "temperature": 0.2, "max_output_tokens": 50},
        None,
        {**STATELESS, "instructions": "Be nice.", "temperature": 0.2, "max_output_tokens": 50},
        id="system_message_is_instructions_and_constructor_settings",
    ),
    pytest.param(
        {"temperature": 0.2, "max_output_tokens": 50},
        GenerateReplyOptions(temperature=0.9, max_tokens=10),
        {**STATELESS, "temperature": 0.9, "max_output_tokens": 10},
        id="per_call_options_win_and_max_tokens_is_max_output_tokens",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(functions=[TIME, FunctionContract("get_weather", "dup")]),
        {**STATELESS, "tools": [WEATHER_TOOL, TIME_TOOL]},
        id="flat_tools_with_strict_false_constructor_first",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="get_weather"),
        {
            **STATELESS,
            "tools": [WEATHER_TOOL],
            "tool_choice": {"type": "function", "name": "get_weather"},
        },
        id="tool_choice_naming_a_function_is_flat",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="required"),
        {**STATELESS, "tools": [WEATHER_TOOL], "tool_choice": "required"},
        id="tool_choice_mode",
    ),
    pytest.param(
        {}, GenerateReplyOptions(tool_choice="auto"), STATELESS, id="auto_without_tools_left_out"
    ),
    pytest.param(
        {"include": ["message.output_text.logprobs"]},
        None,
        {**STATELESS, "include": ["message.output_text.logprobs", "reasoning.encrypted_content"]},
        id="include_given_keeps_encrypted_content",
    ),
    pytest.param(
        {},
        GenerateReplyOptions(extra={"include": [], "reasoning": {"effort": "low"}}),
        {**STATELESS, "reasoning": {"effort": "low"}},
        id="extra_keywords_and_include_per_call",
    ),
    pytest.param(
        {"store": True},
        None,
        {**STATELESS, "store": True},
        id="store_true_still_asks_for_encrypted_reasoning",
    ),
]


@pytest.mark.parametrize(("kwargs", "options", "expected"), OPTION_CASES)
async def test_settings(
    kwargs: dict[str, Any], options: GenerateReplyOptions | None, expected: dict[str, Any]
) -> None:
    body = await body_of(kwargs, options)

    assert body == {**expected, "input": [USER.content]}


async def test_extra_settings_the_sdk_does_not_take_go_in_the_body() -> None:
    options = GenerateReplyOptions(extra={"vendor_flag": True})
    body = await body_of({}, options, extra_keys=("vendor_flag",))

    assert body["vendor_flag"] is True


@pytest.mark.parametrize(
    ("kwargs", "options", "match"),
    [
        pytest.param(
            {}, GenerateReplyOptions(stop_sequences=["END"]), "no stop sequences", id="stop"
        ),
        pytest.param({"input": []}, None, "'input' is set by", id="input_reserved"),
        pytest.param({"instructions": "x"}, None, "'instructions' is set by", id="instructions"),
        pytest.param({}, GenerateReplyOptions(extra={"model": "x"}), "'model'", id="model"),
        pytest.param({}, GenerateReplyOptions(tool_choice="get_time"), "needs tools", id="choice"),
    ],
)
async def test_settings_refused_before_anything_is_sent(
    kwargs: dict[str, Any], options: GenerateReplyOptions | None, match: str
) -> None:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).respond(json=openai_response("ok"))
    with pytest.raises(ValueError, match=match):
        await make_agent(router, **kwargs).generate_reply([USER], options)
    assert not route.called


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(TextMessage(Role.USER, "Hi"), id="neutral_text"),
        pytest.param(MessageEnvelope("Hi"), id="envelope_of_a_string"),
    ],
)
async def test_anything_but_envelopes_of_item_dicts_is_refused(message: Message) -> None:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).respond(json=openai_response("ok"))
    with pytest.raises(UnsupportedMessageError, match="register_message_connector") as caught:
        await make_agent(router).generate_reply([USER, message])
    assert caught.value.index == 1
    assert not route.called


def test_a_sync_client_is_refused() -> None:
    with pytest.raises(TypeError, match="async client"):
        OpenAIResponsesAgent(openai.OpenAI(api_key=SECRET), name=AGENT, model=MODEL)  # type: ignore[arg-type]


async def test_a_converted_conversation_is_sent_as_its_input_items() -> None:
    request = to_openai_responses(
        [TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "Hi")], agent_name=AGENT
    )
    envelopes: list[Message] = [MessageEnvelope(item) for item in request.input]
    body = await body_of({"system_message": "Own."}, messages=envelopes)

    assert body["instructions"] == "Own."
    assert body["input"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]


async def test_streaming_sends_stream_true_and_yields_every_event() -> None:
    router = respx.Router(assert_all_called=False)
    events = openai_response_events(openai_response("Hello there."))
    route = router.post(URL).mock(return_value=openai_responses_sse_response(events))
    received = [item async for item in make_agent(router).generate_streaming_reply([USER])]

    (body,) = bodies(route)
    assert body == {**STATELESS, "input": [USER.content], "stream": True}
    assert [item.content.type for item in received] == [event["type"] for event in events]
    assert all(isinstance(item, MessageEnvelope) and item.from_ == AGENT for item in received)
    assert all(isinstance(item.content, ResponseStreamEvent.__args__) for item in received)  # type: ignore[attr-defined]


async def _drain(agent: OpenAIResponsesAgent) -> list[Any]:
    return [item async for item in agent.generate_streaming_reply([USER])]


@pytest.mark.parametrize(
    ("status", "error"),
    [
        pytest.param(429, RateLimitError, id="429_rate_limit"),
        pytest.param(400, BadRequestError, id="400_bad_request"),
        pytest.param(503, ProviderUnavailableError, id="503_unavailable"),
    ],
)
@pytest.mark.parametrize("streaming", [False, True], ids=["create", "stream"])
async def test_api_errors_are_mapped(
    status: int, error: type[ProviderAPIError], streaming: bool
) -> None:
    router = respx.Router(assert_all_called=False)
    payload = {"error": {"message": "nope", "type": "invalid_request_error", "code": None}}
    router.post(URL).mock(return_value=httpx.Response(status, json=payload))
    agent = OpenAIResponsesAgent(
        openai_client(router, api_key=SECRET, max_retries=0), name=AGENT, model=MODEL
    )
    with pytest.raises(error) as caught:
        await (_drain(agent) if streaming else agent.generate_reply([USER]))
    assert caught.value.status_code == status
    assert SECRET not in str(caught.value)
    assert isinstance(caught.value.__cause__, openai.APIStatusError)
