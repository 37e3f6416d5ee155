"""Recorded Chat Completions replies with annotations (tests/fixtures/openai/rev3, facts in
tests/fixtures/rev3-facts.md) through the real SDK over respx: the recorded bytes as served."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from llmbridge import Citation, TextMessage
from tests.openai.helpers import CHAT_URL, new_router, sent_bodies
from tests.openai.test_citations import connected

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "openai" / "rev3"
MODES = pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])


def _recorded(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def _streamed_annotations(body: bytes) -> list[Any]:
    """The annotations of the recorded stream's deltas, in order (read apart from llmbridge)."""
    found = []
    for block in body.decode().split("\n\n"):
        if block.startswith("data: {"):
            for choice in json.loads(block[len("data: ") :])["choices"]:
                found += choice["delta"].get("annotations", [])
    return found


def _expected(annotations: list[Any]) -> tuple[Citation, ...]:
    return tuple(
        Citation(
            item["url_citation"]["start_index"],
            item["url_citation"]["end_index"],
            url=item["url_citation"]["url"],
            title=item["url_citation"]["title"],
            provider="openai",
            provider_data={"openai": item},
        )
        for item in annotations
    )


async def _ask(strict_mode: bool, response: httpx.Response, *, stream: bool) -> Any:
    router = new_router()
    route = router.post(CHAT_URL).mock(return_value=response)
    agent = connected(router, strict_mode)
    if stream:
        reply = [item async for item in agent.stream("Pydantic AI's repository?")][-1]
    else:
        reply = await agent.send("Pydantic AI's repository?")
    sent_bodies(route)
    return reply


@MODES
async def test_openrouter_s_reply_annotations_are_its_citations(strict_mode: bool) -> None:
    body = _recorded("openrouter-web-search-annotations.json")
    annotations = json.loads(body)["choices"][0]["message"]["annotations"]

    reply = await _ask(strict_mode, httpx.Response(200, content=body), stream=False)

    assert isinstance(reply, TextMessage)
    assert reply.content == "https://github.com/pydantic/pydantic-ai"
    assert reply.citations == _expected(annotations)
    assert [(c.start, c.end) for c in reply.citations] == [(0, 0)] * 5  # no anchor in the text
    assert reply.citations[1].title == ""  # kept as sent
    assert "content" in reply.citations[0].provider_data["openai"]["url_citation"]


@MODES
async def test_openrouter_s_stream_ends_with_the_annotations_its_deltas_carried(
    strict_mode: bool,
) -> None:
    body = _recorded("openrouter-web-search-annotations.sse")
    response = httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})

    reply = await _ask(strict_mode, response, stream=True)

    assert isinstance(reply, TextMessage)
    assert reply.content.endswith("https://github.com/pydantic/pydantic-ai")
    assert reply.citations == _expected(_streamed_annotations(body))
    assert len(reply.citations) == 5


@MODES
async def test_a_search_preview_reply_with_empty_annotations_has_no_citations(
    strict_mode: bool,
) -> None:
    body = _recorded("search-preview-no-annotations.json")

    reply = await _ask(strict_mode, httpx.Response(200, content=body), stream=False)

    assert isinstance(reply, TextMessage)
    assert reply.content.startswith("Het is momenteel zonnig in Utrecht")
    assert reply.citations == ()
