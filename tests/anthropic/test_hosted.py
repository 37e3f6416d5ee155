"""Anthropic server and MCP tools (API.md 19.5, 19.7): replies and streams -> ``HostedToolCall``s
(no longer dropped, strict mode takes them), replayed in place to Anthropic, omitted with a note
for another provider's, read back by the importer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from llmbridge import (
    EmptyResponseError,
    HostedToolCall,
    InvalidMessageError,
    Role,
    TextMessage,
    ToolCallMessage,
)
from llmbridge.anthropic import from_anthropic, from_anthropic_messages, to_anthropic
from llmbridge.kit import plain_json
from llmbridge.testing import anthropic_message, anthropic_text_block, anthropic_tool_use_block
from tests.anthropic.helpers import MCP_RESULT, MCP_USE, convert
from tests.anthropic.rev3 import (
    assert_replayed,
    plain_and_streamed,
    sdk_message,
)
from tests.corpus import AGENT

QUESTION = TextMessage(Role.USER, "Look it up.")


def use(tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"type": "server_tool_use", "id": tool_id, "name": name, "input": tool_input}


def result(kind: str, tool_id: str, content: Any) -> dict[str, Any]:
    return {"type": kind, "tool_use_id": tool_id, "content": content}


SEARCH_HIT = {
    "type": "web_search_result",
    "title": "Rate limits - Anthropic",
    "url": "https://docs.anthropic.com/en/api/rate-limits",
    "encrypted_content": "EqgfCioIARgBIiQ3YTAw",
    "page_age": "March 3, 2025",
}
SECOND_HIT = {
    "type": "web_search_result",
    "title": "Tiers",
    "url": "https://docs.anthropic.com/tiers",
    "encrypted_content": "Eq2",
}
FETCHED = {
    "type": "web_fetch_result",
    "url": "https://example.com/a.txt",
    "retrieved_at": "2025-09-10T00:00:00Z",
    "content": {
        "type": "document",
        "title": "a.txt",
        "source": {"type": "text", "media_type": "text/plain", "data": "Plain page text."},
    },
}
FETCHED_PDF = {
    "type": "web_fetch_result",
    "url": "https://example.com/a.pdf",
    "content": {
        "type": "document",
        "title": "A report",
        "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
    },
}
RUN = {
    "type": "code_execution_result",
    "stdout": "4\n",
    "stderr": "",
    "return_code": 0,
    "content": [],
}
FAILED_RUN = {
    "type": "bash_code_execution_result",
    "stdout": "partial",
    "stderr": "Traceback: boom",
    "return_code": 1,
    "content": [],
}
ENCRYPTED = {
    "type": "encrypted_code_execution_result",
    "encrypted_stdout": "EsQB",
    "stderr": "",
    "return_code": 0,
    "content": [],
}

_RESULT_TYPES = {
    "tool_search_tool_regex": "tool_search_tool_result",
    "tool_search_tool_bm25": "tool_search_tool_result",
}


def pair(name: str, tool_input: dict[str, Any], content: Any) -> list[dict[str, Any]]:
    """A server tool's use block and its result block (of the type the tool answers with)."""
    kind = _RESULT_TYPES.get(name, f"{name}_tool_result")
    return [use("srvtoolu_1", name, tool_input), result(kind, "srvtoolu_1", content)]


def error(kind: str, code: str, **message: str) -> dict[str, Any]:
    return {"type": f"{kind}_tool_result_error", "error_code": code, **message}


def editor(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": f"text_editor_code_execution_{kind}_result", **fields}


EDITOR = "text_editor_code_execution"
PAIR = pair("web_search", {"query": "rate limits"}, [SEARCH_HIT])
SECOND_PAIR = [
    use("srvtoolu_2", "web_search", {"query": "tiers"}),
    result("web_search_tool_result", "srvtoolu_2", [SECOND_HIT]),
]
Q = {"query": "x"}
# blocks -> (result, is_error); name, arguments and id are the use block's
CALLS: dict[str, tuple[list[dict[str, Any]], str | None, bool]] = {
    "web_search_one_line_per_result": (
        pair("web_search", Q, [SEARCH_HIT, SECOND_HIT]),
        "Rate limits - Anthropic https://docs.anthropic.com/en/api/rate-limits\n"
        "Tiers https://docs.anthropic.com/tiers",
        False,
    ),
    "web_search_without_hits": (pair("web_search", Q, []), "", False),
    "web_search_error": (
        pair("web_search", Q, error("web_search", "max_uses_exceeded")),
        "max_uses_exceeded",
        True,
    ),
    "web_fetch_text_document": (pair("web_fetch", Q, FETCHED), "Plain page text.", False),
    "web_fetch_pdf_its_title_and_url": (
        pair("web_fetch", Q, FETCHED_PDF),
        "A report https://example.com/a.pdf",
        False,
    ),
    "web_fetch_error": (
        pair("web_fetch", Q, error("web_fetch", "url_not_accessible")),
        "url_not_accessible",
        True,
    ),
    "code_execution_stdout": (pair("code_execution", {"code": "print(4)"}, RUN), "4\n", False),
    "code_execution_encrypted_stdout": (pair("code_execution", Q, ENCRYPTED), None, False),
    "bash_stdout_then_stderr": (
        pair("bash_code_execution", Q, FAILED_RUN),
        "partial\nTraceback: boom",
        False,
    ),
    "bash_error": (
        pair("bash_code_execution", Q, error("bash_code_execution", "execution_time_exceeded")),
        "execution_time_exceeded",
        True,
    ),
    "text_editor_view": (
        pair(EDITOR, Q, editor("view", content="x = 1\n", file_type="text")),
        "x = 1\n",
        False,
    ),
    "text_editor_create_gives_no_text": (
        pair(EDITOR, Q, editor("create", is_file_update=False)),
        None,
        False,
    ),
    "text_editor_str_replace_lines": (
        pair(EDITOR, Q, editor("str_replace", lines=["-x = 1", "+x = 2"], old_start=1)),
        "-x = 1\n+x = 2",
        False,
    ),
    "text_editor_error_with_message": (
        pair(EDITOR, Q, error(EDITOR, "file_not_found", error_message="no /b")),
        "file_not_found: no /b",
        True,
    ),
    "tool_search_names_one_per_line": (
        pair(
            "tool_search_tool_regex",
            Q,
            {
                "type": "tool_search_tool_search_result",
                "tool_references": [
                    {"type": "tool_reference", "tool_name": "get_weather"},
                    {"type": "tool_reference", "tool_name": "get_forecast"},
                ],
            },
        ),
        "get_weather\nget_forecast",
        False,
    ),
    "tool_search_error": (
        pair("tool_search_tool_bm25", Q, error("tool_search", "unavailable")),
        "unavailable",
        True,
    ),
    "mcp_tool": ([MCP_USE, MCP_RESULT], "60 requests per minute", False),
    "mcp_tool_error_text_content": (
        [MCP_USE, {**MCP_RESULT, "is_error": True, "content": "server down"}],
        "server down",
        True,
    ),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("blocks", "text", "is_error"), CALLS.values(), ids=CALLS.keys())
async def test_a_hosted_tool_and_its_result_become_one_hosted_tool_call(
    blocks: list[dict[str, Any]], text: str | None, is_error: bool, strict: bool
) -> None:
    body = anthropic_message(
        [anthropic_text_block("Let me check."), *blocks, anthropic_text_block("Done.")]
    )

    plain, streamed = await plain_and_streamed(body, strict=strict)

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    assert plain.content == "Let me check.Done."
    (call,) = plain.hosted_tools
    first = blocks[0]
    assert (call.name, call.arguments, call.id, call.provider) == (
        first["name"],
        json.dumps(first["input"]),
        first["id"],
        "anthropic",
    )
    assert (call.result, call.is_error) == (text, is_error)
    assert plain_json(call.provider_data) == {"anthropic": {"blocks": blocks, "offset": 13}}


async def test_a_use_block_still_waiting_and_a_result_of_an_earlier_reply_are_calls_too() -> None:
    waiting = use("srvtoolu_2", "web_search", {"query": "more"})
    earlier = result("web_search_tool_result", "srvtoolu_0", [SEARCH_HIT])
    body = anthropic_message(
        [earlier, anthropic_text_block("And now:"), waiting], stop_reason="pause_turn"
    )

    plain, streamed = await plain_and_streamed(body)

    assert streamed == plain
    assert [(c.name, c.id, c.arguments, c.result is None) for c in plain.hosted_tools] == [
        ("web_search", "srvtoolu_0", "{}", False),
        ("web_search", "srvtoolu_2", '{"query": "more"}', True),
    ]
    assert [c.provider_data["anthropic"]["offset"] for c in plain.hosted_tools] == [0, 8]


async def test_hosted_tools_beside_a_client_tool_call_are_on_the_tool_call_message() -> None:
    body = anthropic_message(
        [
            *PAIR,
            anthropic_text_block("Now the weather:"),
            anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris"}),
        ],
        stop_reason="tool_use",
    )

    plain, streamed = await plain_and_streamed(body)

    assert streamed == plain
    assert isinstance(plain, ToolCallMessage)
    assert [call.function_name for call in plain.tool_calls] == ["get_weather"]
    assert [call.name for call in plain.hosted_tools] == ["web_search"]


# -- pause_turn ---------------------------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
async def test_a_paused_reply_of_hosted_tools_only_is_an_empty_text_message(strict: bool) -> None:
    body = anthropic_message(
        [*PAIR, use("srvtoolu_2", "web_search", {"query": "more"})], stop_reason="pause_turn"
    )

    plain, streamed = await plain_and_streamed(body, strict=strict)

    assert streamed == plain
    assert isinstance(plain, TextMessage)
    assert (plain.content, plain.finish_reason, len(plain.hosted_tools)) == ("", "pause", 2)


async def test_hosted_tools_only_without_a_pause_are_an_empty_reply() -> None:
    body = anthropic_message(PAIR, stop_reason="end_turn")

    with pytest.raises(EmptyResponseError):
        from_anthropic(sdk_message(body), agent_name=AGENT)


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
