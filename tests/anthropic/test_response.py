"""from_anthropic: the outbound rules of API.md 4.3 for Anthropic ``Message`` replies."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from anthropic.types import Message as AnthropicMessage

from llmbridge import (
    EmptyResponseError,
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
from llmbridge.anthropic import from_anthropic
from llmbridge.testing import (
    anthropic_message,
    anthropic_redacted_thinking_block,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from tests.anthropic.helpers import UNMODELLED_BLOCKS, constructed
from tests.corpus import AGENT


def sdk(body: dict[str, Any]) -> AnthropicMessage:
    return AnthropicMessage.model_validate(body)


def convert(body: dict[str, Any], *, strict: bool = False) -> Any:
    return from_anthropic(sdk(body), agent_name=AGENT, strict_mode=strict)


@pytest.mark.parametrize(
    ("stop_reason", "finish_reason"),
    [
        pytest.param("end_turn", "stop", id="end_turn_is_stop"),
        pytest.param("stop_sequence", "stop", id="stop_sequence_is_stop"),
        pytest.param("max_tokens", "length", id="max_tokens_is_length"),
        pytest.param("tool_use", "tool_calls", id="tool_use_is_tool_calls"),
        pytest.param("pause_turn", "pause", id="pause_turn_is_pause"),
        pytest.param(
            "model_context_window_exceeded", "length", id="context_window_exceeded_is_length"
        ),
    ],
)
def test_stop_reasons_are_normalized(stop_reason: str, finish_reason: str) -> None:
    reply = convert(anthropic_message("Hi", stop_reason=stop_reason))

    assert reply.finish_reason == finish_reason


def test_a_stop_reason_the_table_does_not_know_stays_raw() -> None:
    # The SDK's literal type refuses unknown values on validation; a newer API may send them.
    message = sdk(anthropic_message("Hi")).model_copy(update={"stop_reason": "some_new_reason"})

    reply = from_anthropic(message, agent_name=AGENT)

    assert reply.finish_reason == "some_new_reason"


def test_text_reply() -> None:
    body = anthropic_message("Hello!", input_tokens=7, output_tokens=3)
    message = sdk(body)

    reply = from_anthropic(message, agent_name=AGENT)

    assert reply == TextMessage(
        Role.ASSISTANT, "Hello!", AGENT, usage=Usage(7, 3), finish_reason="stop"
    )
    assert reply.raw is message


def test_text_blocks_are_joined() -> None:
    reply = convert(anthropic_message([anthropic_text_block("Hel"), anthropic_text_block("lo")]))

    assert reply.content == "Hello"


def test_parallel_tool_use_keeps_real_ids_and_text() -> None:
    body = anthropic_message(
        [
            anthropic_thinking_block("Two tools.", "sig-9"),
            anthropic_text_block("Checking."),
            anthropic_tool_use_block("toolu_01A", "get_weather", {"city": "Paris"}),
            anthropic_tool_use_block("toolu_01B", "now"),
        ],
        stop_reason="tool_use",
    )

    reply = convert(body)

    assert reply == ToolCallMessage(
        [
            ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="toolu_01A"),
            ToolCall("now", "{}", tool_call_id="toolu_01B"),
        ],
        AGENT,
        content="Checking.",
        reasoning=[Reasoning("Two tools.", signature="sig-9", provider="anthropic")],
        usage=Usage(10, 5),
        finish_reason="tool_calls",
    )


def test_tool_use_without_text_has_no_content() -> None:
    body = anthropic_message([anthropic_tool_use_block("t1", "now")], stop_reason="tool_use")

    assert convert(body).content is None


def test_thinking_and_redacted_thinking_become_reasoning() -> None:
    body = anthropic_message(
        [
            anthropic_redacted_thinking_block("opaque=="),
            anthropic_thinking_block("Hmm.", "sig-1"),
            anthropic_text_block("Answer."),
        ]
    )

    reply = convert(body)

    assert reply.reasoning == (
        Reasoning("", redacted_data="opaque==", provider="anthropic"),
        Reasoning("Hmm.", signature="sig-1", provider="anthropic"),
    )


def test_usage_counts_cached_input() -> None:
    body = anthropic_message(
        "Hi",
        input_tokens=10,
        output_tokens=4,
        cache_read_input_tokens=100,
        cache_creation_input_tokens=20,
    )
    body["usage"]["output_tokens_details"] = {"thinking_tokens": 2}

    usage = convert(body).usage

    assert usage == Usage(130, 4, cache_read_tokens=100, cache_write_tokens=20, reasoning_tokens=2)
    assert usage.total_tokens == 134


@pytest.mark.parametrize(
    ("content", "refusal"),
    [
        pytest.param([anthropic_text_block("I started to")], "I started to", id="text_before"),
        pytest.param([], "", id="no_text"),
    ],
)
def test_refusal_raises_with_the_text_so_far(content: list[Any], refusal: str) -> None:
    body = anthropic_message(content, stop_reason="refusal")

    with pytest.raises(RefusalError) as caught:
        convert(body)

    assert caught.value.refusal == refusal
    assert caught.value.response.id == "msg_test"


@pytest.mark.parametrize(
    "content",
    [
        pytest.param([], id="no_blocks"),
        pytest.param([anthropic_text_block("")], id="empty_text"),
        pytest.param([anthropic_thinking_block("only thinking")], id="only_thinking"),
    ],
)
def test_no_text_and_no_tool_call_is_empty(content: list[Any]) -> None:
    with pytest.raises(EmptyResponseError):
        convert(anthropic_message(content))


def test_envelope_of_message_is_unwrapped() -> None:
    message = sdk(anthropic_message("Hi"))

    reply = from_anthropic(MessageEnvelope(message, "x"), agent_name=AGENT)

    assert reply.get_content() == "Hi"


def test_not_a_provider_reply_lenient_unchanged_strict_raises() -> None:
    other = TextMessage(Role.USER, "echo")

    assert from_anthropic(other, agent_name=AGENT) is other
    with pytest.raises(UnsupportedMessageError):
        from_anthropic(other, agent_name=AGENT, strict_mode=True)


def test_blocks_without_neutral_form_skipped_lenient_raise_strict() -> None:
    upload = {"type": "container_upload", "file_id": "file_011"}
    body = anthropic_message([upload, anthropic_text_block("Found it.")])

    assert convert(body).content == "Found it."
    with pytest.raises(UnsupportedMessageError):
        convert(body, strict=True)


@pytest.mark.parametrize("block", UNMODELLED_BLOCKS)
def test_blocks_the_sdk_does_not_model_are_dropped_lenient_and_raise_strict(
    block: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    message = constructed(anthropic_message([block, anthropic_text_block("Done.")]))

    with caplog.at_level(logging.WARNING, logger="llmbridge"):
        reply = from_anthropic(message, agent_name=AGENT)

    assert reply == TextMessage(
        Role.ASSISTANT, "Done.", AGENT, usage=Usage(10, 5), finish_reason="stop"
    )
    assert reply.raw is message, "the dropped block stays in raw"
    assert [record.getMessage() for record in caplog.records] == [
        f"from_anthropic: request dropped: {block['type']} blocks have no neutral form "
        "(the reply's raw keeps them)"
    ]
    with pytest.raises(UnsupportedMessageError, match=block["type"]):
        from_anthropic(message, agent_name=AGENT, strict_mode=True)


def test_text_block_whose_text_is_not_a_string_is_dropped_not_joined() -> None:
    body = anthropic_message([{"type": "text", "text": None}, anthropic_text_block("Done.")])
    message = constructed(body)

    assert from_anthropic(message, agent_name=AGENT).get_content() == "Done."
    with pytest.raises(UnsupportedMessageError, match="text blocks without text"):
        from_anthropic(message, agent_name=AGENT, strict_mode=True)


def test_tool_input_too_deep_to_serialize_is_a_provider_response_error() -> None:
    deep: object = 1
    for _ in range(20_000):
        deep = {"a": deep}
    body = anthropic_message([anthropic_tool_use_block("toolu_1", "f", {"a": deep})])
    message = constructed(body)

    with pytest.raises(ProviderResponseError, match=r"'f'.*nested too deeply") as caught:
        from_anthropic(message, agent_name=AGENT)

    assert caught.value.response is message
