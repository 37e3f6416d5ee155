"""Recorded Responses replies and streams with citations and hosted tools
(tests/fixtures/openai_responses/rev3, facts in tests/fixtures/rev3-facts.md) through the real
SDK over respx: read, replayed, imported back, and streamed to the non-streamed reply."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from openai.types.responses import ResponseStreamEvent

from llmbridge import EmptyResponseError, Message, TextMessage
from llmbridge.openai import (
    OpenAIResponsesStreamAggregator,
    from_openai_responses,
    from_openai_responses_input,
    to_openai_responses,
)
from llmbridge.testing import openai_client, openai_responses_sse_response
from tests.openai_responses.rev3 import AGENT, HOSTED_TYPES, URL, USER, as_sent, sent_input
from tests.openai_responses.sdk import REQUEST, fetched

FIXTURES = Path(__file__).parent.parent / "fixtures" / "openai_responses" / "rev3"
REPLIES = sorted(path.name for path in FIXTURES.glob("*.json"))
STREAMS = sorted(path.name for path in [*FIXTURES.glob("*.sse"), *FIXTURES.glob("*.chunks.txt")])
# Replies of hosted tools and an empty message: the empty rule (API.md 19.7).
EMPTY = frozenset({"image-generation.json", "image-generation.chunks.txt"})


def recorded(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return body


def signed(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as a stateless call records it: every reasoning item with encrypted_content."""
    body = copy.deepcopy(body)
    for item in body["output"]:
        if item["type"] == "reasoning":
            item.setdefault("encrypted_content", f"enc-{item['id']}")
    return body


async def reply_of(body: dict[str, Any]) -> Message:
    return from_openai_responses(await fetched(body), agent_name=AGENT, strict_mode=True)


def texts(body: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    return [
        (part["text"], part["annotations"])
        for item in body["output"]
        if item["type"] == "message"
        for part in item["content"]
        if part["type"] == "output_text"
    ]


@pytest.mark.parametrize("name", sorted(set(REPLIES) - EMPTY))
async def test_a_recorded_reply_has_every_annotation_and_hosted_item(name: str) -> None:
    body = recorded(name)

    reply = await reply_of(body)

    assert isinstance(reply, TextMessage)
    ((text, annotations),) = texts(body)
    assert reply.content == text
    assert [c.provider_data["openai-responses"]["annotation"] for c in reply.citations] == [
        copy.deepcopy(annotation) for annotation in annotations
    ]
    for citation, annotation in zip(reply.citations, annotations, strict=True):
        start = annotation.get("start_index", annotation.get("index"))
        assert (citation.start, citation.end) == (start, annotation.get("end_index", start))
    hosted = [item["id"] for item in body["output"] if item["type"] in HOSTED_TYPES]
    assert [call.id for call in reply.hosted_tools] == hosted


async def test_recorded_url_citations_cover_the_markdown_links_they_name() -> None:
    reply = await reply_of(recorded("web-search-annotations.json"))

    spans = [reply.content[c.start : c.end] for c in reply.citations]  # type: ignore[attr-defined]
    assert len(spans) == 10
    assert all(span.startswith("([") and span.endswith("))") for span in spans)


@pytest.mark.parametrize("name", sorted(set(REPLIES) - EMPTY))
async def test_a_recorded_reply_goes_back_exactly_and_imports_back(name: str) -> None:
    body = signed(recorded(name))
    reply = await reply_of(body)

    sent = await sent_input([USER, reply])

    assert sent[1:] == [as_sent(item) for item in body["output"]]
    imported = from_openai_responses_input(sent, agent_name=AGENT, strict_mode=True)
    assert to_openai_responses(imported, agent_name=AGENT).input == sent


@pytest.mark.parametrize("name", sorted(set(REPLIES) - EMPTY))
async def test_a_recorded_reply_without_encrypted_reasoning_keeps_its_text(name: str) -> None:
    reply = await reply_of(recorded(name))

    request = to_openai_responses([USER, reply], agent_name=AGENT, strict_mode=True)

    assert request.input[-1] == {"role": "assistant", "content": reply.get_content()}
    assert {note.kind for note in request.notes} == {"omitted"}


@pytest.mark.parametrize("name", sorted(EMPTY & set(REPLIES)))
async def test_a_recorded_reply_of_an_image_only_follows_the_empty_rule(name: str) -> None:
    with pytest.raises(EmptyResponseError):
        await reply_of(recorded(name))


def events_of(name: str) -> httpx.Response:
    path = FIXTURES / name
    if name.endswith(".sse"):
        headers = {"content-type": "text/event-stream"}
        return httpx.Response(200, headers=headers, content=path.read_bytes())
    lines = path.read_text().splitlines()
    return openai_responses_sse_response([json.loads(line) for line in lines if line.strip()])


async def streamed_events(name: str) -> list[ResponseStreamEvent]:
    router = respx.Router(assert_all_called=True)
    router.post(URL).mock(return_value=events_of(name))
    stream = await openai_client(router).responses.create(**REQUEST, stream=True)
    return [event async for event in stream]


@pytest.mark.parametrize("name", STREAMS)
async def test_a_recorded_stream_ends_in_the_non_streamed_reply(name: str) -> None:
    events = await streamed_events(name)
    aggregator = OpenAIResponsesStreamAggregator(AGENT, strict_mode=True)
    for event in events:
        aggregator.add(event)
    terminal = events[-1]
    assert terminal.type == "response.completed"

    if name in EMPTY:
        with pytest.raises(EmptyResponseError):
            aggregator.finish()
        return
    final = aggregator.finish()

    assert final == from_openai_responses(terminal.response, agent_name=AGENT)
    annotations = [e for e in events if e.type == "response.output_text.annotation.added"]
    assert len(final.citations) == len(annotations)  # type: ignore[attr-defined]
    assert final.hosted_tools  # type: ignore[attr-defined]
    # The annotations the events added, over the streamed text, are the reply's citations.
    partial = aggregator.partial
    assert partial is not None
    assert partial.citations == final.citations  # type: ignore[attr-defined]
