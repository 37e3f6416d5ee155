"""API.md 13, OpenAI Chat column: documents, audio and media tool results, every cell in both
modes, sent by the real SDK over respx (each body checked by the strict wire validator)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
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
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import openai_client, openai_completion
from tests.corpus import AGENT
from tests.openai.helpers import CHAT_URL, convert, new_router, sent_bodies
from tests.strategies import MP3, PDF, PNG, WAV

START = TextMessage(Role.USER, "Read this.")
START_WIRE = {"role": "user", "content": "Read this."}
CSV = b"city,temp\nParis,18\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


PDF_URL = f"data:application/pdf;base64,{b64(PDF)}"
PNG_URL = f"data:image/png;base64,{b64(PNG)}"


def user(*parts: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "user", "content": list(parts)}
    if name is not None:
        message["name"] = name
    return message


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def file(filename: str) -> dict[str, Any]:
    return {"type": "file", "file": {"filename": filename, "file_data": PDF_URL}}


def calls(*ids: str) -> ToolCallMessage:
    return ToolCallMessage([ToolCall("chart", "{}", tool_call_id=i) for i in ids], AGENT)


def answered(call_id: str, result: Any) -> ToolCall:
    return ToolCall("chart", "{}", tool_call_id=call_id, result=result)


def calls_wire(*ids: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": "chart", "arguments": "{}"}}
            for i in ids
        ],
    }


def tool(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


CHART = ImageMessage(Role.TOOL, data=PNG)
REPORT = DocumentMessage(Role.TOOL, data=PDF, filename="q3.pdf")
DROPPED = "dropped"

# id: (messages after START, the wire messages after START_WIRE in lenient mode, strict mode:
# "same" or the error class and the index it names)
CELLS: dict[str, tuple[list[Message], list[dict[str, Any]] | str, Any]] = {
    "pdf_bytes_are_a_file_part_named_document_pdf": (
        [DocumentMessage(Role.USER, data=PDF)],
        [user(file("document.pdf"))],
        "same",
    ),
    "pdf_bytes_keep_their_filename_and_sender": (
        [DocumentMessage(Role.USER, data=PDF, from_="critic", filename="report.pdf")],
        [user(file("report.pdf"), name="critic")],
        "same",
    ),
    "pdf_url_is_not_supported": (
        [DocumentMessage(Role.USER, "https://example.com/a.pdf")],
        [],
        (UnsupportedMessageError, 1),
    ),
    "text_document_is_a_text_part_headed_by_document_txt": (
        [DocumentMessage(Role.USER, data=CSV, media_type="text/csv")],
        [user(text("document.txt\ncity,temp\nParis,18\n"))],
        "same",
    ),
    "markdown_document_is_a_text_part_headed_by_its_filename": (
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "Summarise:"),
                    DocumentMessage(
                        Role.USER, data=b"# Title", media_type="text/markdown", filename="a.md"
                    ),
                ],
            )
        ],
        [user(text("Summarise:"), text("a.md\n# Title"))],
        "same",
    ),
    "other_document_types_are_not_supported": (
        [DocumentMessage(Role.USER, data=b"PK\x03\x04", media_type="application/msword")],
        [],
        (UnsupportedMessageError, 1),
    ),
    "wav_audio_is_input_audio_wav": (
        [AudioMessage(Role.USER, data=WAV)],
        [user({"type": "input_audio", "input_audio": {"data": b64(WAV), "format": "wav"}})],
        "same",
    ),
    "mp3_audio_is_input_audio_mp3": (
        [AudioMessage(Role.USER, data=MP3)],
        [user({"type": "input_audio", "input_audio": {"data": b64(MP3), "format": "mp3"}})],
        "same",
    ),
    "other_audio_is_not_supported": (
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "Listen"),
                    AudioMessage(Role.USER, data=b"OggS\x00", media_type="audio/ogg"),
                ],
            )
        ],
        [user(text("Listen"))],
        (UnsupportedMessageError, 1),
    ),
    "media_results_go_in_one_user_message_after_the_batch": (
        [
            calls("c1", "c2"),
            ToolCallResultMessage([answered("c1", [TextMessage(Role.TOOL, "Sales"), CHART])]),
            ToolCallResultMessage([answered("c2", [REPORT, TextMessage(Role.TOOL, "Q3")])]),
        ],
        [
            calls_wire("c1", "c2"),
            tool("c1", "Sales"),
            tool("c2", "Q3"),
            user(
                text("[result of c1]"),
                {"type": "image_url", "image_url": {"url": PNG_URL}},
                text("[result of c2]"),
                file("q3.pdf"),
            ),
        ],
        "same",
    ),
    "a_media_only_result_says_media_attached_below": (
        [calls("c1"), ToolCallResultMessage([answered("c1", [CHART, CHART])])],
        [
            calls_wire("c1"),
            tool("c1", "[media attached below]"),
            user(
                text("[result of c1]"),
                {"type": "image_url", "image_url": {"url": PNG_URL}},
                text("[result of c1]"),
                {"type": "image_url", "image_url": {"url": PNG_URL}},
            ),
        ],
        "same",
    ),
    "media_of_an_aggregate_follow_its_tool_messages": (
        [
            ToolCallAggregateMessage(
                calls("c1"), ToolCallResultMessage([answered("c1", [CHART])]), AGENT
            ),
            TextMessage(Role.USER, "And now?"),
        ],
        [
            calls_wire("c1"),
            tool("c1", "[media attached below]"),
            user(text("[result of c1]"), {"type": "image_url", "image_url": {"url": PNG_URL}}),
            {"role": "user", "content": "And now?"},
        ],
        "same",
    ),
    "the_label_names_the_id_as_sent": (
        [calls("c" * 50), ToolCallResultMessage([answered("c" * 50, [CHART])])],
        DROPPED,  # checked below against the request's tool_ids
        "same",
    ),
    "another_agents_media_result_is_a_user_message": (
        [
            ToolCallAggregateMessage(
                ToolCallMessage([ToolCall("chart", "{}", tool_call_id="x1")], "critic"),
                ToolCallResultMessage([answered("x1", [TextMessage(Role.TOOL, "Sales"), CHART])]),
                "critic",
            )
        ],
        [
            user(
                text("Sales"),
                {"type": "image_url", "image_url": {"url": PNG_URL}},
                name="critic",
            )
        ],
        "same",
    ),
}


async def send(messages: list[Message], *, strict_mode: bool) -> list[dict[str, Any]]:
    router = new_router()
    route = router.post(CHAT_URL).respond(json=openai_completion("ok"))
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    connected = agent.register_message_connector(
        OpenAIChatRequestMessageConnector(strict_mode=strict_mode)
    )
    await connected.send(chat_history=[START, *messages])
    (body,) = sent_bodies(route)
    sent: list[dict[str, Any]] = body["messages"]
    return sent


@pytest.mark.parametrize(("messages", "wire", "strict"), CELLS.values(), ids=CELLS.keys())
async def test_each_cell_in_lenient_mode(
    messages: list[Message], wire: list[dict[str, Any]] | str, strict: Any
) -> None:
    sent = await send(messages, strict_mode=False)
    assert sent[0] == START_WIRE
    if wire == DROPPED:  # the long id: shortened to 40 characters in the call and the label
        sent_id = sent[1]["tool_calls"][0]["id"]
        assert len(sent_id) == 40
        assert sent[2] == tool(sent_id, "[media attached below]")
        assert sent[3]["content"][0] == text(f"[result of {sent_id}]")
    else:
        assert sent[1:] == wire


@pytest.mark.parametrize(("messages", "wire", "strict"), CELLS.values(), ids=CELLS.keys())
async def test_each_cell_in_strict_mode(
    messages: list[Message], wire: list[dict[str, Any]] | str, strict: Any
) -> None:
    if strict == "same":
        assert await send(messages, strict_mode=True) == await send(messages, strict_mode=False)
        return
    error, index = strict
    with pytest.raises(error) as caught:
        await send(messages, strict_mode=True)
    assert caught.value.index == index


NOTES = {
    "text_document": (
        [DocumentMessage(Role.USER, data=CSV, media_type="text/csv")],
        [(1, "repaired")],
    ),
    "media_result": (
        [calls("c1"), ToolCallResultMessage([answered("c1", [CHART])])],
        [(2, "repaired")],
    ),
    "pdf_url": ([DocumentMessage(Role.USER, "https://example.com/a.pdf")], [(1, "dropped")]),
    "other_audio": (
        [AudioMessage(Role.USER, data=b"OggS", media_type="audio/ogg")],
        [(1, DROPPED)],
    ),
}


@pytest.mark.parametrize(("messages", "kinds"), NOTES.values(), ids=NOTES.keys())
def test_each_change_is_noted(messages: list[Message], kinds: list[tuple[int, str]]) -> None:
    request = convert([START, *messages])
    assert [(note.index, note.kind) for note in request.notes] == kinds


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


LIMITS = {
    "a_document_message": ([DocumentMessage(Role.USER, data=PDF + b"x" * 64)], "data"),
    "a_document_in_a_multimodal_message": (
        [MultiModalMessage(Role.USER, [DocumentMessage(Role.USER, data=PDF + b"x" * 64)])],
        "content[0].data",
    ),
    "a_document_in_a_tool_result": (
        [
            calls("c1"),
            ToolCallResultMessage(
                [answered("c1", [DocumentMessage(Role.TOOL, data=PDF + b"x" * 64)])]
            ),
        ],
        "tool_calls[0].result[0].data",
    ),
}


@pytest.mark.parametrize(("messages", "field"), LIMITS.values(), ids=LIMITS.keys())
async def test_a_document_over_the_limit_fails_before_any_request(
    messages: list[Message], field: str
) -> None:
    router = new_router()
    route = router.post(CHAT_URL).respond(json=openai_completion("ok"))
    agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    connected = agent.register_message_connector(
        OpenAIChatRequestMessageConnector(max_document_bytes=64)
    )
    with pytest.raises(InvalidMessageError) as caught:
        await connected.send(chat_history=[START, *messages])
    assert caught.value.field == field
    assert caught.value.index == len(messages)
    assert not route.called


def test_the_default_document_limit_is_32_mb() -> None:
    from llmbridge.openai import MAX_DOCUMENT_BYTES

    assert MAX_DOCUMENT_BYTES == 32 * 1024 * 1024
    big = DocumentMessage(Role.USER, data=PDF + b"x" * (24 * 1024 * 1024))
    with pytest.raises(LLMBridgeError):
        convert([START, big])
