"""What the Anthropic API ran or cited itself, as a request replays it (API.md 19.4, 19.5).

Shapes are the SDK's request types, read key by key by ``tests/sdk_shapes.py`` (unknown keys
rejected, ``None`` only where the type is ``Optional``):

- server-tool blocks: ``server_tool_use`` (``server_tool_use_block_param.py``) and the results
  ``web_search_tool_result``, ``web_fetch_tool_result``, ``code_execution_tool_result``,
  ``bash_code_execution_tool_result``, ``text_editor_code_execution_tool_result``,
  ``tool_search_tool_result`` (each ``<type>_block_param.py``);
- the MCP connector's ``mcp_tool_use`` and ``mcp_tool_result``, which exist only in the beta
  types (``beta/beta_mcp_tool_use_block_param.py``,
  ``beta/beta_request_mcp_tool_result_block_param.py``) and so need an ``mcp-client-*`` beta;
- text-block ``citations`` (``text_citation_param.py``: ``char_location``, ``page_location``,
  ``content_block_location``, ``web_search_result_location``, ``search_result_location``). A
  replayed response citation must drop the ``file_id`` the response types carry: the request
  types have none.

On top of the shapes: a ``server_tool_use`` id matches ``^srvtoolu_[a-zA-Z0-9_]+$`` (the API's
pattern: "server_tool_use.id: String should match pattern", ding113/claude-code-hub#470); a
result block comes after the use it answers, in the same assistant turn, is the result kind of
that tool's name, and answers it once; citation ranges run forward.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

from anthropic.types import (
    BashCodeExecutionToolResultBlockParam,
    CodeExecutionToolResultBlockParam,
    ServerToolUseBlockParam,
    TextCitationParam,
    TextEditorCodeExecutionToolResultBlockParam,
    ToolSearchToolResultBlockParam,
    WebFetchToolResultBlockParam,
    WebSearchToolResultBlockParam,
)
from anthropic.types.beta import BetaMCPToolUseBlockParam, BetaRequestMCPToolResultBlockParam

from tests.sdk_shapes import WireError, check_type

__all__ = [
    "HOSTED_BLOCKS",
    "MCP_BLOCKS",
    "check_citations",
    "check_hosted_block",
    "check_hosted_order",
]

SERVER_TOOL_ID: Final = re.compile(r"^srvtoolu_[a-zA-Z0-9_]+$")
MCP_TOOL_ID: Final = re.compile(r"^[a-zA-Z0-9_-]+$")
USE_SHAPES: Final[dict[str, Any]] = {
    "server_tool_use": ServerToolUseBlockParam,
    "mcp_tool_use": BetaMCPToolUseBlockParam,
}
RESULT_SHAPES: Final[dict[str, Any]] = {
    "web_search_tool_result": WebSearchToolResultBlockParam,
    "web_fetch_tool_result": WebFetchToolResultBlockParam,
    "code_execution_tool_result": CodeExecutionToolResultBlockParam,
    "bash_code_execution_tool_result": BashCodeExecutionToolResultBlockParam,
    "text_editor_code_execution_tool_result": TextEditorCodeExecutionToolResultBlockParam,
    "tool_search_tool_result": ToolSearchToolResultBlockParam,
    "mcp_tool_result": BetaRequestMCPToolResultBlockParam,
}
HOSTED_BLOCKS: Final = frozenset(USE_SHAPES) | frozenset(RESULT_SHAPES)
MCP_BLOCKS: Final = frozenset({"mcp_tool_use", "mcp_tool_result"})
# The result kind that answers each server tool (ServerToolUseBlockParam.name); every
# mcp_tool_use is answered by an mcp_tool_result.
RESULT_OF: Final = {
    "web_search": "web_search_tool_result",
    "web_fetch": "web_fetch_tool_result",
    "code_execution": "code_execution_tool_result",
    "bash_code_execution": "bash_code_execution_tool_result",
    "text_editor_code_execution": "text_editor_code_execution_tool_result",
    "tool_search_tool_regex": "tool_search_tool_result",
    "tool_search_tool_bm25": "tool_search_tool_result",
}
# citation type -> (start key, end key, whether the end must pass the start: block ranges are
# exclusive and never empty, citation_content_block_location_param.py)
CITATION_RANGES: Final = {
    "char_location": ("start_char_index", "end_char_index", False),
    "page_location": ("start_page_number", "end_page_number", False),
    "content_block_location": ("start_block_index", "end_block_index", True),
    "search_result_location": ("start_block_index", "end_block_index", True),
}


def _fail(where: str, problem: str) -> NoReturn:
    raise WireError(f"{where}: {problem}")


def check_hosted_block(where: str, block: Mapping[str, Any]) -> None:
    """Raise ``WireError`` unless ``block`` is a server-tool or MCP block of the SDK's shape."""
    kind = block["type"]
    check_type(block, USE_SHAPES.get(kind) or RESULT_SHAPES[kind], where)
    if kind == "server_tool_use" and not SERVER_TOOL_ID.match(block["id"]):
        _fail(where, f"server_tool_use id {block['id']!r} breaks {SERVER_TOOL_ID.pattern}")
    if kind == "mcp_tool_use" and not MCP_TOOL_ID.match(block["id"]):
        _fail(where, f"mcp_tool_use id {block['id']!r} breaks {MCP_TOOL_ID.pattern}")


def check_citations(where: str, citations: Any) -> None:
    """Raise ``WireError`` unless ``citations`` is a non-empty list of request citations."""
    if not isinstance(citations, list) or not citations:
        # The type takes null and [] too; a replay that has no citations leaves the key out.
        _fail(where, "citations must be a non-empty list when present")
    for position, citation in enumerate(citations):
        inner = f"{where}.citations[{position}]"
        check_type(citation, TextCitationParam, inner)
        start_key, end_key, strictly = CITATION_RANGES.get(citation["type"], (None, None, False))
        if start_key is None or end_key is None:
            continue
        start, end = citation[start_key], citation[end_key]
        if start < 0 or end < start or (strictly and end == start):
            _fail(inner, f"{start_key} {start} .. {end_key} {end} is not a forward range")
        if citation["type"] == "page_location" and start < 1:
            _fail(inner, "page numbers start at 1")


def check_hosted_order(where: str, blocks: Sequence[Mapping[str, Any]]) -> list[str]:
    """Check one assistant turn's server-tool and MCP blocks; return the ids of its uses.

    A result answers a use earlier in the same turn, of the result kind of that tool, once.
    A use may stand unanswered (a ``pause_turn`` reply sent back to be continued).
    """
    expected: dict[str, str] = {}
    answered: set[str] = set()
    for position, block in enumerate(blocks):
        kind = block["type"]
        inner = f"{where}.content[{position}]"
        if kind in USE_SHAPES:
            if block["id"] in expected:
                _fail(inner, f"{kind} id {block['id']!r} is used twice")
            expected[block["id"]] = (
                "mcp_tool_result" if kind == "mcp_tool_use" else RESULT_OF[block["name"]]
            )
        elif kind in RESULT_SHAPES:
            use_id = block["tool_use_id"]
            if use_id not in expected:
                _fail(inner, f"{kind} {use_id!r} comes before, or without, the use it answers")
            if expected[use_id] != kind:
                _fail(inner, f"{use_id!r} is answered by {expected[use_id]}, not {kind}")
            if use_id in answered:
                _fail(inner, f"{use_id!r} is answered twice")
            answered.add(use_id)
    return list(expected)
