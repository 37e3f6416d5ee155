"""Provider file references (API.md 19.1): ``file_id`` / ``file_provider`` on images and
documents, sent only to a wing of that provider, read back by the importers.

The Responses importer used to turn a tool output holding an ``input_file`` / ``input_image``
by ``file_id`` into an envelope, leaving its call unanswered (issue 26, defect 2). Sending:
OpenAI Chat takes PDFs by id, Responses images and files by id, Gemini its own Files API
files, Anthropic its own Files API files (``tests/anthropic/test_files.py``, with the beta
header on the wire); every other pairing is not supported (lenient: dropped with a note, strict:
``UnsupportedMessageError`` naming the index).
"""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import (
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
    dump_messages,
    load_messages,
)
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import to_gemini
from llmbridge.openai import (
    from_openai_messages,
    from_openai_responses_input,
    to_openai,
    to_openai_responses,
)
from tests.anthropic.wire import assert_valid_request
from tests.gemini.wire import check_contents
from tests.openai.wire import check_messages
from tests.openai_responses.wire import check_input

AGENT = "assistant"
OPENAI_PDF = DocumentMessage(Role.USER, file_id="file-pdf1", file_provider="openai")
OPENAI_IMAGE = ImageMessage(Role.USER, file_id="file-img1", file_provider="openai")
GEMINI_IMAGE = ImageMessage(
    Role.USER, file_id="files/abc123", file_provider="gemini", media_type="image/png"
)
GEMINI_URI = "https://generativelanguage.googleapis.com/v1beta/files/abc123"
ANTHROPIC_PDF = DocumentMessage(
    Role.USER, file_id="file_011", file_provider="anthropic", media_type="application/pdf"
)
HELLO = TextMessage(Role.USER, "Look at this.")

# -- the model ------------------------------------------------------------------------------

INVALID: dict[str, tuple[dict[str, Any], str]] = {
    "url_and_file_id": ({"url": "https://a.example/x.png", "file_id": "f"}, "url"),
    "nothing": ({}, "url"),
    "file_id_without_provider": ({"file_id": "file-1"}, "file_provider"),
    "provider_without_file_id": (
        {"url": "https://a.example/x", "file_provider": "openai"},
        "file_provider",
    ),
    "empty_file_id": ({"file_id": " ", "file_provider": "openai"}, "file_id"),
    "gemini_file_without_media_type": (
        {"file_id": "files/a", "file_provider": "gemini"},
        "media_type",
    ),
}


@pytest.mark.parametrize("kind", [ImageMessage, DocumentMessage], ids=["image", "document"])
@pytest.mark.parametrize(("arguments", "field"), INVALID.values(), ids=INVALID.keys())
def test_a_file_reference_breaking_a_rule_raises_naming_its_field(
    kind: type[ImageMessage | DocumentMessage], arguments: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        kind(Role.USER, **arguments)
    assert raised.value.field == field


def test_file_references_round_trip_through_json_and_old_json_is_unchanged() -> None:
    messages: list[Message] = [OPENAI_PDF, OPENAI_IMAGE, GEMINI_IMAGE]
    assert load_messages(dump_messages(messages)) == messages
    plain = dump_messages([ImageMessage(Role.USER, "https://a.example/x.png")])
    assert "file_id" not in plain
    assert "file_provider" not in plain


def test_a_file_reference_has_no_data_url() -> None:
    with pytest.raises(InvalidMessageError) as raised:
        _ = OPENAI_PDF.data_url
    assert raised.value.field == "file_id"


# -- sending: each wing, both modes --------------------------------------------------------


def _responses(messages: list[Message], strict_mode: bool) -> tuple[list[Any], list[str]]:
    request = to_openai_responses(messages, agent_name=AGENT, strict_mode=strict_mode)
    check_input(request.input)
    return request.input, [note.kind for note in request.notes]


def _chat(messages: list[Message], strict_mode: bool) -> tuple[list[Any], list[str]]:
    request = to_openai(messages, agent_name=AGENT, strict_mode=strict_mode)
    check_messages(request.messages)
    return list(request.messages), [note.kind for note in request.notes]


def _anthropic(messages: list[Message], strict_mode: bool) -> tuple[list[Any], list[str]]:
    request = to_anthropic(messages, agent_name=AGENT, strict_mode=strict_mode)
    assert_valid_request(request)
    return list(request.messages), [note.kind for note in request.notes]


def _gemini(messages: list[Message], strict_mode: bool) -> tuple[list[Any], list[str]]:
    request = to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)
    check_contents(request.contents)
    return list(request.contents), [note.kind for note in request.notes]


SENT: dict[str, tuple[Any, Message, Any]] = {
    "responses_document": (
        _responses,
        OPENAI_PDF,
        [{"role": "user", "content": [{"type": "input_file", "file_id": "file-pdf1"}]}],
    ),
    "responses_image": (
        _responses,
        OPENAI_IMAGE,
        [
            {
                "role": "user",
                "content": [{"type": "input_image", "file_id": "file-img1", "detail": "auto"}],
            }
        ],
    ),
    "chat_pdf": (
        _chat,
        OPENAI_PDF,
        [{"role": "user", "content": [{"type": "file", "file": {"file_id": "file-pdf1"}}]}],
    ),
    "anthropic_document": (
        _anthropic,
        ANTHROPIC_PDF,
        [
            {
                "role": "user",
                "content": [
                    {"type": "document", "source": {"type": "file", "file_id": "file_011"}}
                ],
            }
        ],
    ),
    "gemini_image": (
        _gemini,
        GEMINI_IMAGE,
        [
            {
                "role": "user",
                "parts": [{"file_data": {"file_uri": GEMINI_URI, "mime_type": "image/png"}}],
            }
        ],
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("convert", "message", "wire"), SENT.values(), ids=SENT.keys())
def test_a_file_reference_goes_to_a_wing_of_its_provider(
    convert: Any, message: Message, wire: list[Any], strict_mode: bool
) -> None:
    sent, notes = convert([message], strict_mode)

    assert sent == wire
    assert notes == []


NOT_SENT: dict[str, tuple[Any, Message]] = {
    "chat_openai_image": (_chat, OPENAI_IMAGE),
    "chat_gemini_image": (_chat, GEMINI_IMAGE),
    "chat_anthropic_document": (_chat, ANTHROPIC_PDF),
    "responses_gemini_image": (_responses, GEMINI_IMAGE),
    "responses_anthropic_document": (_responses, ANTHROPIC_PDF),
    "anthropic_openai_document": (_anthropic, OPENAI_PDF),
    "anthropic_gemini_image": (_anthropic, GEMINI_IMAGE),
    "gemini_openai_document": (_gemini, OPENAI_PDF),
    "gemini_openai_image": (_gemini, OPENAI_IMAGE),
}


@pytest.mark.parametrize(("convert", "message"), NOT_SENT.values(), ids=NOT_SENT.keys())
def test_a_file_reference_to_another_wing_is_dropped_with_a_note(
    convert: Any, message: Message
) -> None:
    sent, notes = convert([HELLO, message], False)

    assert notes == ["dropped"]
    assert sent == convert([HELLO], False)[0]


@pytest.mark.parametrize(("convert", "message"), NOT_SENT.values(), ids=NOT_SENT.keys())
def test_a_file_reference_to_another_wing_raises_naming_its_index_when_strict(
    convert: Any, message: Message
) -> None:
    with pytest.raises(UnsupportedMessageError) as raised:
        convert([HELLO, message], True)
    assert raised.value.index == 1


def test_a_file_reference_in_a_tool_result_is_an_output_part_on_responses() -> None:
    call = ToolCall("fetch_report", "{}", tool_call_id="call_1")
    result = ToolCall("fetch_report", "{}", tool_call_id="call_1", result=(OPENAI_PDF,))
    messages: list[Message] = [
        HELLO,
        ToolCallMessage([call], AGENT),
        ToolCallResultMessage([result]),
    ]

    sent, _ = _responses(messages, strict_mode=True)

    assert sent[-1]["output"] == [{"type": "input_file", "file_id": "file-pdf1", "detail": "auto"}]


# -- importing -------------------------------------------------------------------------------

CALL_ITEM = {
    "type": "function_call",
    "call_id": "call_1",
    "name": "fetch_report",
    "arguments": "{}",
}
OUTPUT_FILES: dict[str, list[dict[str, Any]]] = {
    "input_file": [{"type": "input_file", "file_id": "file-pdf1", "detail": "auto"}],
    "input_image": [{"type": "input_image", "file_id": "file-img1", "detail": "low"}],
    "text_and_file": [
        {"type": "input_text", "text": "The report:"},
        {"type": "input_file", "file_id": "file-pdf1", "detail": "auto"},
    ],
}


@pytest.mark.parametrize("output", OUTPUT_FILES.values(), ids=OUTPUT_FILES.keys())
def test_a_responses_tool_output_of_files_by_id_imports_and_round_trips(
    output: list[dict[str, Any]],
) -> None:
    items = [CALL_ITEM, {"type": "function_call_output", "call_id": "call_1", "output": output}]

    messages = from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)

    results = messages[-1]
    assert isinstance(results, ToolCallResultMessage)
    parts = results.tool_calls[0].result
    assert isinstance(parts, tuple)
    assert {part.file_provider for part in parts if not isinstance(part, TextMessage)} == {"openai"}
    assert to_openai_responses(messages, agent_name=AGENT).input == items


USER_FILES: dict[str, tuple[dict[str, Any], Message]] = {
    "input_file": ({"type": "input_file", "file_id": "file-pdf1"}, OPENAI_PDF),
    "input_image": (
        {"type": "input_image", "file_id": "file-img1", "detail": "auto"},
        ImageMessage(Role.USER, file_id="file-img1", file_provider="openai", detail="auto"),
    ),
}


@pytest.mark.parametrize(("part", "message"), USER_FILES.values(), ids=USER_FILES.keys())
def test_a_responses_user_file_by_id_imports_as_a_file_reference(
    part: dict[str, Any], message: Message
) -> None:
    items = [{"role": "user", "content": [part]}]

    imported = from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)

    assert imported == [message]
    assert to_openai_responses(imported, agent_name=AGENT).input == items


def test_a_chat_file_part_by_id_imports_and_round_trips() -> None:
    payload = [{"role": "user", "content": [{"type": "file", "file": {"file_id": "file-pdf1"}}]}]

    imported = from_openai_messages(payload, agent_name=AGENT, strict_mode=True)

    assert imported == [OPENAI_PDF]
    assert to_openai(imported, agent_name=AGENT).messages == payload
