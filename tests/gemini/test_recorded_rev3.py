"""Recorded Gemini API and Vertex AI replies and streams with google_search grounding and code
execution (tests/fixtures/gemini/rev3, facts in tests/fixtures/rev3-facts.md), served byte for
byte to the real google-genai client over respx: the citations' offsets point at the text they
support, streams end with their own metadata's citations, and code execution goes back in place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import Message, MessageEnvelope, Role, TextMessage
from llmbridge.gemini import from_gemini, from_gemini_contents, to_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.testing import gemini_client
from tests.corpus import AGENT
from tests.gemini.helpers import GENERATE, STREAM
from tests.gemini.sending import sent_body

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gemini" / "rev3"
MODEL = "gemini-2.5-pro"
# name -> (the tag of its endpoint, citations in the reply, citations in the stream)
GROUNDING = {
    "google-search-grounding": ("gemini", 6, 9),
    "vertex-google-search-grounding": ("vertex", 4, 12),
}


async def reply_of(router: respx.Router, name: str) -> types.GenerateContentResponse:
    router.post(url__regex=GENERATE).respond(
        json=json.loads((FIXTURES / f"{name}.json").read_text())
    )
    client = gemini_client(router)  # kept: a collected Client closes its HTTP clients
    return await client.aio.models.generate_content(model=MODEL, contents="hi")


async def stream_of(router: respx.Router, name: str) -> list[types.GenerateContentResponse]:
    body = (FIXTURES / f"{name}.sse").read_bytes()
    router.post(url__regex=STREAM).respond(
        content=body, headers={"content-type": "text/event-stream"}
    )
    client = gemini_client(router)
    stream = await client.aio.models.generate_content_stream(model=MODEL, contents="hi")
    return [chunk async for chunk in stream]


def aggregate(chunks: list[types.GenerateContentResponse], tag: str) -> Message:
    aggregator = GeminiStreamAggregator(AGENT, provider=tag)
    for chunk in chunks:
        aggregator.add(chunk)
    return aggregator.finish()


def check_spans(message: Any, tag: str, count: int) -> None:
    """Each citation covers exactly its support's ``segment.text``, with its chunk's source."""
    assert len(message.citations) == count
    for citation in message.citations:
        entry = citation.provider_data[tag]
        assert message.content[citation.start : citation.end] == entry["support"]["segment"]["text"]
        assert entry["chunk_index"] in entry["support"]["grounding_chunk_indices"]
        assert (citation.url, citation.title) == (
            entry["chunk"]["web"]["uri"],
            entry["chunk"]["web"]["title"],
        )
        assert citation.provider == tag


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", GROUNDING)
async def test_the_citations_offsets_point_at_the_text_they_support(
    name: str, strict_mode: bool, router: respx.Router
) -> None:
    tag, in_reply, in_stream = GROUNDING[name]

    reply = from_gemini(
        await reply_of(router, name), agent_name=AGENT, provider=tag, strict_mode=strict_mode
    )
    final = aggregate(await stream_of(router, name), tag)

    check_spans(reply, tag, in_reply)
    check_spans(final, tag, in_stream)


@pytest.mark.parametrize("name", GROUNDING)
async def test_a_grounding_stream_ends_as_the_reply_of_its_joined_chunks(
    name: str, router: respx.Router
) -> None:
    tag = GROUNDING[name][0]
    chunks = await stream_of(router, name)
    aggregator = GeminiStreamAggregator(AGENT, provider=tag)
    for chunk in chunks:
        aggregator.add(chunk)
    joined = aggregator.joined()

    # One text part, the last chunk's metadata: what a non-streaming reply of it holds.
    candidate = (joined.candidates or [])[0]
    assert len((candidate.content.parts or []) if candidate.content else []) == 1
    assert candidate.grounding_metadata == chunks[-1].candidates[0].grounding_metadata  # type: ignore[index]
    assert aggregator.finish() == from_gemini(joined, agent_name=AGENT, provider=tag)


CODE = (
    "from datetime import datetime\nimport pytz\n\n# Get the current time in UTC\nutc_now = "
    "datetime.now(pytz.utc)\n\n# Get the timezone for Utrecht (which is in the Netherlands, "
    "using Europe/Amsterdam)\nutrecht_tz = pytz.timezone('Europe/Amsterdam')\n\n# Convert the "
    "current UTC time to Utrecht's local time\nutrecht_now = utc_now.astimezone(utrecht_tz)\n\n"
    '# Format the date to be easily readable (e.g., "Tuesday, May 21, 2024")\nformatted_date = '
    'utrecht_now.strftime("%A, %B %d, %Y")\n\nprint(f"Today in Utrecht is {formatted_date}.")\n'
)


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
async def test_a_recorded_code_execution_reply_is_one_hosted_call(
    strict_mode: bool, router: respx.Router
) -> None:
    reply = from_gemini(
        await reply_of(router, "code-execution"), agent_name=AGENT, strict_mode=strict_mode
    )

    assert isinstance(reply, TextMessage)
    (call,) = reply.hosted_tools
    assert (call.name, json.loads(call.arguments), call.result, call.is_error) == (
        "code_execution",
        {"language": "PYTHON", "code": CODE},
        "Today in Utrecht is Tuesday, September 16, 2025.\n",
        False,
    )
    assert call.provider_data["gemini"]["offset"] == 0


async def test_the_recorded_code_execution_stream_keeps_both_runs_past_the_first_stop(
    router: respx.Router,
) -> None:
    final = aggregate(await stream_of(router, "code-execution"), "gemini")

    assert isinstance(final, TextMessage)
    assert (final.content, final.finish_reason) == ("The result is -428,330,955.97745.", "stop")
    thought, answer = final.hosted_tools
    assert [part.get("thought") for part in thought.provider_data["gemini"]["parts"]] == [
        True,
        True,
    ]
    assert [part.get("thought") for part in answer.provider_data["gemini"]["parts"]] == [None, None]
    assert (thought.result, answer.result) == ("-428330955.97745\n", "-428330955.97745\n")


def recorded_parts(name: str) -> list[dict[str, Any]]:
    """The model parts of a recorded reply in the snake_case names ``to_gemini`` writes."""
    body = json.loads((FIXTURES / f"{name}.json").read_text())
    names = {"executableCode": "executable_code", "codeExecutionResult": "code_execution_result"}
    return [
        {names.get(key, key): value for key, value in part.items()}
        for part in body["candidates"][0]["content"]["parts"]
    ]


async def test_a_recorded_code_execution_reply_goes_back_exactly_and_imports_back(
    router: respx.Router,
) -> None:
    reply = from_gemini(await reply_of(router, "code-execution"), agent_name=AGENT)
    history = [
        TextMessage(Role.USER, "What day is it in Utrecht?"),
        reply,
        TextMessage(Role.USER, "Thanks"),
    ]

    request = to_gemini(history, agent_name=AGENT)

    assert request.contents[1] == {"role": "model", "parts": recorded_parts("code-execution")}
    assert request.notes == ()
    await sent_body(router, request)  # the conftest router validates the body the SDK sent
    imported = from_gemini_contents(request.contents, agent_name=AGENT)
    assert not any(isinstance(message, MessageEnvelope) for message in imported)
    assert to_gemini(imported, agent_name=AGENT).contents == request.contents


async def test_the_recorded_stream_goes_back_with_its_thought_run_first(
    router: respx.Router,
) -> None:
    final = aggregate(await stream_of(router, "code-execution"), "gemini")

    request = to_gemini(
        [TextMessage(Role.USER, "Compute it."), final, TextMessage(Role.USER, "Thanks")],
        agent_name=AGENT,
    )

    kinds = [(next(iter(part)), part.get("thought")) for part in request.contents[1]["parts"]]
    assert kinds == [
        ("executable_code", True),
        ("code_execution_result", True),
        ("executable_code", None),
        ("code_execution_result", None),
        ("text", None),
    ]
