"""A strict validator of the Anthropic Messages request shape (wire-rules.md section 3).

Documents (``document`` blocks: a PDF base64 or http(s) url source, a ``text/plain`` text
source) only in user turns and inside ``tool_result`` content, which may hold text, image and
document blocks (wave2.md 3.1, 3.4). Images and documents may name a Files API file
(``{"type": "file", "file_id"}``: ``file_image_source_param.py``,
``file_document_source_param.py``), which the API reads only with the Files beta:
``assert_valid_http_request`` checks a sent request's body and ``anthropic-beta`` header
(``wire_betas.py``). Assistant turns may replay text with ``citations`` and server-tool and MCP
blocks (``wire_hosted.py``).

Stricter than the API where the API is lenient (it merges consecutive same-role turns; we
require them merged; citations only on assistant text, as replies carry them).
``fragment=True`` checks a message-by-message conversion (``check_pairing=False``): block rules
only, no turn order, no pairing across turns.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from typing import Any

import httpx

from llmbridge.anthropic import AnthropicRequest
from tests.anthropic.wire_betas import FILES_BETA, MCP_BETAS, assert_betas, required_betas
from tests.anthropic.wire_hosted import (
    HOSTED_BLOCKS,
    check_citations,
    check_hosted_block,
    check_hosted_order,
)
from tests.sdk_shapes import WireError
from tests.urls import only_google_reads

__all__ = [
    "FILES_BETA",
    "MCP_BETAS",
    "WireError",
    "assert_betas",
    "assert_valid_http_request",
    "assert_valid_request",
    "required_betas",
]

ID_PATTERN = re.compile(r"^[a-zA-Z0-9_-]+$")
TOOL_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
# A Files API id: not a URI and not another provider's file name (``files/abc``).
FILE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")

# block type -> (required keys, optional keys)
BLOCK_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "text": (frozenset({"type", "text"}), frozenset({"citations"})),
    "image": (frozenset({"type", "source"}), frozenset()),
    "document": (frozenset({"type", "source"}), frozenset({"title", "context", "citations"})),
    "tool_use": (frozenset({"type", "id", "name", "input"}), frozenset()),
    "tool_result": (frozenset({"type", "tool_use_id"}), frozenset({"content", "is_error"})),
    "thinking": (frozenset({"type", "thinking", "signature"}), frozenset()),
    "redacted_thinking": (frozenset({"type", "data"}), frozenset()),
}
ROLE_BLOCKS = {
    "user": frozenset({"text", "image", "document", "tool_result"}),
    "assistant": frozenset({"text", "thinking", "redacted_thinking", "tool_use"}) | HOSTED_BLOCKS,
}
# What a tool_result's content list may hold (tool_result_block_param.py: text, image,
# document, search_result, tool_reference; llmbridge sends the first three).
RESULT_BLOCKS = frozenset({"text", "image", "document"})
TEXT_SOURCE_TYPES = frozenset({"text/plain"})
FRONT = {
    "user": frozenset({"tool_result"}),
    "assistant": frozenset({"thinking", "redacted_thinking"}),
}


def _fail(where: str, problem: str) -> None:
    raise WireError(f"{where}: {problem}")


def _keys(where: str, obj: Mapping[str, Any], required: frozenset[str], optional: frozenset[str]):
    missing = required - obj.keys()
    unknown = obj.keys() - required - optional
    if missing:
        _fail(where, f"missing keys {sorted(missing)}")
    if unknown:
        _fail(where, f"unknown keys {sorted(unknown)}")


def _text(where: str, text: Any) -> None:
    if not isinstance(text, str) or not text.strip():
        _fail(where, f"text must be a non-empty, non-whitespace string, got {text!r}")


def _file_source(where: str, source: Mapping[str, Any]) -> None:
    _keys(f"{where}.source", source, frozenset({"type", "file_id"}), frozenset())
    file_id = source["file_id"]
    if not isinstance(file_id, str) or not FILE_ID.match(file_id):
        _fail(where, f"file_id {file_id!r} breaks {FILE_ID.pattern}")


def _image(where: str, block: Mapping[str, Any]) -> None:
    source = block["source"]
    if source.get("type") == "file":
        _file_source(where, source)
        return
    if source.get("type") == "url":
        _keys(f"{where}.source", source, frozenset({"type", "url"}), frozenset())
        if not source["url"] or source["url"].startswith("data:"):
            _fail(where, "url sources must be real URLs")
        if only_google_reads(source["url"]):
            _fail(where, "Anthropic cannot fetch gs:// or Files API URIs")
        return
    _keys(f"{where}.source", source, frozenset({"type", "media_type", "data"}), frozenset())
    if source["type"] != "base64":
        _fail(where, f"unknown image source type {source['type']!r}")
    if source["media_type"] not in MEDIA_TYPES:
        _fail(where, f"media type {source['media_type']!r} not allowed")
    _base64(where, source["data"])


def _base64(where: str, data: Any) -> None:
    if not isinstance(data, str) or not data or data.startswith("data:"):
        _fail(where, "base64 data must be a bare, non-empty base64 string")
    try:
        base64.b64decode(data, validate=True)
    except binascii.Error:
        _fail(where, "base64 data does not decode")


def _document(where: str, block: Mapping[str, Any]) -> None:
    source = block["source"]
    kind = source.get("type") if isinstance(source, Mapping) else None
    if kind == "url":
        _keys(f"{where}.source", source, frozenset({"type", "url"}), frozenset())
        if not source["url"].startswith(("http://", "https://")):
            _fail(where, "document url sources must be http(s) URLs")
        if only_google_reads(source["url"]):
            _fail(where, "Anthropic cannot fetch Files API URIs")
    elif kind == "base64":
        _keys(f"{where}.source", source, frozenset({"type", "media_type", "data"}), frozenset())
        if source["media_type"] != "application/pdf":
            _fail(where, "base64 document sources must be application/pdf")
        _base64(where, source["data"])
    elif kind == "file":
        _file_source(where, source)
    elif kind == "text":
        _keys(f"{where}.source", source, frozenset({"type", "media_type", "data"}), frozenset())
        if source["media_type"] not in TEXT_SOURCE_TYPES:
            _fail(where, f"text document sources must be text/plain, got {source['media_type']!r}")
        if not isinstance(source["data"], str):
            _fail(where, "text document data must be a string")
    else:
        _fail(where, f"unknown document source type {kind!r}")
    if "title" in block and not (isinstance(block["title"], str) and block["title"]):
        _fail(where, "a document title must be a non-empty string")


def _result_content(where: str, content: Any) -> None:
    if isinstance(content, str):
        if not content:
            _fail(where, "tool_result content must be a non-empty string when present")
        return
    if not isinstance(content, list) or not content:
        _fail(where, "tool_result content must be a non-empty string or list of blocks")
    for position, block in enumerate(content):
        inner = f"{where}.content[{position}]"
        if not isinstance(block, Mapping) or block.get("type") not in RESULT_BLOCKS:
            _fail(inner, f"a tool_result holds only {sorted(RESULT_BLOCKS)} blocks")
        if block.get("type") == "text" and "citations" in block:
            _fail(inner, "citations belong to assistant text, not to a tool_result")
        _block(inner, block)


def _has_content(content: Any) -> bool:
    return bool(content.strip()) if isinstance(content, str) else bool(content)


def _block(where: str, block: Mapping[str, Any]) -> None:
    kind = block.get("type")
    if kind in HOSTED_BLOCKS:
        check_hosted_block(where, block)
        return
    if kind not in BLOCK_KEYS:
        _fail(where, f"unknown block type {kind!r}")
    _keys(where, block, *BLOCK_KEYS[kind])
    if kind == "text":
        _text(where, block["text"])
        if "citations" in block:
            check_citations(where, block["citations"])
    elif kind == "image":
        _image(where, block)
    elif kind == "document":
        _document(where, block)
    elif kind == "tool_use":
        if not ID_PATTERN.match(block["id"]):
            _fail(where, f"tool_use id {block['id']!r} breaks {ID_PATTERN.pattern}")
        if not TOOL_NAME_PATTERN.match(block["name"]):
            _fail(where, f"tool name {block['name']!r} breaks {TOOL_NAME_PATTERN.pattern}")
        if not isinstance(block["input"], dict):
            _fail(where, "tool_use input must be an object")
    elif kind == "tool_result":
        if not ID_PATTERN.match(block["tool_use_id"]):
            _fail(where, f"tool_use_id {block['tool_use_id']!r} breaks {ID_PATTERN.pattern}")
        if "content" in block:
            _result_content(where, block["content"])
        if "is_error" in block and not isinstance(block["is_error"], bool):
            _fail(where, "is_error must be a bool")
        if block.get("is_error") and not _has_content(block.get("content", "")):
            _fail(where, "an error result needs non-empty content")
    elif kind == "thinking":
        if not isinstance(block["thinking"], str) or not isinstance(block["signature"], str):
            _fail(where, "thinking and signature must be strings")
        if not block["signature"]:
            _fail(where, "thinking needs its signature")
    elif not isinstance(block["data"], str) or not block["data"]:
        _fail(where, "redacted_thinking needs its data")


def _turn(where: str, message: Mapping[str, Any]) -> None:
    _keys(where, message, frozenset({"role", "content"}), frozenset())
    role = message["role"]
    if role not in ROLE_BLOCKS:
        _fail(where, f"role must be user or assistant, got {role!r}")
    content = message["content"]
    if isinstance(content, str):  # shorthand for one text block
        _text(where, content)
        return
    if not isinstance(content, list) or not content:
        _fail(where, "content must be a non-empty list of blocks")
    seen_other = False
    for position, block in enumerate(content):
        block_where = f"{where}.content[{position}]"
        _block(block_where, block)
        if block["type"] not in ROLE_BLOCKS[role]:
            _fail(block_where, f"a {block['type']} block cannot be in a {role} turn")
        if block["type"] == "text" and "citations" in block and role != "assistant":
            _fail(block_where, "citations belong to assistant text (replies carry them)")
        if block["type"] in FRONT[role]:
            if seen_other:
                _fail(block_where, f"{block['type']} must come before the other blocks")
        else:
            seen_other = True
    if role == "assistant":
        check_hosted_order(where, content)


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def _pairing(messages: list[Mapping[str, Any]]) -> None:
    messages = [{"role": m["role"], "content": _blocks(m)} for m in messages]
    used: set[str] = set()
    for position, message in enumerate(messages):
        where = f"messages[{position}]"
        calls = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        results = [b["tool_use_id"] for b in message["content"] if b["type"] == "tool_result"]
        hosted = [
            b["id"] for b in message["content"] if b["type"] in ("server_tool_use", "mcp_tool_use")
        ]
        for call_id in calls + hosted:
            if call_id in used:
                _fail(where, f"tool_use id {call_id!r} is not unique in the request")
            used.add(call_id)
        if results:
            previous = messages[position - 1] if position else {"content": []}
            asked = {b["id"] for b in previous["content"] if b["type"] == "tool_use"}
            for result_id in results:
                if result_id not in asked:
                    _fail(where, f"tool_result {result_id!r} answers no tool_use just before it")
        if calls:
            following = messages[position + 1] if position + 1 < len(messages) else None
            answered = (
                set()
                if following is None
                else {b["tool_use_id"] for b in following["content"] if b["type"] == "tool_result"}
            )
            if set(calls) - answered:
                _fail(where, f"tool_use ids {sorted(set(calls) - answered)} are not answered next")


def assert_valid_request(
    request: AnthropicRequest | Mapping[str, Any], *, fragment: bool = False
) -> None:
    """Raise ``WireError`` unless ``request`` (or a ``{"system", "messages"}`` body) is valid."""
    if isinstance(request, AnthropicRequest):
        system: Any = request.system
        messages: Any = request.messages
    else:
        system = request.get("system", [])
        messages = request["messages"]
    if not isinstance(system, list):
        _fail("system", "must be a list of text blocks")
    for position, block in enumerate(system):
        _keys(f"system[{position}]", block, frozenset({"type", "text"}), frozenset())
        if block["type"] != "text":
            _fail(f"system[{position}]", "only text blocks")
        _text(f"system[{position}]", block["text"])
    for position, message in enumerate(messages):
        _turn(f"messages[{position}]", message)
    if fragment:
        return
    if not messages:
        _fail("messages", "a request needs at least one message")
    if messages[0]["role"] != "user":
        _fail("messages[0]", "the first message must be a user turn")
    for position in range(1, len(messages)):
        if messages[position]["role"] == messages[position - 1]["role"]:
            _fail(f"messages[{position}]", "roles must alternate (merge same-role turns)")
    _pairing(messages)


def assert_valid_http_request(request: httpx.Request) -> dict[str, Any]:
    """Check a recorded Messages request: its JSON body and its beta header; return the body."""
    body: dict[str, Any] = json.loads(request.content)
    assert_valid_request(body)
    assert_betas(body, request.headers)
    return body
