"""OpenAIChatAgent over the real SDK and respx: inputs, options, errors (API.md 6 and 9)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from llmbridge import (
    AuthenticationError,
    BadRequestError,
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
    MiddlewareStreamingAgent,
    ProviderAPIError,
    ProviderUnavailableError,
    RateLimitError,
    Role,
    TextMessage,
    UnsupportedMessageError,
    register_message_connector,
)
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import (
    openai_client,
    openai_completion,
    openai_error_event,
    openai_sse_response,
    openai_text_chunks,
)
from tests.openai.helpers import CHAT_URL, drain, new_router, sent_bodies

SECRET = "sk-proj-SECRETkey0123456789abcdef"
USER = MessageEnvelope({"role": "user", "content": "Hi"})
WEATHER = FunctionContract(
    "get_weather", "Weather of a city.", {"type": "object", "properties": {}}
)
TIME = FunctionContract("get_time")


def make_agent(router: Any, **kwargs: Any) -> OpenAIChatAgent:
    return OpenAIChatAgent(
        openai_client(router, api_key=SECRET), name="assistant", model="gpt-4o-mini", **kwargs
    )


async def body_of(
    kwargs: dict[str, Any],
    options: GenerateReplyOptions | None = None,
    messages: list[Message] | None = None,
) -> dict[str, Any]:
    body_keys = [*kwargs, *(options.extra or {} if options else {})]
    extra_keys = [key for key in body_keys if "vendor" in key]
    router = new_router(extra_keys=extra_keys)
    route = router.post(CHAT_URL).respond(json=openai_completion("ok"))
    reply = await make_agent(router, **kwargs).generate_reply(messages or [USER], options)
    assert isinstance(reply, MessageEnvelope)
    assert isinstance(reply.content, ChatCompletion)
    assert reply.from_ == "assistant"
    (body,) = sent_bodies(route, extra_keys=extra_keys)
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(TextMessage(Role.USER, "Hi"), id="neutral_text"),
        pytest.param(MessageEnvelope("Hi"), id="envelope_of_a_string"),
    ],
)
async def test_anything_but_envelopes_of_request_dicts_is_refused(message: Message) -> None:
    router = new_router()
    route = router.post(CHAT_URL).respond(json=openai_completion("ok"))

    with pytest.raises(UnsupportedMessageError, match="register_message_connector") as caught:
        await make_agent(router).generate_reply([USER, message])

    assert caught.value.index == 1
    assert not route.called


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        pytest.param(
            [USER],
            [{"role": "system", "content": "Be nice."}, USER.content],
            id="prepended_when_absent",
        ),
        pytest.param(
            [MessageEnvelope({"role": "system", "content": "Own."}), USER],
            [{"role": "system", "content": "Own."}, USER.content],
            id="not_added_beside_a_system_message",
        ),
        pytest.param(
            [USER, MessageEnvelope({"role": "developer", "content": "Dev."})],
            [USER.content, {"role": "developer", "content": "Dev."}],
            id="not_added_beside_a_developer_message",
        ),
    ],
)
async def test_system_message(messages: list[Message], expected: list[dict[str, Any]]) -> None:
    body = await body_of({"system_message": "Be nice."}, messages=messages)

    assert body["messages"] == expected


OPTION_CASES = [
    pytest.param({}, None, {"model": "gpt-4o-mini"}, id="nothing_set_sends_only_model"),
    pytest.param(
        {"temperature": 0.2, "max_tokens": 50, "seed": 7},
        None,
        {"temperature": 0.2, "max_completion_tokens": 50, "seed": 7},
        id="constructor_settings",
    ),
    pytest.param(
        {"temperature": 0.2, "max_tokens": 50},
        GenerateReplyOptions(temperature=0.9, max_tokens=10, stop_sequences=["END"]),
        {"temperature": 0.9, "max_completion_tokens": 10, "stop": ["END"]},
        id="per_call_options_win",
    ),
    pytest.param(
        {"functions": [WEATHER]},
        GenerateReplyOptions(functions=[TIME, FunctionContract("get_weather", "dup")]),
        {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "description": "Weather of a city.",
                        "parameters": {"type": "object", "properties": {}},
                    },
                },
                {"type": "function", "function": {"name": "get_time"}},
            ]
        },
        id="functions_constructor_first_and_first_of_a_name_wins",
    ),
    pytest.param(
        {"functions": [TIME]},
        GenerateReplyOptions(tool_choice="required"),
        {
            "tools": [{"type": "function", "function": {"name": "get_time"}}],
            "tool_choice": "required",
        },
        id="tool_choice_mode",
    ),
    pytest.param(
        {"functions": [TIME]},
        GenerateReplyOptions(tool_choice="get_time"),
        {
            "tools": [{"type": "function", "function": {"name": "get_time"}}],
            "tool_choice": {"type": "function", "function": {"name": "get_time"}},
        },
        id="tool_choice_names_a_function",
    ),
    pytest.param(
        {"top_p": 0.5, "vendor_flag": True},
        GenerateReplyOptions(extra={"top_p": 0.7, "user": "u1", "vendor_mode": "x"}),
        {"top_p": 0.7, "user": "u1", "vendor_flag": True, "vendor_mode": "x"},
        id="create_kwargs_and_extra_reach_the_body",
    ),
]


@pytest.mark.parametrize(("kwargs", "options", "expected"), OPTION_CASES)
async def test_options_map_to_create_arguments(
    kwargs: dict[str, Any], options: GenerateReplyOptions | None, expected: dict[str, Any]
) -> None:
    body = await body_of(kwargs, options)

    assert {key: body[key] for key in expected} == expected
    unexpected = set(body) - set(expected) - {"model", "messages"}
    assert not unexpected


def test_extra_keys_create_takes_are_keywords_and_others_go_through_extra_body() -> None:
    agent = make_agent(new_router(), vendor_flag=True, extra_body={"a": 1})
    options = GenerateReplyOptions(extra={"top_p": 0.7, "vendor_mode": "x", "extra_body": {"b": 2}})

    arguments = agent.create_arguments([USER], options)

    assert arguments["top_p"] == 0.7
    assert arguments["extra_body"] == {"a": 1, "vendor_flag": True, "vendor_mode": "x", "b": 2}
    assert "vendor_mode" not in arguments


@pytest.mark.parametrize("key", ["messages", "stream"])
def test_settings_cannot_override_what_the_agent_sets(key: str) -> None:
    agent = make_agent(new_router())

    with pytest.raises(ValueError, match=key):
        agent.create_arguments([USER], GenerateReplyOptions(extra={key: True}))


async def test_stream_requests_usage_and_yields_chunk_envelopes() -> None:
    router = new_router()
    route = router.post(CHAT_URL).mock(
        return_value=openai_sse_response(openai_text_chunks(["a", "b"]))
    )
    agent = make_agent(router, stream_options={"include_obfuscation": False})

    items = [item async for item in agent.generate_streaming_reply([USER])]

    (body,) = sent_bodies(route)
    assert body["stream"] is True
    assert body["stream_options"] == {"include_obfuscation": False, "include_usage": True}
    assert all(isinstance(item, MessageEnvelope) for item in items)
    assert all(isinstance(item.content, ChatCompletionChunk) for item in items)  # type: ignore[attr-defined]
    assert len(items) == 4


STATUSES = [
    (400, BadRequestError, False),
    (401, AuthenticationError, False),
    (403, AuthenticationError, False),
    (404, BadRequestError, False),
    (408, ProviderUnavailableError, True),
    (409, ProviderUnavailableError, True),
    (413, BadRequestError, False),
    (422, BadRequestError, False),
    (429, RateLimitError, True),
    (500, ProviderUnavailableError, True),
    (503, ProviderUnavailableError, True),
    (529, ProviderUnavailableError, True),
    (418, ProviderAPIError, False),
]


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize(
    ("status", "error", "retryable"), STATUSES, ids=[f"http_{s[0]}" for s in STATUSES]
)
async def test_http_status_maps_to_the_error_table(
    status: int, error: type[ProviderAPIError], retryable: bool, streaming: bool
) -> None:
    router = new_router()
    body = {"error": {"message": f"Incorrect API key provided: {SECRET}", "type": "x"}}
    router.post(CHAT_URL).respond(status, json=body)
    agent = make_agent(router)

    call = (
        drain(agent.generate_streaming_reply([USER])) if streaming else agent.generate_reply([USER])
    )

    with pytest.raises(error) as caught:
        await call

    raised = caught.value
    assert type(raised) is error
    assert (raised.provider, raised.status_code, raised.retryable) == ("openai", status, retryable)
    assert isinstance(raised.__cause__, openai.APIStatusError)
    assert "SECRET" not in str(raised)
    assert "SECRET" not in repr(raised)
    assert "Incorrect API key provided" in str(raised)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        pytest.param({"retry-after": "7"}, 7.0, id="seconds"),
        pytest.param({"retry-after-ms": "1500", "retry-after": "9"}, 1.5, id="milliseconds_first"),
        pytest.param({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0, id="past_date"),
        pytest.param({"retry-after": "soon"}, None, id="unreadable"),
        pytest.param({}, None, id="absent"),
    ],
)
async def test_rate_limit_error_carries_retry_after(
    headers: dict[str, str], expected: float | None
) -> None:
    router = new_router()
    router.post(CHAT_URL).respond(429, json={"error": {"message": "Slow down"}}, headers=headers)

    with pytest.raises(RateLimitError) as caught:
        await make_agent(router).generate_reply([USER])

    assert caught.value.retry_after == expected


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(httpx.ConnectError, id="connection_error"),
        pytest.param(httpx.ReadTimeout, id="timeout"),
    ],
)
async def test_connection_failures_are_retryable_unavailability(
    failure: type[httpx.TransportError],
) -> None:
    router = new_router()
    router.post(CHAT_URL).mock(side_effect=failure)

    with pytest.raises(ProviderUnavailableError) as caught:
        await make_agent(router).generate_reply([USER])

    assert (caught.value.status_code, caught.value.retryable) == (None, True)
    assert isinstance(caught.value.__cause__, openai.APIConnectionError)


@pytest.mark.parametrize(
    ("error_type", "error", "retryable"),
    [
        pytest.param("server_error", ProviderUnavailableError, True, id="server_error"),
        pytest.param("rate_limit_exceeded", RateLimitError, True, id="rate_limit"),
        pytest.param("invalid_request_error", BadRequestError, False, id="invalid_request"),
        pytest.param("mystery", ProviderAPIError, False, id="unknown_type"),
    ],
)
async def test_error_event_mid_stream_raises_the_mapped_error_from_the_agent(
    error_type: str, error: type[ProviderAPIError], retryable: bool
) -> None:
    router = new_router()
    events = [
        *openai_text_chunks(["Hel"], finish_reason=None),
        openai_error_event(error_type=error_type),
    ]
    router.post(CHAT_URL).mock(return_value=openai_sse_response(events, done=False))
    received: list[Message] = []

    with pytest.raises(error) as caught:
        await drain(make_agent(router).generate_streaming_reply([USER]), received)

    assert type(caught.value) is error
    assert (caught.value.status_code, caught.value.retryable) == (None, retryable)
    assert len(received) == 2


def test_repr_shows_no_key() -> None:
    agent = make_agent(new_router())

    assert SECRET not in repr(agent)
    assert "gpt-4o-mini" in repr(agent)


@pytest.mark.parametrize(
    "connect",
    [
        pytest.param(lambda agent: agent.register_message_connector(), id="method"),
        pytest.param(register_message_connector, id="free_function"),
    ],
)
async def test_default_connector_is_the_openai_connector(connect: Any) -> None:
    router = new_router()
    router.post(CHAT_URL).respond(json=openai_completion("Hello!"))

    connected = connect(make_agent(router))

    assert isinstance(connected, MiddlewareStreamingAgent)
    assert isinstance(connected.middlewares[-1], OpenAIChatRequestMessageConnector)
    assert await connected.send("Hi") == TextMessage(
        Role.ASSISTANT, "Hello!", "assistant", finish_reason="stop"
    )


@pytest.mark.parametrize(
    ("code", "forbidden"),
    [
        pytest.param("import llmbridge", "openai", id="core_never_imports_openai"),
        pytest.param(
            "import llmbridge.openai", "anthropic", id="openai_package_never_imports_anthropic"
        ),
    ],
)
def test_import_boundaries(code: str, forbidden: str) -> None:
    script = f"import sys; {code}; assert {forbidden!r} not in sys.modules, sorted(sys.modules)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)

    assert result.returncode == 0, result.stderr
