"""Security: keys never leak, image URLs are never fetched, hostile JSON fails cleanly, image
payloads are bounded (and the bound is configurable)."""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

import httpx
import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    load_messages,
)
from llmbridge.anthropic import MAX_IMAGE_BYTES as ANTHROPIC_MAX_IMAGE_BYTES
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.openai import MAX_IMAGE_BYTES as OPENAI_MAX_IMAGE_BYTES
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import (
    anthropic_client,
    anthropic_error_event,
    anthropic_error_response,
    anthropic_message,
    anthropic_sse_response,
    anthropic_stream_events,
    openai_client,
    openai_completion,
    openai_error_event,
    openai_sse_response,
    openai_text_chunks,
)
from tests.corpus import AGENT, PNG
from tests.reliability.helpers import ANTHROPIC_URL, OPENAI_URL, PROVIDERS, Provider, convert, drain

SENTINEL = "sk-SENTINEL-llmbridge-0123456789abcdef"
LOGGERS = ("llmbridge", "openai", "anthropic", "httpx", "httpx2", "httpcore")
URL = {"openai": OPENAI_URL, "anthropic": ANTHROPIC_URL}


def connected(provider: Provider, router: respx.Router, **connector: Any) -> Any:
    """The provider agent on ``router``, with ``SENTINEL`` as its key, behind its connector."""
    if provider == "openai":
        agent: Any = OpenAIChatAgent(
            openai_client(router, api_key=SENTINEL), name=AGENT, model="gpt-test"
        )
        return agent.register_message_connector(OpenAIChatRequestMessageConnector(**connector))
    agent = AnthropicChatAgent(
        anthropic_client(router, api_key=SENTINEL), name=AGENT, model="claude-test"
    )
    return agent.register_message_connector(AnthropicMessageConnector(**connector))


def status_error(provider: Provider, status: int) -> httpx.Response:
    """An error response whose message echoes the key, as a careless server might."""
    text = f"Incorrect API key provided: {SENTINEL}"
    if provider == "openai":
        body = {"error": {"message": text, "type": "invalid_request_error", "code": None}}
        return httpx.Response(status, json=body, headers={"retry-after": "1"})
    return anthropic_error_response(status, "api_error", text, headers={"retry-after": "1"})


def stream_error(provider: Provider) -> httpx.Response:
    """A stream that breaks with an error event echoing the key."""
    text = f"overloaded while serving {SENTINEL}"
    if provider == "openai":
        chunks = [*openai_text_chunks(["Hel"], finish_reason=None), openai_error_event(text)]
        return openai_sse_response(chunks, done=False)
    events = anthropic_stream_events(anthropic_message("Hello"))[:4]
    return anthropic_sse_response([*events, anthropic_error_event("overloaded_error", text)])


FAILURES = [
    pytest.param(lambda p: status_error(p, 401), False, id="401-send"),
    pytest.param(lambda p: status_error(p, 429), False, id="429-send"),
    pytest.param(lambda p: status_error(p, 500), True, id="500-stream"),
    pytest.param(stream_error, True, id="error-event-mid-stream"),
    pytest.param(lambda p: httpx.ConnectError(f"refused for {SENTINEL}"), False, id="conn-error"),
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("failure", "streaming"), FAILURES)
async def test_the_key_appears_in_no_error_repr_or_log(
    provider: Provider, failure: Any, streaming: bool, caplog: pytest.LogCaptureFixture
) -> None:
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    router = respx.Router()
    outcome = failure(provider)
    route = router.post(URL[provider])
    if isinstance(outcome, Exception):
        route.mock(side_effect=outcome)
    else:
        route.mock(return_value=outcome)
    agent = connected(provider, router)

    with pytest.raises(LLMBridgeError) as caught:
        await (drain(agent.stream("Hi"), []) if streaming else agent.send("Hi"))

    assert route.called
    shown = [str(caught.value), repr(caught.value), repr(agent), repr(agent.agent)]
    shown += [record.getMessage() for record in caplog.records]
    assert caplog.records, "the DEBUG logs were captured"
    assert not [text for text in shown if SENTINEL in text]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_image_urls_are_never_fetched(provider: Provider) -> None:
    # The router answers the API only: any other request (an image download) would fail.
    router = respx.Router(assert_all_mocked=True)
    body = openai_completion("A cat.") if provider == "openai" else anthropic_message("A cat.")
    route = router.post(URL[provider]).respond(json=body)
    image_url = "https://images.example.test/cat.png"
    picture = MultiModalMessage(
        Role.USER, [TextMessage(Role.USER, "What is this?"), ImageMessage(Role.USER, image_url)]
    )

    reply = await connected(provider, router).send(
        ImageMessage(Role.USER, image_url), chat_history=[picture]
    )

    assert reply.get_content() == "A cat."
    assert [str(call.request.url) for call in router.calls] == [URL[provider]]
    assert route.call_count == 1
    assert image_url in route.calls.last.request.content.decode()  # sent as a URL


# -- load_messages on hostile JSON ---------------------------------------------------------

HOSTILE = {
    "deep-nesting": "[" * 100_000 + "]" * 100_000,
    "deep-nesting-inside-a-message": json.dumps(
        [{"type": "text", "role": "user", "content": "x", "from": None}]
    )[:-1].replace('"x"', "[" * 5_000 + "]" * 5_000)
    + "]",
    "huge-number": '[{"type": "tool_call_update", "function_name": "f", '
    '"function_arguments_update": "", "index": ' + "9" * 5_000 + "}]",
    "unknown-type": '[{"type": "python_object", "module": "os", "call": "system"}]',
    "wrong-types": '[{"type": "text", "role": 5, "content": ["x"], "from": {}}]',
    "not-a-list": '{"type": "text", "role": "user", "content": "x"}',
    "invalid-utf8": b'[{"type": "text", "role": "user", "content": "\xff\xfe"}]',
    "not-json": "[{'type': 'text'}]",
    "bad-base64-image": '[{"type": "image", "role": "user", "data": "@@@"}]',
    "image-without-source": '[{"type": "image", "role": "user"}]',
    "extra-field": '[{"type": "text", "role": "user", "content": "x", "__class__": "os"}]',
}


@pytest.mark.parametrize("data", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_json_fails_with_invalid_message_error(data: str | bytes) -> None:
    with pytest.raises(InvalidMessageError):
        load_messages(data)


def test_huge_strings_load() -> None:
    text = "x" * 20_000_000
    data = json.dumps([{"type": "text", "role": "user", "content": text, "from": None}])

    (message,) = load_messages(data)

    assert message == TextMessage(Role.USER, text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
TYPES = ["text", "image", "multimodal", "tool_call", "tool_call_result", "tool_call_aggregate"]
TYPES += ["text_update", "reasoning_update", "tool_call_update", "envelope"]
FIELDS = ["role", "content", "from", "url", "data", "media_type", "detail", "tool_calls"]
FIELDS += ["function_name", "function_arguments", "tool_call_id", "result", "is_error"]
FIELDS += ["reasoning", "usage", "tool_call_message", "index", "metadata"]
message_like = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={key: json_values | st.sampled_from(["user", "x", ""]) for key in FIELDS},
)
documents = st.one_of(json_values, st.lists(st.one_of(message_like, json_values), max_size=4))


def check_load(document: Any) -> None:
    try:
        messages = load_messages(json.dumps(document))
    except ValueError:  # InvalidMessageError is one
        return
    assert all(isinstance(message, Message) for message in messages)


@settings(max_examples=150)
@given(documents)
def test_arbitrary_json_loads_or_fails_with_value_error(document: Any) -> None:
    check_load(document)


@pytest.mark.fuzz
@given(documents)
def test_arbitrary_json_loads_or_fails_with_value_error_fuzz(document: Any) -> None:
    check_load(document)


# -- image size limits ---------------------------------------------------------------------

BYTES = PNG + bytes(3000)
BASE64_SIZE = len(base64.b64encode(BYTES))
DEFAULTS = {"openai": OPENAI_MAX_IMAGE_BYTES, "anthropic": ANTHROPIC_MAX_IMAGE_BYTES}


def test_default_limits_per_provider() -> None:
    assert DEFAULTS == {"openai": 20 * 1024 * 1024, "anthropic": 5 * 1024 * 1024}


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("limit", "fails"),
    [(BASE64_SIZE - 1, True), (BASE64_SIZE, False), (None, False)],
    ids=["one-byte-over", "exactly-at-the-limit", "none-means-no-limit"],
)
def test_the_limit_counts_base64_bytes(provider: Provider, limit: int | None, fails: bool) -> None:
    messages = [
        TextMessage(Role.USER, "Look:"),
        MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "a"), ImageMessage(Role.USER, data=BYTES)]
        ),
    ]
    for strict_mode in (False, True):
        if not fails:
            convert(provider, messages, strict_mode=strict_mode, max_image_bytes=limit)
            continue
        with pytest.raises(InvalidMessageError) as caught:
            convert(provider, messages, strict_mode=strict_mode, max_image_bytes=limit)
        assert (caught.value.index, caught.value.field) == (1, "content[1].data")


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_connectors_take_the_limit_and_stop_before_sending(provider: Provider) -> None:
    router = respx.Router()
    route = router.post(URL[provider])
    agent = connected(provider, router, max_image_bytes=BASE64_SIZE - 1)

    with pytest.raises(InvalidMessageError) as caught:
        await agent.send(ImageMessage(Role.USER, data=BYTES))

    assert caught.value.field == "data"
    assert not route.called
    assert agent.middlewares[0].max_image_bytes == BASE64_SIZE - 1
