"""from_openai: every row of API.md 4.3 in both modes, usage and reasoning."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.chat import ChatCompletion

from llmbridge import (
    ContentFilteredError,
    EmptyResponseError,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    RefusalError,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.openai import from_openai
from llmbridge.testing import openai_completion, openai_usage
from tests.corpus import AGENT
from tests.openai.helpers import completion

CALLS = [
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_A"),
    ToolCall("get_time", "", tool_call_id="call_B"),
]
USAGE = openai_usage(20, 7, cached_tokens=8, reasoning_tokens=3)
NEUTRAL_USAGE = Usage(20, 7, cache_read_tokens=8, reasoning_tokens=3)

REPLIES = [
    pytest.param(
        openai_completion("Hello!", usage=USAGE),
        TextMessage(Role.ASSISTANT, "Hello!", AGENT, usage=NEUTRAL_USAGE, finish_reason="stop"),
        id="text_is_an_assistant_text_message_from_the_agent",
    ),
    pytest.param(
        openai_completion("cut", finish_reason="length"),
        TextMessage(Role.ASSISTANT, "cut", AGENT, finish_reason="length"),
        id="finish_reason_length_is_kept",
    ),
    pytest.param(
        openai_completion(tool_calls=CALLS, usage=USAGE),
        ToolCallMessage(CALLS, AGENT, usage=NEUTRAL_USAGE, finish_reason="tool_calls"),
        id="tool_calls_keep_provider_ids_and_order",
    ),
    pytest.param(
        openai_completion("Let me check.", tool_calls=CALLS[:1]),
        ToolCallMessage(CALLS[:1], AGENT, content="Let me check.", finish_reason="tool_calls"),
        id="text_beside_tool_calls_is_their_content",
    ),
    pytest.param(
        openai_completion("", tool_calls=CALLS[:1]),
        ToolCallMessage(CALLS[:1], AGENT, content=None, finish_reason="tool_calls"),
        id="empty_text_beside_tool_calls_is_none",
    ),
    pytest.param(
        openai_completion("42", reasoning_content="Think."),
        TextMessage(
            Role.ASSISTANT,
            "42",
            AGENT,
            reasoning=[Reasoning("Think.", provider="openai")],
            finish_reason="stop",
        ),
        id="reasoning_of_compatible_servers_is_kept",
    ),
    pytest.param(
        openai_completion("x", finish_reason="function_call"),
        TextMessage(Role.ASSISTANT, "x", AGENT, finish_reason="function_call"),
        id="unknown_finish_reason_is_kept_raw",
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("data", "expected"), REPLIES)
def test_reply_converts_the_same_in_both_modes(
    data: dict[str, Any], expected: Message, strict_mode: bool
) -> None:
    reply = completion(data)

    message = from_openai(reply, agent_name=AGENT, strict_mode=strict_mode)

    assert message == expected
    assert message.raw is reply  # type: ignore[attr-defined]


def test_envelope_of_a_completion_converts_like_the_completion() -> None:
    reply = completion(openai_completion("Hi"))

    message = from_openai(MessageEnvelope(reply, AGENT), agent_name=AGENT)

    assert message == from_openai(reply, agent_name=AGENT)


def test_usage_without_details_has_no_cache_or_reasoning_counts() -> None:
    message = from_openai(
        completion(openai_completion("x", usage=openai_usage(3, 4))), agent_name=AGENT
    )

    assert message.usage == Usage(3, 4)  # type: ignore[attr-defined]
    assert message.usage.total_tokens == 7  # type: ignore[attr-defined]


FAILING = [
    pytest.param(
        openai_completion("partial", finish_reason="content_filter"),
        ContentFilteredError,
        id="content_filter",
    ),
    pytest.param(
        openai_completion(tool_calls=CALLS, finish_reason="content_filter"),
        ContentFilteredError,
        id="content_filter_with_tool_calls",
    ),
    pytest.param(openai_completion(refusal="I can't help with that."), RefusalError, id="refusal"),
    pytest.param(openai_completion("a", choices=2), ProviderResponseError, id="two_choices"),
    pytest.param(openai_completion("a", choices=0), ProviderResponseError, id="no_choice"),
    pytest.param(openai_completion(None), EmptyResponseError, id="no_text_no_tool_calls"),
    pytest.param(openai_completion(""), EmptyResponseError, id="empty_text"),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("data", "error"), FAILING)
def test_reply_that_cannot_be_a_message_raises_in_both_modes(
    data: dict[str, Any], error: type[ProviderResponseError], strict_mode: bool
) -> None:
    reply = completion(data)

    with pytest.raises(error) as caught:
        from_openai(reply, agent_name=AGENT, strict_mode=strict_mode)

    assert type(caught.value) is error
    assert caught.value.response is reply


def test_refusal_error_holds_the_refusal_text() -> None:
    with pytest.raises(RefusalError) as caught:
        from_openai(completion(openai_completion(refusal="No.")), agent_name=AGENT)

    assert caught.value.refusal == "No."


def test_custom_tool_call_cannot_become_a_neutral_message() -> None:
    data = openai_completion(tool_calls=CALLS[:1])
    data["choices"][0]["message"]["tool_calls"] = [
        {"id": "c", "type": "custom", "custom": {"name": "grammar", "input": "x"}}
    ]

    with pytest.raises(ProviderResponseError, match="'custom' tool call"):
        from_openai(completion(data), agent_name=AGENT)


NOT_COMPLETIONS = [
    pytest.param(TextMessage(Role.USER, "echo"), id="neutral_message"),
    pytest.param(
        MessageEnvelope({"role": "user", "content": "echo"}), id="envelope_of_request_dict"
    ),
    pytest.param(MessageEnvelope("text"), id="envelope_of_string"),
]


@pytest.mark.parametrize("reply", NOT_COMPLETIONS)
def test_non_completion_is_returned_unchanged_when_lenient(reply: Message) -> None:
    assert from_openai(reply, agent_name=AGENT) is reply


@pytest.mark.parametrize("reply", NOT_COMPLETIONS)
def test_non_completion_raises_when_strict(reply: Message) -> None:
    with pytest.raises(UnsupportedMessageError, match="strict mode"):
        from_openai(reply, agent_name=AGENT, strict_mode=True)


def test_object_that_is_no_message_cannot_be_returned_even_when_lenient() -> None:
    with pytest.raises(UnsupportedMessageError):
        from_openai({"choices": []}, agent_name=AGENT)  # type: ignore[arg-type]


def reply_with(**message: Any) -> dict[str, Any]:
    """A completion whose message has the given fields (over a plain text reply)."""
    data = openai_completion("Hello!")
    data["choices"][0]["message"].update(message)
    return data


# HTTP 200 bodies that are no chat completion; the SDK builds a ChatCompletion from each
# without validation, so only the shapes from_openai reads can tell.
MALFORMED_BODIES = [
    pytest.param({"foo": 1}, id="no_choices"),
    pytest.param({"choices": None}, id="choices_null"),
    pytest.param({"choices": "x"}, id="choices_a_string"),
    pytest.param({"choices": [None]}, id="choice_null"),
    pytest.param({"choices": [{"index": 0, "message": None}]}, id="message_null"),
    pytest.param(reply_with(content=5), id="content_a_number"),
    pytest.param(reply_with(refusal=["no"]), id="refusal_a_list"),
    pytest.param(reply_with(tool_calls="call"), id="tool_calls_a_string"),
    pytest.param(reply_with(tool_calls=[None]), id="tool_call_null"),
    pytest.param(
        reply_with(tool_calls=[{"id": "c", "type": "function", "function": None}]),
        id="tool_call_without_function",
    ),
    pytest.param(
        reply_with(
            tool_calls=[{"id": "c", "type": "function", "function": {"name": 7, "arguments": ""}}]
        ),
        id="function_name_a_number",
    ),
    pytest.param({**openai_completion("Hello!"), "usage": 3}, id="usage_a_number"),
    pytest.param(
        {**openai_completion("Hello!"), "usage": {"prompt_tokens": "many", "completion_tokens": 1}},
        id="token_count_a_string",
    ),
    pytest.param(
        {
            **openai_completion("Hello!"),
            "choices": [{"index": 0, "finish_reason": 1, "message": {}}],
        },
        id="finish_reason_a_number",
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("body", MALFORMED_BODIES)
def test_body_that_is_no_chat_completion_is_a_provider_response_error(
    body: dict[str, Any], strict_mode: bool
) -> None:
    reply = ChatCompletion.model_construct(**body)

    with pytest.raises(ProviderResponseError, match="not an OpenAI chat completion") as caught:
        from_openai(reply, agent_name=AGENT, strict_mode=strict_mode)

    assert type(caught.value) is ProviderResponseError
    assert caught.value.response is reply
