"""DocumentMessage, AudioMessage and parts results (API.md 13): construction rules, caches,
equality, serialization, and the result helpers the connectors share."""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

import pytest

import llmbridge._messages._media as media_module
from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    dump_messages,
    load_messages,
)
from llmbridge.kit import result_text, split_result
from tests.strategies import MP3, PDF, PNG, WAV

CSV = b"city,temp\nParis,18\n"


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


DOCUMENTS = {
    "pdf_bytes_are_pdf": (
        {"data": PDF},
        (None, PDF, "application/pdf"),
    ),
    "pdf_bytes_win_over_a_declared_type": (
        {"data": PDF, "media_type": "text/plain"},
        (None, PDF, "application/pdf"),
    ),
    "text_bytes_keep_their_declared_type": (
        {"data": CSV, "media_type": "text/csv"},
        (None, CSV, "text/csv"),
    ),
    "declared_type_is_normalized": (
        {"data": CSV, "media_type": " Text/Markdown "},
        (None, CSV, "text/markdown"),
    ),
    "data_url_is_parsed": (
        {"url": f"data:text/plain;base64,{b64(CSV)}"},
        (None, CSV, "text/plain"),
    ),
    "pdf_data_url_is_sniffed": (
        {"url": f"DATA:application/octet-stream;BASE64,{b64(PDF)}"},
        (None, PDF, "application/pdf"),
    ),
    "url_without_a_type": (
        {"url": "https://example.com/a.pdf"},
        ("https://example.com/a.pdf", None, None),
    ),
    "bytearray_becomes_bytes": (
        {"data": bytearray(PDF)},
        (None, PDF, "application/pdf"),
    ),
}


@pytest.mark.parametrize(("given", "expected"), DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_document_construction(given: dict[str, Any], expected: tuple[Any, ...]) -> None:
    document = DocumentMessage(Role.USER, **given)
    assert (document.url, document.data, document.media_type) == expected
    assert type(document.data) is (bytes if document.data is not None else type(None))
    assert document.get_content() is None


BAD_DOCUMENTS = {
    "neither_url_nor_data": ({}, "url"),
    "both_url_and_data": ({"url": "https://x/a.pdf", "data": PDF}, "url"),
    "empty_data": ({"data": b""}, "data"),
    "empty_data_url": ({"url": "data:application/pdf;base64,"}, "data"),
    "undecodable_data_url": ({"url": "data:application/pdf;base64,@@@"}, "url"),
    "non_pdf_bytes_without_a_type": ({"data": CSV}, "media_type"),
    "relative_url": ({"url": "report.pdf"}, "url"),
    "file_url": ({"url": "file:///etc/passwd"}, "url"),
    "data_not_bytes": ({"data": "text"}, "data"),
    "empty_filename": ({"data": PDF, "filename": " "}, "filename"),
}


@pytest.mark.parametrize(("given", "field"), BAD_DOCUMENTS.values(), ids=BAD_DOCUMENTS.keys())
def test_bad_documents_raise_naming_the_field(given: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        DocumentMessage(Role.USER, **given)
    assert caught.value.field == field


AUDIO = {
    "riff_wave_is_wav": (WAV, None, "audio/wav"),
    "id3_is_mpeg": (MP3, None, "audio/mpeg"),
    "frame_sync_is_mpeg": (b"\xff\xfb\x90\x00" + b"\x00" * 4, None, "audio/mpeg"),
    "sniffed_type_wins": (WAV, "audio/ogg", "audio/wav"),
    "other_bytes_keep_the_declared_type": (b"OggS\x00", "audio/ogg", "audio/ogg"),
    "alias_is_normalized": (b"\x00\x01", "audio/x-wav", "audio/wav"),
}


@pytest.mark.parametrize(("data", "declared", "media_type"), AUDIO.values(), ids=AUDIO.keys())
def test_audio_sniffing(data: bytes, declared: str | None, media_type: str) -> None:
    audio = AudioMessage(Role.USER, data=data, media_type=declared)
    assert (audio.media_type, audio.data, audio.url) == (media_type, data, None)
    assert audio.get_content() is None


BAD_AUDIO = {
    "empty": ({"data": b""}, "data"),
    "no_data": ({"data": None}, "data"),
    "unknown_bytes_without_a_type": ({"data": b"OggS\x00"}, "media_type"),
    "riff_that_is_not_wave": ({"data": b"RIFF\x00\x00\x00\x00WEBPVP8 "}, "media_type"),
}


@pytest.mark.parametrize(("given", "field"), BAD_AUDIO.values(), ids=BAD_AUDIO.keys())
def test_bad_audio_raises_naming_the_field(given: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        AudioMessage(Role.USER, **given)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "media",
    [DocumentMessage(Role.USER, data=PDF), AudioMessage(Role.USER, data=WAV)],
    ids=["document", "audio"],
)
def test_media_are_frozen(media: DocumentMessage | AudioMessage) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        media.data = b"x"  # type: ignore[misc]


def test_base64_is_computed_once_per_document(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[bytes] = []
    real = media_module.base64.b64encode
    text, url = b64(PDF), f"data:application/pdf;base64,{b64(PDF)}"

    def counting(data: bytes, altchars: bytes | None = None) -> bytes:
        encoded.append(data)
        return real(data)

    monkeypatch.setattr(media_module.base64, "b64encode", counting)
    document = DocumentMessage(Role.USER, data=PDF)
    for _ in range(3):
        assert (document.base64_data, document.data_url) == (text, url)
    assert encoded == [PDF]


@pytest.mark.parametrize(
    ("media", "changes", "base64_data"),
    [
        (DocumentMessage(Role.USER, data=PDF), {"data": PDF + b"x"}, b64(PDF + b"x")),
        (AudioMessage(Role.USER, data=WAV), {"data": MP3}, b64(MP3)),
    ],
    ids=["document", "audio"],
)
def test_replace_recomputes_the_caches(
    media: DocumentMessage | AudioMessage, changes: dict[str, Any], base64_data: str
) -> None:
    assert media.base64_data  # fill the cache first
    changed = dataclasses.replace(media, **changes)  # type: ignore[type-var]
    assert changed.base64_data == base64_data
    assert changed.data_url.endswith(base64_data)
    assert dataclasses.replace(changed, **{"data": media.data}) == media  # type: ignore[type-var]


def test_replace_keeps_the_rules() -> None:
    document = DocumentMessage(Role.USER, data=CSV, media_type="text/csv")
    assert dataclasses.replace(document, data=PDF).media_type == "application/pdf"
    with pytest.raises(InvalidMessageError):
        dataclasses.replace(document, data=b"")


def test_equality_ignores_the_caches() -> None:
    cached = DocumentMessage(Role.USER, data=PDF)
    assert cached.data_url
    assert cached == DocumentMessage(Role.USER, data=PDF)
    assert hash(cached) == hash(DocumentMessage(Role.USER, data=PDF))
    assert DocumentMessage(Role.USER, data=PDF, filename="a.pdf") != cached


def test_multimodal_takes_documents_and_audio() -> None:
    items = [TextMessage(Role.USER, "see"), DocumentMessage(Role.USER, data=PDF)]
    message = MultiModalMessage(Role.USER, [*items, AudioMessage(Role.USER, data=WAV)])
    assert len(message.content) == 3
    with pytest.raises(InvalidMessageError) as caught:
        MultiModalMessage(Role.USER, [*items, ToolCallMessage([ToolCall("f", "{}")])])  # type: ignore[list-item]
    assert caught.value.field == "content[2]"


CHART = ImageMessage(Role.TOOL, data=PNG)
REPORT = DocumentMessage(Role.TOOL, data=PDF, filename="report.pdf")
NOTE = TextMessage(Role.TOOL, "Sales by month")

RESULTS = {
    "text_is_kept": ("18C", "18C"),
    "a_list_of_parts_becomes_a_tuple": ([NOTE, CHART], (NOTE, CHART)),
    "a_tuple_of_parts_is_kept": ((CHART, REPORT), (CHART, REPORT)),
    "a_single_part_is_a_one_part_result": (CHART, (CHART,)),
    "a_dict_is_a_structured_result": ({"a": [1]}, {"a": [1]}),
    "a_list_of_values_is_json_text": ([1, "x"], '[1,"x"]'),
    "none_is_no_result": (None, None),
}


@pytest.mark.parametrize(("given", "stored"), RESULTS.values(), ids=RESULTS.keys())
def test_tool_call_result_forms(given: Any, stored: Any) -> None:
    assert ToolCall("f", "{}", result=given).result == stored


BAD_RESULTS = {
    "an_empty_list": ([], "result"),
    "an_empty_tuple": ((), "result"),
    "parts_mixed_with_a_string": ([CHART, "caption"], "result[1]"),
    "parts_mixed_with_a_tool_call": ([NOTE, ToolCallMessage([ToolCall("f", "{}")])], "result[1]"),
}


@pytest.mark.parametrize(("given", "field"), BAD_RESULTS.values(), ids=BAD_RESULTS.keys())
def test_bad_results_raise_naming_the_field(given: Any, field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        ToolCall("f", "{}", result=given)
    assert caught.value.field == field


def test_get_content_uses_the_text_parts() -> None:
    calls = [
        ToolCall("f", "{}", tool_call_id="1", result=[NOTE, CHART, TextMessage(Role.TOOL, "Q3")]),
        ToolCall("g", "{}", tool_call_id="2", result=[CHART]),
        ToolCall("h", "{}", tool_call_id="3", result="plain"),
    ]
    results = ToolCallResultMessage(calls)
    assert results.get_content() == "Sales by month\nQ3\nplain"
    aggregate = ToolCallAggregateMessage(ToolCallMessage(calls), results)
    assert aggregate.get_content() == "Sales by month\nQ3\nplain"
    assert ToolCallResultMessage(calls[1:2]).get_content() is None


SPLITS = {
    "text": ("x", ("x", ())),
    "text_and_media_in_order": ((NOTE, CHART, REPORT), ("Sales by month", (CHART, REPORT))),
    "media_only": ((REPORT,), (None, (REPORT,))),
}


@pytest.mark.parametrize(("result", "split"), SPLITS.values(), ids=SPLITS.keys())
def test_split_result(result: Any, split: tuple[Any, Any]) -> None:
    assert split_result(result) == split
    assert result_text(result) == split[0]


def test_new_types_serialize_with_their_json_types() -> None:
    messages = [
        DocumentMessage(Role.USER, data=PDF, filename="a.pdf"),
        DocumentMessage(Role.USER, "https://x/a.pdf"),
        AudioMessage(Role.USER, "user", data=WAV),
        ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="1", result=[NOTE, CHART])]),
    ]
    data = json.loads(dump_messages(messages))
    assert [item["type"] for item in data] == ["document", "document", "audio", "tool_call_result"]
    assert data[0]["data"] == b64(PDF)
    assert data[2] == {
        "type": "audio",
        "role": "user",
        "data": b64(WAV),
        "media_type": "audio/wav",
        "from": "user",
    }
    assert [part["type"] for part in data[3]["tool_calls"][0]["result"]] == ["text", "image"]
    assert load_messages(dump_messages(messages)) == messages


@pytest.mark.parametrize(
    ("result", "field"),
    [([], "result"), ([{"type": "multimodal", "role": "user", "content": []}], "result.0")],
    ids=["empty_parts", "multimodal_is_not_a_result_part"],
)
def test_loading_bad_parts_results_raises(result: Any, field: str) -> None:
    data = [
        {
            "type": "tool_call_result",
            "tool_calls": [{"function_name": "f", "function_arguments": "{}", "result": result}],
        }
    ]
    with pytest.raises(InvalidMessageError) as caught:
        load_messages(json.dumps(data))
    assert caught.value.index == 0
    assert caught.value.field is not None
    assert caught.value.field.endswith(field)
