"""The Anthropic wire validator's revision-3 rules (issue 27): it accepts what the API accepts
and rejects the near-misses. Each body is hand-written; its comment names the SDK request type
(``anthropic/types/...``) it follows.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx
from anthropic.types import ContentBlock
from pydantic import TypeAdapter

from llmbridge.testing import anthropic_client, anthropic_message
from tests.anthropic.helpers import assistant, text, tool_result, tool_use, user, web_search_reply
from tests.anthropic.wire import (
    FILES_BETA,
    MCP_BETAS,
    WireError,
    assert_betas,
    assert_valid_http_request,
    assert_valid_request,
    required_betas,
)

URL = "https://api.anthropic.com/v1/messages"
BLOCKS_ADAPTER: TypeAdapter[list[ContentBlock]] = TypeAdapter(list[ContentBlock])
SEARCH_ID = "srvtoolu_01WebSearch"
# FileImageSourceParam / FileDocumentSourceParam
FILE_IMAGE = {"type": "image", "source": {"type": "file", "file_id": "file_011CNha8iCJcU1"}}
FILE_PDF = {
    "type": "document",
    "source": {"type": "file", "file_id": "file_011CPdf"},
    "title": "report.pdf",
}
# ServerToolUseBlockParam
SEARCH = {
    "type": "server_tool_use",
    "id": SEARCH_ID,
    "name": "web_search",
    "input": {"query": "rate limits"},
}
# WebSearchToolResultBlockParam, content: Iterable[WebSearchResultBlockParam]
SEARCH_RESULT = {
    "type": "web_search_tool_result",
    "tool_use_id": SEARCH_ID,
    "content": [
        {
            "type": "web_search_result",
            "title": "Rate limits",
            "url": "https://docs.example/limits",
            "encrypted_content": "EqgfCioIARgB",
            "page_age": "March 3, 2025",
        }
    ],
}
# CitationCharLocationParam
CHAR = {
    "type": "char_location",
    "cited_text": "The sky is blue.",
    "document_index": 0,
    "document_title": None,
    "start_char_index": 0,
    "end_char_index": 16,
}
# CitationPageLocationParam
PAGE = {
    "type": "page_location",
    "cited_text": "Revenue grew.",
    "document_index": 1,
    "document_title": "report.pdf",
    "start_page_number": 1,
    "end_page_number": 2,
}
# CitationContentBlockLocationParam
BLOCKS = {
    "type": "content_block_location",
    "cited_text": "First block.",
    "document_index": 0,
    "document_title": "notes",
    "start_block_index": 0,
    "end_block_index": 1,
}
# CitationWebSearchResultLocationParam
WEB = {
    "type": "web_search_result_location",
    "cited_text": "Tier 1: 50 requests per minute.",
    "encrypted_index": "Eo8BCioIAhgB",
    "title": "Rate limits",
    "url": "https://docs.example/limits",
}
# CitationSearchResultLocationParam
SEARCH_RESULT_LOCATION = {
    "type": "search_result_location",
    "cited_text": "Result text.",
    "search_result_index": 0,
    "source": "https://kb.example/1",
    "title": None,
    "start_block_index": 0,
    "end_block_index": 1,
}
# BetaMCPToolUseBlockParam, BetaRequestMCPToolResultBlockParam
MCP_USE = {
    "type": "mcp_tool_use",
    "id": "mcptoolu_01",
    "name": "search_docs",
    "server_name": "docs",
    "input": {"query": "limits"},
}
MCP_RESULT = {
    "type": "mcp_tool_result",
    "tool_use_id": "mcptoolu_01",
    "is_error": False,
    "content": [{"type": "text", "text": "60 per minute"}],
}


def body(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"system": [], "messages": list(messages)}


def replay(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A question, then an assistant turn of ``blocks``, then a follow-up."""
    return body(user(text("Look it up.")), assistant(*blocks), user(text("Thanks.")))


def cited(*citations: dict[str, Any]) -> dict[str, Any]:
    # TextBlockParam.citations: Iterable[TextCitationParam]
    return {"type": "text", "text": "The answer.", "citations": list(citations)}


def server_use(use_id: str, name: str) -> dict[str, Any]:
    return {"type": "server_tool_use", "id": use_id, "name": name, "input": {}}


def web_fetch_result(use_id: str) -> dict[str, Any]:
    # WebFetchToolResultBlockParam, content: WebFetchBlockParam holding a DocumentBlockParam
    return {
        "type": "web_fetch_tool_result",
        "tool_use_id": use_id,
        "content": {
            "type": "web_fetch_result",
            "url": "https://docs.example/page",
            "retrieved_at": "2025-09-10T12:00:00Z",
            "content": {
                "type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": "Page."},
                "title": "Page",
                "citations": {"enabled": True},
            },
        },
    }


def with_keys(block: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``block`` with keys changed; a value of ``...`` removes the key."""
    changed = {**block, **changes}
    return {key: value for key, value in changed.items() if value is not ...}


ACCEPTED = [
    pytest.param(body(user(text("What is this?"), FILE_IMAGE)), id="image_file_source"),
    pytest.param(body(user(text("Summarise."), FILE_PDF)), id="document_file_source"),
    pytest.param(
        # ToolResultBlockParam.content: Iterable[TextBlockParam | ImageBlockParam | ...]
        body(
            user(text("Fetch it.")),
            assistant(tool_use("toolu_1", "fetch", {})),
            user(tool_result("toolu_1", [text("here"), FILE_IMAGE, FILE_PDF])),
        ),
        id="file_sources_inside_tool_result",
    ),
    pytest.param(
        # DocumentBlockParam.citations: CitationsConfigParam, the request side of citations
        body(
            user(text("Cite it."), {**FILE_PDF, "citations": {"enabled": True}}),
            assistant(tool_use("toolu_1", "fetch", {})),
            user(tool_result("toolu_1", [{**FILE_PDF, "citations": {"enabled": True}}])),
        ),
        id="documents_asking_for_citations",
    ),
    pytest.param(replay(cited(CHAR)), id="char_location_citation"),
    pytest.param(replay(cited(PAGE)), id="page_location_citation"),
    pytest.param(replay(cited(BLOCKS)), id="content_block_location_citation"),
    pytest.param(replay(cited(SEARCH_RESULT_LOCATION)), id="search_result_location_citation"),
    pytest.param(replay(cited(CHAR, PAGE, BLOCKS)), id="several_citations"),
    pytest.param(
        replay(text("Searching."), SEARCH, SEARCH_RESULT, cited(WEB)), id="web_search_replayed"
    ),
    pytest.param(
        # WebSearchToolRequestErrorObjectParam
        replay(
            SEARCH,
            with_keys(
                SEARCH_RESULT,
                content={"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"},
            ),
            text("The search failed."),
        ),
        id="web_search_error_result",
    ),
    pytest.param(
        # ServerToolUseBlockParam: caller (DirectCallerParam), cache_control
        replay(
            with_keys(SEARCH, caller={"type": "direct"}, cache_control={"type": "ephemeral"}),
            SEARCH_RESULT,
        ),
        id="server_tool_use_with_caller_and_cache_control",
    ),
    pytest.param(
        replay(server_use("srvtoolu_02", "web_fetch"), web_fetch_result("srvtoolu_02")),
        id="web_fetch_replayed",
    ),
    pytest.param(
        # CodeExecutionToolResultBlockParam, content: CodeExecutionResultBlockParam
        replay(
            server_use("srvtoolu_03", "code_execution"),
            {
                "type": "code_execution_tool_result",
                "tool_use_id": "srvtoolu_03",
                "content": {
                    "type": "code_execution_result",
                    "stdout": "4\n",
                    "stderr": "",
                    "return_code": 0,
                    "content": [{"type": "code_execution_output", "file_id": "file_011Out"}],
                },
            },
        ),
        id="code_execution_replayed",
    ),
    pytest.param(
        # EncryptedCodeExecutionResultBlockParam
        replay(
            server_use("srvtoolu_04", "code_execution"),
            {
                "type": "code_execution_tool_result",
                "tool_use_id": "srvtoolu_04",
                "content": {
                    "type": "encrypted_code_execution_result",
                    "encrypted_stdout": "EqQBCkYI",
                    "stderr": "",
                    "return_code": 0,
                    "content": [],
                },
            },
        ),
        id="encrypted_code_execution_replayed",
    ),
    pytest.param(
        # BashCodeExecutionToolResultBlockParam, content: BashCodeExecutionResultBlockParam
        replay(
            server_use("srvtoolu_05", "bash_code_execution"),
            {
                "type": "bash_code_execution_tool_result",
                "tool_use_id": "srvtoolu_05",
                "content": {
                    "type": "bash_code_execution_result",
                    "stdout": "ok",
                    "stderr": "",
                    "return_code": 0,
                    "content": [],
                },
            },
        ),
        id="bash_code_execution_replayed",
    ),
    pytest.param(
        # TextEditorCodeExecutionToolResultBlockParam, content: ...ViewResultBlockParam
        replay(
            server_use("srvtoolu_06", "text_editor_code_execution"),
            {
                "type": "text_editor_code_execution_tool_result",
                "tool_use_id": "srvtoolu_06",
                "content": {
                    "type": "text_editor_code_execution_view_result",
                    "content": "print(1)",
                    "file_type": "text",
                    "num_lines": 1,
                },
            },
        ),
        id="text_editor_code_execution_replayed",
    ),
    pytest.param(
        # ToolSearchToolResultBlockParam, content: ToolSearchToolSearchResultBlockParam
        replay(
            server_use("srvtoolu_07", "tool_search_tool_bm25"),
            {
                "type": "tool_search_tool_result",
                "tool_use_id": "srvtoolu_07",
                "content": {
                    "type": "tool_search_tool_search_result",
                    "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}],
                },
            },
        ),
        id="tool_search_replayed",
    ),
    pytest.param(replay(MCP_USE, MCP_RESULT, text("60 per minute.")), id="mcp_replayed"),
    pytest.param(
        replay(MCP_USE, with_keys(MCP_RESULT, content="60 per minute", is_error=...)),
        id="mcp_result_with_string_content",
    ),
    pytest.param(
        # a pause_turn reply sent back as the last message: the use is not answered yet
        body(user(text("Look it up.")), assistant(text("Searching."), SEARCH)),
        id="unanswered_server_tool_use_in_a_paused_turn",
    ),
    pytest.param(
        body(
            user(text("Look it up and call f.")),
            assistant(SEARCH, SEARCH_RESULT, tool_use("toolu_1", "f", {})),
            user(tool_result("toolu_1", "done")),
        ),
        id="server_tools_beside_a_client_tool_use",
    ),
]


@pytest.mark.parametrize("request_body", ACCEPTED)
def test_the_validator_accepts_what_the_api_accepts(request_body: dict[str, Any]) -> None:
    assert_valid_request(request_body)


# FileImageSourceParam near misses: source -> what the validator says
FILE_SOURCE_MISSES = {
    "file_source_with_a_url": ({"type": "file", "file_id": "f", "url": "u"}, "unknown keys"),
    "file_source_without_file_id": ({"type": "file"}, "missing keys"),
    "gemini_file_name_as_file_id": ({"type": "file", "file_id": "files/abc"}, "breaks"),
    "empty_file_id": ({"type": "file", "file_id": ""}, "breaks"),
    "misspelt_file_source_type": ({"type": "file_id", "file_id": "file_1"}, "source"),
}
NEAR_MISSES: dict[str, tuple[dict[str, Any], str]] = {
    # the response's CitationCharLocation has file_id; the request type has not
    "citation_with_the_response_only_file_id": (
        replay(cited({**CHAR, "file_id": None})),
        "unknown key 'file_id'",
    ),
    "citation_without_document_title": (
        replay(cited(with_keys(CHAR, document_title=...))),
        "missing required key 'document_title'",
    ),
    "web_citation_without_encrypted_index": (
        replay(cited(with_keys(WEB, encrypted_index=...))),
        "missing required key 'encrypted_index'",
    ),
    "unknown_citation_type": (
        replay(cited({**CHAR, "type": "char_range"})),
        "none of the allowed shapes",
    ),
    "char_range_backwards": (
        replay(cited({**CHAR, "start_char_index": 9, "end_char_index": 3})),
        "forward range",
    ),
    "empty_block_range": (replay(cited({**BLOCKS, "end_block_index": 0})), "forward range"),
    "page_number_zero": (
        replay(cited({**PAGE, "start_page_number": 0, "end_page_number": 1})),
        "start at 1",
    ),
    "empty_citations": (replay(cited()), "non-empty list"),
    "null_citations": (replay({"type": "text", "text": "x", "citations": None}), "non-empty list"),
    "citations_in_a_user_turn": (body(user(cited(CHAR))), "citations belong to assistant"),
    "citations_inside_a_tool_result": (
        body(
            user(text("hi")),
            assistant(tool_use("toolu_1", "f", {})),
            user(tool_result("toolu_1", [cited(CHAR)])),
        ),
        "citations belong to assistant",
    ),
    "server_tool_use_id_without_srvtoolu_prefix": (
        replay(with_keys(SEARCH, id="toolu_01"), with_keys(SEARCH_RESULT, tool_use_id="toolu_01")),
        "srvtoolu_",
    ),
    "unknown_server_tool_name": (replay(with_keys(SEARCH, name="web_browse")), "is not one of"),
    "server_tool_input_not_an_object": (
        replay(with_keys(SEARCH, input=["rate limits"])),
        "expected an object",
    ),
    # the response's ServerToolUseBlock.caller is Optional; the request type's is not
    "null_caller": (replay(with_keys(SEARCH, caller=None), SEARCH_RESULT), "caller"),
    "result_before_its_use": (replay(SEARCH_RESULT, SEARCH), "comes before, or without"),
    "result_without_a_use": (
        replay(with_keys(SEARCH_RESULT, tool_use_id="srvtoolu_99")),
        "comes before, or without",
    ),
    "result_in_the_next_user_turn": (
        body(user(text("hi")), assistant(SEARCH), user(SEARCH_RESULT)),
        "cannot be in a user turn",
    ),
    "result_in_a_later_assistant_turn": (
        body(user(text("hi")), assistant(SEARCH), user(text("go on")), assistant(SEARCH_RESULT)),
        "comes before, or without",
    ),
    "result_of_another_tool_kind": (
        replay(SEARCH, web_fetch_result(SEARCH_ID)),
        "answered by web_search_tool_result",
    ),
    "result_twice": (replay(SEARCH, SEARCH_RESULT, SEARCH_RESULT), "answered twice"),
    "server_tool_use_id_twice_in_a_turn": (replay(SEARCH, SEARCH_RESULT, SEARCH), "used twice"),
    "server_tool_use_id_twice_in_the_request": (
        body(
            user(text("hi")),
            assistant(SEARCH, SEARCH_RESULT),
            user(text("again")),
            assistant(SEARCH, SEARCH_RESULT),
        ),
        "not unique in the request",
    ),
    "client_tool_result_for_a_server_tool": (
        body(user(text("hi")), assistant(SEARCH), user(tool_result(SEARCH_ID, "x"))),
        "answers no tool_use",
    ),
    "server_tool_use_in_user": (body(user(SEARCH)), "cannot be in a user turn"),
    "web_search_result_without_url": (
        replay(
            SEARCH,
            with_keys(SEARCH_RESULT, content=[with_keys(SEARCH_RESULT["content"][0], url=...)]),
        ),
        "missing required key 'url'",
    ),
    "code_execution_result_without_return_code": (
        replay(
            server_use("srvtoolu_03", "code_execution"),
            {
                "type": "code_execution_tool_result",
                "tool_use_id": "srvtoolu_03",
                "content": {"type": "code_execution_result", "stdout": "", "stderr": ""},
            },
        ),
        "missing required key",
    ),
    "unknown_code_execution_error_code": (
        replay(
            server_use("srvtoolu_03", "code_execution"),
            {
                "type": "code_execution_tool_result",
                "tool_use_id": "srvtoolu_03",
                "content": {"type": "code_execution_tool_result_error", "error_code": "oops"},
            },
        ),
        "is not one of",
    ),
    "mcp_tool_use_without_server_name": (
        replay(with_keys(MCP_USE, server_name=...)),
        "missing required key 'server_name'",
    ),
    "mcp_result_before_its_use": (replay(MCP_RESULT, MCP_USE), "comes before, or without"),
    "mcp_result_for_a_server_tool": (
        replay(SEARCH, {**MCP_RESULT, "tool_use_id": SEARCH_ID}),
        "answered by web_search_tool_result, not mcp_tool_result",
    ),
    # BetaRequestMCPToolResultBlockParam.content: str | Iterable[BetaTextBlockParam]
    "mcp_result_holding_an_image": (
        replay(MCP_USE, with_keys(MCP_RESULT, content=[FILE_IMAGE])),
        "matches no allowed type",
    ),
}
REJECTED = [
    *(
        pytest.param(body(user(with_keys(block, source=source))), problem, id=f"{name}_{kind}")
        for name, (source, problem) in FILE_SOURCE_MISSES.items()
        for kind, block in (("image", FILE_IMAGE), ("document", FILE_PDF))
    ),
    *(pytest.param(b, problem, id=name) for name, (b, problem) in NEAR_MISSES.items()),
]


@pytest.mark.parametrize(("request_body", "problem"), REJECTED)
def test_the_validator_rejects_the_near_misses(request_body: dict[str, Any], problem: str) -> None:
    with pytest.raises(WireError) as raised:
        assert_valid_request(request_body)
    assert problem in str(raised.value)


def test_a_web_search_reply_replays_valid_dumped_without_nulls_only() -> None:
    reply = BLOCKS_ADAPTER.validate_python(web_search_reply("end_turn")["content"])
    clean = [block.model_dump(mode="json", exclude_none=True) for block in reply]
    assert_valid_request(body(user(text("Limits?")), assistant(*clean)))
    dumped = [block.model_dump(mode="json") for block in reply]
    with pytest.raises(WireError):  # caller: null, citations: null, file_id ...
        assert_valid_request(body(user(text("Limits?")), assistant(*dumped)))


# -- the beta header ------------------------------------------------------------------------

NEEDS = [
    pytest.param(body(user(text("hi"))), [], id="nothing"),
    pytest.param(body(user(text("hi"), FILE_IMAGE)), [{FILES_BETA}], id="image_file"),
    pytest.param(
        body(
            user(text("hi")),
            assistant(tool_use("toolu_1", "f", {})),
            user(tool_result("toolu_1", [FILE_PDF])),
        ),
        [{FILES_BETA}],
        id="document_file_in_a_tool_result",
    ),
    pytest.param(replay(MCP_USE, MCP_RESULT), [MCP_BETAS], id="mcp_blocks"),
    pytest.param(
        body(user(text("hi"), FILE_PDF), assistant(MCP_USE), user(text("ok"))),
        [{FILES_BETA}, MCP_BETAS],
        id="both",
    ),
]


@pytest.mark.parametrize(("request_body", "betas"), NEEDS)
def test_required_betas_names_what_the_body_needs(
    request_body: dict[str, Any], betas: list[set[str]]
) -> None:
    assert required_betas(request_body) == betas


FILE_BODY = body(user(text("hi"), FILE_IMAGE))
SENT = [
    pytest.param({"anthropic-beta": FILES_BETA}, id="the_files_beta"),
    pytest.param({"Anthropic-Beta": f"mcp-client-2025-11-20, {FILES_BETA}"}, id="among_others"),
    pytest.param(
        httpx.Headers(
            [("anthropic-beta", "mcp-client-2025-11-20"), ("anthropic-beta", FILES_BETA)]
        ),
        id="repeated_header",
    ),
]


@pytest.mark.parametrize("headers", SENT)
def test_a_file_source_passes_with_the_files_beta(headers: Any) -> None:
    assert_betas(FILE_BODY, headers)


MISSING = [
    pytest.param(FILE_BODY, {}, id="no_header"),
    pytest.param(FILE_BODY, {"anthropic-beta": "files-api-2025-04-15"}, id="another_date"),
    pytest.param(FILE_BODY, {"anthropic-beta": "mcp-client-2025-11-20"}, id="only_the_mcp_beta"),
    pytest.param(FILE_BODY, {"x-anthropic-beta": FILES_BETA}, id="another_header"),
    pytest.param(replay(MCP_USE, MCP_RESULT), {"anthropic-beta": FILES_BETA}, id="mcp_without"),
]


@pytest.mark.parametrize(("request_body", "headers"), MISSING)
def test_a_missing_beta_is_rejected(request_body: dict[str, Any], headers: Any) -> None:
    with pytest.raises(WireError, match="anthropic-beta"):
        assert_betas(request_body, headers)


async def test_assert_valid_http_request_reads_what_the_sdk_sent() -> None:
    router = respx.Router(assert_all_called=False)
    route = router.post(url__startswith=URL).respond(json=anthropic_message("ok"))
    client = anthropic_client(router)
    messages: Any = FILE_BODY["messages"]
    await client.beta.messages.create(
        model="claude-test", max_tokens=16, messages=messages, betas=[FILES_BETA]
    )
    assert assert_valid_http_request(route.calls.last.request)["messages"] == messages
    await client.messages.create(model="claude-test", max_tokens=16, messages=messages)
    with pytest.raises(WireError, match=FILES_BETA):
        assert_valid_http_request(route.calls.last.request)
