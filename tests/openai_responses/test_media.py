"""Documents, audio and media tool results for OpenAI Responses (API.md 13, Responses column)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

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
from llmbridge.openai import to_openai_responses
from tests.corpus import AGENT, PNG
from tests.openai_responses.wire import check_input
from tests.strategies import PDF, WAV

PDF_URL = "data:application/pdf;base64," + base64.b64encode(PDF).decode()
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
CALL = ToolCall("chart", "{}", tool_call_id="call_1")
CSV = DocumentMessage(Role.USER, data=b"a,b\n1,2\n", media_type="text/csv", filename="t.csv")


def user(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(parts)}


def output(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": "call_1", "output": list(parts)}


def result(*parts: Any) -> ToolCallResultMessage:
    return ToolCallResultMessage([ToolCall("chart", "{}", tool_call_id="call_1", result=parts)])


PDF_FILE = {"type": "input_file", "filename": "document.pdf", "file_data": PDF_URL}

CASES: list[tuple[str, Message, dict[str, Any], list[str]]] = [
    (
        "PDF bytes are input_file with filename and data URL",
        DocumentMessage(Role.USER, data=PDF, filename="r.pdf"),
        user({"type": "input_file", "filename": "r.pdf", "file_data": PDF_URL}),
        [],
    ),
    (
        "the PDF filename defaults to document.pdf",
        DocumentMessage(Role.USER, data=PDF),
        user(PDF_FILE),
        [],
    ),
    (
        "a PDF URL is input_file file_url",
        DocumentMessage(Role.USER, "https://x.test/r.pdf"),
        user({"type": "input_file", "file_url": "https://x.test/r.pdf"}),
        [],
    ),
    (
        "a text document is input_text headed by its name",
        CSV,
        user({"type": "input_text", "text": "t.csv\na,b\n1,2\n"}),
        ["repaired"],
    ),
    (
        "a multimodal message keeps its documents in place",
        MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "Read"), DocumentMessage(Role.USER, data=PDF)]
        ),
        user({"type": "input_text", "text": "Read"}, PDF_FILE),
        [],
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("message", "item", "notes"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_documents(
    message: Message, item: dict[str, Any], notes: list[str], strict_mode: bool
) -> None:
    request = to_openai_responses([message], agent_name=AGENT, strict_mode=strict_mode)
    check_input(request.input)
    assert request.input == [item]
    assert [note.kind for note in request.notes] == notes


RESULTS: list[tuple[str, ToolCallResultMessage, dict[str, Any]]] = [
    (
        "text and an image: input_text and input_image with detail auto",
        result(TextMessage(Role.USER, "Chart:"), ImageMessage(Role.USER, data=PNG)),
        output(
            {"type": "input_text", "text": "Chart:"},
            {"type": "input_image", "image_url": PNG_URL, "detail": "auto"},
        ),
    ),
    (
        "an image keeps its detail",
        result(ImageMessage(Role.USER, "https://x.test/a.png", detail="high")),
        output({"type": "input_image", "image_url": "https://x.test/a.png", "detail": "high"}),
    ),
    (
        "a PDF is input_file with detail auto",
        result(DocumentMessage(Role.USER, data=PDF)),
        output({**PDF_FILE, "detail": "auto"}),
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("results", "item"), [c[1:] for c in RESULTS], ids=[c[0] for c in RESULTS])
def test_media_tool_results_are_output_parts(
    results: ToolCallResultMessage, item: dict[str, Any], strict_mode: bool
) -> None:
    messages: list[Message] = [
        TextMessage(Role.USER, "Go"),
        ToolCallMessage([CALL], AGENT),
        results,
    ]
    request = to_openai_responses(messages, agent_name=AGENT, strict_mode=strict_mode)
    check_input(request.input)
    assert request.input[2] == item


def test_an_aggregate_of_another_agent_with_media_is_a_user_item_of_parts() -> None:
    aggregate = ToolCallAggregateMessage(
        ToolCallMessage([CALL], "critic"),
        result(TextMessage(Role.USER, "Chart:"), DocumentMessage(Role.USER, data=PDF)),
        "critic",
    )
    request = to_openai_responses([aggregate], agent_name=AGENT, name_policy="prefix")
    check_input(request.input)
    assert request.input == [
        user(
            {"type": "input_text", "text": "[critic] "},
            {"type": "input_text", "text": "Chart:"},
            PDF_FILE,
        )
    ]


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(AudioMessage(Role.USER, data=WAV), id="audio"),
        pytest.param(
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, "x"), AudioMessage(Role.USER, data=WAV)]
            ),
            id="audio inside a multimodal message",
        ),
        pytest.param(
            DocumentMessage(Role.USER, "https://x.test/t.txt", media_type="text/plain"),
            id="a text document URL",
        ),
        pytest.param(
            DocumentMessage(Role.USER, data=b"{}", media_type="application/json"),
            id="a document type no provider is mapped for",
        ),
    ],
)
def test_not_supported_is_dropped_or_raises_in_strict_mode(message: Message) -> None:
    messages = [TextMessage(Role.USER, "Hi"), message]
    request = to_openai_responses(messages, agent_name=AGENT)
    check_input(request.input)
    assert [note.kind for note in request.notes] == ["dropped"]
    with pytest.raises(UnsupportedMessageError) as caught:
        to_openai_responses(messages, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 1


@pytest.mark.parametrize(
    ("message", "field"),
    [
        pytest.param(
            DocumentMessage(Role.USER, data=PDF, from_=AGENT), "from_", id="a document from self"
        ),
        pytest.param(AudioMessage(Role.USER, data=WAV, from_=AGENT), "from_", id="audio from self"),
        pytest.param(
            DocumentMessage(Role.USER, data=b"\xff\xfe", media_type="text/plain"),
            "data",
            id="text that is not UTF-8",
        ),
    ],
)
def test_invalid_in_both_modes(message: Message, field: str) -> None:
    for strict_mode in (False, True):
        with pytest.raises(InvalidMessageError) as caught:
            to_openai_responses([message], agent_name=AGENT, strict_mode=strict_mode)
        assert (caught.value.index, caught.value.field) == (0, field)


def test_a_document_over_the_limit_names_its_index() -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_openai_responses(
            [TextMessage(Role.USER, "Hi"), DocumentMessage(Role.USER, data=PDF)],
            agent_name=AGENT,
            max_document_bytes=8,
        )
    assert (caught.value.index, caught.value.field) == (1, "data")
