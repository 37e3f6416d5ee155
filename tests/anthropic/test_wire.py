"""The strict request validator rejects every rule it claims to check (so it can fail)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.anthropic.helpers import assistant, text, tool_result, tool_use, user
from tests.anthropic.wire import WireError, assert_valid_request

GOOD_IMAGE = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="},
}
PDF_DOC = {
    "type": "document",
    "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="},
    "title": "a.pdf",
}
URL_DOC = {"type": "document", "source": {"type": "url", "url": "https://x.test/a.pdf"}}
TEXT_DOC = {
    "type": "document",
    "source": {"type": "text", "media_type": "text/plain", "data": "a,b"},
}
THINKING = {"type": "thinking", "thinking": "hm", "signature": "sig"}
USE = tool_use("call_1", "f", {})
VALID: dict[str, Any] = {
    "system": [text("Be brief.")],
    "messages": [
        user(text("hi"), GOOD_IMAGE, PDF_DOC, URL_DOC, TEXT_DOC),
        assistant(THINKING, text("calling"), USE),
        user(tool_result("call_1", [text("ok"), GOOD_IMAGE, PDF_DOC]), text("thanks")),
        assistant(text("done")),
    ],
}


def test_a_valid_request_passes() -> None:
    assert_valid_request(VALID)


def with_messages(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"system": [], "messages": list(messages)}


INVALID = [
    pytest.param(with_messages(), "at least one message", id="no_messages"),
    pytest.param(with_messages(assistant(text("x"))), "first message", id="first_message_not_user"),
    pytest.param(
        with_messages(user(text("a")), user(text("b"))), "alternate", id="same_role_twice"
    ),
    pytest.param(with_messages(user(text(""))), "non-whitespace", id="empty_text"),
    pytest.param(with_messages(user(text("  \n"))), "non-whitespace", id="whitespace_text"),
    pytest.param(
        with_messages({"role": "user", "content": []}), "non-empty list", id="empty_content"
    ),
    pytest.param(
        with_messages({"role": "system", "content": "x"}),
        "role must be",
        id="system_role_in_messages",
    ),
    pytest.param(
        with_messages({"role": "user", "content": [text("x")], "name": "bob"}),
        "unknown keys",
        id="unknown_key",
    ),
    pytest.param(
        with_messages(user({"type": "text", "text": "x", "cache": 1})),
        "unknown keys",
        id="unknown_block_key",
    ),
    pytest.param(
        with_messages(user({"type": "audio", "data": "x"})),
        "unknown block type",
        id="unknown_block_type",
    ),
    pytest.param(
        with_messages(
            user({**GOOD_IMAGE, "source": {**GOOD_IMAGE["source"], "media_type": "image/bmp"}})
        ),
        "not allowed",
        id="media_type_not_allowed",
    ),
    pytest.param(
        with_messages(
            user(
                {
                    **GOOD_IMAGE,
                    "source": {**GOOD_IMAGE["source"], "data": "data:image/png;base64,iVBO"},
                }
            )
        ),
        "bare",
        id="data_url_prefix_in_base64",
    ),
    pytest.param(
        with_messages(
            user({**GOOD_IMAGE, "source": {**GOOD_IMAGE["source"], "data": "not base64!"}})
        ),
        "does not decode",
        id="undecodable_base64",
    ),
    pytest.param(
        with_messages(
            user(text("hi")),
            assistant(tool_use("call.1", "f", {})),
            user(tool_result("call.1", "x")),
        ),
        "breaks",
        id="id_outside_pattern",
    ),
    pytest.param(
        with_messages(
            user(text("hi")),
            assistant({**tool_use("c", "f", {}), "input": []}),
            user(tool_result("c", "x")),
        ),
        "must be an object",
        id="input_not_an_object",
    ),
    pytest.param(
        with_messages(
            user(text("hi")), assistant(USE), user(text("x"), tool_result("call_1", "ok"))
        ),
        "tool_result must come before",
        id="tool_result_after_text",
    ),
    pytest.param(
        with_messages(user(text("hi")), assistant(text("x"), THINKING)),
        "thinking must come before",
        id="thinking_not_first",
    ),
    pytest.param(
        with_messages(user(text("hi")), assistant(USE), user(text("no result"))),
        "not answered next",
        id="tool_use_not_answered_next",
    ),
    pytest.param(
        with_messages(user(tool_result("call_1", "ok"))),
        "answers no tool_use",
        id="orphan_tool_result",
    ),
    pytest.param(
        with_messages(
            user(text("hi")),
            assistant(USE),
            user(tool_result("call_1", "ok")),
            assistant(tool_use("call_1", "f", {})),
            user(tool_result("call_1", "again")),
        ),
        "not unique",
        id="tool_use_id_not_unique",
    ),
    pytest.param(
        with_messages(
            user(text("hi")), assistant(USE), user(tool_result("call_1", " ", is_error=True))
        ),
        "error result needs",
        id="empty_error_result",
    ),
    pytest.param(
        with_messages(
            user(text("hi")), assistant(tool_use("c", "f", {})), user(tool_result("c", ""))
        ),
        "non-empty string when present",
        id="empty_string_result_content",
    ),
    pytest.param(with_messages(user(USE)), "cannot be in a user turn", id="tool_use_in_user_turn"),
    pytest.param(
        with_messages(user(text("hi")), assistant(GOOD_IMAGE)),
        "cannot be in a assistant turn",
        id="image_in_assistant",
    ),
    pytest.param(
        with_messages(
            user(text("hi")), assistant({"type": "thinking", "thinking": "x", "signature": ""})
        ),
        "needs its signature",
        id="thinking_without_signature",
    ),
    pytest.param(
        {"system": [text(" ")], "messages": [user(text("hi"))]},
        r"system\[0\]",
        id="blank_system_block",
    ),
    pytest.param(
        with_messages(user(text("hi")), assistant(PDF_DOC)),
        "cannot be in a assistant turn",
        id="document_in_assistant",
    ),
    pytest.param(
        with_messages(
            user({**PDF_DOC, "source": {**PDF_DOC["source"], "media_type": "text/plain"}})
        ),
        "must be application/pdf",
        id="base64_document_not_pdf",
    ),
    pytest.param(
        with_messages(user({"type": "document", "source": {"type": "url", "url": "gs://b/a.pdf"}})),
        "http",
        id="document_url_not_http",
    ),
    pytest.param(
        with_messages(
            user({**TEXT_DOC, "source": {**TEXT_DOC["source"], "media_type": "text/csv"}})
        ),
        "must be text/plain",
        id="text_source_not_text_plain",
    ),
    pytest.param(
        with_messages(user({"type": "document", "source": {"type": "file_path", "path": "x"}})),
        "unknown document source",
        id="unknown_document_source",
    ),
    pytest.param(
        with_messages(user(text("hi")), assistant(USE), user(tool_result("call_1", [USE]))),
        "holds only",
        id="tool_use_inside_tool_result",
    ),
    pytest.param(
        with_messages(user(text("hi")), assistant(USE), user(tool_result("call_1", []))),
        "non-empty string or list",
        id="empty_block_list_result",
    ),
    pytest.param(
        with_messages(
            user(text("hi")),
            assistant(USE),
            user(tool_result("call_1", [{**PDF_DOC, "source": {"type": "base64"}}])),
        ),
        "missing keys",
        id="bad_document_inside_tool_result",
    ),
]


@pytest.mark.parametrize(("payload", "rule"), INVALID)
def test_each_rule_rejects_a_bad_request(payload: dict[str, Any], rule: str) -> None:
    with pytest.raises(WireError, match=rule):
        assert_valid_request(payload)
