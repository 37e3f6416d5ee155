"""AnthropicChatAgent over the real SDK and respx: request mapping, options and errors."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx
from anthropic.types import Message as AnthropicMessage

from llmbridge import (
    AuthenticationError,
    BadRequestError,
    FunctionContract,
    GenerateReplyOptions,
    InvalidMessageError,
    MessageEnvelope,
    ProviderAPIError,
    ProviderUnavailableError,
    RateLimitError,
    Role,
    TextMessage,
    UnsupportedMessageError,
    register_message_connector,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.testing import (
    anthropic_client,
    anthropic_error_response,
    anthropic_message,
    last_request_json,
)
from tests.anthropic.helpers import URL, text, user
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT

HI = MessageEnvelope({"role": "user", "content": [text("Hi")]})
WEATHER = FunctionContract(
    "get_weather",
    "Weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
NOW = FunctionContract("now")


def new_router() -> respx.Router:
    return respx.Router(assert_all_called=False)


def make_agent(router: respx.Router, **kwargs: Any) -> AnthropicChatAgent:
    return AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test", **kwargs)


async def sent_body(
    agent_kwargs: dict[str, Any], options: GenerateReplyOptions | None = None
) -> dict[str, Any]:
    router = new_router()
    route = router.post(URL).respond(json=anthropic_message("ok"))
    await make_agent(router, **agent_kwargs).generate_reply([HI], options)
    body: dict[str, Any] = last_request_json(route)
    assert_valid_request(body)
    return body


async def test_default_request_is_model_max_tokens_and_messages() -> None:
    assert await sent_body({}) == {
        "model": "claude-test",
        "max_tokens": 4096,
        "messages": [user(text("Hi"))],
    }


async def test_reply_is_an_envelope_of_the_sdk_message_from_the_agent() -> None:
    router = new_router()
    router.post(URL).respond(json=anthropic_message("Hello"))

    reply = await make_agent(router).generate_reply([HI])

    assert isinstance(reply, MessageEnvelope)
    assert isinstance(reply.content, AnthropicMessage)
    assert reply.from_ == AGENT


OPTIONS = [
    pytest.param({}, GenerateReplyOptions(max_tokens=100), {"max_tokens": 100}, id="max_tokens"),
    pytest.param({"max_tokens": 50}, None, {"max_tokens": 50}, id="constructor_max_tokens"),
    pytest.param({"temperature": 0.2}, None, {"temperature": 0.2}, id="constructor_temperature"),
    pytest.param(
        {"temperature": 0.2},
        GenerateReplyOptions(temperature=0.7),
        {"temperature": 0.7},
        id="options_temperature_wins",
    ),
    pytest.param(
        {},
        GenerateReplyOptions(stop_sequences=("END", "STOP")),
        {"stop_sequences": ["END", "STOP"]},
        id="stop_sequences",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="auto"),
        {"tool_choice": {"type": "auto"}},
        id="tool_choice_auto",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="none"),
        {"tool_choice": {"type": "none"}},
        id="tool_choice_none",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="required"),
        {"tool_choice": {"type": "any"}},
        id="tool_choice_required_is_any",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(tool_choice="get_weather"),
        {"tool_choice": {"type": "tool", "name": "get_weather"}},
        id="tool_choice_name_is_that_tool",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        None,
        {
            "tools": [
                {
                    "name": "get_weather",
                    "description": "Weather for a city.",
                    "input_schema": WEATHER.parameters,
                }
            ]
        },
        id="functions_become_tools_with_input_schema",
    ),
    pytest.param(
        {},
        GenerateReplyOptions(functions=[NOW]),
        {"tools": [{"name": "now", "input_schema": {"type": "object", "properties": {}}}]},
        id="function_without_parameters_takes_an_empty_object",
    ),
    pytest.param(
        {"top_k": 5},
        GenerateReplyOptions(extra={"top_p": 0.9, "metadata": {"user_id": "u1"}}),
        {"top_k": 5, "top_p": 0.9, "metadata": {"user_id": "u1"}},
        id="extra_settings_reach_the_body",
    ),
    pytest.param(
        {"thinking": {"type": "enabled", "budget_tokens": 1024}},
        None,
        {"thinking": {"type": "enabled", "budget_tokens": 1024}},
        id="constructor_create_kwargs",
    ),
]


@pytest.mark.parametrize(("agent_kwargs", "options", "expected"), OPTIONS)
async def test_options_map_to_the_request_body(
    agent_kwargs: dict[str, Any], options: GenerateReplyOptions | None, expected: dict[str, Any]
) -> None:
    body = await sent_body(agent_kwargs, options)

    assert {key: body[key] for key in expected} == expected


def test_settings_create_does_not_take_go_into_extra_body() -> None:
    agent = make_agent(new_router(), temperature=0.3, top_k=4, metadata={"user_id": "u"})

    arguments = agent.create_arguments(
        [HI], GenerateReplyOptions(extra={"top_p": 0.5, "extra_body": {"custom": 1}})
    )

    assert arguments["extra_body"] == {"custom": 1, "temperature": 0.3, "top_k": 4, "top_p": 0.5}
    assert arguments["metadata"] == {"user_id": "u"}
    assert "temperature" not in arguments


async def test_functions_combine_constructor_first_and_first_of_a_name_wins() -> None:
    other_weather = FunctionContract("get_weather", "another one")

    body = await sent_body(
        {"functions": [WEATHER]}, GenerateReplyOptions(functions=[other_weather, NOW])
    )

    assert [tool["name"] for tool in body["tools"]] == ["get_weather", "now"]
    assert body["tools"][0]["description"] == "Weather for a city."


async def test_system_message_comes_first_then_lifted_system_envelopes() -> None:
    router = new_router()
    route = router.post(URL).respond(json=anthropic_message("ok"))
    agent = make_agent(router, system_message="Be nice.")
    system = MessageEnvelope({"role": "system", "content": "Be brief."})

    await agent.generate_reply([system, HI])

    assert last_request_json(route)["system"] == [text("Be nice."), text("Be brief.")]


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(TextMessage(Role.USER, "Hi"), id="neutral_message"),
        pytest.param(MessageEnvelope("text"), id="envelope_of_non_dict"),
        pytest.param(MessageEnvelope({"role": "tool", "content": "x"}), id="unknown_role"),
    ],
)
async def test_agent_rejects_what_is_not_a_message_param(message: Any) -> None:
    with pytest.raises(UnsupportedMessageError, match="register_message_connector") as caught:
        await make_agent(new_router()).generate_reply([HI, message])

    assert caught.value.index == 1


async def test_agent_with_nothing_to_send_raises() -> None:
    with pytest.raises(InvalidMessageError):
        await make_agent(new_router()).generate_reply(
            [MessageEnvelope({"role": "system", "content": "only"})]
        )


STATUSES = [
    pytest.param(400, "invalid_request_error", BadRequestError, False, id="400_bad_request"),
    pytest.param(401, "authentication_error", AuthenticationError, False, id="401_auth"),
    pytest.param(403, "permission_error", AuthenticationError, False, id="403_auth"),
    pytest.param(404, "not_found_error", BadRequestError, False, id="404_bad_request"),
    pytest.param(408, "timeout_error", ProviderUnavailableError, True, id="408_unavailable"),
    pytest.param(409, "conflict_error", ProviderUnavailableError, True, id="409_unavailable"),
    pytest.param(413, "request_too_large", BadRequestError, False, id="413_bad_request"),
    pytest.param(422, "invalid_request_error", BadRequestError, False, id="422_bad_request"),
    pytest.param(429, "rate_limit_error", RateLimitError, True, id="429_rate_limit"),
    pytest.param(500, "api_error", ProviderUnavailableError, True, id="500_unavailable"),
    pytest.param(503, "api_error", ProviderUnavailableError, True, id="503_unavailable"),
    pytest.param(529, "overloaded_error", ProviderUnavailableError, True, id="529_overloaded"),
    pytest.param(402, "billing_error", ProviderAPIError, False, id="402_other_4xx"),
]


@pytest.mark.parametrize("stream", [False, True], ids=["reply", "stream_open"])
@pytest.mark.parametrize(("status", "error_type", "cls", "retryable"), STATUSES)
async def test_sdk_status_errors_map_to_the_error_tree(
    status: int, error_type: str, cls: type[ProviderAPIError], retryable: bool, stream: bool
) -> None:
    router = new_router()
    router.post(URL).mock(return_value=anthropic_error_response(status, error_type, "nope"))
    agent = make_agent(router)

    async def call() -> None:
        if stream:
            async for _ in agent.generate_streaming_reply([HI]):
                pass
        else:
            await agent.generate_reply([HI])

    with pytest.raises(cls) as caught:
        await call()

    error = caught.value
    assert type(error) is cls
    assert (error.provider, error.status_code, error.retryable) == ("anthropic", status, retryable)
    assert type(error.__cause__).__module__.startswith("anthropic")
    assert "nope" in str(error)


@pytest.mark.parametrize(
    ("headers", "retry_after"),
    [
        pytest.param({"retry-after": "7"}, 7.0, id="seconds"),
        pytest.param({"retry-after-ms": "1500", "retry-after": "9"}, 1.5, id="milliseconds_win"),
        pytest.param({"retry-after": "Thu, 01 Jan 1970 00:00:00 GMT"}, 0.0, id="past_http_date"),
        pytest.param({}, None, id="absent"),
    ],
)
async def test_rate_limit_error_carries_retry_after(
    headers: dict[str, str], retry_after: float | None
) -> None:
    router = new_router()
    router.post(URL).mock(
        return_value=anthropic_error_response(429, "rate_limit_error", headers=headers)
    )

    with pytest.raises(RateLimitError) as caught:
        await make_agent(router).generate_reply([HI])

    assert caught.value.retry_after == retry_after


@pytest.mark.parametrize(
    "raised",
    [
        pytest.param(httpx.ConnectError("refused"), id="connection_error"),
        pytest.param(httpx.ReadTimeout("slow"), id="timeout"),
    ],
)
async def test_connection_errors_and_timeouts_are_unavailable_and_retryable(
    raised: Exception,
) -> None:
    router = new_router()
    router.post(URL).mock(side_effect=raised)

    with pytest.raises(ProviderUnavailableError) as caught:
        await make_agent(router).generate_reply([HI])

    assert caught.value.status_code is None
    assert caught.value.retryable is True


async def test_api_key_never_appears_in_errors_or_reprs() -> None:
    secret = "sk-ant-secret-123"
    router = new_router()
    router.post(URL).mock(
        return_value=anthropic_error_response(401, "authentication_error", f"bad key {secret}")
    )
    agent = AnthropicChatAgent(
        anthropic_client(router, api_key=secret), name=AGENT, model="claude-test"
    )

    with pytest.raises(AuthenticationError) as caught:
        await agent.generate_reply([HI])

    for shown in (str(caught.value), repr(caught.value), repr(agent)):
        assert secret not in shown


def test_register_message_connector_uses_the_anthropic_connector_and_keeps_streaming() -> None:
    agent = make_agent(new_router())

    connected = agent.register_message_connector()
    also = register_message_connector(agent)

    assert isinstance(connected.middlewares[0], AnthropicMessageConnector)
    assert isinstance(also.middlewares[0], AnthropicMessageConnector)
    assert hasattr(connected, "generate_streaming_reply")
