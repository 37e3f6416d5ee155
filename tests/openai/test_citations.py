"""OpenAI Chat citations (API.md 19.4, 19.7): ``message.annotations`` of a reply and the
``delta.annotations`` of a stream become the same ``Citation``s, through the real SDK over respx,
in both modes."""

from __future__ import annotations

import copy
import logging
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    Citation,
    InvalidMessageError,
    Message,
    ProviderResponseError,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
)
from llmbridge.openai import (
    OpenAIChatAgent,
    OpenAIChatRequestMessageConnector,
    OpenAIStreamAggregator,
    from_openai,
)
from llmbridge.testing import (
    openai_chunk,
    openai_client,
    openai_completion,
    openai_sse_response,
    openai_text_chunks,
    openai_tool_call_chunks,
)
from tests.corpus import AGENT
from tests.openai.helpers import CHAT_URL, chunks, completion, new_router, sent_bodies

MODES = pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
JSON = dict[str, Any]


def url_citation(start: int, end: int, url: str, title: str | None = None, **extra: Any) -> JSON:
    body: JSON = {"end_index": end, "start_index": start, "url": url}
    if title is not None:
        body["title"] = title
    return {"type": "url_citation", "url_citation": {**body, **extra}}


def cited(annotation: JSON) -> Citation:
    """The citation an annotation becomes: its fields, the exact annotation kept."""
    body = annotation["url_citation"]
    return Citation(
        body["start_index"],
        body["end_index"],
        url=body["url"],
        title=body.get("title"),
        provider="openai",
        provider_data={"openai": annotation},
    )


def with_annotations(reply: JSON, annotations: list[Any] | None) -> JSON:
    reply = copy.deepcopy(reply)
    reply["choices"][0]["message"]["annotations"] = annotations
    return reply


def annotated_stream(stream: list[JSON], annotations: list[Any], placement: str) -> list[JSON]:
    """``stream`` with the annotations in deltas: one per chunk before the text (as OpenRouter
    streams them), all in one delta after the text, or one per delta beside the text."""
    stream = copy.deepcopy(stream)
    if placement == "first":
        extra = [openai_chunk({"content": "", "annotations": [item]}) for item in annotations]
        return [stream[0], *extra, *stream[1:]]
    if placement == "last":
        ending = next(i for i, item in enumerate(stream) if item["choices"][0]["finish_reason"])
        return [*stream[:ending], openai_chunk({"annotations": annotations}), *stream[ending:]]
    texts = [item for item in stream[1:] if item["choices"][0]["delta"].get("content")]
    assert len(annotations) <= len(texts)
    for item, annotation in zip(texts, annotations, strict=False):
        item["choices"][0]["delta"]["annotations"] = [annotation]
    return stream


TEXT = "Paris is the capital of France [1]; Berlin that of Germany [2]."
PARIS = url_citation(31, 34, "https://en.wikipedia.org/wiki/Paris", "Paris - Wikipedia")
BERLIN = url_citation(59, 62, "https://en.wikipedia.org/wiki/Berlin", "Berlin")
# Code points, not bytes: every character before the span is multi-byte in UTF-8.
ACCENTED = "Café — naïve “quotes” ✓ [source]"
SOURCE = url_citation(24, 32, "https://example.org/café")
# OpenRouter's shape: an extra page excerpt, an empty title, a zero-width span.
EXCERPT = url_citation(0, 0, "https://pydantic.dev/pydantic-ai", "", content="# Pydantic AI ...")
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_A")
# Each reply text, its annotations, and the text each citation's span selects.
REPLY_ANNOTATIONS = {
    "one_url_citation": (TEXT, [PARIS], ["[1]"]),
    "two_in_order": (TEXT, [PARIS, BERLIN], ["[1]", "[2]"]),
    "offsets_count_code_points_without_a_title": (ACCENTED, [SOURCE], ["[source]"]),
    "extra_keys_and_empty_title_are_kept_exactly": (TEXT, [EXCERPT, BERLIN], ["", "[2]"]),
}


def _pair(text: str, annotations: list[JSON], placement: str) -> tuple[JSON, list[JSON]]:
    reply = with_annotations(openai_completion(text), annotations)
    parts = [text[:10], text[10:25], text[25:]]
    return reply, annotated_stream(openai_text_chunks(parts), annotations, placement)


def connected(router: Any, strict_mode: bool = False) -> Any:
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-search-preview")
    return agent.register_message_connector(OpenAIChatRequestMessageConnector(strict_mode))


async def send_and_stream(reply: JSON, stream: list[JSON], strict_mode: bool) -> list[Message]:
    """The reply ``send`` returns and the last message of the stream, over respx."""
    router = new_router()
    route = router.post(CHAT_URL)
    route.side_effect = [httpx.Response(200, json=reply), openai_sse_response(stream)]
    agent = connected(router, strict_mode)
    sent = await agent.send("Capitals?")
    streamed = [item async for item in agent.stream("Capitals?")]
    assert len(sent_bodies(route)) == 2
    return [sent, streamed[-1]]


@MODES
@pytest.mark.parametrize("placement", ["first", "last", "beside_text"])
@pytest.mark.parametrize(
    ("text", "annotations", "spans"), REPLY_ANNOTATIONS.values(), ids=REPLY_ANNOTATIONS.keys()
)
async def test_annotations_become_the_same_citations_sent_or_streamed(
    text: str, annotations: list[JSON], spans: list[str], placement: str, strict_mode: bool
) -> None:
    reply, stream = _pair(text, annotations, placement)

    sent, streamed = await send_and_stream(reply, stream, strict_mode)

    assert streamed == sent
    assert isinstance(sent, TextMessage)
    assert sent.content == text
    assert sent.citations == tuple(cited(annotation) for annotation in annotations)
    for citation, annotation in zip(sent.citations, annotations, strict=True):
        assert citation.provider_data["openai"] == annotation  # the exact annotation
        assert citation.cited_text is None
    assert [text[citation.start : citation.end] for citation in sent.citations] == spans


def test_from_openai_reads_the_annotations_of_a_completion_model() -> None:
    reply = from_openai(completion(_pair(TEXT, [PARIS], "last")[0]), agent_name=AGENT)
    assert reply.citations == (cited(PARIS),)  # type: ignore[attr-defined]


@MODES
async def test_tool_call_replies_carry_citations_too(strict_mode: bool) -> None:
    text = "Let me check [1]."
    annotation = url_citation(13, 16, "https://weather.example/paris")
    reply = with_annotations(openai_completion(text, tool_calls=[CALL]), [annotation])
    stream = annotated_stream(openai_tool_call_chunks([CALL], content=text), [annotation], "last")

    sent, streamed = await send_and_stream(reply, stream, strict_mode)

    assert streamed == sent
    assert isinstance(sent, ToolCallMessage)
    assert sent.citations == (cited(annotation),)


@MODES
@pytest.mark.parametrize("annotations", [[], None], ids=["empty_list", "null"])
async def test_no_annotations_give_no_citations(
    annotations: list[Any] | None, strict_mode: bool
) -> None:
    # gpt-4o-search-preview answered from a web search with "annotations": [] (recorded).
    reply = with_annotations(openai_completion("Sunny, 22°C."), annotations)
    stream = openai_text_chunks(["Sunny, ", "22°C."])

    sent, streamed = await send_and_stream(reply, stream, strict_mode)

    assert streamed == sent == TextMessage("assistant", "Sunny, 22°C.", AGENT, finish_reason="stop")


BAD = {
    "another_annotation_type": (
        {"type": "file_citation", "file_citation": {"file_id": "file-1", "index": 3}},
        UnsupportedMessageError,
    ),
    "a_url_citation_without_its_object": ({"type": "url_citation"}, InvalidMessageError),
    "a_span_past_the_text": (url_citation(59, 99, "https://x.example"), InvalidMessageError),
    "start_after_end": (url_citation(40, 31, "https://x.example"), InvalidMessageError),
    "offsets_that_are_not_integers": (url_citation("1", "5", "https://x"), InvalidMessageError),  # type: ignore[arg-type]
}


@MODES
@pytest.mark.parametrize(("bad", "error"), BAD.values(), ids=BAD.keys())
async def test_an_annotation_that_is_no_citation_is_dropped_or_raises(
    bad: JSON, error: type[Exception], strict_mode: bool, caplog: pytest.LogCaptureFixture
) -> None:
    reply, stream = _pair(TEXT, [PARIS, bad], "last")

    if strict_mode:
        with pytest.raises(error, match=r"annotations\[1\].*\(strict mode\)"):
            await send_and_stream(reply, stream, strict_mode)
        return
    with caplog.at_level(logging.WARNING, logger="llmbridge"):
        sent, streamed = await send_and_stream(reply, stream, strict_mode)

    assert streamed == sent
    assert sent.citations == (cited(PARIS),)  # type: ignore[attr-defined]
    dropped = [r.getMessage() for r in caplog.records if "annotations[1]" in r.getMessage()]
    assert [line.split(":")[0] for line in dropped] == ["from_openai", "OpenAIStreamAggregator"]


@MODES
async def test_annotations_that_are_no_list_are_no_chat_completion(strict_mode: bool) -> None:
    reply = with_annotations(openai_completion(TEXT), PARIS)  # type: ignore[arg-type]
    stream = openai_text_chunks([TEXT])
    stream.insert(1, openai_chunk({"annotations": PARIS}))
    router = new_router()
    router.post(CHAT_URL).side_effect = [
        httpx.Response(200, json=reply),
        openai_sse_response(stream),
    ]
    agent = connected(router, strict_mode)

    with pytest.raises(ProviderResponseError, match="annotations"):
        await agent.send("Capitals?")
    with pytest.raises(ProviderResponseError, match="annotations"):
        [item async for item in agent.stream("Capitals?")]


def test_a_partial_reply_carries_the_citations_its_text_has_reached() -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    _, stream = _pair(TEXT, [PARIS, BERLIN], "first")
    seen = []
    for chunk in chunks(stream):
        aggregator.add(chunk)
        partial = aggregator.partial
        seen.append(len(partial.citations) if isinstance(partial, TextMessage) else None)

    # Two annotation chunks before any text, then the text in three deltas, then the finish.
    assert seen == [None, None, None, 0, 0, 2, 2]
    assert aggregator.finish().citations == (cited(PARIS), cited(BERLIN))  # type: ignore[attr-defined]


@st.composite
def annotated_replies(draw: st.DrawFn) -> tuple[JSON, list[JSON]]:
    """A reply text with url_citation spans inside it, its completion and a stream of it."""
    text = draw(st.text(min_size=1, max_size=40))
    annotations = []
    for number in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
        annotations.append(url_citation(start, end, f"https://s{number}.example", f"S{number}"))
    cuts = sorted(draw(st.lists(st.integers(1, len(text)), max_size=4)))
    parts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    stream = openai_text_chunks([part for part in parts if part])
    placement = draw(st.sampled_from(["first", "last"]))
    reply = with_annotations(openai_completion(text), annotations)
    return reply, annotated_stream(stream, annotations, placement) if annotations else stream


@given(annotated_replies())
def test_a_stream_ends_with_the_citations_of_the_same_reply(
    reply_and_stream: tuple[JSON, list[JSON]],
) -> None:
    reply, stream = reply_and_stream
    aggregator = OpenAIStreamAggregator(AGENT, strict_mode=True)
    for chunk in chunks(stream):
        aggregator.add(chunk)

    sent = from_openai(completion(reply), agent_name=AGENT, strict_mode=True)

    assert aggregator.finish() == sent
    assert len(sent.citations) == len(reply["choices"][0]["message"]["annotations"])  # type: ignore[attr-defined]
