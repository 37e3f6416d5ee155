"""The Responses wire validator's revision-3 rules (issue 27): files by id, replayed annotations,
hosted tool items. Each input is hand-written; its comment names the SDK request type
(``openai/types/responses/...``) it follows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.openai_responses import wire

RECORDED = Path(__file__).parents[1] / "fixtures/openai_responses/histories/pydantic-ai.jsonl"
USER = {"role": "user", "content": "Search for it."}
# ResponseReasoningItemParam
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"}
# ResponseFunctionWebSearchParam (ActionSearch)
WEB_SEARCH = {
    "type": "web_search_call",
    "id": "ws_1",
    "status": "completed",
    "action": {
        "type": "search",
        "query": "weather",
        "queries": ["weather", "forecast"],
        "sources": [{"type": "url", "url": "https://weather.example"}],
    },
}
# ResponseFileSearchToolCallParam
FILE_SEARCH = {
    "type": "file_search_call",
    "id": "fs_1",
    "status": "completed",
    "queries": ["refund policy"],
    "results": [
        {"file_id": "file-abc", "filename": "policy.pdf", "score": 0.9, "text": "30 days."}
    ],
}
# ResponseCodeInterpreterToolCallParam
CODE_INTERPRETER = {
    "type": "code_interpreter_call",
    "id": "ci_1",
    "status": "completed",
    "code": "print(2 + 2)",
    "container_id": "cntr_1",
    "outputs": [{"type": "logs", "logs": "4"}, {"type": "image", "url": "https://x.test/p.png"}],
}
# response_input_item_param.ImageGenerationCall
IMAGE_GENERATION = {
    "type": "image_generation_call",
    "id": "ig_1",
    "status": "completed",
    "result": "iVBORw0KGgo=",
}
# response_input_item_param.McpCall
MCP_CALL = {
    "type": "mcp_call",
    "id": "mcp_1",
    "server_label": "docs",
    "name": "search_docs",
    "arguments": '{"query": "limits"}',
    "output": "60 per minute",
    "status": "completed",
}
# response_input_item_param.McpListTools
MCP_LIST_TOOLS = {
    "type": "mcp_list_tools",
    "id": "mcpl_1",
    "server_label": "docs",
    "tools": [{"name": "search_docs", "input_schema": {"type": "object"}}],
}
HOSTED = [WEB_SEARCH, FILE_SEARCH, CODE_INTERPRETER, IMAGE_GENERATION, MCP_CALL, MCP_LIST_TOOLS]
# response_output_text_param: the four annotation types
URL_CITATION = {
    "type": "url_citation",
    "url": "https://weather.example",
    "title": "Weather",
    "start_index": 0,
    "end_index": 5,
}
FILE_CITATION = {"type": "file_citation", "file_id": "file-abc", "filename": "a.pdf", "index": 5}
CONTAINER_CITATION = {
    "type": "container_file_citation",
    "container_id": "cntr_1",
    "file_id": "cfile_1",
    "filename": "out.csv",
    "start_index": 0,
    "end_index": 5,
}
FILE_PATH = {"type": "file_path", "file_id": "cfile_2", "index": 0}


def answer(*annotations: dict[str, Any]) -> dict[str, Any]:
    # ResponseOutputMessageParam holding a ResponseOutputTextParam
    text = {"type": "output_text", "text": "Sunny today.", "annotations": list(annotations)}
    return {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "status": "completed",
        "content": [text],
    }


def user_parts(*parts: dict[str, Any]) -> dict[str, Any]:
    # EasyInputMessageParam with ResponseInputImageParam / ResponseInputFileParam parts
    return {"role": "user", "content": [{"type": "input_text", "text": "Look."}, *parts]}


def edited(item: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``item`` with keys changed; a value of ``...`` removes the key."""
    changed = {**item, **changes}
    return {key: value for key, value in changed.items() if value is not ...}


IMAGE_BY_ID = {"type": "input_image", "file_id": "file-img1", "detail": "auto"}
FILE_BY_ID = {"type": "input_file", "file_id": "file-pdf1"}
# FunctionCallOutput.output: a list of input parts
CALL = {"type": "function_call", "call_id": "call_1", "name": "fetch", "arguments": "{}"}
CALL_OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": [IMAGE_BY_ID]}

ACCEPTED = {
    "image_and_file_by_id": [user_parts(IMAGE_BY_ID, FILE_BY_ID)],
    "file_by_id_in_a_tool_output": [USER, CALL, edited(CALL_OUTPUT, output=[FILE_BY_ID])],
    "url_citation": [USER, answer(URL_CITATION)],
    "file_citation": [USER, answer(FILE_CITATION)],
    "container_file_citation": [USER, answer(CONTAINER_CITATION)],
    "file_path": [USER, answer(FILE_PATH)],
    "every_annotation_at_once": [
        USER,
        answer(URL_CITATION, FILE_CITATION, CONTAINER_CITATION, FILE_PATH),
    ],
    **{f"{item['type']}_replayed": [USER, item, answer()] for item in HOSTED},
    "web_search_open_page": [
        USER,
        edited(WEB_SEARCH, action={"type": "open_page", "url": "https://weather.example"}),
    ],
    "web_search_find_in_page": [
        USER,
        edited(
            WEB_SEARCH,
            action={"type": "find_in_page", "pattern": "rain", "url": "https://weather.example"},
        ),
    ],
    "code_interpreter_without_outputs": [USER, edited(CODE_INTERPRETER, outputs=None)],
    "image_generation_without_result": [
        USER,
        edited(IMAGE_GENERATION, result=None, status="failed"),
    ],
    "mcp_call_with_an_error": [
        USER,
        edited(
            MCP_CALL,
            output=...,
            status="failed",
            error={"type": "mcp_protocol_error", "code": -32601, "message": "no such tool"},
        ),
    ],
    # a stored item given by id only, as pydantic-ai sends one (the API answered 200)
    "image_generation_by_id_when_stored": [USER, {"type": "image_generation_call", "id": "ig_1"}],
    # a web-search reply replayed in order: reasoning before each item it preceded
    "reasoning_before_a_hosted_item": [
        USER,
        REASONING,
        WEB_SEARCH,
        edited(REASONING, id="rs_2"),
        answer(URL_CITATION),
    ],
}


@pytest.mark.parametrize("items", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_the_validator_accepts_what_the_api_accepts(items: list[dict[str, Any]]) -> None:
    wire.check_input(items)


REJECTED = {
    "image_by_id_and_url": (
        [user_parts({**IMAGE_BY_ID, "image_url": "https://x.test/a.png"})],
        "[input_image source]",
    ),
    "empty_file_id": ([user_parts({**FILE_BY_ID, "file_id": ""})], "[input_file source]"),
    "gemini_file_name_as_file_id": (
        [user_parts({**IMAGE_BY_ID, "file_id": "files/abc"})],
        "[input_image source]",
    ),
    "file_id_of_a_tool_output_image": (
        [USER, CALL, edited(CALL_OUTPUT, output=[{**IMAGE_BY_ID, "file_id": "gs://b/a.png"}])],
        "[input_image source]",
    ),
    "output_text_without_annotations": (
        [USER, {**answer(), "content": [{"type": "output_text", "text": "x"}]}],
        "missing required key 'annotations'",
    ),
    "url_citation_without_title": (
        [USER, answer(edited(URL_CITATION, title=...))],
        "missing required key 'title'",
    ),
    "file_citation_without_filename": (
        [USER, answer(edited(FILE_CITATION, filename=...))],
        "missing required key 'filename'",
    ),
    "chat_shaped_url_citation": (
        [USER, answer({"type": "url_citation", "url_citation": edited(URL_CITATION, type=...)})],
        "unknown key 'url_citation'",
    ),
    "unknown_annotation_type": (
        [USER, answer({**FILE_PATH, "type": "file_link"})],
        "none of the allowed shapes",
    ),
    "backwards_url_citation": (
        [USER, answer({**URL_CITATION, "start_index": 5, "end_index": 2})],
        "[output_text annotations]",
    ),
    "negative_file_path_index": (
        [USER, answer({**FILE_PATH, "index": -1})],
        "[output_text annotations]",
    ),
    "annotations_on_input_text": (
        [{"role": "user", "content": [{"type": "input_text", "text": "x", "annotations": []}]}],
        "unknown key 'annotations'",
    ),
    "web_search_without_status": ([USER, edited(WEB_SEARCH, status=...)], "'status'"),
    "web_search_with_a_call_id": ([USER, edited(WEB_SEARCH, id="call_1")], "[R5 id prefix]"),
    "web_search_unknown_status": ([USER, edited(WEB_SEARCH, status="done")], "is not one of"),
    "web_search_action_with_a_url": (
        [USER, edited(WEB_SEARCH, action={"type": "search", "url": "https://x.test"})],
        "unknown key 'url'",
    ),
    "file_search_without_queries": ([USER, edited(FILE_SEARCH, queries=...)], "'queries'"),
    "file_search_with_a_foreign_id": ([USER, edited(FILE_SEARCH, id="ws_1")], "[R5 id prefix]"),
    "code_interpreter_without_container": (
        [USER, edited(CODE_INTERPRETER, container_id=...)],
        "'container_id'",
    ),
    "code_interpreter_output_misnamed": (
        [USER, edited(CODE_INTERPRETER, outputs=[{"type": "logs", "text": "4"}])],
        "unknown key 'text'",
    ),
    "image_generation_without_result": (
        [USER, edited(IMAGE_GENERATION, result=...)],
        "missing required key 'result'",
    ),
    "mcp_call_arguments_as_an_object": (
        [USER, edited(MCP_CALL, arguments={"query": "limits"})],
        "expected str",
    ),
    "mcp_call_error_as_text": ([USER, edited(MCP_CALL, error="boom")], "matches no allowed type"),
    # the response's McpCall.status is Optional (a model_dump writes null); the input's is not
    "mcp_call_null_status": ([USER, edited(MCP_CALL, status=None)], "is not one of"),
    "mcp_call_id_without_prefix": ([USER, edited(MCP_CALL, id="call_1")], "[R5 id prefix]"),
    "mcp_list_tools_with_a_call_id": (
        [USER, edited(MCP_LIST_TOOLS, id="mcp_1")],
        "[R5 id prefix]",
    ),
    "mcp_list_tools_tool_without_schema": (
        [USER, edited(MCP_LIST_TOOLS, tools=[{"name": "search_docs"}])],
        "missing required key 'input_schema'",
    ),
    "stored_reference_with_a_foreign_id": (
        [USER, {"type": "web_search_call", "id": "fc_1"}],
        "[R5 id prefix]",
    ),
    "reasoning_before_a_tool_output": (
        [USER, CALL, REASONING, CALL_OUTPUT],
        "[R3 reasoning without following item]",
    ),
}


@pytest.mark.parametrize(("items", "problem"), REJECTED.values(), ids=REJECTED.keys())
def test_the_validator_rejects_the_near_misses(items: list[dict[str, Any]], problem: str) -> None:
    with pytest.raises(wire.WireError) as raised:
        wire.check_input(items)
    assert problem in str(raised.value)


def _recorded_with_hosted_items() -> list[Any]:
    """The recorded request bodies (each answered 200 by the API) replaying hosted items."""
    cases = []
    for line in RECORDED.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        items = record["body"]["input"]
        kinds = {item.get("type") for item in items} if isinstance(items, list) else set()
        if kinds & set(wire.HOSTED_SHAPES):
            cases.append(pytest.param(record["body"], id=record["source"].rsplit("/", 1)[-1]))
    return cases


@pytest.mark.parametrize("recorded", _recorded_with_hosted_items())
def test_recorded_bodies_replaying_hosted_items_pass(recorded: dict[str, Any]) -> None:
    wire.check_request_body(recorded)


def test_a_hosted_item_by_id_only_needs_a_stored_response() -> None:
    stateless = {
        "model": "gpt-5",
        "input": [USER, {"type": "image_generation_call", "id": "ig_1"}],
        "store": False,
    }
    with pytest.raises(wire.WireError, match=re.escape("[R7 unstored id]")):
        wire.check_request_body(stateless)
