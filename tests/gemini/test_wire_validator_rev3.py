"""The Gemini wire validator's revision-3 rules (issue 27): video parts and code execution parts.

Each ``contents`` list is hand-written; its comment names the google-genai type
(``google/genai/types.py``) it follows. ``RULES`` are the rules these bodies break, which the
rule census of ``test_wire.py`` counts.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge.testing import gemini_client, gemini_response
from tests.gemini import wire
from tests.gemini.helpers import GENERATE, MODEL

MP4 = base64.b64encode(b"\x00\x00\x00\x18ftypisom").decode()
PNG = base64.b64encode(b"\x89PNG").decode()
SIG = base64.b64encode(b"sig").decode()
GS_VIDEO = "gs://bucket/clip.mp4"
FILES_API_VIDEO = "https://generativelanguage.googleapis.com/v1beta/files/clip-123"
YOUTUBE = "https://www.youtube.com/watch?v=9hE5-98ZeCg"
# ExecutableCode, CodeExecutionResult
CODE = {"executable_code": {"language": "PYTHON", "code": "print(2 + 2)"}}
RESULT = {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "4\n"}}


def asked(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    """A user content of ``parts``, the model's answer."""
    return [
        {"role": "user", "parts": [{"text": "Watch this."}, *parts]},
        {"role": "model", "parts": [{"text": "Seen."}]},
        {"role": "user", "parts": [{"text": "Thanks."}]},
    ]


def answered(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    """A question, a model content of ``parts``, a follow-up."""
    return [
        {"role": "user", "parts": [{"text": "Compute it."}]},
        {"role": "model", "parts": list(parts)},
        {"role": "user", "parts": [{"text": "Thanks."}]},
    ]


def inline(mime: str, data: str = MP4, **extra: Any) -> dict[str, Any]:
    # Blob: {mime_type, data}
    return {"inline_data": {"mime_type": mime, "data": data}, **extra}


def file(uri: str, mime: str | None = "video/mp4", **extra: Any) -> dict[str, Any]:
    # FileData: {file_uri, mime_type}
    data = {"file_uri": uri} if mime is None else {"file_uri": uri, "mime_type": mime}
    return {"file_data": data, **extra}


def code(**fields: Any) -> dict[str, Any]:
    return {"executable_code": {**CODE["executable_code"], **fields}}


def result(**fields: Any) -> dict[str, Any]:
    return {"code_execution_result": {**RESULT["code_execution_result"], **fields}}


# the list of Gemini's video understanding guide, not the validator's (an oracle of its own)
VIDEO_TYPES = ["mp4", "mpeg", "mpg", "mov", "avi", "x-flv", "webm", "wmv", "3gpp"]
ACCEPTED = [
    *(
        pytest.param(asked(inline(f"video/{kind}")), id=f"inline video/{kind}")
        for kind in VIDEO_TYPES
    ),
    pytest.param(asked(file(GS_VIDEO)), id="gs:// video"),
    pytest.param(asked(file(FILES_API_VIDEO, "video/webm")), id="Files API video"),
    pytest.param(asked(file(YOUTUBE)), id="YouTube video, typed"),
    pytest.param(asked(file(YOUTUBE, None)), id="YouTube video, untyped"),
    pytest.param(
        # Part.video_metadata: VideoMetadata {start_offset, end_offset, fps}
        asked(inline("video/mp4", video_metadata={"start_offset": "1.5s", "end_offset": "10s"})),
        id="video_metadata offsets",
    ),
    pytest.param(
        asked(file(YOUTUBE, None, videoMetadata={"fps": 2, "contentLayers": ["FRAMES"]})),
        id="video_metadata in camelCase on a YouTube video",
    ),
    pytest.param(answered(CODE, RESULT, {"text": "It is 4."}), id="code then its result"),
    pytest.param(
        answered(
            {"executableCode": {"language": "PYTHON", "code": "1/0"}, "thoughtSignature": SIG},
            {"codeExecutionResult": {"outcome": "OUTCOME_FAILED", "output": "ZeroDivisionError"}},
        ),
        id="camelCase code parts, signed",
    ),
    pytest.param(
        answered(code(id="c1"), code(id="c2"), result(id="c2"), result(id="c1")),
        id="results matched by id",
    ),
    pytest.param(
        answered(CODE, {"code_execution_result": {"outcome": "OUTCOME_DEADLINE_EXCEEDED"}}),
        id="a result without output",
    ),
    pytest.param(answered(CODE, RESULT, CODE, RESULT), id="two runs in one content"),
    pytest.param(answered({"text": "Let me run it."}, CODE), id="code not yet answered"),
]


@pytest.mark.parametrize("contents", ACCEPTED)
def test_the_validator_accepts_what_the_api_accepts(contents: list[dict[str, Any]]) -> None:
    wire.check_contents(contents)


def _response_with(part: dict[str, Any]) -> list[dict[str, Any]]:
    """A function response carrying ``part`` in its own parts."""
    call = {"function_call": {"id": "c", "name": "f", "args": {}}}
    response = {"function_response": {"id": "c", "name": "f", "response": {}, "parts": [part]}}
    return [
        {"role": "user", "parts": [{"text": "hi"}]},
        {"role": "model", "parts": [call]},
        {"role": "user", "parts": [response]},
    ]


# rule -> (contents, why)
BROKEN: list[tuple[str, list[dict[str, Any]], str]] = [
    ("G7 mime type", asked(inline("video/mkv")), "an undocumented video type"),
    ("G7 mime type", asked(inline("video/quicktime")), "MOV named as its IANA type"),
    ("G7 mime type", asked(file(YOUTUBE, "image/png")), "a YouTube video typed as an image"),
    ("G7 mime type", _response_with(inline("video/mp4")), "a video in a function response"),
    ("file_data uri", asked(file("https://cdn.example/clip.mp4")), "a video URL Gemini won't read"),
    ("file_data uri", asked(file("https://youtube.com/clip.mp4")), "a YouTube URL of no video"),
    (
        "video_metadata",
        asked(inline("image/png", PNG, video_metadata={"fps": 1})),
        "video_metadata on an image",
    ),
    (
        "video_metadata",
        asked({"text": "x", "video_metadata": {"fps": 1}}),
        "video_metadata on a text part",
    ),
    (
        "video_metadata",
        asked(inline("video/mp4", video_metadata={"start_offset": "1.5"})),
        "an offset without its unit",
    ),
    ("video_metadata", asked(inline("video/mp4", video_metadata={"fps": 0})), "fps 0"),
    ("video_metadata", asked(inline("video/mp4", video_metadata={"fps": 30})), "fps over 24"),
    (
        "video_metadata",
        asked(inline("video/mp4", video_metadata={"content_layers": ["FRAMES", "SMELL"]})),
        "an unknown content layer",
    ),
    ("shape", asked(inline("video/mp4", video_metadata={"start": "1s"})), "an unknown key"),
    (
        "code execution role",
        [{"role": "user", "parts": [CODE]}],
        "executable_code in a user content",
    ),
    (
        "code execution role",
        [{"role": "user", "parts": [RESULT]}],
        "code_execution_result in a user content",
    ),
    ("executable_code", answered(code(language="python")), "a lowercase language"),
    ("executable_code", answered(code(language="LANGUAGE_UNSPECIFIED")), "an unspecified language"),
    ("executable_code", answered(code(code="")), "empty code"),
    (
        "shape",
        answered({"executable_code": {"code": "print(1)"}}),
        "code without its language",
    ),
    ("shape", answered(code(lang="PYTHON")), "an unknown key in executable_code"),
    ("code_execution_result", answered(CODE, result(outcome="OK")), "an unknown outcome"),
    (
        "code_execution_result",
        answered(CODE, result(outcome="OUTCOME_UNSPECIFIED")),
        "an unspecified outcome",
    ),
    ("code_execution_result", answered(CODE, result(output=["4"])), "output not text"),
    (
        "shape",
        answered(CODE, {"code_execution_result": {"output": "4"}}),
        "a result without its outcome",
    ),
    ("code result order", answered(RESULT, CODE), "a result before its code"),
    ("code result order", answered(RESULT), "a result of no code"),
    ("code result order", answered(CODE, RESULT, RESULT), "two results of one run"),
    (
        "code result order",
        answered(code(id="c1"), result(id="c2")),
        "a result naming another code's id",
    ),
    (
        "code result order",
        [
            *answered(CODE)[:2],
            {"role": "user", "parts": [{"text": "go on"}]},
            *answered(RESULT)[1:],
        ],
        "a result in a later model content",
    ),
    ("part data", answered({**CODE, **RESULT}), "code and result in one part"),
]
RULES = {rule for rule, _, _ in BROKEN}


@pytest.mark.parametrize(
    ("rule", "contents"),
    [pytest.param(rule, contents, id=f"{rule}: {why}") for rule, contents, why in BROKEN],
)
def test_each_broken_body_fails_naming_its_rule(rule: str, contents: list[dict[str, Any]]) -> None:
    with pytest.raises(wire.WireError, match=re.escape(f"[{rule}]")):
        wire.check_contents(contents)


async def test_what_the_sdk_sends_for_video_and_code_parts_passes(router: respx.Router) -> None:
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    client = gemini_client(router)  # kept in a variable: the client closes when collected
    video = types.Part(
        inline_data=types.Blob(data=b"\x00\x00\x00\x18ftypisom", mime_type="video/mp4"),
        video_metadata=types.VideoMetadata(start_offset="1.5s", end_offset="10s", fps=2.0),
    )
    youtube = types.Part(file_data=types.FileData(file_uri=YOUTUBE, mime_type="video/mp4"))
    model = types.Content(
        role="model",
        parts=[
            types.Part(executable_code=types.ExecutableCode(language="PYTHON", code="print(4)")),
            types.Part(
                code_execution_result=types.CodeExecutionResult(outcome="OUTCOME_OK", output="4")
            ),
        ],
    )
    contents = [
        types.Content(role="user", parts=[types.Part(text="Watch."), video, youtube]),
        model,
        types.Content(role="user", parts=[types.Part(text="Thanks.")]),
    ]

    await client.aio.models.generate_content(model=MODEL, contents=contents)

    wire.check_request(route.calls.last.request)
