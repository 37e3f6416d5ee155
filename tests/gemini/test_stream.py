"""GeminiStreamAggregator: updates, whole function calls, cumulative usage, the final message."""

from __future__ import annotations

import base64
from typing import Any

import pytest
import respx
from google.genai import errors, types
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    ContentFilteredError,
    Message,
    ProviderResponseError,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCallMessageUpdate,
    Usage,
)
from llmbridge.gemini._response import from_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.testing import (
    gemini_client,
    gemini_error,
    gemini_function_call_part,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    gemini_text_part,
)
from tests.corpus import AGENT
from tests.gemini.helpers import MODEL, STREAM, drain

SIG = base64.b64encode(b"sig-1").decode()


async def stream_of(
    router: respx.Router, chunks: list[dict[str, Any]], *, error: dict[str, Any] | None = None
) -> tuple[list[types.GenerateContentResponse], BaseException | None]:
    """The chunks the real SDK yields for ``chunks`` (and the exception that ended the stream)."""
    router.post(url__regex=STREAM).mock(return_value=gemini_sse_response(chunks, error=error))
    client = gemini_client(router)  # kept: a collected Client closes its HTTP clients
    received: list[types.GenerateContentResponse] = []
    stream = await client.aio.models.generate_content_stream(model=MODEL, contents="hi")
    try:
        await drain(stream, received)
    except Exception as exc:
        return received, exc
    return received, None


def aggregate(
    chunks: list[types.GenerateContentResponse], **kwargs: Any
) -> tuple[GeminiStreamAggregator, list[Message]]:
    aggregator = GeminiStreamAggregator(AGENT, **kwargs)
    updates = [update for chunk in chunks for update in aggregator.add(chunk)]
    return aggregator, updates


async def test_text_and_thought_pieces_are_live_updates(router: respx.Router) -> None:
    body = gemini_response(
        [
            gemini_text_part("pondering", thought=True, thought_signature=SIG),
            gemini_text_part("Hi!"),
        ]
    )
    chunks, failure = await stream_of(router, gemini_stream_chunks(body, pieces=3))

    aggregator, updates = aggregate(chunks)

    assert failure is None
    assert updates == [
        ReasoningMessageUpdate("pon", AGENT),
        ReasoningMessageUpdate("der", AGENT),
        ReasoningMessageUpdate("ing", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "H", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "i", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "!", AGENT),
    ]
    assert aggregator.finish() == from_gemini(
        types.GenerateContentResponse.model_validate(body), agent_name=AGENT
    )


async def test_each_function_call_is_one_update_with_its_full_arguments(
    router: respx.Router,
) -> None:
    body = gemini_response(
        [
            gemini_text_part("ok"),
            gemini_function_call_part("search", {"q": "paris", "n": [1, 2]}, thought_signature=SIG),
            gemini_function_call_part("now", call_id="c-7"),
        ]
    )
    chunks, _ = await stream_of(router, gemini_stream_chunks(body, pieces=1))

    aggregator, updates = aggregate(chunks)

    assert updates == [
        TextMessageUpdate(Role.ASSISTANT, "ok", AGENT),
        ToolCallMessageUpdate(
            "search", '{"q": "paris", "n": [1, 2]}', AGENT, index=0, tool_call_id="search_0"
        ),
        ToolCallMessageUpdate("now", "{}", AGENT, index=1, tool_call_id="c-7"),
    ]
    final = aggregator.finish()
    assert final.finish_reason == "tool_calls"
    assert [call.provider_data for call in final.get_tool_calls() or []] == [
        {"gemini": {"thought_signature": SIG}},
        {},
    ]


def chunk(parts: list[dict[str, Any]], usage: dict[str, int], finish: str | None = None) -> Any:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "usageMetadata": usage, "responseId": "r"}


async def test_usage_is_cumulative_and_the_last_value_of_each_field_wins(
    router: respx.Router,
) -> None:
    chunks, _ = await stream_of(
        router,
        [
            chunk([{"text": "a"}], {"promptTokenCount": 10, "candidatesTokenCount": 1}),
            chunk([{"text": "b"}], {"candidatesTokenCount": 2, "thoughtsTokenCount": 4}),
            chunk([{"text": "c"}], {"candidatesTokenCount": 3}, finish="STOP"),
        ],
    )

    aggregator, _ = aggregate(chunks)

    assert aggregator.finish() == TextMessage(
        Role.ASSISTANT,
        "abc",
        AGENT,
        usage=Usage(10, 7, reasoning_tokens=4),
        finish_reason="stop",
    )


async def test_a_stream_without_a_finish_reason_is_interrupted_with_the_partial(
    router: respx.Router,
) -> None:
    chunks, _ = await stream_of(router, gemini_stream_chunks(gemini_response("Hello"))[:-1])

    aggregator, _ = aggregate(chunks)

    with pytest.raises(StreamInterruptedError) as caught:
        aggregator.finish()
    assert caught.value.retryable
    assert caught.value.provider == "gemini"
    assert caught.value.partial == TextMessage(Role.ASSISTANT, "Hell", AGENT, usage=Usage(10, 3))


def test_an_empty_stream_is_interrupted_with_no_partial() -> None:
    aggregator = GeminiStreamAggregator(AGENT)

    assert aggregator.partial is None
    with pytest.raises(StreamInterruptedError) as caught:
        aggregator.finish()
    assert caught.value.partial is None


async def test_an_error_chunk_ends_the_stream_and_the_partial_keeps_the_text(
    router: respx.Router,
) -> None:
    chunks, failure = await stream_of(
        router, gemini_stream_chunks(gemini_response("Hello"))[:1], error=gemini_error()
    )

    aggregator, updates = aggregate(chunks)

    assert isinstance(failure, errors.ServerError)
    assert updates == [TextMessageUpdate(Role.ASSISTANT, "He", AGENT)]
    assert aggregator.partial == TextMessage(Role.ASSISTANT, "He", AGENT, usage=Usage(10, 1))


async def test_a_blocked_prompt_stream_is_content_filtered(router: respx.Router) -> None:
    chunks, _ = await stream_of(
        router, gemini_stream_chunks(gemini_response(block_reason="SAFETY"))
    )

    aggregator, updates = aggregate(chunks)

    assert updates == []
    with pytest.raises(ContentFilteredError):
        aggregator.finish()


async def test_a_filter_finish_reason_mid_stream_is_content_filtered(router: respx.Router) -> None:
    body = gemini_response("Some text", finish_reason="SAFETY")
    chunks, _ = await stream_of(router, gemini_stream_chunks(body))

    aggregator, _ = aggregate(chunks)

    assert aggregator.partial is not None
    with pytest.raises(ContentFilteredError):
        aggregator.finish()


def test_a_second_candidate_is_refused_as_without_streaming() -> None:
    first = chunk([{"text": "a"}], {"promptTokenCount": 1}, finish="STOP")
    second = {**first, "candidates": [{**first["candidates"][0], "index": 1}]}
    chunks = [types.GenerateContentResponse.model_validate(c) for c in (first, second)]

    aggregator, updates = aggregate(chunks)

    assert updates == [TextMessageUpdate(Role.ASSISTANT, "a", AGENT)]
    assert aggregator.partial is not None
    with pytest.raises(ProviderResponseError, match="2 candidates"):
        aggregator.finish()


async def test_the_vertex_tag_goes_on_the_final_message(router: respx.Router) -> None:
    body = gemini_response(
        [gemini_text_part("t", thought=True, thought_signature=SIG), gemini_text_part("answer")]
    )
    chunks, _ = await stream_of(router, gemini_stream_chunks(body))

    aggregator, _ = aggregate(chunks, provider="vertex")

    final = aggregator.finish()
    assert [r.provider for r in final.reasoning] == ["vertex"]
    assert final == from_gemini(
        types.GenerateContentResponse.model_validate(body), agent_name=AGENT, provider="vertex"
    )


# -- property: any reply split into chunks aggregates to the non-streaming conversion --------

SIGNATURES = st.one_of(st.none(), st.sampled_from([SIG, base64.b64encode(b"other").decode()]))
TEXT_PARTS = st.builds(
    gemini_text_part, st.text(max_size=8), thought=st.booleans(), thought_signature=SIGNATURES
)
CALL_PARTS = st.builds(
    gemini_function_call_part,
    st.sampled_from(["search", "now", "get_weather"]),
    st.sampled_from([{}, {"q": "x"}, {"n": [1, 2], "o": {"k": None}}]),
    call_id=st.one_of(st.none(), st.sampled_from(["c1", "c2"])),
    thought_signature=SIGNATURES,
)
REPLIES = st.builds(
    gemini_response,
    st.lists(st.one_of(TEXT_PARTS, TEXT_PARTS, CALL_PARTS), max_size=6),
    finish_reason=st.sampled_from(["STOP", "MAX_TOKENS", "UNEXPECTED_TOOL_CALL", "SAFETY"]),
    thoughts_token_count=st.one_of(st.none(), st.integers(0, 50)),
    cached_content_token_count=st.one_of(st.none(), st.integers(0, 5)),
    tool_use_prompt_token_count=st.one_of(st.none(), st.integers(0, 5)),
)


def outcome(convert: Any) -> Any:
    """A conversion's message, or the type and text of what it raised."""
    try:
        return convert()
    except Exception as exc:
        return (type(exc), str(exc))


@st.composite
def split_reply(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A reply and its chunks: text parts cut at random points, chunks of random size."""
    body = draw(REPLIES)
    chunks = gemini_stream_chunks(body, pieces=draw(st.integers(1, 5)))
    # Regroup: several consecutive chunks' parts may travel together in one chunk.
    grouped: list[dict[str, Any]] = []
    for item in chunks:
        if grouped and draw(st.booleans()):
            last = grouped[-1]["candidates"][0]
            parts = item["candidates"][0].get("content", {}).get("parts", [])
            last.setdefault("content", {"role": "model", "parts": []})["parts"].extend(parts)
            grouped[-1]["usageMetadata"] = item["usageMetadata"]
            if "finishReason" in item["candidates"][0]:
                last["finishReason"] = item["candidates"][0]["finishReason"]
        else:
            grouped.append(item)
    return body, grouped


@given(split_reply())
def test_any_reply_split_into_chunks_aggregates_to_the_non_streaming_conversion(
    case: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    body, chunks = case
    response = types.GenerateContentResponse.model_validate(body)
    aggregator = GeminiStreamAggregator(AGENT)
    for item in chunks:
        aggregator.add(types.GenerateContentResponse.model_validate(item))

    assert outcome(aggregator.finish) == outcome(lambda: from_gemini(response, agent_name=AGENT))
