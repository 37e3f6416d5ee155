"""API.md 13, Anthropic column: documents, audio and media tool results, every cell in both
modes, sent by the real SDK over respx (each body checked by the strict wire validator)."""

from __future__ import annotations

import base64
from typing import Any

import pytest
import respx

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.testing import anthropic_client, anthropic_message, last_request_json
from tests.anthropic.helpers import URL, assistant, convert, text, tool_result, tool_use, user
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.strategies import PDF, PNG, WAV

START = TextMessage(Role.USER, "Read this.")
CSV = b"city,temp\nParis,18\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


PDF_BLOCK = {
    "type": "document",
    "source": {"type": "base64", "media_type": "application/pdf", "data": b64(PDF)},
}
PNG_BLOCK = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": b64(PNG)},
}


def text_document(data: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": data},
        **extra,
    }


def calls(*ids: str) -> ToolCallMessage:
    return ToolCallMessage([ToolCall("chart", "{}", tool_call_id=i) for i in ids], AGENT)


def answered(call_id: str, result: Any, *, is_error: bool = False) -> ToolCall:
    return ToolCall("chart", "{}", tool_call_id=call_id, result=result, is_error=is_error)


CHART = ImageMessage(Role.TOOL, data=PNG)
REPORT = DocumentMessage(Role.TOOL, data=PDF, filename="q3.pdf")
OPENING = text("Read this.")

# id: (messages after START, the wire messages in lenient mode, strict mode: "same" or the
# error class and the index it names)
CELLS: dict[str, tuple[list[Message], list[dict[str, Any]], Any]] = {
    "pdf_bytes_are_a_document_with_a_base64_source": (
        [DocumentMessage(Role.USER, data=PDF)],
        [user(OPENING, PDF_BLOCK)],
        "same",
    ),
    "a_filename_is_the_document_title": (
        [DocumentMessage(Role.USER, data=PDF, filename="report.pdf")],
        [user(OPENING, {**PDF_BLOCK, "title": "report.pdf"})],
        "same",
    ),
    "pdf_url_is_a_document_with_a_url_source": (
        [DocumentMessage(Role.USER, "https://example.com/a.pdf")],
        [
            user(
                OPENING,
                {"type": "document", "source": {"type": "url", "url": "https://example.com/a.pdf"}},
            )
        ],
        "same",
    ),
    "a_gs_url_is_not_supported": (
        [DocumentMessage(Role.USER, "gs://bucket/a.pdf")],
        [user(OPENING)],
        (UnsupportedMessageError, 1),
    ),
    "text_document_is_a_text_plain_source": (
        [DocumentMessage(Role.USER, data=b"hello", media_type="text/plain")],
        [user(OPENING, text_document("hello"))],
        "same",
    ),
    "markdown_is_a_text_plain_source": (
        [DocumentMessage(Role.USER, data=b"# T", media_type="text/markdown", filename="a.md")],
        [user(OPENING, text_document("# T", title="a.md"))],
        "same",
    ),
    "csv_is_a_text_plain_source": (
        [DocumentMessage(Role.USER, data=CSV, media_type="text/csv")],
        [user(OPENING, text_document(CSV.decode()))],
        "same",
    ),
    "other_document_types_are_not_supported": (
        [DocumentMessage(Role.USER, data=b"PK\x03\x04", media_type="application/msword")],
        [user(OPENING)],
        (UnsupportedMessageError, 1),
    ),
    "audio_is_not_supported": (
        [AudioMessage(Role.USER, data=WAV)],
        [user(OPENING)],
        (UnsupportedMessageError, 1),
    ),
    "audio_in_a_multimodal_message_is_not_supported": (
        [
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, "Listen"), AudioMessage(Role.USER, data=WAV)]
            )
        ],
        [user(OPENING, text("Listen"))],
        (UnsupportedMessageError, 1),
    ),
    "media_results_are_tool_result_content_blocks": (
        [
            calls("c1", "c2"),
            ToolCallResultMessage(
                [
                    answered("c1", [TextMessage(Role.TOOL, "Sales"), CHART]),
                    answered("c2", [REPORT]),
                ]
            ),
        ],
        [
            user(OPENING),
            assistant(tool_use("c1", "chart", {}), tool_use("c2", "chart", {})),
            user(
                tool_result("c1", [text("Sales"), PNG_BLOCK]),
                tool_result("c2", [{**PDF_BLOCK, "title": "q3.pdf"}]),
            ),
        ],
        "same",
    ),
    "a_media_error_result_keeps_its_blocks": (
        [calls("c1"), ToolCallResultMessage([answered("c1", [CHART], is_error=True)])],
        [
            user(OPENING),
            assistant(tool_use("c1", "chart", {})),
            user(tool_result("c1", [PNG_BLOCK], is_error=True)),
        ],
        "same",
    ),
    "another_agents_media_result_is_user_blocks": (
        [
            ToolCallAggregateMessage(
                ToolCallMessage([ToolCall("chart", "{}", tool_call_id="x1")], "critic"),
                ToolCallResultMessage([answered("x1", [TextMessage(Role.TOOL, "Sales"), CHART])]),
                "critic",
            )
        ],
        [user(OPENING, text("Sales"), PNG_BLOCK)],
        (InvalidMessageError, 1),  # the sender's name is dropped: lossy
    ),
}


async def send(messages: list[Message], *, strict_mode: bool) -> list[dict[str, Any]]:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).respond(json=anthropic_message("ok"))
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    connected = agent.register_message_connector(AnthropicMessageConnector(strict_mode=strict_mode))
    await connected.send(chat_history=[START, *messages])
    body = last_request_json(route)
    assert_valid_request(body)
    sent: list[dict[str, Any]] = body["messages"]
    return sent


@pytest.mark.parametrize(("messages", "wire", "strict"), CELLS.values(), ids=CELLS.keys())
async def test_each_cell_in_lenient_mode(
    messages: list[Message], wire: list[dict[str, Any]], strict: Any
) -> None:
    assert await send(messages, strict_mode=False) == wire


@pytest.mark.parametrize(("messages", "wire", "strict"), CELLS.values(), ids=CELLS.keys())
async def test_each_cell_in_strict_mode(
    messages: list[Message], wire: list[dict[str, Any]], strict: Any
) -> None:
    if strict == "same":
        assert await send(messages, strict_mode=True) == wire
        return
    error, index = strict
    with pytest.raises(error) as caught:
        await send(messages, strict_mode=True)
    assert caught.value.index == index


SELF = {
    "document": DocumentMessage(Role.USER, data=PDF, from_=AGENT),
    "audio": AudioMessage(Role.USER, AGENT, data=WAV),
    "multimodal_with_a_document": MultiModalMessage(
        Role.USER, [DocumentMessage(Role.USER, data=PDF)], AGENT
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("message", SELF.values(), ids=SELF.keys())
async def test_documents_and_audio_from_self_are_invalid(
    message: Message, strict_mode: bool
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        await send([message], strict_mode=strict_mode)
    assert (caught.value.index, caught.value.field) == (1, "from_")


BIG = PDF + b"x" * 64
LIMITS = {
    "a_document_message": ([DocumentMessage(Role.USER, data=BIG)], "data"),
    "a_document_in_a_multimodal_message": (
        [MultiModalMessage(Role.USER, [DocumentMessage(Role.USER, data=BIG)])],
        "content[0].data",
    ),
    "a_document_in_a_tool_result": (
        [
            calls("c1"),
            ToolCallResultMessage([answered("c1", [DocumentMessage(Role.TOOL, data=BIG)])]),
        ],
        "tool_calls[0].result[0].data",
    ),
}


@pytest.mark.parametrize(("messages", "field"), LIMITS.values(), ids=LIMITS.keys())
async def test_a_document_over_the_limit_fails_before_any_request(
    messages: list[Message], field: str
) -> None:
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).respond(json=anthropic_message("ok"))
    agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    connected = agent.register_message_connector(AnthropicMessageConnector(max_document_bytes=64))
    with pytest.raises(InvalidMessageError) as caught:
        await connected.send(chat_history=[START, *messages])
    assert (caught.value.index, caught.value.field) == (len(messages), field)
    assert not route.called


def test_a_text_document_that_is_not_utf8_names_its_field() -> None:
    latin = DocumentMessage(Role.USER, data="café".encode("latin-1"), media_type="text/plain")
    with pytest.raises(InvalidMessageError) as caught:
        convert([START, MultiModalMessage(Role.USER, [latin])])
    assert (caught.value.index, caught.value.field) == (1, "content[0].data")


def test_the_default_document_limit_is_32_mb() -> None:
    from llmbridge.anthropic import MAX_DOCUMENT_BYTES

    assert MAX_DOCUMENT_BYTES == 32 * 1024 * 1024
