"""OpenAIResponsesStreamAggregator over recorded-shape streams read by the real SDK over respx."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai._models import construct_type
from openai.types.responses import Response, ResponseStreamEvent

from llmbridge import (
    BadRequestError,
    ContentFilteredError,
    Message,
    ProviderUnavailableError,
    RateLimitError,
    Reasoning,
    ReasoningMessageUpdate,
    RefusalError,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
)
from llmbridge.openai import OpenAIResponsesStreamAggregator, from_openai_responses
from llmbridge.testing import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
    openai_responses_error_event,
)
from tests.openai_responses.sdk import streamed
from tests.openai_responses.test_testing_kit import PARALLEL_CALLS

AGENT = "assistant"
TAG = "openai-responses"


def aggregate(
    events: list[ResponseStreamEvent], *, strict_mode: bool = False
) -> tuple[list[Message], OpenAIResponsesStreamAggregator]:
    aggregator = OpenAIResponsesStreamAggregator(AGENT, strict_mode=strict_mode)
    updates = [update for event in events for update in aggregator.add(event)]
    return updates, aggregator


def non_streaming(body: dict[str, Any]) -> Message:
    return from_openai_responses(Response.model_validate(body), agent_name=AGENT)


STREAMS: dict[str, list[dict[str, Any]]] = {
    "text": openai_response_events(openai_response("Hello, world!")),
    "parallel_calls_interleaved_with_reasoning_and_text": openai_response_events(PARALLEL_CALLS),
    "usage_only_terminal_event": openai_response_events(PARALLEL_CALLS, terminal_output="empty"),
    "output_null_on_completion": openai_response_events(PARALLEL_CALLS, terminal_output="null"),
    "raw_reasoning_text": openai_response_events(
        openai_response(
            [openai_response_reasoning(content=["step 1", "step 2"]), openai_response_message("4")]
        )
    ),
    "incomplete_at_max_output_tokens": openai_response_events(
        openai_response("Hel", status="incomplete")
    ),
    "a_call_with_no_arguments": openai_response_events(
        openai_response([openai_response_function_call("now", "", call_id="call_1")])
    ),
}


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize("name", list(STREAMS), ids=list(STREAMS))
async def test_the_final_message_equals_the_non_streaming_conversion(
    name: str, strict_mode: bool
) -> None:
    events = STREAMS[name]
    terminal = events[-1]["response"]
    body = {**terminal, "output": [e["item"] for e in events if e["type"].endswith("item.done")]}

    _, aggregator = aggregate(await streamed(events), strict_mode=strict_mode)
    final = aggregator.finish()

    expected = non_streaming(body)
    assert final == expected
    assert final.provider_data == expected.provider_data  # type: ignore[union-attr]
    assert final.reasoning == expected.reasoning  # type: ignore[union-attr]
    assert [call.provider_data for call in final.get_tool_calls() or ()] == [
        call.provider_data for call in expected.get_tool_calls() or ()
    ]
    assert isinstance(final.raw, Response)  # type: ignore[union-attr]


async def test_parallel_calls_stream_live_with_an_index_counted_over_calls_only() -> None:
    events = await streamed(openai_response_events(PARALLEL_CALLS, pieces=1))

    updates, _ = aggregate(events)

    assert updates == [
        ReasoningMessageUpdate("Two lookups.", AGENT),
        ReasoningMessageUpdate("Then answer.", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "Checking both.", AGENT),
        ToolCallMessageUpdate("weather", "", AGENT, index=0, tool_call_id="call_a"),
        ToolCallMessageUpdate(
            "weather", '{"city": "Paris"}', AGENT, index=0, tool_call_id="call_a"
        ),
        ReasoningMessageUpdate("Second city.", AGENT),
        ToolCallMessageUpdate("weather", "", AGENT, index=1, tool_call_id="call_b"),
        ToolCallMessageUpdate("weather", '{"city": "Oslo"}', AGENT, index=1, tool_call_id="call_b"),
    ]


async def test_the_completed_response_items_win_over_the_output_item_done_ones() -> None:
    events = openai_response_events(PARALLEL_CALLS)
    for event in events:
        if event["type"] == "response.output_item.done" and event["item"]["type"] == "reasoning":
            event["item"]["encrypted_content"] = "stale"

    _, aggregator = aggregate(await streamed(events))
    final = aggregator.finish()

    assert final == non_streaming(PARALLEL_CALLS)
    assert [r.signature for r in final.reasoning] == ["enc-test", "enc-2"]  # type: ignore[union-attr]


def interleaved_calls() -> list[dict[str, Any]]:
    """Two calls whose argument deltas alternate, as parallel calls are recorded."""
    events = openai_response_events(PARALLEL_CALLS)
    deltas = [e for e in events if e["type"] == "response.function_call_arguments.delta"]
    rest = [e for e in events if e["type"] != "response.function_call_arguments.delta"]
    second_added = next(
        i
        for i, e in enumerate(rest)
        if e["type"] == "response.output_item.added" and e["output_index"] == 4
    )
    first, second = deltas[: len(deltas) // 2], deltas[len(deltas) // 2 :]
    mixed = [delta for pair in zip(first, second, strict=True) for delta in pair]
    # Every delta after both items were added, alternating between them.
    merged = rest[: second_added + 1] + mixed + rest[second_added + 1 :]
    return [{**event, "sequence_number": n} for n, event in enumerate(merged)]


async def test_interleaved_argument_deltas_join_by_their_item() -> None:
    updates, aggregator = aggregate(await streamed(interleaved_calls()))

    calls = [u for u in updates if isinstance(u, ToolCallMessageUpdate)]
    joined = {
        index: "".join(u.function_arguments_update for u in calls if u.index == index)
        for index in (0, 1)
    }
    assert joined == {0: '{"city": "Paris"}', 1: '{"city": "Oslo"}'}
    assert aggregator.finish() == non_streaming(PARALLEL_CALLS)


async def test_unknown_event_types_are_ignored() -> None:
    events = openai_response_events(openai_response("Hi"), pieces=1)
    events.insert(3, {"type": "response.something_new", "payload": {"x": 1}})
    events = [{**event, "sequence_number": n} for n, event in enumerate(events)]

    updates, aggregator = aggregate(await streamed(events))

    assert updates == [TextMessageUpdate(Role.ASSISTANT, "Hi", AGENT)]
    assert aggregator.finish() == non_streaming(openai_response("Hi"))


async def test_argument_deltas_of_an_item_never_added_carry_no_update() -> None:
    body = openai_response([openai_response_function_call("now", '{"a": 1}', call_id="c1")])
    events = [e for e in openai_response_events(body) if e["type"] != "response.output_item.added"]

    updates, aggregator = aggregate(await streamed(events))

    assert updates == []
    final = aggregator.finish()
    assert final == non_streaming(body)
    assert final.get_tool_calls() == [
        ToolCall("now", '{"a": 1}', tool_call_id="c1", provider_data={TAG: {"id": "fc_c1"}})
    ]


def failed_mid_stream(code: str) -> list[dict[str, Any]]:
    failed = openai_response(
        [openai_response_message("Hel", status="incomplete")], status="failed", error_code=code
    )
    return openai_response_events(failed)


def error_event_mid_text(code: str | None) -> list[dict[str, Any]]:
    events = openai_response_events(openai_response("Hello, world!"))
    cut = 6  # created, in_progress, item added, part added, two text deltas
    return [*events[:cut], openai_responses_error_event(sequence_number=cut, code=code)]


INTERRUPTIONS: dict[str, tuple[list[dict[str, Any]], bool, str]] = {
    "failed_with_server_error_is_retryable": (failed_mid_stream("server_error"), True, "Hel"),
    "failed_with_rate_limit_is_retryable": (failed_mid_stream("rate_limit_exceeded"), True, "Hel"),
    "failed_with_invalid_prompt_is_not": (failed_mid_stream("invalid_prompt"), False, "Hel"),
    "error_event_with_server_error_is_retryable": (
        error_event_mid_text("server_error"),
        True,
        "Hello, wor",
    ),
    "error_event_without_a_code_is_not": (error_event_mid_text(None), False, "Hello, wor"),
}


@pytest.mark.parametrize("name", list(INTERRUPTIONS), ids=list(INTERRUPTIONS))
async def test_a_failure_mid_stream_raises_interrupted_with_the_partial(name: str) -> None:
    events, retryable, text = INTERRUPTIONS[name]
    received = await streamed(events)
    aggregator = OpenAIResponsesStreamAggregator(AGENT)

    for event in received[:-1]:
        aggregator.add(event)
    with pytest.raises(StreamInterruptedError) as raised:
        aggregator.add(received[-1])

    error = raised.value
    assert (error.retryable, error.status_code, error.provider) == (retryable, None, TAG)
    assert error.partial == TextMessage(Role.ASSISTANT, text, AGENT)
    assert str(error).startswith("the OpenAI Responses stream was interrupted: OpenAI API error")


async def test_a_stream_cut_before_its_terminal_event_cannot_finish() -> None:
    events = openai_response_events(PARALLEL_CALLS)[:-1]
    _, aggregator = aggregate(await streamed(events))

    with pytest.raises(StreamInterruptedError, match="before its terminal event") as raised:
        aggregator.finish()

    assert raised.value.retryable
    partial = raised.value.partial
    assert isinstance(partial, ToolCallMessage)
    assert partial.content == "Checking both."
    assert partial.reasoning == (Reasoning("Two lookups.Then answer.Second city.", provider=TAG),)
    assert [call.function_arguments for call in partial.tool_calls] == [
        '{"city": "Paris"}',
        '{"city": "Oslo"}',
    ]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        pytest.param(
            openai_response("Hel", status="incomplete", incomplete_reason="content_filter"),
            ContentFilteredError,
            id="incomplete_by_content_filter",
        ),
        pytest.param(
            openai_response([openai_response_message(refusal="No.")]),
            RefusalError,
            id="refusal",
        ),
    ],
)
async def test_a_filtered_or_refused_stream_raises_after_its_updates(
    body: dict[str, Any], error: type[Exception]
) -> None:
    updates, aggregator = aggregate(await streamed(openai_response_events(body)))

    with pytest.raises(error):
        aggregator.finish()
    assert all(isinstance(u, TextMessageUpdate) for u in updates)


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("server_error", ProviderUnavailableError),
        ("rate_limit_exceeded", RateLimitError),
        ("invalid_prompt", BadRequestError),
    ],
)
def test_the_classes_of_a_failure_match_the_non_streaming_ones(
    code: str, error: type[Exception]
) -> None:
    body = openai_response([], status="failed", error_code=code)

    with pytest.raises(error):
        non_streaming(body)


# -- property: any reply, split at random points, aggregates to the non-streaming result ----

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
ITEM_KINDS = st.sampled_from(["message", "function_call", "reasoning"])


@st.composite
def replies(draw: st.DrawFn) -> dict[str, Any]:
    """A Responses reply of reasoning, message and function-call items in any order."""
    items: list[dict[str, Any]] = []
    for position, kind in enumerate(draw(st.lists(ITEM_KINDS, min_size=1, max_size=6))):
        if kind == "message":
            texts = draw(st.lists(TEXT, min_size=1, max_size=3))
            item = openai_response_message(texts, item_id=f"msg_{position}")
        elif kind == "function_call":
            arguments = json.dumps({"q": draw(TEXT)})
            item = openai_response_function_call("f", arguments, call_id=f"call_{position}")
        else:
            summary = draw(st.lists(TEXT, max_size=3))
            item = openai_response_reasoning(
                summary, item_id=f"rs_{position}", encrypted_content=f"enc-{position}"
            )
        items.append(item)
    texts = [part["text"] for i in items if i["type"] == "message" for part in i["content"]]
    if not any(i["type"] == "function_call" for i in items) and not "".join(texts):
        items.append(openai_response_message("ok", item_id="msg_last"))
    return openai_response(items)


def resplit(events: list[dict[str, Any]], cuts: list[int]) -> list[dict[str, Any]]:
    """Each delta event split into pieces at the positions ``cuts`` picks, renumbered."""
    out: list[dict[str, Any]] = []
    draws = iter(cuts)
    for event in events:
        delta = event.get("delta")
        if not isinstance(delta, str) or not event["type"].endswith(".delta") or len(delta) < 2:
            out.append(event)
            continue
        points = sorted({next(draws, 0) % len(delta) for _ in range(3)} - {0})
        bounds = [0, *points, len(delta)]
        out += [{**event, "delta": delta[a:b]} for a, b in itertools.pairwise(bounds)]
    return [{**event, "sequence_number": n} for n, event in enumerate(out)]


@settings(max_examples=60, deadline=None)
@given(
    body=replies(),
    cuts=st.lists(st.integers(0, 50), max_size=60),
    ending=st.sampled_from(["full", "empty", "null"]),
)
def test_any_reply_split_anywhere_aggregates_to_the_non_streaming_conversion(
    body: dict[str, Any], cuts: list[int], ending: Any
) -> None:
    events = resplit(openai_response_events(body, pieces=1, terminal_output=ending), cuts)
    parsed = [construct_type(type_=ResponseStreamEvent, value=copy.deepcopy(e)) for e in events]

    updates, aggregator = aggregate(parsed)  # type: ignore[arg-type]

    expected = non_streaming(body)
    assert aggregator.finish() == expected
    text = "".join(u.content for u in updates if isinstance(u, TextMessageUpdate))
    assert text == (expected.get_content() or "")
    arguments: dict[int, str] = {}
    for update in updates:
        if isinstance(update, ToolCallMessageUpdate):
            arguments[update.index] = arguments.get(update.index, "") + (
                update.function_arguments_update
            )
    calls = expected.get_tool_calls() or []
    assert [arguments[i] for i in range(len(arguments))] == [c.function_arguments for c in calls]
