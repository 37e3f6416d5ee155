"""Gemini grounding and citation metadata as citations (API.md 19.4, 19.7): replies parsed by
the real google-genai SDK, streams that end with the same citations, and nothing sent back."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import Citation, Role, TextMessage, UnsupportedMessageError
from llmbridge.gemini import from_gemini, to_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.testing import gemini_function_call_part, gemini_response, gemini_stream_chunks
from tests.corpus import AGENT
from tests.gemini.test_response import fetch
from tests.gemini.test_stream import stream_of

TEXT = "Paris is the capital. It has 2.1 million people."
WEB = {"web": {"uri": "https://a.example/paris", "title": "a.example"}}
WEB2 = {"web": {"uri": "https://b.example/stats", "title": "b.example"}}


def support(start: int | None, end: int, chunks: list[int], **segment: Any) -> dict[str, Any]:
    where: dict[str, Any] = {"endIndex": end, **segment}
    if start is not None:  # the API leaves out a 0, as proto3 JSON does
        where["startIndex"] = start
    return {"segment": where, "groundingChunkIndices": chunks}


def grounded(
    parts: list[dict[str, Any]], chunks: list[dict[str, Any]], supports: list[dict[str, Any]]
) -> dict[str, Any]:
    body = gemini_response(parts)
    body["candidates"][0]["groundingMetadata"] = {
        "groundingChunks": chunks,
        "groundingSupports": supports,
        "webSearchQueries": ["paris"],
    }
    return body


def cited(parts: list[dict[str, Any]], sources: list[dict[str, Any]]) -> dict[str, Any]:
    body = gemini_response(parts)
    body["candidates"][0]["citationMetadata"] = {"citationSources": sources}
    return body


def parsed(body: dict[str, Any]) -> types.GenerateContentResponse:
    """``body`` parsed by the SDK, on a copy: its validator renames ``citationSources`` in the
    dict it is given, and the SDK's own wire reader knows only that name."""
    return types.GenerateContentResponse.model_validate(copy.deepcopy(body))


def spans(message: Any) -> list[tuple[str, str | None, str | None]]:
    """Each citation as (the text it covers, url, title)."""
    return [(message.content[c.start : c.end], c.url, c.title) for c in message.citations]


@dataclass(frozen=True)
class Case:
    body: dict[str, Any]
    spans: list[tuple[str, str | None, str | None]]
    dropped: int = 0  # supports or sources that give no citation (a note; strict raises)
    extra: dict[str, Any] = field(default_factory=dict)


A, B = "Paris is the capital.", "It has 2.1 million people."
CASES = {
    "one citation per chunk a support names": Case(
        grounded(
            [{"text": TEXT}],
            [WEB, WEB2],
            [support(None, 21, [0]), support(22, 48, [1, 0])],
        ),
        [(A, *WEB["web"].values()), (B, *WEB2["web"].values()), (B, *WEB["web"].values())],
    ),
    "byte offsets are read as UTF-8 and become str offsets": Case(
        grounded(
            [{"text": "Zürich: 15°C. Geneva: 17°C."}],
            [WEB],
            [support(0, 15, [0]), support(16, 30, [0])],
        ),
        [("Zürich: 15°C.", *WEB["web"].values()), ("Geneva: 17°C.", *WEB["web"].values())],
    ),
    "part_index names a part; offsets within it, moved to the joined content": Case(
        grounded(
            [
                {"text": "thinking", "thought": True},
                {"text": "Intro. ", "thoughtSignature": "c2ln"},
                {"text": "Zürich is big."},
            ],
            [WEB],
            [support(0, 15, [0], partIndex=2)],
        ),
        [("Zürich is big.", *WEB["web"].values())],
    ),
    "retrieved context chunks give uri and title": Case(
        grounded(
            [{"text": TEXT}],
            [{"retrievedContext": {"uri": "gs://b/doc.pdf", "title": "doc", "text": "..."}}],
            [support(0, 21, [0])],
        ),
        [(A, "gs://b/doc.pdf", "doc")],
    ),
    "maps and image chunks give their source": Case(
        grounded(
            [{"text": TEXT}],
            [
                {"maps": {"uri": "https://maps.example/p", "title": "Louvre"}},
                {"image": {"sourceUri": "https://img.example/page", "title": "pic"}},
            ],
            [support(0, 21, [0, 1])],
        ),
        [(A, "https://maps.example/p", "Louvre"), (A, "https://img.example/page", "pic")],
    ),
    "a support without chunks cites nothing": Case(
        grounded([{"text": TEXT}], [WEB], [support(0, 21, [])]), []
    ),
    "a chunk index past the chunks gives no citation": Case(
        grounded([{"text": TEXT}], [WEB], [support(0, 21, [3, 0])]),
        [(A, *WEB["web"].values())],
        dropped=1,
    ),
    "a segment past its part gives no citation": Case(
        grounded([{"text": TEXT}], [WEB], [support(0, 99, [0]), support(0, 5, [0])]),
        [("Paris", *WEB["web"].values())],
        dropped=1,
    ),
    "a segment of a thought part gives no citation": Case(
        grounded([{"text": "hm", "thought": True}, {"text": TEXT}], [WEB], [support(0, 2, [0])]),
        [],
        dropped=1,
    ),
    "citation_metadata sources are citations by byte offsets": Case(
        cited(
            [{"text": "« Quote » and more."}],
            [{"startIndex": 0, "endIndex": 11, "uri": "https://q.example", "license": "mit"}],
        ),
        [("« Quote »", "https://q.example", None)],
    ),
    "a citation source past the text gives no citation": Case(
        cited([{"text": "short"}], [{"startIndex": 0, "endIndex": 50, "uri": "https://q"}]),
        [],
        dropped=1,
    ),
    "a call turn's text carries its citations": Case(
        grounded(
            [{"text": A}, gemini_function_call_part("look", {})], [WEB], [support(0, 21, [0])]
        ),
        [(A, *WEB["web"].values())],
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
async def test_metadata_becomes_citations_on_the_reply_text(
    case: Case, router: respx.Router
) -> None:
    response = await fetch(router, case.body)

    reply = from_gemini(response, agent_name=AGENT)

    assert spans(reply) == case.spans
    assert {c.provider for c in reply.citations} <= {"gemini"}  # type: ignore[attr-defined]
    if case.dropped:
        with pytest.raises(UnsupportedMessageError, match="no citation"):
            from_gemini(response, agent_name=AGENT, strict_mode=True)
    else:
        assert from_gemini(response, agent_name=AGENT, strict_mode=True) == reply


async def test_provider_data_keeps_the_exact_support_and_chunk(router: respx.Router) -> None:
    body = grounded([{"text": TEXT}], [WEB, WEB2], [support(22, 48, [1], text=B)])
    response = await fetch(router, body)

    reply = from_gemini(response, agent_name=AGENT, provider="vertex")

    assert reply.citations == (  # type: ignore[attr-defined]
        Citation(
            22,
            48,
            url="https://b.example/stats",
            title="b.example",
            provider="vertex",
            provider_data={
                "vertex": {
                    "support": {
                        "segment": {"start_index": 22, "end_index": 48, "text": B},
                        "grounding_chunk_indices": [1],
                    },
                    "chunk_index": 1,
                    "chunk": {"web": {"uri": "https://b.example/stats", "title": "b.example"}},
                }
            },
        ),
    )


def last_chunk_metadata(body: dict[str, Any], pieces: int) -> list[dict[str, Any]]:
    """``body`` streamed: ``{}`` metadata in every chunk but the last, which holds it all (as
    the recorded grounding streams send it)."""
    candidate = body["candidates"][0]
    chunks = gemini_stream_chunks(copy.deepcopy(body), pieces=pieces)
    for chunk in chunks:
        for key in ("groundingMetadata", "citationMetadata"):
            if key in candidate:
                chunk["candidates"][0][key] = {}
    for key in ("groundingMetadata", "citationMetadata"):
        if key in candidate:
            chunks[-1]["candidates"][0][key] = copy.deepcopy(candidate[key])
    return chunks


@pytest.mark.parametrize("pieces", [1, 4])
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
async def test_a_stream_ends_with_the_same_citations(
    case: Case, pieces: int, router: respx.Router
) -> None:
    chunks, failure = await stream_of(router, last_chunk_metadata(case.body, pieces))
    aggregator = GeminiStreamAggregator(AGENT)
    for chunk in chunks:
        aggregator.add(chunk)

    final = aggregator.finish()

    assert failure is None
    assert final == from_gemini(parsed(case.body), agent_name=AGENT)
    assert spans(final) == case.spans


def test_citations_are_not_sent_back_and_need_no_note() -> None:
    reply = from_gemini(
        types.GenerateContentResponse.model_validate(
            CASES["one citation per chunk a support names"].body
        ),
        agent_name=AGENT,
    )
    assert isinstance(reply, TextMessage)
    assert reply.citations
    plain = TextMessage(Role.ASSISTANT, reply.content, AGENT)
    hi, thanks = TextMessage(Role.USER, "Hi"), TextMessage(Role.USER, "Thanks")

    for strict_mode in (False, True):
        request = to_gemini([hi, reply, thanks], agent_name=AGENT, strict_mode=strict_mode)
        assert request == to_gemini([hi, plain, thanks], agent_name=AGENT)
        assert request.notes == ()


def test_other_wings_get_the_text_without_citations() -> None:
    from llmbridge.anthropic import to_anthropic
    from llmbridge.openai import to_openai

    reply = from_gemini(
        types.GenerateContentResponse.model_validate(
            CASES["one citation per chunk a support names"].body
        ),
        agent_name=AGENT,
    )
    hi = TextMessage(Role.USER, "Hi")
    assert to_openai([hi, reply], agent_name=AGENT).notes == ()
    assert to_anthropic([hi, reply, TextMessage(Role.USER, "ok")], agent_name=AGENT).notes == ()
