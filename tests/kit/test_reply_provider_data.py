"""``ReplyParts(provider_data=...)``: build_reply and partial_reply put it on the message."""

from __future__ import annotations

import pytest

from llmbridge import (
    ContentFilteredError,
    EmptyResponseError,
    InvalidMessageError,
    Reasoning,
    RefusalError,
    TextMessage,
    ToolCall,
    ToolCallMessage,
)
from llmbridge.kit import ReplyParts, build_reply, partial_reply

DATA = {"openai-responses": {"item_id": "msg_1", "phase": "final_answer"}}
CALL = ToolCall("f", "{}", tool_call_id="c1")

REPLIES = {
    "text-gives-a-text-message": (ReplyParts(text="hi", provider_data=DATA), TextMessage),
    "tool-calls-give-a-tool-call-message": (
        ReplyParts(text="calling", tool_calls=(CALL,), provider_data=DATA),
        ToolCallMessage,
    ),
}


@pytest.mark.parametrize(("parts", "kind"), REPLIES.values(), ids=REPLIES.keys())
def test_build_and_partial_reply_carry_provider_data(parts: ReplyParts, kind: type) -> None:
    built = build_reply(parts, agent_name="bot", raw=None)
    partial = partial_reply(parts, agent_name="bot")
    for message in (built, partial):
        assert type(message) is kind
        assert message.provider_data == DATA  # type: ignore[union-attr]
    assert built == partial


@pytest.mark.parametrize(
    "parts",
    [
        ReplyParts(text="hi"),
        ReplyParts(text="hi", provider_data={}),
        ReplyParts(tool_calls=(CALL,)),
        ReplyParts(reasoning=(Reasoning("r"),)),
    ],
    ids=["none-is-empty", "empty-is-empty", "tool-calls-without", "reasoning-only-partial"],
)
def test_no_provider_data_gives_the_empty_mapping(parts: ReplyParts) -> None:
    message = partial_reply(parts, agent_name="bot")
    assert message is not None
    assert message.provider_data == {}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("parts", "error"),
    [
        (ReplyParts(text="hi", content_filtered=True, provider_data=DATA), ContentFilteredError),
        (ReplyParts(refusal="no", provider_data=DATA), RefusalError),
        (ReplyParts(provider_data=DATA), EmptyResponseError),
        (ReplyParts(text="hi", provider_data={"x": {"bad": {1}}}), InvalidMessageError),
    ],
    ids=[
        "content-filter-still-raises",
        "refusal-still-raises",
        "provider-data-alone-is-empty",
        "not-json-compatible",
    ],
)
def test_the_outbound_table_is_unchanged_by_provider_data(
    parts: ReplyParts, error: type[Exception]
) -> None:
    with pytest.raises(error):
        build_reply(parts, agent_name="bot", raw=None)
