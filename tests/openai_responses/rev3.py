"""Output items with annotations and hosted tools (API.md 19.4, 19.5), shared by the rev-3 tests,
and the one way those tests send a conversation: through the real SDK client over respx."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import respx

from llmbridge import (
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    register_message_connector,
)
from llmbridge.openai import (
    OpenAIResponsesAgent,
    OpenAIResponsesStreamAggregator,
    from_openai_responses,
)
from llmbridge.testing import openai_client, openai_response
from tests.openai_responses import wire
from tests.openai_responses.sdk import fetched

TAG = "openai-responses"
AGENT = "assistant"
URL = "https://api.openai.com/v1/responses"
USER = TextMessage(Role.USER, "Hi")

URL_CITATION = {
    "type": "url_citation",
    "start_index": 0,
    "end_index": 5,
    "title": "Example",
    "url": "https://example.com/a?utm_source=openai",
}
FILE_CITATION = {"type": "file_citation", "file_id": "file-1", "filename": "ai.pdf", "index": 10}
FILE_PATH = {"type": "file_path", "file_id": "file-2", "index": 3}
CONTAINER_CITATION = {
    "type": "container_file_citation",
    "container_id": "cntr_1",
    "file_id": "cfile_1",
    "filename": "sums.txt",
    "start_index": 6,
    "end_index": 11,
}

WEB_SEARCH = {
    "id": "ws_1",
    "type": "web_search_call",
    "status": "completed",
    "action": {
        "type": "search",
        "query": "weather",
        "sources": [
            {"type": "url", "url": "https://a.test"},
            {"type": "url", "url": "https://b.test"},
        ],
    },
}
WEB_OPEN_PAGE = {
    "id": "ws_2",
    "type": "web_search_call",
    "status": "completed",
    "action": {"type": "open_page", "url": "https://a.test"},
}
FILE_SEARCH = {
    "id": "fs_1",
    "type": "file_search_call",
    "status": "completed",
    "queries": ["embedding model"],
    "results": [
        {
            "attributes": {},
            "file_id": "file-1",
            "filename": "ai.pdf",
            "score": 0.93,
            "text": "An embedding model...",
        }
    ],
}
CODE_INTERPRETER = {
    "id": "ci_1",
    "type": "code_interpreter_call",
    "status": "completed",
    "code": "print(1 + 1)",
    "container_id": "cntr_1",
    "outputs": [
        {"type": "logs", "logs": "2"},
        {"type": "image", "url": "data:image/png;base64,iVBORw0KGgo="},
    ],
}
IMAGE_GENERATION = {
    "id": "ig_1",
    "type": "image_generation_call",
    "status": "completed",
    "background": "opaque",
    "output_format": "webp",
    "quality": "low",
    "result": "UklGRg==",
    "revised_prompt": "A cat.",
    "size": "1024x1024",
}
MCP_LIST_TOOLS = {
    "id": "mcpl_1",
    "type": "mcp_list_tools",
    "server_label": "deepwiki",
    "tools": [
        {"name": "ask_question", "input_schema": {"type": "object"}, "annotations": None},
        {"name": "read_wiki", "input_schema": {"type": "object"}, "description": "Read."},
    ],
    "error": None,
}
MCP_CALL = {
    "id": "mcp_1",
    "type": "mcp_call",
    "status": "completed",
    "approval_request_id": None,
    "arguments": '{"question":"What is it?"}',
    "error": None,
    "name": "ask_question",
    "output": "It is a library.",
    "server_label": "deepwiki",
}
MCP_CALL_ERROR = {
    **MCP_CALL,
    "id": "mcp_2",
    "status": "failed",
    "error": {"type": "mcp_protocol_error", "code": -32000, "message": "boom"},
    "output": None,
}
MCP_APPROVAL_REQUEST = {
    "id": "mcpr_1",
    "type": "mcp_approval_request",
    "arguments": '{"question":"Delete it?"}',
    "name": "delete",
    "server_label": "deepwiki",
}


def text_message(
    *parts: tuple[str, list[dict[str, Any]]], item_id: str = "msg_1", phase: str | None = None
) -> dict[str, Any]:
    """A ``message`` output item of ``output_text`` parts, each ``(text, annotations)``."""
    content = [
        {"type": "output_text", "text": text, "annotations": copy.deepcopy(notes), "logprobs": []}
        for text, notes in parts
    ]
    item: dict[str, Any] = {"id": item_id, "type": "message", "role": "assistant"}
    item.update(status="completed", content=content)
    if phase is not None:
        item["phase"] = phase
    return item


def reasoning(item_id: str, signature: str | None = "enc") -> dict[str, Any]:
    """A ``reasoning`` output item with an empty summary."""
    item: dict[str, Any] = {"id": item_id, "type": "reasoning", "summary": []}
    if signature is not None:
        item["encrypted_content"] = signature
    return item


def as_sent(item: dict[str, Any]) -> dict[str, Any]:
    """An output item as ``to_openai_responses`` replays it: message parts without logprobs."""
    sent = copy.deepcopy(item)
    for part in sent.get("content") or () if sent.get("type") == "message" else ():
        part.pop("logprobs", None)
    return sent


def state(**entry: Any) -> dict[str, Any]:
    """``provider_data`` with this wing's entry."""
    return {TAG: entry}


HOSTED_TYPES = frozenset(
    item["type"]
    for item in (
        WEB_SEARCH,
        FILE_SEARCH,
        CODE_INTERPRETER,
        IMAGE_GENERATION,
        MCP_LIST_TOOLS,
        MCP_CALL,
        MCP_APPROVAL_REQUEST,
    )
)


def connected(*replies: dict[str, Any]) -> tuple[MiddlewareStreamingAgent, respx.Route]:
    """A connected ``OpenAIResponsesAgent`` over respx answering with ``replies`` in turn."""
    router = respx.Router(assert_all_called=False)
    answers = [httpx.Response(200, json=reply) for reply in replies] or [
        httpx.Response(200, json=openai_response("ok"))
    ]
    route = router.post(URL).mock(side_effect=answers)
    agent = OpenAIResponsesAgent(openai_client(router), name=AGENT, model="gpt-5-mini")
    return register_message_connector(agent), route


def bodies(route: respx.Route) -> list[dict[str, Any]]:
    """Every body the SDK sent on ``route``, each checked."""
    sent = [json.loads(call.request.content) for call in route.calls]
    for body in sent:
        wire.check_request_body(body)
    return sent


async def reply_of(items: list[dict[str, Any]], *, strict_mode: bool = False) -> Message:
    """The neutral reply of a response of ``items`` read by the real SDK client."""
    response = await fetched(openai_response(items))
    return from_openai_responses(response, agent_name=AGENT, strict_mode=strict_mode)


def aggregate(events: list[Any], *, strict_mode: bool = False) -> OpenAIResponsesStreamAggregator:
    """An aggregator fed ``events``."""
    aggregator = OpenAIResponsesStreamAggregator(AGENT, strict_mode=strict_mode)
    for event in events:
        aggregator.add(event)
    return aggregator


async def sent_input(messages: list[Message]) -> list[Any]:
    """The ``input`` the real SDK client sends for ``messages`` through the connector."""
    agent, route = connected()
    await agent.generate_reply(messages)
    (body,) = bodies(route)
    items: list[Any] = body["input"]
    return items
