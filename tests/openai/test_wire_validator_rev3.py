"""The Chat wire validator's revision-3 rules (issue 27): PDFs by uploaded file id, audio as
before. Each conversation is hand-written; its comment names the SDK request type
(``openai/types/chat/...``) it follows.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.openai import wire

WAV = "UklGRiQAAABXQVZF"
PDF = "data:application/pdf;base64,JVBERi0xLjQ="


def asking(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    # ChatCompletionUserMessageParam, content: Iterable[ChatCompletionContentPartParam]
    return [{"role": "user", "content": [{"type": "text", "text": "Read this."}, *parts]}]


def file_part(**file: Any) -> dict[str, Any]:
    # chat_completion_content_part_param.File, file: FileFile {file_data, file_id, filename}
    return {"type": "file", "file": file}


def audio_part(data: str = WAV, audio_format: str = "wav") -> dict[str, Any]:
    # ChatCompletionContentPartInputAudioParam, input_audio: {data, format}
    return {"type": "input_audio", "input_audio": {"data": data, "format": audio_format}}


ANSWER = {"role": "assistant", "content": "It says hi."}
ACCEPTED = {
    "pdf_by_file_id": asking(file_part(file_id="file-BVTjj4CLd1Z7cgppk5sL45")),
    "pdf_by_file_id_with_a_filename": asking(file_part(file_id="file-pdf1", filename="a.pdf")),
    "pdf_as_data_as_before": asking(file_part(file_data=PDF, filename="a.pdf")),
    "wav_audio": asking(audio_part()),
    "mp3_audio": asking(audio_part(audio_format="mp3")),
    "file_and_audio_then_an_answer": [*asking(file_part(file_id="file-1"), audio_part()), ANSWER],
}


@pytest.mark.parametrize("messages", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_the_validator_accepts_what_the_api_accepts(messages: list[dict[str, Any]]) -> None:
    wire.check_messages(messages)


REJECTED = {
    "file_with_neither_id_nor_data": (asking(file_part(filename="a.pdf")), "exactly one of"),
    "file_with_both_id_and_data": (
        asking(file_part(file_id="file-1", file_data=PDF, filename="a.pdf")),
        "exactly one of",
    ),
    "empty_file_id": (asking(file_part(file_id="")), "not an OpenAI file id"),
    "gemini_file_uri_as_file_id": (
        asking(file_part(file_id="https://generativelanguage.googleapis.com/v1beta/files/a")),
        "not an OpenAI file id",
    ),
    "file_id_not_text": (asking(file_part(file_id=7)), "not an OpenAI file id"),
    "responses_shaped_file_part": (
        asking({"type": "input_file", "file_id": "file-1"}),
        "none of the allowed shapes",
    ),
    "file_url_chat_does_not_take": (
        asking(file_part(file_id="file-1", file_url="https://x.test/a.pdf")),
        "unknown key 'file_url'",
    ),
    "file_by_id_in_an_assistant_message": (
        [*asking(), {"role": "assistant", "content": [file_part(file_id="file-1")]}],
        "only allowed in user messages",
    ),
    "file_by_id_in_a_tool_message": (
        [
            *asking(),
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "f", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": [file_part(file_id="file-1")]},
        ],
        "only allowed in user messages",
    ),
    "audio_format_flac": (asking(audio_part(audio_format="flac")), "is not one of"),
    "audio_as_a_data_url": (asking(audio_part(data=f"data:audio/wav;base64,{WAV}")), "base64"),
    # ChatCompletionAssistantMessageParam has no annotations: citations are never sent back
    "assistant_annotations": (
        [*asking(), {**ANSWER, "annotations": [{"type": "url_citation"}]}],
        "unknown key 'annotations'",
    ),
}


@pytest.mark.parametrize(("messages", "problem"), REJECTED.values(), ids=REJECTED.keys())
def test_the_validator_rejects_the_near_misses(
    messages: list[dict[str, Any]], problem: str
) -> None:
    with pytest.raises(wire.WireError) as raised:
        wire.check_messages(messages)
    assert problem in str(raised.value)
