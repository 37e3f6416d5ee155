"""Video (API.md 19.2) and audio file references (19.1) on Gemini: to_gemini in both modes, each
body sent by the real google-genai client over respx (the conftest router validates it), and
from_gemini_contents reading the parts back (the exact round trip of 16)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import pytest
import respx

from llmbridge import (
    AudioMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
    VideoMessage,
)
from llmbridge.gemini import from_gemini_contents, to_gemini
from tests.corpus import AGENT, PNG
from tests.gemini.sending import as_sent, sent_body

MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"  # an ftyp box of brand mp42
WEBM = b"\x1aE\xdf\xa3" + b"\x00" * 12
WAV = b"RIFF$\x00\x00\x00WAVEfmt " + b"\x00" * 12
FILES = "https://generativelanguage.googleapis.com/v1beta/files/"
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"
HI = TextMessage(Role.USER, "Hi")
CALL = ToolCall(
    "clip", "{}", tool_call_id="c1", provider_data={"gemini": {"thought_signature": "c2ln"}}
)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def inline(mime: str, data: bytes) -> dict[str, Any]:
    return {"inline_data": {"mime_type": mime, "data": b64(data)}}


def file_data(uri: str, mime: str | None = None) -> dict[str, Any]:
    data = {"file_uri": uri} if mime is None else {"file_uri": uri, "mime_type": mime}
    return {"file_data": data}


def user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": [p if isinstance(p, dict) else {"text": p} for p in parts]}


def video(*args: Any, **kwargs: Any) -> VideoMessage:
    return VideoMessage(Role.USER, *args, **kwargs)


def result_turn(*result: Message) -> list[Message]:
    """A call answered by a parts result holding ``result``."""
    return [
        HI,
        ToolCallMessage([CALL], AGENT),
        ToolCallResultMessage([ToolCall("clip", "{}", tool_call_id="c1", result=list(result))]),
    ]


CALL_CONTENT = {
    "role": "model",
    "parts": [
        {"function_call": {"name": "clip", "args": {}, "id": "c1"}, "thought_signature": "c2ln"}
    ],
}


def answer(output: str, *media: dict[str, Any]) -> dict[str, Any]:
    response: dict[str, Any] = {"name": "clip", "id": "c1", "response": {"output": output}}
    if media:
        response["parts"] = list(media)
    return {"function_response": response}


@dataclass(frozen=True)
class Case:
    messages: list[Message]
    contents: list[Any]
    notes: list[tuple[int, str]] = field(default_factory=list)


CASES = {
    "mp4 bytes are inline data of their sniffed type": Case(
        [video(data=MP4, media_type="video/webm")], [user(inline("video/mp4", MP4))]
    ),
    "other video bytes are inline data of their declared type": Case(
        [video(data=WEBM, media_type="video/webm")], [user(inline("video/webm", WEBM))]
    ),
    "video/quicktime is sent as Gemini's video/mov": Case(
        [video(data=WEBM, media_type="video/quicktime")], [user(inline("video/mov", WEBM))]
    ),
    "video bytes of a type Gemini does not list are dropped": Case(
        [HI, video(data=WEBM, media_type="video/x-matroska")], [user("Hi")], [(1, "dropped")]
    ),
    "a YouTube watch URL is file_data without a mime type": Case(
        [video(YOUTUBE)], [user(file_data(YOUTUBE))]
    ),
    "a gs:// video URL gets the mime type of its suffix": Case(
        [video("gs://bucket/clip.mp4")], [user(file_data("gs://bucket/clip.mp4", "video/mp4"))]
    ),
    "a Files API video URI keeps its declared type": Case(
        [video(FILES + "v1", media_type="video/webm")],
        [user(file_data(FILES + "v1", "video/webm"))],
    ),
    "a gemini video file id is expanded to its Files API URI": Case(
        [video(file_id="files/v1", file_provider="gemini", media_type="video/mp4")],
        [user(file_data(FILES + "v1", "video/mp4"))],
    ),
    "a gemini video file id that is a URI stays as it is": Case(
        [video(file_id=FILES + "v2", file_provider="gemini", media_type="video/mp4")],
        [user(file_data(FILES + "v2", "video/mp4"))],
    ),
    "another provider's video file is dropped": Case(
        [HI, video(file_id="file-1", file_provider="openai")], [user("Hi")], [(1, "dropped")]
    ),
    "any other video URL is dropped (never fetched)": Case(
        [HI, video("https://example.com/clip.mp4")], [user("Hi")], [(1, "dropped")]
    ),
    "a short youtu.be link is not a watch URL: dropped": Case(
        [HI, video("https://youtu.be/9hE5-98ZeCg")], [user("Hi")], [(1, "dropped")]
    ),
    "video goes in a multimodal message in order": Case(
        [
            MultiModalMessage(
                Role.USER,
                [TextMessage(Role.USER, "Compare"), video(data=MP4), video(YOUTUBE)],
            )
        ],
        [user("Compare", inline("video/mp4", MP4), file_data(YOUTUBE))],
    ),
    "a dropped video in a multimodal message leaves the rest": Case(
        [
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, "See"), video("https://example.com/v.mp4")]
            )
        ],
        [user("See")],
        [(0, "dropped")],
    ),
    "a gemini audio file id is file_data (19.1)": Case(
        [
            AudioMessage(
                Role.USER, file_id="files/a1", file_provider="gemini", media_type="audio/mp3"
            )
        ],
        [user(file_data(FILES + "a1", "audio/mpeg"))],
    ),
    "a video result part is dropped and its text kept": Case(
        result_turn(TextMessage(Role.TOOL, "the clip"), video(data=MP4)),
        [user("Hi"), CALL_CONTENT, user(answer("the clip"))],
        [(2, "dropped")],
    ),
    "an audio result part is dropped and its text kept": Case(
        result_turn(TextMessage(Role.TOOL, "the sound"), AudioMessage(Role.TOOL, data=WAV)),
        [user("Hi"), CALL_CONTENT, user(answer("the sound"))],
        [(2, "dropped")],
    ),
    "a gemini video file in a result is dropped too": Case(
        result_turn(video(file_id="files/v1", file_provider="gemini", media_type="video/mp4")),
        [user("Hi"), CALL_CONTENT, user(answer(""))],
        [(2, "dropped")],
    ),
    "an image result part beside a dropped video still goes in the response parts": Case(
        result_turn(ImageMessage(Role.TOOL, data=PNG), video(YOUTUBE)),
        [user("Hi"), CALL_CONTENT, user(answer("", inline("image/png", PNG)))],
        [(2, "dropped")],
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
async def test_lenient_payload_on_the_wire(case: Case, router: respx.Router) -> None:
    request = to_gemini(case.messages, agent_name=AGENT)

    assert request.contents == case.contents
    assert [(note.index, note.kind) for note in request.notes if note.kind != "merged"] == (
        case.notes
    )
    body = await sent_body(router, request)
    assert body["contents"] == as_sent(case.contents)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_strict_mode_raises_for_a_dropped_medium_naming_its_index(case: Case) -> None:
    if not case.notes:
        assert to_gemini(case.messages, agent_name=AGENT, strict_mode=True) == to_gemini(
            case.messages, agent_name=AGENT
        )
        return
    with pytest.raises(UnsupportedMessageError) as raised:
        to_gemini(case.messages, agent_name=AGENT, strict_mode=True)
    assert raised.value.index == case.notes[0][0]


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_every_payload_imports_back_exactly(case: Case) -> None:
    request = to_gemini(case.messages, agent_name=AGENT)
    imported = from_gemini_contents(request.contents, agent_name=AGENT)

    assert not any(isinstance(message, MessageEnvelope) for message in imported)
    assert to_gemini(imported, agent_name=AGENT).contents == request.contents


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        pytest.param(
            inline("video/mp4", MP4), VideoMessage(Role.USER, data=MP4), id="inline mp4 video"
        ),
        pytest.param(
            {"inlineData": {"mimeType": "video/webm", "data": b64(WEBM)}},
            VideoMessage(Role.USER, data=WEBM, media_type="video/webm"),
            id="camelCase inline video",
        ),
        pytest.param(file_data(YOUTUBE), VideoMessage(Role.USER, YOUTUBE), id="youtube url"),
        pytest.param(
            file_data("gs://b/v.webm", "video/webm"),
            VideoMessage(Role.USER, "gs://b/v.webm", media_type="video/webm"),
            id="gs video",
        ),
        pytest.param(
            {"fileData": {"fileUri": FILES + "v1", "mimeType": "video/mp4"}},
            VideoMessage(Role.USER, FILES + "v1", media_type="video/mp4"),
            id="Files API video, camelCase",
        ),
        pytest.param(
            file_data(FILES + "a1", "audio/mpeg"),
            AudioMessage(
                Role.USER, file_id=FILES + "a1", file_provider="gemini", media_type="audio/mpeg"
            ),
            id="Files API audio is a gemini file reference",
        ),
        pytest.param(
            file_data("gs://b/a.wav", "audio/wav"),
            AudioMessage(
                Role.USER, file_id="gs://b/a.wav", file_provider="gemini", media_type="audio/wav"
            ),
            id="gs audio is a gemini file reference",
        ),
    ],
)
def test_video_and_audio_parts_import(part: dict[str, Any], expected: Message) -> None:
    assert from_gemini_contents([user(part)], agent_name=AGENT) == [expected]


@pytest.mark.parametrize(
    "contents",
    [
        pytest.param(
            [user(file_data("https://example.com/v.webm", "video/webm"))],
            id="a video URL to_gemini does not send",
        ),
        pytest.param(
            [user("Hi"), CALL_CONTENT, user(answer("", inline("video/mp4", MP4)))],
            id="video in function_response.parts",
        ),
        pytest.param(
            [user("Hi"), CALL_CONTENT, user(answer("", inline("audio/wav", WAV)))],
            id="audio in function_response.parts",
        ),
    ],
)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_video_to_gemini_never_writes_is_an_envelope_or_raises_strict(
    contents: list[Any], strict_mode: bool
) -> None:
    if strict_mode:
        with pytest.raises(InvalidMessageError) as raised:
            from_gemini_contents(contents, agent_name=AGENT, strict_mode=True)
        assert raised.value.index == len(contents) - 1
        return
    imported = from_gemini_contents(contents, agent_name=AGENT)
    assert imported[-1] == MessageEnvelope(contents[-1])


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_video_from_the_agent_itself_is_refused_in_both_modes(strict_mode: bool) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini(
            [HI, VideoMessage(Role.USER, data=MP4, from_=AGENT)],
            agent_name=AGENT,
            strict_mode=strict_mode,
        )
    assert (raised.value.index, raised.value.field) == (1, "from_")


def test_video_bytes_count_against_the_inline_limit() -> None:
    big = VideoMessage(Role.USER, data=MP4 + b"\x00" * (11 * 1024 * 1024))
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([HI, big, big], agent_name=AGENT)
    assert (raised.value.index, raised.value.field) == (2, "data")
