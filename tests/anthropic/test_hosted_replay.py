"""Anthropic server and MCP tools (API.md 19.5): a reply's hosted blocks replayed in place to
Anthropic, another provider's omitted with one note, the importer reading them back exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import (
    HostedToolCall,
    InvalidMessageError,
    Role,
    TextMessage,
)
from llmbridge.anthropic import from_anthropic, from_anthropic_messages, to_anthropic
from llmbridge.testing import anthropic_message, anthropic_text_block, anthropic_tool_use_block
from tests.anthropic.helpers import MCP_RESULT, MCP_USE, convert
from tests.anthropic.hosted_blocks import (
    PAIR,
    SEARCH_HIT,
    SECOND_HIT,
    SECOND_PAIR,
    result,
    use,
)
from tests.anthropic.rev3 import assert_replayed, sdk_message
from tests.corpus import AGENT

QUESTION = TextMessage(Role.USER, "Look it up.")


# -- replayed in place ------------------------------------------------------------------------

REPLAYED: dict[str, tuple[list[dict[str, Any]], str]] = {
    "text_search_text": (
        [anthropic_text_block("Let me check."), *PAIR, anthropic_text_block("Found it.")],
        "end_turn",
    ),
    "search_first": ([*PAIR, anthropic_text_block("Found it.")], "end_turn"),
    "two_searches_in_a_row": (
        [*PAIR, *SECOND_PAIR, anthropic_text_block("Both.")],
        "end_turn",
    ),
    "paused_after_a_use_block": (
        [anthropic_text_block("One more:"), use("srvtoolu_9", "web_search", {"query": "c"})],
        "pause_turn",
    ),
    "paused_hosted_only": ([*PAIR], "pause_turn"),
    "mcp": ([MCP_USE, MCP_RESULT, anthropic_text_block("Sixty.")], "end_turn"),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("content", "stop"), REPLAYED.values(), ids=REPLAYED.keys())
def test_a_hosted_tool_reply_goes_back_block_for_block_and_imports_back(
    content: list[dict[str, Any]], stop: str, strict: bool
) -> None:
    assert_replayed(content, stop_reason=stop, strict=strict)


def test_a_tool_call_reply_sends_its_hosted_blocks_before_its_tool_use() -> None:
    content = [*PAIR, anthropic_text_block("Now:"), anthropic_tool_use_block("toolu_1", "f")]
    reply = from_anthropic(
        sdk_message(anthropic_message(content, stop_reason="tool_use")), agent_name=AGENT
    )

    assert convert([QUESTION, reply], check_pairing=False).messages[-1]["content"] == content


def test_a_result_of_an_earlier_paused_reply_joins_that_reply_in_one_assistant_turn() -> None:
    waiting = use("srvtoolu_9", "web_search", {"query": "c"})
    done = result("web_search_tool_result", "srvtoolu_9", [SEARCH_HIT])
    paused = from_anthropic(
        sdk_message(
            anthropic_message(
                [anthropic_text_block("One more:"), waiting], stop_reason="pause_turn"
            )
        ),
        agent_name=AGENT,
    )
    continued = from_anthropic(
        sdk_message(anthropic_message([done, anthropic_text_block("Done.")])), agent_name=AGENT
    )

    request = convert([QUESTION, paused, continued])

    assert request.messages[-1]["content"] == [
        anthropic_text_block("One more:"),
        waiting,
        done,
        anthropic_text_block("Done."),
    ]


WHITESPACE: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "the_only_text_is_whitespace": ([anthropic_text_block("\n"), *PAIR], PAIR),
    "trailing_whitespace_of_the_last_turn": (
        [anthropic_text_block("See:"), *PAIR, anthropic_text_block("\n\n")],
        [anthropic_text_block("See:"), *PAIR],
    ),
    "whitespace_between_two_searches": (
        [anthropic_text_block("See:"), *PAIR, anthropic_text_block("\n\n"), *SECOND_PAIR],
        [anthropic_text_block("See:"), *PAIR, *SECOND_PAIR],
    ),
}


@pytest.mark.parametrize(("content", "sent"), WHITESPACE.values(), ids=WHITESPACE.keys())
def test_whitespace_text_the_api_refuses_is_left_out_of_a_hosted_reply_with_a_note(
    content: list[dict[str, Any]], sent: list[dict[str, Any]]
) -> None:
    reply = from_anthropic(
        sdk_message(anthropic_message(content, stop_reason="pause_turn")), agent_name=AGENT
    )

    request = convert([QUESTION, reply], strict=True)

    assert request.messages[-1]["content"] == sent
    assert [(n.index, n.kind) for n in request.notes] == [(1, "repaired")]


# -- another provider's hosted tools ----------------------------------------------------------

FOREIGN = HostedToolCall(
    "web_search",
    '{"query": "x"}',
    id="ws_1",
    result="A https://a.example",
    provider="openai",
    provider_data={"openai": {"item": {"type": "web_search_call", "id": "ws_1"}}},
)


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("content", "sent"),
    [
        pytest.param("Found it.", [anthropic_text_block("Found it.")], id="text_kept"),
        pytest.param("", None, id="nothing_else_no_turn"),
    ],
)
def test_another_providers_hosted_tools_are_omitted_with_one_note_never_raising(
    content: str, sent: list[dict[str, Any]] | None, strict: bool
) -> None:
    reply = TextMessage(
        Role.ASSISTANT, content, AGENT, hosted_tools=[FOREIGN, FOREIGN], finish_reason="pause"
    )

    request = convert([QUESTION, reply], strict=strict)

    if sent is None:
        assert len(request.messages) == 1
    else:
        assert request.messages[-1]["content"] == sent
    assert [(n.index, n.kind) for n in request.notes] == [(1, "omitted")]


def test_an_anthropic_hosted_tool_without_its_blocks_is_omitted_with_a_note() -> None:
    bare = HostedToolCall("web_search", "{}", id="srvtoolu_1", provider="anthropic")
    reply = TextMessage(Role.ASSISTANT, "Found it.", AGENT, hosted_tools=[bare])

    request = convert([QUESTION, reply], strict=True)

    assert request.messages[-1]["content"] == [anthropic_text_block("Found it.")]
    assert [(n.index, n.kind) for n in request.notes] == [(1, "omitted")]


def test_another_agents_hosted_tools_are_not_sent_in_its_user_turn() -> None:
    own = from_anthropic(
        sdk_message(anthropic_message([*PAIR, anthropic_text_block("Found.")])), agent_name="other"
    )

    request = convert([QUESTION, own])

    assert request.messages[-1]["content"][-1] == anthropic_text_block("Found.")
    assert "server_tool_use" not in repr(request.messages)
    assert (1, "omitted") in [(n.index, n.kind) for n in request.notes]


# -- the importer -----------------------------------------------------------------------------

ASIS: dict[str, list[dict[str, Any]]] = {
    "result_not_right_after_its_use": [
        use("srvtoolu_1", "web_search", {"query": "a"}),
        anthropic_text_block("Meanwhile."),
        result("web_search_tool_result", "srvtoolu_1", []),
    ],
    "nulls_kept": [
        use("srvtoolu_1", "web_search", {"query": "a"}),
        result("web_search_tool_result", "srvtoolu_1", [{**SECOND_HIT, "page_age": None}]),
    ],
    "two_uses_then_two_results": [
        use("srvtoolu_1", "web_search", {"query": "a"}),
        use("srvtoolu_2", "web_search", {"query": "b"}),
        result("web_search_tool_result", "srvtoolu_1", []),
        result("web_search_tool_result", "srvtoolu_2", []),
    ],
    "two_plain_text_blocks_around_hosted": [
        anthropic_text_block("A"),
        anthropic_text_block("B"),
        *PAIR,
        anthropic_text_block("C"),
    ],
}


@pytest.mark.parametrize("content", ASIS.values(), ids=ASIS.keys())
def test_an_assistant_turn_of_hosted_blocks_imports_and_round_trips_exactly(
    content: list[dict[str, Any]],
) -> None:
    payload = [
        {"role": "user", "content": [anthropic_text_block("Hi")]},
        {"role": "assistant", "content": content},
    ]

    imported = from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

    assert all(m.from_ == AGENT for m in imported[1:])
    assert to_anthropic(imported, agent_name=AGENT).messages == payload


BROKEN: dict[str, dict[str, Any]] = {
    "use_without_id": {"type": "server_tool_use", "name": "web_search", "input": {}},
    "use_input_not_an_object": use("srvtoolu_1", "web_search", []),  # type: ignore[arg-type]
    "result_without_content": {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1"},
    "result_without_its_id": {"type": "mcp_tool_result", "content": "x"},
}


@pytest.mark.parametrize("block", BROKEN.values(), ids=BROKEN.keys())
def test_a_malformed_hosted_block_keeps_its_turn_as_an_envelope_or_raises_strict(
    block: dict[str, Any],
) -> None:
    payload = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": [block]}]

    lenient = from_anthropic_messages(payload, agent_name=AGENT)
    with pytest.raises(InvalidMessageError, match="cannot be imported") as raised:
        from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

    assert lenient[-1].content == payload[-1]  # type: ignore[union-attr]
    assert getattr(raised.value, "index", None) == 1


def test_another_agents_paused_reply_of_hosted_tools_only_sends_nothing_and_never_raises() -> None:
    paused = from_anthropic(
        sdk_message(anthropic_message(PAIR, stop_reason="pause_turn")), agent_name="other"
    )

    request = convert([QUESTION, paused], strict=True)

    assert request.messages == [{"role": "user", "content": [anthropic_text_block("Look it up.")]}]
    assert [(n.index, n.kind) for n in request.notes] == [(1, "omitted")]
