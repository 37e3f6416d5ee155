"""The Responses builders of llmbridge.testing, read back by the real openai SDK over respx."""

from __future__ import annotations

import json
from typing import Any, get_args

import httpx
import pytest
import respx
from openai import AsyncOpenAI
from openai.types.responses import Response, ResponseStreamEvent

from llmbridge.testing import (
    openai_client,
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
    openai_responses_error_event,
    openai_responses_sse,
    openai_responses_sse_response,
)
from tests.openai_responses import wire

URL = "https://api.openai.com/v1/responses"
# Each stream event type -> the SDK class it must parse into.
EVENT_CLASSES = {
    get_args(cls.model_fields["type"].annotation)[0]: cls
    for cls in get_args(get_args(ResponseStreamEvent)[0])
}
REQUEST: dict[str, Any] = {
    "model": "gpt-5-mini",
    "input": [{"role": "user", "content": "Hi"}],
    "store": False,
    "include": ["reasoning.encrypted_content"],
}

PARALLEL_CALLS = openai_response(
    [
        openai_response_reasoning(["Two lookups.", "Then answer."], item_id="rs_1"),
        openai_response_message("Checking both.", item_id="msg_1", phase="commentary"),
        openai_response_function_call("weather", '{"city": "Paris"}', call_id="call_a"),
        openai_response_reasoning("Second city.", item_id="rs_2", encrypted_content="enc-2"),
        openai_response_function_call("weather", '{"city": "Oslo"}', call_id="call_b"),
    ],
    input_tokens=40,
    output_tokens=30,
    cached_tokens=16,
    reasoning_tokens=12,
)
RESPONSES = {
    "text": openai_response("Hello, world!"),
    "parallel_calls_between_reasoning_and_text": PARALLEL_CALLS,
    "refusal": openai_response([openai_response_message(refusal="I can't help with that.")]),
    "raw_reasoning_text": openai_response(
        [openai_response_reasoning(content=["step 1", "step 2"]), openai_response_message("4")]
    ),
    "incomplete_at_max_output_tokens": openai_response("Hel", status="incomplete"),
    "failed_with_rate_limit": openai_response(
        [], status="failed", error_code="rate_limit_exceeded"
    ),
}


def responses_router(*replies: httpx.Response) -> tuple[AsyncOpenAI, respx.Route]:
    """A real ``AsyncOpenAI`` whose ``/v1/responses`` route answers ``replies`` in turn."""
    router = respx.Router(assert_all_called=False)
    route = router.post(URL).mock(side_effect=list(replies))
    return openai_client(router), route


def checked_bodies(route: respx.Route) -> list[Any]:
    """Every body the SDK sent on ``route``, each put through the strict wire validator."""
    bodies = [json.loads(call.request.content) for call in route.calls]
    for body in bodies:
        wire.check_request_body(body)
    return bodies


@pytest.mark.parametrize("name", list(RESPONSES), ids=list(RESPONSES))
async def test_the_sdk_parses_the_built_response_into_equal_fields(name: str) -> None:
    built = RESPONSES[name]
    client, route = responses_router(httpx.Response(200, json=built))

    parsed = await client.responses.create(**REQUEST)

    assert parsed.to_dict() == built
    assert Response.model_validate(built).to_dict() == built  # every field of a declared type
    assert checked_bodies(route) == [REQUEST]


def test_response_fields_carry_status_usage_and_item_ids() -> None:
    parsed = Response.model_validate(PARALLEL_CALLS)
    failed = Response.model_validate(RESPONSES["failed_with_rate_limit"])
    incomplete = Response.model_validate(RESPONSES["incomplete_at_max_output_tokens"])

    assert [item.type for item in parsed.output] == [
        "reasoning",
        "message",
        "function_call",
        "reasoning",
        "function_call",
    ]
    assert [getattr(item, "id", None) for item in parsed.output] == [
        "rs_1",
        "msg_1",
        "fc_call_a",
        "rs_2",
        "fc_call_b",
    ]
    assert parsed.output_text == "Checking both."
    assert parsed.usage is not None
    assert parsed.usage.input_tokens_details.cached_tokens == 16
    assert parsed.usage.output_tokens_details.reasoning_tokens == 12
    assert parsed.usage.total_tokens == 70
    assert (failed.status, failed.error and failed.error.code) == ("failed", "rate_limit_exceeded")
    assert failed.incomplete_details is None
    assert incomplete.incomplete_details is not None
    assert (incomplete.status, incomplete.incomplete_details.reason) == (
        "incomplete",
        "max_output_tokens",
    )
    assert incomplete.error is None


def test_a_reasoning_item_can_leave_out_its_encrypted_content() -> None:
    assert "encrypted_content" not in openai_response_reasoning("x", encrypted_content=None)
    assert openai_response_reasoning().get("summary") == []


def test_a_response_that_cannot_end_a_stream_is_refused() -> None:
    with pytest.raises(ValueError, match="status must be one of"):
        openai_response("x", status="cancelled")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not 'queued'"):
        openai_response_events({**openai_response("x"), "status": "queued"})


def test_events_share_no_object_with_the_response_or_each_other() -> None:
    response = openai_response("x")
    events = openai_response_events(response)

    events[0]["response"]["output"].append({"type": "message"})
    events[-1]["response"]["output"][0]["content"] = []

    assert events[1]["response"]["output"] == []
    assert response["output"][0]["content"][0]["text"] == "x"


def broken_streams() -> dict[str, list[dict[str, Any]]]:
    """Streams that stop early: an ``error`` event mid-text, a ``response.failed`` mid-output."""
    text = openai_response_events(openai_response("Hello, world!"))
    cut = 6  # created, in_progress, item added, part added, two text deltas
    failed = openai_response([openai_response_message("Hel", status="incomplete")], status="failed")
    return {
        "error_event_mid_stream": [
            *text[:cut],
            openai_responses_error_event(sequence_number=cut),
        ],
        "failed_response_mid_stream": openai_response_events(failed),
    }


STREAMS = {
    **{name: openai_response_events(response) for name, response in RESPONSES.items()},
    "usage_only_terminal_event": openai_response_events(PARALLEL_CALLS, terminal_output="empty"),
    "null_output_on_completion": openai_response_events(PARALLEL_CALLS, terminal_output="null"),
    "one_delta_per_part": openai_response_events(PARALLEL_CALLS, pieces=1),
    **broken_streams(),
}


@pytest.mark.parametrize("name", list(STREAMS), ids=list(STREAMS))
async def test_a_stream_yields_exactly_the_built_events_as_sdk_objects(name: str) -> None:
    events = STREAMS[name]
    client, route = responses_router(openai_responses_sse_response(events))

    received = [event async for event in await client.responses.create(**REQUEST, stream=True)]

    assert [event.to_dict() for event in received] == events
    assert [type(event) for event in received] == [EVENT_CLASSES[e["type"]] for e in events]
    assert [event.sequence_number for event in received] == list(range(len(events)))
    assert checked_bodies(route) == [{**REQUEST, "stream": True}]


def without_parsed(item: dict[str, Any]) -> dict[str, Any]:
    """An SDK-accumulated item as JSON, without the ``parsed`` fields the helper adds."""
    content = [
        {key: value for key, value in part.items() if key != "parsed"}
        for part in item.get("content") or ()
    ]
    plain = {key: value for key, value in item.items() if key != "parsed_arguments"}
    return {**plain, "content": content} if "content" in item else plain


@pytest.mark.parametrize(
    ("terminal_output", "final_output"),
    [
        pytest.param("full", PARALLEL_CALLS["output"], id="completed_output_is_the_output"),
        pytest.param("null", PARALLEL_CALLS["output"], id="null_output_rebuilt_from_done_items"),
        pytest.param("empty", [], id="empty_output_stays_empty_in_the_sdk"),
    ],
)
async def test_the_sdk_stream_accumulator_accepts_the_event_order(
    terminal_output: Any, final_output: list[dict[str, Any]]
) -> None:
    events = openai_response_events(PARALLEL_CALLS, terminal_output=terminal_output)
    client, _ = responses_router(openai_responses_sse_response(events))

    async with client.responses.stream(**REQUEST) as stream:
        async for _ in stream:
            pass
        final = await stream.get_final_response()

    assert [without_parsed(item.to_dict()) for item in final.output] == final_output
    assert final.usage is not None
    assert final.usage.total_tokens == 70


def test_events_follow_the_recorded_order_per_item_kind() -> None:
    response = openai_response(
        [
            openai_response_reasoning("ab"),
            openai_response_message(["hi"], refusal="no"),
            openai_response_function_call("f", "{}"),
        ]
    )

    types = [event["type"].removeprefix("response.") for event in openai_response_events(response)]

    assert types == [
        "created",
        "in_progress",
        "output_item.added",
        "reasoning_summary_part.added",
        "reasoning_summary_text.delta",
        "reasoning_summary_text.delta",
        "reasoning_summary_text.done",
        "reasoning_summary_part.done",
        "output_item.done",
        "output_item.added",
        "content_part.added",
        "output_text.delta",
        "output_text.delta",
        "output_text.done",
        "content_part.done",
        "content_part.added",
        "refusal.delta",
        "refusal.delta",
        "refusal.done",
        "content_part.done",
        "output_item.done",
        "output_item.added",
        "function_call_arguments.delta",
        "function_call_arguments.delta",
        "function_call_arguments.done",
        "output_item.done",
        "completed",
    ]


@pytest.mark.parametrize(
    ("status", "terminal"),
    [
        pytest.param("completed", "response.completed", id="completed_ends_with_completed"),
        pytest.param("incomplete", "response.incomplete", id="incomplete_ends_with_incomplete"),
        pytest.param("failed", "response.failed", id="failed_ends_with_failed"),
    ],
)
def test_the_stream_ends_with_the_terminal_event_of_the_status(status: Any, terminal: str) -> None:
    response = openai_response("x", status=status)

    events = openai_response_events(response)

    assert events[-1] == {"type": terminal, "response": response, "sequence_number": 8}


def test_items_open_empty_and_in_progress_and_the_lifecycle_carries_no_output() -> None:
    events = openai_response_events(PARALLEL_CALLS)
    added = [event["item"] for event in events if event["type"] == "response.output_item.added"]

    assert events[0]["response"]["status"] == "in_progress"
    assert (events[0]["response"]["output"], events[1]["response"]["usage"]) == ([], None)
    assert {item["status"] for item in added if "status" in item} == {"in_progress"}
    assert added[0] == {"id": "rs_1", "type": "reasoning", "summary": []}
    assert added[1]["content"] == []
    assert (added[2]["call_id"], added[2]["name"], added[2]["arguments"]) == (
        "call_a",
        "weather",
        "",
    )


def test_sse_frames_name_each_event_and_send_no_done() -> None:
    events = openai_response_events(openai_response("x"))

    frames = openai_responses_sse(events)

    assert frames[0] == f"event: response.created\ndata: {json.dumps(events[0])}\n\n".encode()
    assert len(frames) == len(events)
    assert not any(b"[DONE]" in frame for frame in frames)


async def test_sse_response_streams_the_frames_then_raises_the_dropped_connection() -> None:
    events = openai_response_events(openai_response("x"))[:3]
    response = openai_responses_sse_response(
        events, error=httpx.ReadError("gone"), headers={"x-request-id": "req_1"}
    )
    received: list[bytes] = []

    async def read() -> None:
        async for frame in response.aiter_raw():
            received.append(frame)

    with pytest.raises(httpx.ReadError):
        await read()

    assert response.headers["content-type"] == "text/event-stream"
    assert response.headers["x-request-id"] == "req_1"
    assert received == openai_responses_sse(events)
