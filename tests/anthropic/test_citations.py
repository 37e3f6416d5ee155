"""Anthropic text-block citations (API.md 19.4, 19.7): replies and streams -> ``Citation``s over
their block's span of the joined ``content``, replayed to Anthropic exactly, read back by the
importer; another wing never gets them (nothing to do here: they are reply metadata).
"""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import Citation, InvalidMessageError, Role, TextMessage, ToolCallMessage
from llmbridge.anthropic import from_anthropic, from_anthropic_messages, to_anthropic
from llmbridge.testing import anthropic_message, anthropic_text_block, anthropic_tool_use_block
from tests.anthropic.helpers import convert
from tests.anthropic.rev3 import (
    assert_replayed,
    plain_and_streamed,
    sdk_message,
)
from tests.corpus import AGENT

QUESTION = TextMessage(Role.USER, "What does the document say?")
CHAR = {
    "type": "char_location",
    "cited_text": "The return window is thirty days.",
    "document_index": 0,
    "document_title": "Policy",
    "start_char_index": 0,
    "end_char_index": 33,
}
PAGE = {
    "type": "page_location",
    "cited_text": "Dummy PDF file",
    "document_index": 1,
    "document_title": None,
    "start_page_number": 1,
    "end_page_number": 2,
}
BLOCKS = {
    "type": "content_block_location",
    "cited_text": "Rate limits apply per tier.",
    "document_index": 2,
    "document_title": None,
    "start_block_index": 0,
    "end_block_index": 1,
}
WEB = {
    "type": "web_search_result_location",
    "cited_text": "Tier 1: 50 requests per minute.",
    "url": "https://docs.anthropic.com/en/api/rate-limits",
    "title": "Rate limits - Anthropic",
    "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm",
}
SEARCH = {
    "type": "search_result_location",
    "cited_text": "Tokens refill continuously.",
    "source": "https://wiki.example/limits",
    "title": "Limits wiki",
    "search_result_index": 0,
    "start_block_index": 0,
    "end_block_index": 1,
}


def cited(text: str, *citations: dict[str, Any]) -> dict[str, Any]:
    return {**anthropic_text_block(text), "citations": list(citations)}


PREFIX = "According to the sources, "  # 26 characters before every cited block below
NEUTRAL: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "char_location": (
        CHAR,
        {"document_index": 0, "title": "Policy", "cited_text": CHAR["cited_text"]},
    ),
    "page_location": (PAGE, {"document_index": 1, "cited_text": "Dummy PDF file"}),
    "content_block_location": (
        BLOCKS,
        {"document_index": 2, "cited_text": "Rate limits apply per tier."},
    ),
    "web_search_result_location": (
        WEB,
        {"url": WEB["url"], "title": WEB["title"], "cited_text": WEB["cited_text"]},
    ),
    "search_result_location_url_is_its_source": (
        SEARCH,
        {"url": SEARCH["source"], "title": "Limits wiki", "cited_text": SEARCH["cited_text"]},
    ),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("citation", "fields"), NEUTRAL.values(), ids=NEUTRAL.keys())
async def test_each_citation_kind_covers_its_whole_text_block_in_the_joined_content(
    citation: dict[str, Any], fields: dict[str, Any], strict: bool
) -> None:
    body = anthropic_message(
        [
            anthropic_text_block(PREFIX),
            cited("the limit is 50.", citation),
            anthropic_text_block("!"),
        ]
    )

    plain, streamed = await plain_and_streamed(body, strict=strict)

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    assert plain.content == PREFIX + "the limit is 50.!"
    (only,) = plain.citations
    assert (only.start, only.end) == (26, 42)
    assert plain.content[only.start : only.end] == "the limit is 50."
    expected = Citation(26, 42, provider="anthropic", **fields)
    assert (only.url, only.title, only.cited_text, only.document_index, only.file_id) == (
        expected.url,
        expected.title,
        expected.cited_text,
        expected.document_index,
        expected.file_id,
    )
    assert only.provider == "anthropic"
    assert only.provider_data == {"anthropic": {"citation": citation}}


async def test_several_citations_of_several_blocks_keep_their_order_and_spans() -> None:
    body = anthropic_message(
        [
            cited("Fifty a minute", WEB, SEARCH),
            anthropic_text_block(" and "),
            cited("thirty days.", CHAR),
        ]
    )

    plain, streamed = await plain_and_streamed(body)

    assert streamed == plain
    assert [(c.start, c.end, c.cited_text) for c in plain.citations] == [
        (0, 14, WEB["cited_text"]),
        (0, 14, SEARCH["cited_text"]),
        (19, 31, CHAR["cited_text"]),
    ]


async def test_a_tool_call_reply_carries_its_citations_too() -> None:
    body = anthropic_message(
        [cited("Checking the limit.", WEB), anthropic_tool_use_block("toolu_1", "lookup")],
        stop_reason="tool_use",
    )

    plain, streamed = await plain_and_streamed(body)

    assert streamed == plain
    assert isinstance(plain, ToolCallMessage)
    assert [(c.start, c.end) for c in plain.citations] == [(0, 19)]


def test_a_reply_citation_keeps_file_id_as_a_field_and_replays_in_the_request_form() -> None:
    # The reply type has file_id; the request type (CitationCharLocationParam) does not.
    given = {**CHAR, "file_id": "file_011"}
    reply = from_anthropic(
        sdk_message(anthropic_message([cited("Thirty days.", given)])), agent_name=AGENT
    )

    assert isinstance(reply, TextMessage)
    assert reply.citations[0].file_id == "file_011"
    assert to_anthropic([QUESTION, reply], agent_name=AGENT).messages[-1]["content"] == [
        cited("Thirty days.", CHAR)
    ]


def test_a_document_title_the_reply_leaves_out_is_replayed_as_null() -> None:
    given = {key: value for key, value in PAGE.items() if key != "document_title"}
    reply = from_anthropic(
        sdk_message(anthropic_message([cited("Dummy.", given)])), agent_name=AGENT
    )

    sent = to_anthropic([QUESTION, reply], agent_name=AGENT).messages[-1]["content"]

    assert sent == [cited("Dummy.", PAGE)], "CitationPageLocationParam requires document_title"


# -- replayed to Anthropic exactly ------------------------------------------------------------

REPLIES: dict[str, list[dict[str, Any]]] = {
    "one_cited_block": [cited("Thirty days.", CHAR)],
    "cited_block_between_plain_text": [
        anthropic_text_block(PREFIX),
        cited("the limit is 50", WEB, SEARCH),
        anthropic_text_block("."),
    ],
    "two_cited_blocks_in_a_row": [cited("Fifty.", WEB), cited(" Thirty.", CHAR)],
    "whitespace_between_cited_blocks": [
        cited("Fifty.", WEB),
        anthropic_text_block("\n\n- "),
        cited("Thirty.", CHAR),
    ],
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("content", REPLIES.values(), ids=REPLIES.keys())
def test_a_cited_reply_goes_back_to_anthropic_block_for_block_and_imports_back(
    content: list[dict[str, Any]], strict: bool
) -> None:
    assert_replayed(content, strict=strict)


def test_a_tool_call_reply_goes_back_with_its_cited_text_before_its_tool_use() -> None:
    content = [cited("Checking.", WEB), anthropic_tool_use_block("toolu_1", "lookup")]
    reply = from_anthropic(
        sdk_message(anthropic_message(content, stop_reason="tool_use")), agent_name=AGENT
    )

    assert convert([QUESTION, reply], check_pairing=False).messages[-1]["content"] == content


HAND_MADE: dict[str, tuple[list[Citation], list[dict[str, Any]]]] = {
    "another_providers_citation_is_left_out": (
        [Citation(0, 5, url="https://a.example", provider="openai")],
        [anthropic_text_block("Fifty and more.")],
    ),
    "an_anthropic_citation_without_its_object_is_left_out": (
        [Citation(0, 5, url="https://a.example", provider="anthropic")],
        [anthropic_text_block("Fifty and more.")],
    ),
    "overlapping_spans_keep_the_first": (
        [
            Citation(0, 5, provider="anthropic", provider_data={"anthropic": {"citation": WEB}}),
            Citation(3, 9, provider="anthropic", provider_data={"anthropic": {"citation": CHAR}}),
        ],
        [cited("Fifty", WEB), anthropic_text_block(" and more.")],
    ),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("citations", "sent"), HAND_MADE.values(), ids=HAND_MADE.keys())
def test_citations_anthropic_cannot_replay_are_left_out_silently(
    citations: list[Citation], sent: list[dict[str, Any]], strict: bool
) -> None:
    reply = TextMessage(Role.ASSISTANT, "Fifty and more.", AGENT, citations=citations)

    request = convert([QUESTION, reply], strict=strict)

    assert request.messages[-1]["content"] == sent
    assert request.notes == ()


# -- the importer -----------------------------------------------------------------------------

MALFORMED: dict[str, Any] = {
    "citations_not_a_list": {"type": "char_location"},
    "empty_citations": [],
    "unknown_citation_type": [{"type": "hologram_location", "cited_text": "x"}],
    "a_key_the_request_type_lacks": [{**CHAR, "file_id": "file_011"}],
    "a_required_key_missing": [{k: v for k, v in WEB.items() if k != "encrypted_index"}],
    "an_index_that_is_text": [{**CHAR, "document_index": "0"}],
}


@pytest.mark.parametrize("citations", MALFORMED.values(), ids=MALFORMED.keys())
def test_citations_to_anthropic_never_writes_keep_their_turn_as_an_envelope_or_raise_strict(
    citations: Any,
) -> None:
    payload = [
        {"role": "user", "content": "Hi"},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Fifty.", "citations": citations}],
        },
    ]

    lenient = from_anthropic_messages(payload, agent_name=AGENT)
    with pytest.raises(InvalidMessageError, match="cannot be imported") as raised:
        from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

    assert lenient[-1].content == payload[-1]  # type: ignore[union-attr]
    assert getattr(raised.value, "index", None) == 1


def test_citations_in_a_user_turn_keep_it_as_an_envelope() -> None:
    payload = [{"role": "user", "content": [cited("Fifty.", WEB)]}]

    assert from_anthropic_messages(payload, agent_name=AGENT)[0].content == payload[0]  # type: ignore[union-attr]
