"""Server-tool blocks as the API sends them, for the hosted-tool tests (API.md 19.5)."""

from __future__ import annotations

from typing import Any


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
