"""The Gemini builders of llmbridge.testing, parsed by the real google-genai client over respx."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import httpx2
import pytest
import respx
from google.genai import errors

from llmbridge.testing import (
    gemini_client,
    gemini_error,
    gemini_error_response,
    gemini_function_call_part,
    gemini_response,
    gemini_sse,
    gemini_sse_response,
    gemini_stream_chunks,
    gemini_text_part,
)
from tests.gemini.helpers import GENERATE, MODEL, STREAM, drain, joined, response_data

SIG = base64.b64encode(b"signature-1").decode()
SIG2 = base64.b64encode(b"signature-2").decode()
BASE_USAGE = {"prompt_token_count": 10, "candidates_token_count": 5, "total_token_count": 15}

# (builder output, what the SDK parses out of it)
RESPONSES: list[Any] = [
    pytest.param(
        gemini_response("Hello there!"),
        {"parts": [{"text": "Hello there!"}], "finish_reason": "STOP", "usage": BASE_USAGE},
        id="a text reply is one text part with STOP",
    ),
    pytest.param(
        gemini_response(
            [
                gemini_text_part("Let me think.", thought=True, thought_signature=SIG),
                gemini_text_part("The answer."),
            ],
            thoughts_token_count=7,
        ),
        {
            "parts": [
                {"text": "Let me think.", "thought": True, "signature": b"signature-1"},
                {"text": "The answer."},
            ],
            "finish_reason": "STOP",
            "usage": {**BASE_USAGE, "thoughts_token_count": 7, "total_token_count": 22},
        },
        id="a signed thought part comes before the text and thoughts count in the total",
    ),
    pytest.param(
        gemini_response(
            [
                gemini_function_call_part("get_weather", {"city": "Paris"}, thought_signature=SIG),
                gemini_function_call_part("get_time", call_id="call-2"),
            ]
        ),
        {
            "parts": [
                {"call": (None, "get_weather", {"city": "Paris"}), "signature": b"signature-1"},
                {"call": ("call-2", "get_time", {})},
            ],
            "finish_reason": "STOP",
            "usage": BASE_USAGE,
        },
        id="parallel calls: only the first signed, an id only when given, args default to {}",
    ),
    pytest.param(
        gemini_response([gemini_text_part("", thought_signature=SIG2)]),
        {"parts": [{"text": "", "signature": b"signature-2"}], "finish_reason": "STOP"},
        id="an empty text part can carry a signature",
    ),
    pytest.param(
        gemini_response(
            "cut",
            finish_reason="MAX_TOKENS",
            prompt_token_count=20,
            cached_content_token_count=8,
            tool_use_prompt_token_count=3,
        ),
        {
            "parts": [{"text": "cut"}],
            "finish_reason": "MAX_TOKENS",
            "usage": {
                "prompt_token_count": 20,
                "candidates_token_count": 5,
                "cached_content_token_count": 8,
                "tool_use_prompt_token_count": 3,
                "total_token_count": 28,
            },
        },
        id="cached tokens are inside the prompt count, tool-use prompt tokens add to the total",
    ),
    pytest.param(
        gemini_response([], finish_reason="SAFETY"),
        {"parts": [], "finish_reason": "SAFETY"},
        id="a filtered reply has no parts and finish reason SAFETY",
    ),
    pytest.param(
        gemini_response(block_reason="PROHIBITED_CONTENT"),
        {
            "block_reason": "PROHIBITED_CONTENT",
            "usage": {"prompt_token_count": 10, "total_token_count": 10},
        },
        id="a blocked prompt has no candidates and a block reason",
    ),
]


def _subset(parsed: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    return {key: parsed.get(key) for key in expected}


@pytest.mark.parametrize(("body", "expected"), RESPONSES)
async def test_the_sdk_parses_a_built_response_into_the_built_fields(
    body: dict[str, Any], expected: dict[str, Any], router: respx.Router
) -> None:
    router.post(url__regex=GENERATE).respond(json=body)

    response = await gemini_client(router).aio.models.generate_content(model=MODEL, contents="hi")

    parsed = response_data(response)
    assert _subset(parsed, expected) == expected
    assert (parsed["response_id"], parsed["model_version"]) == ("resp_test", "gemini-test")
    assert ("parts" in parsed) == ("parts" in expected)


@pytest.mark.parametrize(("body", "expected"), RESPONSES)
async def test_a_built_stream_joins_to_the_non_streaming_response(
    body: dict[str, Any], expected: dict[str, Any], router: respx.Router
) -> None:
    router.post(url__regex=GENERATE).respond(json=body)
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(gemini_stream_chunks(body))
    )
    client = gemini_client(router)

    whole = await client.aio.models.generate_content(model=MODEL, contents="hi")
    chunks = await drain(
        await client.aio.models.generate_content_stream(model=MODEL, contents="hi"), []
    )

    assert joined(chunks) == response_data(whole)


def test_text_arrives_in_pieces_and_a_call_whole_in_one_chunk() -> None:
    call = gemini_function_call_part("f", {"a": [1, 2]}, call_id="c1", thought_signature=SIG)
    body = gemini_response(
        [gemini_text_part("abcdefghi", thought=True, thought_signature=SIG2), call]
    )

    sent = [chunk["candidates"][0]["content"]["parts"] for chunk in gemini_stream_chunks(body)]

    assert sent == [
        [{"text": "abc", "thought": True}],
        [{"text": "def", "thought": True}],
        [{"text": "ghi", "thought": True, "thoughtSignature": SIG2}],
        [call],
    ]


def test_usage_is_cumulative_and_only_the_last_chunk_finishes() -> None:
    body = gemini_response(
        "abcdef", candidates_token_count=6, thoughts_token_count=3, cached_content_token_count=4
    )

    chunks = gemini_stream_chunks(body, pieces=3)

    assert [chunk["usageMetadata"] for chunk in chunks] == [
        {
            "promptTokenCount": 10,
            "cachedContentTokenCount": 4,
            "candidatesTokenCount": count,
            "thoughtsTokenCount": thoughts,
            "totalTokenCount": 10 + count + thoughts,
        }
        for count, thoughts in [(2, 1), (4, 2), (6, 3)]
    ]
    assert [chunk["candidates"][0].get("finishReason") for chunk in chunks] == [None, None, "STOP"]
    assert chunks[-1]["usageMetadata"] == body["usageMetadata"]


@pytest.mark.parametrize(
    ("body", "count"),
    [
        pytest.param(gemini_response([], finish_reason="SAFETY"), 1, id="no parts: one chunk"),
        pytest.param(gemini_response(block_reason="SAFETY"), 1, id="blocked prompt: one chunk"),
        pytest.param(gemini_response("ab"), 2, id="text shorter than the pieces: one per char"),
    ],
)
def test_stream_chunk_counts(body: dict[str, Any], count: int) -> None:
    assert len(gemini_stream_chunks(body)) == count


def test_sse_frames_are_data_lines_ended_by_a_crlf_blank_line() -> None:
    assert gemini_sse([{"a": 1}, gemini_error()]) == [
        b'data: {"a": 1}\r\n\r\n',
        b'data: {"error": {"code": 503, "message": "The model is overloaded.", '
        b'"status": "UNAVAILABLE"}}\r\n\r\n',
    ]


@pytest.mark.parametrize(
    ("code", "status", "error_type"),
    [
        pytest.param(429, "RESOURCE_EXHAUSTED", errors.ClientError, id="429 is a ClientError"),
        pytest.param(400, "INVALID_ARGUMENT", errors.ClientError, id="400 is a ClientError"),
        pytest.param(503, "UNAVAILABLE", errors.ServerError, id="503 is a ServerError"),
    ],
)
@pytest.mark.parametrize("stream", [False, True], ids=["generate", "stream"])
async def test_an_error_response_becomes_the_sdk_api_error_with_its_code(
    code: int, status: str, error_type: type[errors.APIError], stream: bool, router: respx.Router
) -> None:
    route = router.post(url__regex=STREAM if stream else GENERATE)
    route.mock(return_value=gemini_error_response(code, status, "nope"))
    models = gemini_client(router).aio.models

    async def call() -> None:
        if stream:
            await drain(await models.generate_content_stream(model=MODEL, contents="hi"), [])
        else:
            await models.generate_content(model=MODEL, contents="hi")

    with pytest.raises(error_type) as caught:
        await call()

    assert (caught.value.code, caught.value.status, caught.value.message) == (code, status, "nope")


async def test_an_error_chunk_mid_stream_raises_after_the_text_before_it(
    router: respx.Router,
) -> None:
    chunks = gemini_stream_chunks(gemini_response("abcdef"))
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks[:2], error=gemini_error(500, "INTERNAL", "boom"))
    )
    stream = await gemini_client(router).aio.models.generate_content_stream(
        model=MODEL, contents="hi"
    )
    received: list[Any] = []

    with pytest.raises(errors.ServerError) as caught:
        await drain(stream, received)

    assert [chunk.text for chunk in received] == ["ab", "cd"]
    assert (caught.value.code, caught.value.status) == (500, "INTERNAL")


async def test_a_dropped_connection_raises_the_httpx2_read_error(router: respx.Router) -> None:
    chunks = gemini_stream_chunks(gemini_response("abcdef"))
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(chunks[:1], drop_connection=True)
    )
    stream = await gemini_client(router).aio.models.generate_content_stream(
        model=MODEL, contents="hi"
    )
    received: list[Any] = []

    with pytest.raises(httpx2.ReadError):
        await drain(stream, received)

    assert [chunk.text for chunk in received] == ["ab"]


def test_the_error_response_carries_the_error_body_and_headers() -> None:
    response = gemini_error_response(429, "RESOURCE_EXHAUSTED", headers={"retry-after": "2"})

    assert isinstance(response, httpx.Response)
    assert (response.status_code, response.headers["retry-after"]) == (429, "2")
    assert response.json() == gemini_error(429, "RESOURCE_EXHAUSTED", "error")
