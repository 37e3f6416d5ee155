"""The shared corpus' revision-3 entries (API.md 19): provider file references, video, structured
and media tool results, and replies with citations and hosted tools in each wing's own flavour
(``tests/corpus_replies.py``).

``tests/corpus.py`` adds them to ``CORPUS``, so every approval snapshot shows how its wing treats
every new part: its own sent exactly, a foreign one omitted or dropped with its note (strict: the
error).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    VideoMessage,
)
from tests.corpus_replies import replies
from tests.strategies import PDF, WAV

# An mp4 file's first box: ``ftyp``, major brand ``isom`` (sniffed as video/mp4).
MP4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2avc1mp41"
WEBM = b"\x1aE\xdf\xa3\x9fB\x86\x81\x01"  # an EBML header: not sniffed, its type is declared

OPENAI_FILE = "file-6F2ksmvXxt4VdoqmHRw6kL"
ANTHROPIC_FILE = "file_011CNha8iCJcU1wXNR6q4V8w"
GEMINI_FILE = "files/abc-123"
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"


def _files(kind: type[Any], **gemini: str) -> dict[str, Message]:
    """One ``kind`` per provider's Files API (Gemini's with its ``media_type``)."""
    name = kind.__name__.removesuffix("Message").lower()
    return {
        f"{name}_file_openai": kind(Role.USER, file_id=OPENAI_FILE, file_provider="openai"),
        f"{name}_file_anthropic": kind(
            Role.USER, file_id=ANTHROPIC_FILE, file_provider="anthropic"
        ),
        f"{name}_file_gemini": kind(
            Role.USER, file_id=GEMINI_FILE, file_provider="gemini", **gemini
        ),
    }


FILES: dict[str, Message] = {
    **_files(ImageMessage, media_type="image/png"),
    **_files(DocumentMessage, media_type="application/pdf"),
    "audio_file_openai": AudioMessage(Role.USER, file_id=OPENAI_FILE, file_provider="openai"),
    "audio_file_gemini": AudioMessage(
        Role.USER, file_id=GEMINI_FILE, file_provider="gemini", media_type="audio/wav"
    ),
    "multimodal_with_provider_files": MultiModalMessage(
        Role.USER,
        [
            TextMessage(Role.USER, "Compare the chart with the report."),
            ImageMessage(Role.USER, file_id=OPENAI_FILE, file_provider="openai"),
            DocumentMessage(Role.USER, file_id=ANTHROPIC_FILE, file_provider="anthropic"),
            DocumentMessage(
                Role.USER,
                file_id=GEMINI_FILE,
                file_provider="gemini",
                media_type="application/pdf",
            ),
        ],
    ),
    "tool_results_with_provider_files": ToolCallResultMessage(
        [
            ToolCall(
                "get_weather",
                '{"city": "Paris"}',
                tool_call_id="call_1",
                result=(
                    TextMessage(Role.TOOL, "Forecasts:"),
                    DocumentMessage(Role.TOOL, file_id=OPENAI_FILE, file_provider="openai"),
                    ImageMessage(Role.TOOL, file_id=ANTHROPIC_FILE, file_provider="anthropic"),
                    ImageMessage(
                        Role.TOOL,
                        file_id=GEMINI_FILE,
                        file_provider="gemini",
                        media_type="image/png",
                    ),
                ),
            )
        ]
    ),
}


def _videos(other: str) -> dict[str, Message]:
    return {
        "video_bytes": VideoMessage(Role.USER, data=MP4),
        "video_bytes_declared_type": VideoMessage(Role.USER, data=WEBM, media_type="video/webm"),
        "video_gcs": VideoMessage(
            Role.USER, "gs://weather-bucket/paris.mp4", media_type="video/mp4"
        ),
        "video_youtube": VideoMessage(Role.USER, YOUTUBE),
        "video_other_url": VideoMessage(Role.USER, "https://example.com/paris.mp4"),
        "video_file_gemini": VideoMessage(
            Role.USER, file_id=GEMINI_FILE, file_provider="gemini", media_type="video/mp4"
        ),
        "video_from_other_agent": VideoMessage(Role.USER, YOUTUBE, other),
        "multimodal_with_video": MultiModalMessage(
            Role.USER,
            [
                TextMessage(Role.USER, "What happens in this clip?"),
                VideoMessage(Role.USER, data=MP4),
            ],
        ),
    }


STRUCTURED = ToolCall(
    "get_weather",
    '{"city": "Zürich"}',
    tool_call_id="call_1",
    result={"city": "Zürich", "temperature_c": 18, "sky": ["sunny", "windy"], "wind": {"kmh": 12}},
)


def _results(agent: str) -> dict[str, Message]:
    return {
        "tool_results_structured": ToolCallResultMessage(
            [
                STRUCTURED,
                ToolCall("get_time", "{}", tool_call_id="call_2", result={}),
                ToolCall(
                    "get_alerts",
                    "{}",
                    tool_call_id="call_3",
                    result={"error": {"code": 503}},
                    is_error=True,
                ),
            ]
        ),
        "aggregate_with_structured_result_from_self": ToolCallAggregateMessage(
            ToolCallMessage([dataclasses.replace(STRUCTURED, result=None)], agent),
            ToolCallResultMessage([STRUCTURED]),
            agent,
        ),
        "tool_results_with_audio_and_video": ToolCallResultMessage(
            [
                ToolCall(
                    "get_weather",
                    '{"city": "Paris"}',
                    tool_call_id="call_1",
                    result=(
                        TextMessage(Role.TOOL, "Recording:"),
                        AudioMessage(Role.TOOL, data=WAV),
                    ),
                ),
                ToolCall(
                    "get_time",
                    "{}",
                    tool_call_id="call_2",
                    result=(
                        VideoMessage(Role.TOOL, data=MP4),
                        DocumentMessage(Role.TOOL, data=PDF),
                    ),
                ),
            ]
        ),
    }


def revision_3(agent: str, other: str) -> dict[str, Message]:
    """Every revision-3 entry by name, ``agent`` the provider agent ("self"), ``other`` another
    agent; no name is one of revision 2's."""
    return {**FILES, **_videos(other), **_results(agent), **replies(agent, other)}
