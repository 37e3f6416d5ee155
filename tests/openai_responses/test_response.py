"""from_openai_responses: every outbound rule of API.md 14, through the real SDK over respx."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from llmbridge import (
    BadRequestError,
    ContentFilteredError,
    EmptyResponseError,
    Message,
    MessageEnvelope,
    ProviderAPIError,
    ProviderResponseError,
    ProviderUnavailableError,
    RateLimitError,
    Reasoning,
    RefusalError,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.openai import from_openai_responses
from llmbridge.testing import (
    openai_response,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
)
from tests.openai_responses.sdk import fetched
from tests.openai_responses.test_testing_kit import PARALLEL_CALLS

TAG = "openai-responses"
AGENT = "assistant"
USAGE = Usage(12, 5, cache_read_tokens=0, cache_write_tokens=0, reasoning_tokens=0)


def data(**state: Any) -> dict[str, Any]:
    return {TAG: state}


def rs(text: str, rs_id: str, summary: list[str], signature: str | None, **more: Any) -> Reasoning:
    state = {"id": rs_id, "summary": summary, **more}
    return Reasoning(text, signature=signature, provider=TAG, provider_data=data(**state))


PARALLEL = PARALLEL_CALLS


def with_status(body: dict[str, Any], status: str, details: Any = None) -> dict[str, Any]:
    return {**body, "status": status, "incomplete_details": details}


CONVERSIONS: dict[str, tuple[dict[str, Any], Message]] = {
    "text_message_keeps_its_item_id": (
        openai_response("Hello!"),
        TextMessage(
            Role.ASSISTANT,
            "Hello!",
            AGENT,
            usage=USAGE,
            finish_reason="stop",
            provider_data=data(id="msg_test"),
        ),
    ),
    "text_message_keeps_its_phase": (
        openai_response([openai_response_message("Done.", item_id="msg_9", phase="final_answer")]),
        TextMessage(
            Role.ASSISTANT,
            "Done.",
            AGENT,
            usage=USAGE,
            finish_reason="stop",
            provider_data=data(id="msg_9", phase="final_answer"),
        ),
    ),
    "output_text_parts_of_all_messages_join_in_order": (
        openai_response(
            [
                openai_response_message(["Hel", "lo "], item_id="msg_1", phase="commentary"),
                openai_response_message("world", item_id="msg_2"),
            ]
        ),
        TextMessage(
            Role.ASSISTANT,
            "Hello world",
            AGENT,
            usage=USAGE,
            finish_reason="stop",
            provider_data=data(
                messages=[
                    {"id": "msg_1", "phase": "commentary", "text": "Hello "},
                    {"id": "msg_2", "text": "world"},
                ]
            ),
        ),
    ),
    "function_call_is_a_tool_call_with_its_call_id_and_item_id": (
        openai_response([openai_response_function_call("now", call_id="call_1")]),
        ToolCallMessage(
            [ToolCall("now", "{}", tool_call_id="call_1", provider_data=data(id="fc_call_1"))],
            AGENT,
            usage=USAGE,
            finish_reason="tool_calls",
        ),
    ),
    "parallel_calls_between_reasoning_and_text_keep_the_output_order": (
        PARALLEL,
        ToolCallMessage(
            [
                ToolCall(
                    "weather",
                    '{"city": "Paris"}',
                    tool_call_id="call_a",
                    provider_data=data(id="fc_call_a"),
                ),
                ToolCall(
                    "weather",
                    '{"city": "Oslo"}',
                    tool_call_id="call_b",
                    provider_data=data(id="fc_call_b"),
                ),
            ],
            AGENT,
            content="Checking both.",
            reasoning=(
                rs(
                    "Two lookups.\nThen answer.",
                    "rs_1",
                    ["Two lookups.", "Then answer."],
                    "enc-test",
                    before="msg_1",
                ),
                rs("Second city.", "rs_2", ["Second city."], "enc-2", before="fc_call_b"),
            ),
            usage=Usage(40, 30, cache_read_tokens=16, cache_write_tokens=0, reasoning_tokens=12),
            finish_reason="tool_calls",
            provider_data=data(id="msg_1", phase="commentary"),
        ),
    ),
    "raw_reasoning_text_parts_join_when_the_summary_is_empty": (
        openai_response(
            [
                openai_response_reasoning(content=["step 1", "step 2"], encrypted_content=None),
                openai_response_message("4"),
            ]
        ),
        TextMessage(
            Role.ASSISTANT,
            "4",
            AGENT,
            reasoning=(rs("step 1\nstep 2", "rs_test", [], None, before="msg_test"),),
            usage=USAGE,
            finish_reason="stop",
            provider_data=data(id="msg_test"),
        ),
    ),
    "reasoning_last_in_the_output_has_no_before": (
        openai_response([openai_response_message("4"), openai_response_reasoning("late")]),
        TextMessage(
            Role.ASSISTANT,
            "4",
            AGENT,
            reasoning=(rs("late", "rs_test", ["late"], "enc-test"),),
            usage=USAGE,
            finish_reason="stop",
            provider_data=data(id="msg_test"),
        ),
    ),
    "incomplete_at_max_output_tokens_is_length": (
        openai_response("Hel", status="incomplete"),
        TextMessage(
            Role.ASSISTANT,
            "Hel",
            AGENT,
            usage=USAGE,
            finish_reason="length",
            provider_data=data(id="msg_test"),
        ),
    ),
    "another_incomplete_reason_is_kept_raw": (
        openai_response("Hel", status="incomplete", incomplete_reason="max_messages"),
        TextMessage(
            Role.ASSISTANT,
            "Hel",
            AGENT,
            usage=USAGE,
            finish_reason="max_messages",
            provider_data=data(id="msg_test"),
        ),
    ),
    "incomplete_without_details_keeps_the_status": (
        with_status(openai_response("Hel"), "incomplete"),
        TextMessage(
            Role.ASSISTANT,
            "Hel",
            AGENT,
            usage=USAGE,
            finish_reason="incomplete",
            provider_data=data(id="msg_test"),
        ),
    ),
    "another_status_is_kept_raw": (
        with_status(openai_response("Hel"), "cancelled"),
        TextMessage(
            Role.ASSISTANT,
            "Hel",
            AGENT,
            usage=USAGE,
            finish_reason="cancelled",
            provider_data=data(id="msg_test"),
        ),
    ),
    "usage_counts_cached_input_and_reasoning_output": (
        openai_response(
            "x", input_tokens=100, output_tokens=50, cached_tokens=60, reasoning_tokens=20
        ),
        TextMessage(
            Role.ASSISTANT,
            "x",
            AGENT,
            usage=Usage(100, 50, cache_read_tokens=60, cache_write_tokens=0, reasoning_tokens=20),
            finish_reason="stop",
            provider_data=data(id="msg_test"),
        ),
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", list(CONVERSIONS), ids=list(CONVERSIONS))
async def test_a_response_converts_by_the_outbound_rules(name: str, strict_mode: bool) -> None:
    body, expected = CONVERSIONS[name]
    response = await fetched(body)

    reply = from_openai_responses(
        MessageEnvelope(response), agent_name=AGENT, strict_mode=strict_mode
    )

    assert reply == expected
    assert type(reply) is type(expected)
    assert reply.raw is response  # type: ignore[union-attr]
    assert reply.provider_data == expected.provider_data  # type: ignore[union-attr]
    assert reply.reasoning == expected.reasoning  # type: ignore[union-attr]


FAILURES: dict[str, tuple[dict[str, Any], type[Exception], dict[str, Any]]] = {
    "refusal_part_raises_refusal_error": (
        openai_response([openai_response_message(refusal="I can't help with that.")]),
        RefusalError,
        {"refusal": "I can't help with that."},
    ),
    "refusal_beside_text_still_raises": (
        openai_response([openai_response_message("Well", refusal="No.")]),
        RefusalError,
        {"refusal": "No."},
    ),
    "incomplete_by_content_filter_raises_content_filtered": (
        openai_response("Hel", status="incomplete", incomplete_reason="content_filter"),
        ContentFilteredError,
        {},
    ),
    "failed_with_rate_limit_is_a_retryable_rate_limit_error": (
        openai_response([], status="failed", error_code="rate_limit_exceeded"),
        RateLimitError,
        {"retryable": True, "status_code": None, "provider": TAG},
    ),
    "failed_with_server_error_is_retryable_unavailable": (
        openai_response([], status="failed", error_code="server_error"),
        ProviderUnavailableError,
        {"retryable": True, "status_code": None, "provider": TAG},
    ),
    "failed_with_another_code_is_a_bad_request_not_retryable": (
        openai_response([], status="failed", error_code="invalid_prompt"),
        BadRequestError,
        {"retryable": False, "status_code": None, "provider": TAG},
    ),
    "no_text_and_no_call_is_empty": (
        openai_response([openai_response_reasoning("thinking only")]),
        EmptyResponseError,
        {},
    ),
    "output_null_is_no_response": (
        {**openai_response("x"), "output": None},
        ProviderResponseError,
        {},
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", list(FAILURES), ids=list(FAILURES))
async def test_a_response_that_is_no_reply_raises_its_typed_error(
    name: str, strict_mode: bool
) -> None:
    body, error, attributes = FAILURES[name]
    response = await fetched(body)

    with pytest.raises(error) as raised:
        from_openai_responses(response, agent_name=AGENT, strict_mode=strict_mode)

    assert type(raised.value) is error
    for attribute, value in attributes.items():
        assert getattr(raised.value, attribute) == value
    if isinstance(raised.value, ProviderResponseError):
        assert raised.value.response is response


async def test_a_failed_response_error_quotes_the_api_code_and_message() -> None:
    body = openai_response([], status="failed", error_code="invalid_prompt", error_message="Bad.")
    response = await fetched(body)

    with pytest.raises(ProviderAPIError, match=r"^OpenAI API error \(invalid_prompt\): Bad\.$"):
        from_openai_responses(response, agent_name=AGENT)


# An item with no neutral form (hosted tools have one since API.md 19.5).
UNMAPPED = {
    "id": "lsh_1",
    "type": "local_shell_call",
    "call_id": "call_sh",
    "status": "completed",
    "action": {"type": "exec", "command": ["ls"], "env": {}},
}


async def test_an_item_with_no_neutral_form_is_dropped_with_a_logged_note(
    caplog: pytest.LogCaptureFixture,
) -> None:
    response = await fetched(openai_response([UNMAPPED, openai_response_message("Found.")]))

    with caplog.at_level(logging.WARNING, logger="llmbridge"):
        reply = from_openai_responses(response, agent_name=AGENT)

    assert reply == TextMessage(
        Role.ASSISTANT,
        "Found.",
        AGENT,
        usage=USAGE,
        finish_reason="stop",
        provider_data=data(id="msg_test"),
    )
    assert "output[0] is a 'local_shell_call' item" in caplog.text


async def test_an_item_with_no_neutral_form_raises_in_strict_mode() -> None:
    response = await fetched(openai_response([UNMAPPED, openai_response_message("Found.")]))

    with pytest.raises(UnsupportedMessageError, match="local_shell_call"):
        from_openai_responses(response, agent_name=AGENT, strict_mode=True)


NOT_A_RESPONSE = TextMessage(Role.ASSISTANT, "plain", AGENT)


def test_a_message_that_is_no_response_comes_back_unchanged_when_lenient() -> None:
    assert from_openai_responses(NOT_A_RESPONSE, agent_name=AGENT) is NOT_A_RESPONSE


@pytest.mark.parametrize(
    ("reply", "strict_mode"),
    [
        pytest.param(NOT_A_RESPONSE, True, id="a_message_in_strict_mode"),
        pytest.param(MessageEnvelope({"output": []}), True, id="an_envelope_of_a_dict_strict"),
        pytest.param(object(), False, id="no_message_at_all_even_lenient"),
    ],
)
def test_anything_else_raises_unsupported(reply: Any, strict_mode: bool) -> None:
    with pytest.raises(UnsupportedMessageError, match="expected an OpenAI Responses Response"):
        from_openai_responses(reply, agent_name=AGENT, strict_mode=strict_mode)


async def test_the_conversion_leaves_the_response_unchanged() -> None:
    response = await fetched(PARALLEL)
    before = response.to_dict()

    from_openai_responses(response, agent_name=AGENT)

    assert response.to_dict() == before
