"""The neutral model, revision 3 (API.md 19): video, audio file references, citations, hosted
tools; their construction rules, serialization, and the wings that cannot send video."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from llmbridge import (
    AudioMessage,
    Citation,
    DocumentMessage,
    HostedToolCall,
    InvalidMessageError,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
    VideoMessage,
    dump_messages,
    load_messages,
)
from llmbridge.anthropic import to_anthropic
from llmbridge.openai import to_openai, to_openai_responses
from tests.strategies import MP3, MP4, PDF, WAV

AGENT = "assistant"


def _ftyp(brand: bytes) -> bytes:
    return b"\x00\x00\x00\x18ftyp" + brand + b"\x00\x00\x00\x00"


# -- VideoMessage -------------------------------------------------------------------------


@pytest.mark.parametrize("brand", [b"isom", b"iso2", b"mp41", b"mp42", b"avc1", b"dash"])
def test_mp4_bytes_are_sniffed_and_win_over_a_declared_type(brand: bytes) -> None:
    video = VideoMessage(Role.USER, data=_ftyp(brand), media_type="video/webm")
    assert video.media_type == "video/mp4"


def test_other_video_bytes_keep_their_declared_type() -> None:
    video = VideoMessage(Role.USER, data=_ftyp(b"qt  "), media_type="video/quicktime")
    assert video.media_type == "video/quicktime"


BAD_VIDEOS: dict[str, tuple[dict[str, Any], str]] = {
    "unknown_bytes_without_a_type": ({"data": _ftyp(b"qt  ")}, "media_type"),
    "empty_bytes": ({"data": b""}, "data"),
    "no_source": ({}, "url"),
    "url_and_data": ({"url": "https://x/v.mp4", "data": MP4}, "url"),
    "a_file_url": ({"url": "file:///v.mp4"}, "url"),
    "a_file_id_without_its_provider": ({"file_id": "file-1"}, "file_provider"),
    "a_gemini_file_without_a_type": (
        {"file_id": "files/abc", "file_provider": "gemini"},
        "media_type",
    ),
}


@pytest.mark.parametrize(("given", "field"), BAD_VIDEOS.values(), ids=BAD_VIDEOS.keys())
def test_bad_video_raises_naming_the_field(given: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        VideoMessage(Role.USER, **given)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "url",
    [
        "https://www.youtube.com/watch?v=9hE5-98ZeCg",
        "gs://bucket/clip.mp4",
        "https://generativelanguage.googleapis.com/v1beta/files/abc",
    ],
)
def test_video_urls_are_kept(url: str) -> None:
    assert VideoMessage(Role.USER, url).url == url


def test_a_video_data_url_becomes_bytes() -> None:
    video = VideoMessage(Role.USER, "data:video/mp4;base64," + _b64(MP4))
    assert (video.url, video.data, video.media_type) == (None, MP4, "video/mp4")


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


def test_video_goes_in_multimodal_messages_and_tool_results() -> None:
    video = VideoMessage(Role.USER, data=MP4)
    assert MultiModalMessage(Role.USER, [TextMessage(Role.USER, "see"), video]).content[1] is video
    assert ToolCall("f", "{}", result=video).result == (video,)


# -- AudioMessage file references ---------------------------------------------------------


def test_audio_may_be_a_provider_file() -> None:
    audio = AudioMessage(
        Role.USER, file_id="files/a1", file_provider="gemini", media_type="audio/mp3"
    )
    assert (audio.data, audio.file_id, audio.file_provider, audio.media_type) == (
        None,
        "files/a1",
        "gemini",
        "audio/mpeg",
    )
    assert audio.url is None
    assert audio.base64_data is None


BAD_AUDIO_FILES: dict[str, tuple[dict[str, Any], str]] = {
    "neither_bytes_nor_file": ({}, "data"),
    "bytes_and_file": ({"data": WAV, "file_id": "f", "file_provider": "openai"}, "url"),
    "a_file_without_its_provider": ({"file_id": "f"}, "file_provider"),
    "a_provider_without_a_file": ({"data": MP3, "file_provider": "openai"}, "file_provider"),
}


@pytest.mark.parametrize(("given", "field"), BAD_AUDIO_FILES.values(), ids=BAD_AUDIO_FILES.keys())
def test_bad_audio_sources_raise_naming_the_field(given: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        AudioMessage(Role.USER, **given)
    assert caught.value.field == field


# -- Citation and HostedToolCall ----------------------------------------------------------

BAD_CITATIONS: dict[str, tuple[dict[str, Any], str]] = {
    "a_negative_start": ({"start": -1, "end": 2}, "start"),
    "end_before_start": ({"start": 3, "end": 2}, "end"),
    "a_float_offset": ({"start": 0, "end": 2.0}, "end"),
    "a_bool_offset": ({"start": True, "end": 2}, "start"),
    "a_negative_document_index": ({"start": 0, "end": 1, "document_index": -1}, "document_index"),
    "a_url_that_is_not_text": ({"start": 0, "end": 1, "url": 5}, "url"),
    "provider_data_not_json": (
        {"start": 0, "end": 1, "provider_data": {"x": {"y": object()}}},
        None,
    ),
}


@pytest.mark.parametrize(("given", "field"), BAD_CITATIONS.values(), ids=BAD_CITATIONS.keys())
def test_bad_citations_raise_naming_the_field(given: dict[str, Any], field: str | None) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        Citation(**given)
    if field is not None:
        assert caught.value.field == field


BAD_HOSTED: dict[str, tuple[dict[str, Any], str]] = {
    "an_empty_name": ({"name": "", "arguments": "{}", "id": "s1", "provider": "anthropic"}, "name"),
    "no_id": ({"name": "web_search", "arguments": "{}", "id": "", "provider": "x"}, "id"),
    "no_provider": (
        {"name": "web_search", "arguments": "{}", "id": "s1", "provider": ""},
        "provider",
    ),
    "a_result_that_is_not_text": (
        {"name": "w", "arguments": "{}", "id": "s1", "provider": "x", "result": {"a": 1}},
        "result",
    ),
    "an_is_error_that_is_not_a_bool": (
        {"name": "w", "arguments": "{}", "id": "s1", "provider": "x", "is_error": 1},
        "is_error",
    ),
}


@pytest.mark.parametrize(("given", "field"), BAD_HOSTED.values(), ids=BAD_HOSTED.keys())
def test_bad_hosted_tool_calls_raise_naming_the_field(given: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        HostedToolCall(**given)
    assert caught.value.field == field


def test_hosted_tool_arguments_given_as_a_mapping_become_json_text() -> None:
    call = HostedToolCall("web_search", {"query": "Orléans"}, id="s1", provider="anthropic")
    assert call.arguments == '{"query":"Orléans"}'


CITED = Citation(0, 5, url="https://example.com", title="Example", provider="openai")
SEARCH = HostedToolCall(
    "web_search",
    '{"query":"weather"}',
    id="ws_1",
    result="Example https://example.com",
    provider="openai",
    provider_data={"openai": {"item": {"type": "web_search_call", "id": "ws_1"}}},
)


def test_replies_carry_citations_and_hosted_tools() -> None:
    text = TextMessage(
        Role.ASSISTANT, "Sunny today.", AGENT, citations=[CITED], hosted_tools=[SEARCH]
    )
    assert (text.citations, text.hosted_tools) == ((CITED,), (SEARCH,))
    calls = ToolCallMessage([ToolCall("f", "{}")], AGENT, content="Sunny", citations=[CITED])
    assert calls.citations == (CITED,)
    assert hash(text) == hash(
        TextMessage(Role.ASSISTANT, "Sunny today.", AGENT, citations=[CITED], hosted_tools=[SEARCH])
    )


REPLY_ERRORS: dict[str, tuple[Callable[[], Message], str]] = {
    "a_citation_past_the_text": (
        lambda: TextMessage(Role.ASSISTANT, "Sun", citations=[CITED]),
        "citations[0]",
    ),
    "a_citation_of_no_content": (
        lambda: ToolCallMessage([ToolCall("f", "{}")], citations=[CITED]),
        "citations[0]",
    ),
    "a_citation_that_is_a_dict": (
        lambda: TextMessage(Role.ASSISTANT, "Sunny", citations=[{"start": 0, "end": 1}]),  # type: ignore[list-item]
        "citations[0]",
    ),
    "a_hosted_tool_that_is_a_tool_call": (
        lambda: TextMessage(Role.ASSISTANT, "Sunny", hosted_tools=[ToolCall("f", "{}")]),  # type: ignore[list-item]
        "hosted_tools[0]",
    ),
}


@pytest.mark.parametrize(("build", "field"), REPLY_ERRORS.values(), ids=REPLY_ERRORS.keys())
def test_bad_reply_metadata_raises_naming_the_item(
    build: Callable[[], Message], field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        build()
    assert caught.value.field == field


# -- serialization ------------------------------------------------------------------------

REV3_MESSAGES: list[Message] = [
    VideoMessage(Role.USER, data=MP4),
    VideoMessage(Role.USER, "https://www.youtube.com/watch?v=x", media_type="video/mp4"),
    VideoMessage(Role.USER, file_id="files/v1", file_provider="gemini", media_type="video/mp4"),
    AudioMessage(Role.USER, file_id="file-a", file_provider="openai"),
    TextMessage(Role.ASSISTANT, "Sunny today.", AGENT, citations=[CITED], hosted_tools=[SEARCH]),
    ToolCallMessage(
        [ToolCall("f", "{}", tool_call_id="c1")],
        AGENT,
        content="Sunny",
        citations=[Citation(0, 5, document_index=0, cited_text="sun", provider="anthropic")],
    ),
    ToolCallResultMessage(
        [
            ToolCall(
                "f",
                "{}",
                tool_call_id="c1",
                result=(AudioMessage(Role.TOOL, data=WAV), VideoMessage(Role.TOOL, data=MP4)),
            )
        ]
    ),
    MultiModalMessage(
        Role.USER, [TextMessage(Role.USER, "clip"), VideoMessage(Role.USER, data=MP4)]
    ),
]


def test_rev3_messages_load_back_equal() -> None:
    assert load_messages(dump_messages(REV3_MESSAGES)) == REV3_MESSAGES


def test_rev2_messages_dump_without_the_new_keys() -> None:
    # Omitted when empty: revision-2 JSON loads unchanged and dumps byte-identical.
    rev2 = [
        TextMessage(Role.ASSISTANT, "hi", AGENT),
        ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT),
        AudioMessage(Role.USER, data=WAV),
        DocumentMessage(Role.USER, data=PDF),
    ]
    dumped = dump_messages(rev2)
    assert not {"citations", "hosted_tools", "file_id", "file_provider"} & {
        key for item in json.loads(dumped) for key in item
    }
    assert dump_messages(load_messages(dumped)) == dumped


def test_a_loaded_citation_past_the_text_names_its_place() -> None:
    data = [
        {
            "type": "text",
            "role": "assistant",
            "content": "Sun",
            "citations": [{"start": 0, "end": 9}],
        }
    ]
    with pytest.raises(InvalidMessageError) as caught:
        load_messages(json.dumps(data))
    assert (caught.value.index, caught.value.field) == (0, "citations[0]")


# -- the wings that take no video ---------------------------------------------------------

WINGS: dict[str, Callable[..., Any]] = {
    "openai": to_openai,
    "openai-responses": to_openai_responses,
    "anthropic": to_anthropic,
}
VIDEO_PLACES: dict[str, list[Message]] = {
    "a_video_message": [TextMessage(Role.USER, "look"), VideoMessage(Role.USER, data=MP4)],
    "a_video_in_a_multimodal_message": [
        MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "look"), VideoMessage(Role.USER, data=MP4)]
        )
    ],
    "a_video_result_part": [
        TextMessage(Role.USER, "look"),
        ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT),
        ToolCallResultMessage(
            [
                ToolCall(
                    "f",
                    "{}",
                    tool_call_id="c1",
                    result=[TextMessage(Role.TOOL, "clip"), VideoMessage(Role.TOOL, data=MP4)],
                )
            ]
        ),
    ],
}


@pytest.mark.parametrize("wing", WINGS.values(), ids=WINGS.keys())
@pytest.mark.parametrize("messages", VIDEO_PLACES.values(), ids=VIDEO_PLACES.keys())
def test_video_is_dropped_with_a_note_or_raises_in_strict_mode(
    wing: Callable[..., Any], messages: list[Message]
) -> None:
    index = len(messages) - 1
    request = wing(messages, agent_name=AGENT)
    dropped = [note for note in request.notes if note.kind == "dropped"]
    assert [
        (note.index, "cannot be sent to" in note.detail and "video" in note.detail.lower())
        for note in dropped
    ] == [(index, True)]
    assert "AAAAGGZ0eXBtcDQy" not in json.dumps(request.messages)  # the video's base64 is not sent
    with pytest.raises(UnsupportedMessageError) as caught:
        wing(messages, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == index


def test_openai_chat_moves_an_audio_result_part_after_the_tool_messages() -> None:
    messages = [
        TextMessage(Role.USER, "listen"),
        ToolCallMessage([ToolCall("record", "{}", tool_call_id="c1")], AGENT),
        ToolCallResultMessage(
            [
                ToolCall(
                    "record", "{}", tool_call_id="c1", result=[AudioMessage(Role.TOOL, data=WAV)]
                )
            ]
        ),
    ]
    request = to_openai(messages, agent_name=AGENT, strict_mode=False)
    assert request.messages[-1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "[result of c1]"},
            {"type": "input_audio", "input_audio": {"data": _b64(WAV), "format": "wav"}},
        ],
    }


def test_openai_chat_drops_an_audio_file_reference() -> None:
    messages = [
        MultiModalMessage(
            Role.USER,
            [
                TextMessage(Role.USER, "listen"),
                AudioMessage(Role.USER, file_id="file-a", file_provider="openai"),
            ],
        )
    ]
    request = to_openai(messages, agent_name=AGENT)
    assert [note.kind for note in request.notes] == ["dropped"]
    with pytest.raises(UnsupportedMessageError):
        to_openai(messages, agent_name=AGENT, strict_mode=True)
