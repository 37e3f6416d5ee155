"""Anthropic Files API references (API.md 19.1): ``file`` sources out, the beta header on the wire,
and the importer reading them back.

An image or document with ``file_provider="anthropic"`` becomes ``{"type": "file", "file_id"}``
(in a user turn and inside ``tool_result`` content); another provider's file is not supported
(lenient: dropped with a note, strict: ``UnsupportedMessageError`` naming the index). The agent
adds ``anthropic-beta: files-api-2025-04-14`` whenever a request holds such a source.
"""

from __future__ import annotations

from typing import Any

import pytest
import respx

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.anthropic import AnthropicChatAgent, from_anthropic_messages, to_anthropic
from llmbridge.testing import anthropic_client, anthropic_message, anthropic_sse_response
from llmbridge.testing import anthropic_stream_events as stream_events
from tests.anthropic.helpers import URL, convert, text, tool_result, tool_use, user
from tests.anthropic.wire import assert_valid_http_request
from tests.corpus import AGENT

FILES_BETA = "files-api-2025-04-14"
IMAGE = ImageMessage(Role.USER, file_id="file_011img", file_provider="anthropic")
PDF = DocumentMessage(Role.USER, file_id="file_011pdf", file_provider="anthropic")
TITLED = DocumentMessage(
    Role.USER, file_id="file_011txt", file_provider="anthropic", filename="notes.txt"
)
IMAGE_BLOCK = {"type": "image", "source": {"type": "file", "file_id": "file_011img"}}
PDF_BLOCK = {"type": "document", "source": {"type": "file", "file_id": "file_011pdf"}}
TITLED_BLOCK = {
    "type": "document",
    "source": {"type": "file", "file_id": "file_011txt"},
    "title": "notes.txt",
}
CALL = ToolCall("fetch_report", "{}", tool_call_id="toolu_1")
HELLO = TextMessage(Role.USER, "Look at this.")


def answered(*parts: Any) -> list[Message]:
    """A call and its result of ``parts``."""
    result = ToolCall("fetch_report", "{}", tool_call_id="toolu_1", result=parts)
    return [HELLO, ToolCallMessage([CALL], AGENT), ToolCallResultMessage([result])]


# -- sending ----------------------------------------------------------------------------------

SENT: dict[str, tuple[list[Message], list[dict[str, Any]]]] = {
    "image": ([IMAGE], [user(IMAGE_BLOCK)]),
    "document": ([PDF], [user(PDF_BLOCK)]),
    "document_title_from_filename": ([TITLED], [user(TITLED_BLOCK)]),
    "multimodal": (
        [MultiModalMessage(Role.USER, [HELLO, IMAGE, PDF])],
        [user(text("Look at this."), IMAGE_BLOCK, PDF_BLOCK)],
    ),
    "tool_result_parts": (
        answered(TextMessage(Role.TOOL, "The report:"), PDF, IMAGE),
        [
            user(text("Look at this.")),
            {"role": "assistant", "content": [tool_use("toolu_1", "fetch_report", {})]},
            user(tool_result("toolu_1", [text("The report:"), PDF_BLOCK, IMAGE_BLOCK])),
        ],
    ),
}


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("messages", "wire"), SENT.values(), ids=SENT.keys())
def test_an_anthropic_file_reference_is_a_file_source(
    messages: list[Message], wire: list[dict[str, Any]], strict: bool
) -> None:
    request = convert(messages, strict=strict)

    assert request.messages == wire
    assert [note.kind for note in request.notes] == []


FOREIGN: dict[str, Message] = {
    "openai_document": DocumentMessage(Role.USER, file_id="file-pdf1", file_provider="openai"),
    "openai_image": ImageMessage(Role.USER, file_id="file-img1", file_provider="openai"),
    "gemini_image": ImageMessage(
        Role.USER, file_id="files/abc", file_provider="gemini", media_type="image/png"
    ),
    "anthropic_audio": AudioMessage(Role.USER, file_id="file_011aud", file_provider="anthropic"),
}


@pytest.mark.parametrize("where", ["user_turn", "tool_result"])
@pytest.mark.parametrize("message", FOREIGN.values(), ids=FOREIGN.keys())
def test_a_file_reference_anthropic_cannot_take_is_dropped_lenient_and_raises_strict(
    message: Message, where: str
) -> None:
    messages = [HELLO, message] if where == "user_turn" else answered(message)
    index = 1 if where == "user_turn" else 2

    lenient = convert(messages)
    with pytest.raises(UnsupportedMessageError) as raised:
        convert(messages, strict=True)

    assert (index, "dropped") in [(note.index, note.kind) for note in lenient.notes]
    assert "file_id" not in repr(lenient.messages)
    assert raised.value.index == index


# -- the beta header on the wire ----------------------------------------------------------------


def router_answering(stream: bool) -> tuple[respx.Router, respx.Route]:
    router = respx.Router(assert_all_called=False)
    body = anthropic_message("Seen.")
    reply = anthropic_sse_response(stream_events(body)) if stream else respx.MockResponse(json=body)
    return router, router.post(URL).mock(return_value=reply)


def beta_header(route: respx.Route) -> str | None:
    """The ``anthropic-beta`` header the SDK sent (the body and header checked by the wire
    validator first)."""
    request = route.calls.last.request
    assert_valid_http_request(request)
    value: str | None = request.headers.get("anthropic-beta")
    return value


WITH_FILES: dict[str, tuple[list[Message], str | None]] = {
    "user_image": ([HELLO, IMAGE], FILES_BETA),
    "user_document": ([HELLO, PDF], FILES_BETA),
    "tool_result_document": (answered(PDF), FILES_BETA),
    "no_file_no_header": ([HELLO], None),
    "foreign_file_dropped_no_header": (
        [HELLO, DocumentMessage(Role.USER, file_id="file-pdf1", file_provider="openai")],
        None,
    ),
}


@pytest.mark.parametrize("stream", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize(("messages", "header"), WITH_FILES.values(), ids=WITH_FILES.keys())
async def test_the_agent_sends_the_files_beta_header_exactly_when_a_file_source_is_sent(
    messages: list[Message], header: str | None, stream: bool
) -> None:
    router, route = router_answering(stream)
    agent = AnthropicChatAgent(
        anthropic_client(router), name=AGENT, model="claude-test"
    ).register_message_connector()

    if stream:
        [item async for item in agent.stream(chat_history=messages)]
    else:
        await agent.send(chat_history=messages)

    assert beta_header(route) == header


GIVEN_BETAS: dict[str, tuple[dict[str, Any], str]] = {
    "another_beta_kept": (
        {"extra_headers": {"anthropic-beta": "mcp-client-2025-04-04"}},
        f"mcp-client-2025-04-04,{FILES_BETA}",
    ),
    "header_name_in_any_case": (
        {"extra_headers": {"Anthropic-Beta": "context-1m-2025-08-07"}},
        f"context-1m-2025-08-07,{FILES_BETA}",
    ),
    "files_beta_already_asked_for": (
        {"extra_headers": {"anthropic-beta": FILES_BETA}},
        FILES_BETA,
    ),
}


@pytest.mark.parametrize(("create_kwargs", "header"), GIVEN_BETAS.values(), ids=GIVEN_BETAS.keys())
async def test_the_files_beta_joins_the_betas_the_caller_asks_for(
    create_kwargs: dict[str, Any], header: str
) -> None:
    router, route = router_answering(stream=False)
    agent = AnthropicChatAgent(
        anthropic_client(router), name=AGENT, model="claude-test", **create_kwargs
    )

    await agent.generate_reply([MessageEnvelope(user(IMAGE_BLOCK))])

    assert beta_header(route) == header
    assert create_kwargs["extra_headers"] == dict(create_kwargs["extra_headers"]), "unchanged"


# -- importing --------------------------------------------------------------------------------

IMPORTED: dict[str, tuple[list[dict[str, Any]], list[Message]]] = {
    "image": ([user(IMAGE_BLOCK)], [IMAGE]),
    "document": ([user(PDF_BLOCK)], [PDF]),
    "titled_document": ([user(TITLED_BLOCK)], [TITLED]),
    "multimodal": (
        [user(text("Look at this."), IMAGE_BLOCK)],
        [MultiModalMessage(Role.USER, [HELLO, IMAGE])],
    ),
}


@pytest.mark.parametrize(("payload", "messages"), IMPORTED.values(), ids=IMPORTED.keys())
def test_file_sources_import_as_anthropic_file_references_and_round_trip(
    payload: list[dict[str, Any]], messages: list[Message]
) -> None:
    imported = from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

    assert imported == messages
    assert to_anthropic(imported, agent_name=AGENT).messages == payload


def test_file_sources_in_a_tool_result_import_and_round_trip() -> None:
    payload = SENT["tool_result_parts"][1]

    imported = from_anthropic_messages(payload, agent_name=AGENT, strict_mode=True)

    assert imported[-1] == answered(TextMessage(Role.TOOL, "The report:"), PDF, IMAGE)[-1]
    assert to_anthropic(imported, agent_name=AGENT).messages == payload


@pytest.mark.parametrize(
    "source",
    [
        pytest.param({"type": "file", "file_id": 7}, id="file_id_not_text"),
        pytest.param({"type": "file"}, id="no_file_id"),
        pytest.param({"type": "file", "file_id": "f", "extra": 1}, id="unknown_key"),
    ],
)
def test_a_malformed_file_source_keeps_its_message_as_an_envelope(source: dict[str, Any]) -> None:
    payload = [user({"type": "image", "source": source})]

    assert from_anthropic_messages(payload, agent_name=AGENT) == [MessageEnvelope(payload[0])]
