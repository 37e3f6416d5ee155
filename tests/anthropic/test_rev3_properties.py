"""Properties of replies with citations and hosted tools (API.md 19.4, 19.5) over generated
replies: the stream ends in the non-streamed message; the reply goes back to Anthropic as its
blocks (adjacent plain text joined), valid on the wire; the importer reads that back exactly.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmbridge import Role, TextMessage, ToolCallMessage
from llmbridge.anthropic import (
    AnthropicStreamAggregator,
    from_anthropic,
    from_anthropic_messages,
    to_anthropic,
)
from llmbridge.testing import anthropic_message, anthropic_stream_events, anthropic_tool_use_block
from tests.anthropic.helpers import sdk_events_of
from tests.anthropic.rev3 import sdk_message
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT

WORDS = st.text(alphabet="abc é\n", min_size=1, max_size=8).filter(lambda t: not t.isspace())
CITATIONS = st.sampled_from(
    [
        {
            "type": "web_search_result_location",
            "cited_text": "Fifty a minute.",
            "url": "https://docs.example/limits",
            "title": None,
            "encrypted_index": "Eo8B",
        },
        {
            "type": "char_location",
            "cited_text": "thirty days",
            "document_index": 0,
            "document_title": "Policy",
            "start_char_index": 4,
            "end_char_index": 15,
        },
    ]
)
TEXT = st.builds(
    lambda text, citations: {
        "type": "text",
        "text": text,
        **({"citations": citations} if citations else {}),
    },
    WORDS,
    st.lists(CITATIONS, max_size=2),
)


@st.composite
def replies(draw: st.DrawFn) -> dict[str, Any]:
    """A reply of text (some cited), server searches with results, maybe a call at the end."""
    blocks: list[dict[str, Any]] = []
    for number in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            blocks.append(draw(TEXT))
            continue
        tool_id = f"srvtoolu_{number}"
        blocks.append(
            {
                "type": "server_tool_use",
                "id": tool_id,
                "name": "web_search",
                "input": {"query": draw(WORDS)},
            }
        )
        hits = [
            {
                "type": "web_search_result",
                "title": draw(WORDS),
                "url": "https://a.example",
                "encrypted_content": "E",
            }
        ]
        blocks.append({"type": "web_search_tool_result", "tool_use_id": tool_id, "content": hits})
    stop = draw(st.sampled_from(["end_turn", "pause_turn", "tool_use"]))
    if stop == "tool_use":
        blocks.append(anthropic_tool_use_block("toolu_1", "lookup", {"q": 1}))
    if not blocks or (all(b["type"] != "text" for b in blocks) and stop == "end_turn"):
        blocks.append({"type": "text", "text": "Done."})
    return anthropic_message(blocks, stop_reason=stop)


def joined(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The blocks a reply goes back as: two plain text blocks in a row become one."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        plain = block["type"] == "text" and "citations" not in block
        if plain and out and out[-1]["type"] == "text" and "citations" not in out[-1]:
            out[-1] = {"type": "text", "text": out[-1]["text"] + block["text"]}
        else:
            out.append(dict(block))
    return out


@given(replies(), st.integers(1, 4))
def test_a_stream_of_any_such_reply_ends_in_the_non_streamed_message(
    body: dict[str, Any], pieces: int
) -> None:
    aggregator = AnthropicStreamAggregator(AGENT)
    for event in sdk_events_of(anthropic_stream_events(body, pieces=pieces)):
        aggregator.add(event)

    assert aggregator.finish() == from_anthropic(sdk_message(body), agent_name=AGENT)


@given(replies())
def test_any_such_reply_goes_back_as_its_blocks_and_imports_back(body: dict[str, Any]) -> None:
    reply = from_anthropic(sdk_message(body), agent_name=AGENT)
    assert isinstance(reply, TextMessage | ToolCallMessage)
    question, thanks = TextMessage(Role.USER, "Hi"), TextMessage(Role.USER, "Thanks.")

    # Not the last turn: a final assistant text loses its trailing whitespace (a prefill).
    request = to_anthropic([question, reply, thanks], agent_name=AGENT, check_pairing=False)

    assert_valid_request(request, fragment=True)
    assert request.messages[1]["content"] == joined(body["content"])
    imported = from_anthropic_messages(request.messages, agent_name=AGENT, strict_mode=True)
    again = to_anthropic(imported, agent_name=AGENT, check_pairing=False)
    assert again.messages == request.messages
