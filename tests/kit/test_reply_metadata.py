"""``ReplyParts(citations=..., hosted_tools=...)``: build_reply and partial_reply carry a reply's
sources and the tools the provider ran, and a paused reply of hosted tools only is a reply."""

from __future__ import annotations

import pytest

from llmbridge import (
    Citation,
    EmptyResponseError,
    HostedToolCall,
    Message,
    Reasoning,
    TextMessage,
    ToolCall,
    ToolCallMessage,
)
from llmbridge.kit import ReplyParts, build_reply, partial_reply

SOURCE = Citation(0, 5, url="https://example.com/paris", title="Paris", provider="acme")
SEARCH = HostedToolCall(
    "web_search",
    '{"query": "Paris"}',
    id="srv_1",
    result="Paris https://example.com/paris",
    provider="acme",
)
POINT = Citation(0, 0, file_id="file_1", provider="acme")
CALL = ToolCall("f", "{}", tool_call_id="c1")

REPLIES: dict[str, tuple[ReplyParts, type[Message]]] = {
    "text with citations and a search": (
        ReplyParts(text="Paris is the capital.", citations=(SOURCE,), hosted_tools=(SEARCH,)),
        TextMessage,
    ),
    "tool calls after a search": (
        ReplyParts(text="Paris.", tool_calls=(CALL,), citations=(SOURCE,), hosted_tools=(SEARCH,)),
        ToolCallMessage,
    ),
    "a paused reply of hosted tools only": (
        ReplyParts(
            reasoning=(Reasoning("Searching first."),),
            hosted_tools=(SEARCH,),
            finish_reason="pause",
        ),
        TextMessage,
    ),
}


@pytest.mark.parametrize(("parts", "kind"), REPLIES.values(), ids=REPLIES.keys())
def test_build_and_partial_reply_carry_citations_and_hosted_tools(
    parts: ReplyParts, kind: type[Message]
) -> None:
    built = build_reply(parts, agent_name="bot", raw=None)
    partial = partial_reply(parts, agent_name="bot")
    for message in (built, partial):
        assert type(message) is kind
        assert isinstance(message, TextMessage | ToolCallMessage)
        assert message.citations == parts.citations
        assert message.hosted_tools == parts.hosted_tools
    assert built == partial


def test_a_paused_reply_of_hosted_tools_only_has_empty_text_and_keeps_its_reasoning() -> None:
    parts = REPLIES["a paused reply of hosted tools only"][0]

    reply = build_reply(parts, agent_name="bot", raw=None)

    assert isinstance(reply, TextMessage)
    assert (reply.content, reply.from_, reply.finish_reason) == ("", "bot", "pause")
    assert reply.reasoning == parts.reasoning


@pytest.mark.parametrize("finish_reason", ["stop", "length", None])
def test_hosted_tools_alone_without_a_pause_are_an_empty_reply(finish_reason: str | None) -> None:
    # API.md 19.7: only a pause_turn makes a reply of hosted tools alone; otherwise 4.3's rule.
    parts = ReplyParts(hosted_tools=(SEARCH,), finish_reason=finish_reason)

    with pytest.raises(EmptyResponseError):
        build_reply(parts, agent_name="bot", raw=None)
    partial = partial_reply(parts, agent_name="bot")  # a stream shows what arrived
    assert isinstance(partial, TextMessage)
    assert partial.hosted_tools == (SEARCH,)


def test_citations_alone_make_no_reply() -> None:
    with pytest.raises(EmptyResponseError):
        build_reply(
            ReplyParts(citations=(POINT,), finish_reason="pause"), agent_name="bot", raw=None
        )
    assert partial_reply(ReplyParts(citations=(POINT,)), agent_name="bot") is None
