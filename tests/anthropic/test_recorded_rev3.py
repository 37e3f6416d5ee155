"""The recorded Anthropic replies and streams with citations and server tools
(``tests/fixtures/anthropic/rev3``, facts in ``tests/fixtures/rev3-facts.md``), through the real
SDK over respx: each stream ends in the reply the SDK's own accumulator makes of it; each reply
has the citations and hosted tools the facts list, goes back to Anthropic block for block (its
``null`` fields left out) and imports back exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import Role, TextMessage
from llmbridge.anthropic import from_anthropic_messages, to_anthropic
from llmbridge.testing import anthropic_client
from tests.anthropic.helpers import convert
from tests.anthropic.rev3 import (
    REV3,
    connected,
    plain_and_streamed,
    recorded,
    router_for,
    without_nulls,
)
from tests.corpus import AGENT

QUESTION = TextMessage(Role.USER, "Hi")


# reply -> (hosted tool names, citation count, finish reason)
REPLIES: dict[str, tuple[list[str], int, str]] = {
    "web-search-citations.json": (["web_search", "web_search"], 3, "stop"),
    "code-execution-20250825.json": (
        ["text_editor_code_execution", "bash_code_execution"],
        0,
        "stop",
    ),
    "pause-turn-web-search.json": (["web_search"] * 11, 0, "pause"),
    "document-citations-char-location.json": ([], 1, "stop"),
    "document-citations-page-location.json": ([], 1, "stop"),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("name", "expected"), REPLIES.items(), ids=REPLIES.keys())
async def test_a_recorded_reply_and_a_stream_of_it_give_the_same_message(
    name: str, expected: tuple[list[str], int, str], strict: bool
) -> None:
    plain, streamed = await plain_and_streamed(recorded(name), strict=strict)

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    names, citations, finish = expected
    assert [call.name for call in plain.hosted_tools] == names
    assert len(plain.citations) == citations
    assert plain.finish_reason == finish
    for citation in plain.citations:
        assert plain.content[citation.start : citation.end], "a citation covers its block"


@pytest.mark.parametrize("name", REPLIES, ids=REPLIES.keys())
async def test_a_recorded_reply_goes_back_block_for_block_and_imports_back(name: str) -> None:
    body = recorded(name)
    plain, _ = await plain_and_streamed(body)

    request = convert([QUESTION, plain], strict=True)

    assert request.messages[-1] == {"role": "assistant", "content": without_nulls(body["content"])}
    imported = from_anthropic_messages(request.messages, agent_name=AGENT, strict_mode=True)
    assert to_anthropic(imported, agent_name=AGENT).messages == request.messages


def test_the_recorded_assistant_turns_import_as_they_are_and_round_trip() -> None:
    for name in REPLIES:
        payload = [
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "assistant", "content": recorded(name)["content"]},
        ]

        imported = from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

        assert to_anthropic(imported, agent_name=AGENT).messages == payload, name


def test_the_web_search_reply_facts() -> None:
    body = recorded("web-search-citations.json")
    reply = from_anthropic_messages(
        [{"role": "assistant", "content": body["content"]}], agent_name=AGENT, strict_mode=True
    )[0]

    assert isinstance(reply, TextMessage)
    first, empty = reply.hosted_tools
    assert first.arguments == '{"query": "tech news today September 26 2024"}'
    assert first.result is not None
    assert len(first.result.splitlines()) == 10
    assert (
        first.result.splitlines()[0]
        == "Latest News - Apple Developer https://developer.apple.com/news/"
    )
    assert (empty.result, empty.is_error) == ("", False), "a search without hits"
    assert [c.url for c in reply.citations] == [
        "https://acecomments.mu.nu/?post=411647",
        "https://www.crescendo.ai/news/latest-ai-news-and-updates",
        "https://www.crescendo.ai/news/latest-ai-news-and-updates",
    ]
    cited = reply.citations[0]
    assert reply.content[cited.start : cited.end] == body["content"][6]["text"]


def test_the_code_execution_reply_facts() -> None:
    body = recorded("code-execution-20250825.json")
    reply = from_anthropic_messages(
        [{"role": "assistant", "content": body["content"]}], agent_name=AGENT, strict_mode=True
    )[0]

    assert isinstance(reply, TextMessage)
    create, run = reply.hosted_tools
    assert (create.result, create.is_error) == (None, False), "a create result gives no text"
    assert run.result == body["content"][5]["content"]["stdout"]
    assert run.arguments == '{"command": "python /tmp/fibonacci.py"}'


# -- the recorded streams: the SDK's own accumulator is the oracle ----------------------------

STREAMS: dict[str, tuple[int, int]] = {
    # stream -> (hosted tools, citations)
    "web-search-citations.sse": (1, 7),
    "document-citations-char-location.sse": (0, 1),
}


async def sdk_accumulated(sse: bytes) -> dict[str, Any]:
    """The reply the SDK's ``messages.stream`` helper assembles from the recording."""
    router = router_for({}, None, sse=sse)
    async with anthropic_client(router).messages.stream(
        model="claude-test", max_tokens=1024, messages=[{"role": "user", "content": "Hi"}]
    ) as stream:
        reply = await stream.get_final_message()
    body: dict[str, Any] = reply.model_dump(mode="json", warnings=False)
    return body


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("name", "counts"), STREAMS.items(), ids=STREAMS.keys())
async def test_a_recorded_stream_ends_in_the_reply_the_sdk_accumulates(
    name: str, counts: tuple[int, int], strict: bool
) -> None:
    sse = (REV3 / name).read_bytes()
    agent = connected(router_for(await sdk_accumulated(sse), None, sse=sse), strict=strict)

    plain = await agent.send("Hi")
    streamed = [message async for message in agent.stream("Hi")][-1]

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    assert (len(plain.hosted_tools), len(plain.citations)) == counts
