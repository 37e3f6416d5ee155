"""Anthropic server and MCP tools (API.md 19.5, 19.7): replies and streams -> ``HostedToolCall``s,
no longer dropped notes, strict mode takes them; a paused reply of hosted tools only.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from llmbridge import (
    EmptyResponseError,
    Role,
    TextMessage,
    ToolCallMessage,
)
from llmbridge.anthropic import from_anthropic
from llmbridge.kit import plain_json
from llmbridge.testing import anthropic_message, anthropic_text_block, anthropic_tool_use_block
from tests.anthropic.helpers import MCP_RESULT, MCP_USE
from tests.anthropic.hosted_blocks import (
    EDITOR,
    ENCRYPTED,
    FAILED_RUN,
    FETCHED,
    FETCHED_PDF,
    PAIR,
    RUN,
    SEARCH_HIT,
    SECOND_HIT,
    Q,
    editor,
    error,
    pair,
    result,
    use,
)
from tests.anthropic.rev3 import plain_and_streamed, sdk_message
from tests.corpus import AGENT

QUESTION = TextMessage(Role.USER, "Look it up.")


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
