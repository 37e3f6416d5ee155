"""``FunctionResult`` (API.md 19.3, amending section 7): a function run by
``FunctionCallMiddleware`` answers its call with exactly that result and ``is_error``, and its
``provider_data`` on the call; exceptions keep their section-7 behaviour."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import pytest

from llmbridge import (
    AudioMessage,
    FunctionCallMiddleware,
    FunctionResult,
    ImageMessage,
    InvalidMessageError,
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    VideoMessage,
)
from tests.strategies import MP4, PNG, WAV
from tests.test_function_loop import ScriptedModel

AGENT = "assistant"
QUESTION = TextMessage(Role.USER, "Look it up.")
IMAGE = ImageMessage(Role.TOOL, data=PNG)
AUDIO = AudioMessage(Role.TOOL, data=WAV)
VIDEO = VideoMessage(Role.TOOL, data=MP4)
CHART = (TextMessage(Role.TOOL, "the chart"), IMAGE)

# -- construction -------------------------------------------------------------------------

STORED = {
    "text": ("42", "42"),
    "parts_given_as_a_list": (list(CHART), CHART),
    "a_single_part": (IMAGE, (IMAGE,)),
    "audio_and_video_parts": ([AUDIO, VIDEO], (AUDIO, VIDEO)),
    "a_structured_result": ({"mean": 1.5, "tags": ["a"]}, {"mean": 1.5, "tags": ("a",)}),
    "another_value_as_its_json_text": (12, "12"),
}


@pytest.mark.parametrize(("given", "stored"), STORED.values(), ids=STORED.keys())
def test_the_result_is_stored_as_a_tool_call_stores_it(given: Any, stored: Any) -> None:
    reported = FunctionResult(given, is_error=True)
    assert reported.result == stored
    assert reported.is_error is True
    assert reported == FunctionResult(given, is_error=True)
    assert reported.answer(ToolCall("f", "{}")).result == ToolCall("f", "{}", result=given).result


BAD = {
    "no_result": ({"result": None}, "result"),
    "an_empty_list": ({"result": []}, "result"),
    "a_message_that_is_no_part": ({"result": ToolCallMessage([ToolCall("f", "{}")])}, "result"),
    "a_non_str_key": ({"result": {1: "one"}}, "result"),
    "is_error_not_a_bool": ({"result": "x", "is_error": 1}, "is_error"),
    "provider_data_not_json": ({"result": "x", "provider_data": {"mcp": {"a": object()}}}, None),
}


@pytest.mark.parametrize(("given", "field"), BAD.values(), ids=BAD.keys())
def test_a_bad_function_result_raises_naming_the_field(
    given: dict[str, Any], field: str | None
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        FunctionResult(**given)
    if field is not None:
        assert caught.value.field == field


def test_provider_data_is_merged_over_the_calls_own_by_tag() -> None:
    call = ToolCall(
        "f",
        "{}",
        tool_call_id="c1",
        provider_data={"gemini": {"signature": "s"}, "mcp": {"old": True}},
    )
    reported = FunctionResult("ok", provider_data={"mcp": {"meta": {"k": 1}}})

    answered = reported.answer(call)

    assert answered.provider_data == {"gemini": {"signature": "s"}, "mcp": {"meta": {"k": 1}}}
    assert (answered.tool_call_id, answered.function_arguments) == ("c1", "{}")
    assert FunctionResult("ok").answer(call).provider_data == call.provider_data


# -- through FunctionCallMiddleware, both paths ---------------------------------------------


def lookup(city: str) -> FunctionResult:
    """Look a city up (sync)."""
    return FunctionResult(f"no such city: {city}", is_error=True)


async def stats() -> FunctionResult:
    """Statistics (async)."""
    return FunctionResult({"mean": 1.5}, provider_data={"mcp": {"meta": {"took": 3}}})


def chart() -> FunctionResult:
    """A chart (sync)."""
    return FunctionResult(list(CHART))


async def broken() -> FunctionResult:
    """Fails to build its result: an exception, so section 7's error result."""
    return FunctionResult([])


def raw_lookup(arguments: str) -> FunctionResult:
    return FunctionResult({"error": {"code": 404}}, is_error=True)


async def raw_listen(arguments: str) -> AudioMessage:
    return AUDIO  # a plain return of audio: a parts result, no longer JSON text


CALLS = (
    ToolCall("lookup", '{"city": "Atlantis"}', tool_call_id="call_1"),
    ToolCall("stats", "{}", tool_call_id="call_2"),
    ToolCall("chart", "", tool_call_id="call_3"),
    ToolCall("broken", "{}", tool_call_id="call_4"),
    ToolCall("raw_lookup", "{}", tool_call_id="call_5"),
    ToolCall("raw_listen", "{}", tool_call_id="call_6"),
)
# Each call's (result, is_error, provider_data) once the middleware has run it.
ANSWERS = [
    ("no such city: Atlantis", True, {}),
    ({"mean": 1.5}, False, {"mcp": {"meta": {"took": 3}}}),
    (CHART, False, {}),
    (None, True, {}),  # the text names the error: checked below
    ({"error": {"code": 404}}, True, {}),
    ((AUDIO,), False, {}),
]


def middleware() -> FunctionCallMiddleware:
    return FunctionCallMiddleware(
        [lookup, stats, chart, broken],
        function_map={"raw_lookup": raw_lookup, "raw_listen": raw_listen},
    )


async def produced(agent: MiddlewareStreamingAgent, path: str, history: list[Message]) -> Message:
    if path == "reply":
        return await agent.send(chat_history=history)
    return [message async for message in agent.stream(chat_history=history)][-1]


def check_answers(calls: Sequence[ToolCall]) -> None:
    assert [call.tool_call_id for call in calls] == [call.tool_call_id for call in CALLS]
    for call, (result, is_error, provider_data) in zip(calls, ANSWERS, strict=True):
        assert (call.is_error, call.provider_data) == (is_error, provider_data)
        if result is not None:
            assert call.result == result
    assert isinstance(calls[3].result, str)
    assert calls[3].result.startswith("Function 'broken' raised InvalidMessageError:")


@pytest.mark.parametrize("path", ["reply", "stream"])
async def test_a_model_reply_s_calls_are_answered_with_the_function_results(path: str) -> None:
    model = ScriptedModel(ToolCallMessage(CALLS, AGENT, finish_reason="tool_calls"))
    agent = model.register_streaming_middleware(middleware())

    reply = await produced(agent, path, [QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    check_answers(reply.tool_call_result_message.tool_calls)


@pytest.mark.parametrize("path", ["reply", "stream"])
async def test_an_incoming_call_is_answered_with_the_function_results(path: str) -> None:
    agent = ScriptedModel().register_streaming_middleware(middleware())

    reply = await produced(agent, path, [QUESTION, ToolCallMessage(CALLS, AGENT)])

    assert isinstance(reply, ToolCallResultMessage)
    check_answers(reply.tool_calls)


async def test_a_reported_error_is_logged_at_info_not_as_a_failure(
    caplog: pytest.LogCaptureFixture,
) -> None:
    agent = ScriptedModel().register_streaming_middleware(middleware())

    with caplog.at_level(logging.INFO, logger="llmbridge"):
        await agent.send(chat_history=[QUESTION, ToolCallMessage(CALLS[:1], AGENT)])

    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.INFO, "tool call call_1 reported an error: no such city: Atlantis")
    ]


def test_the_answered_call_is_the_call_with_the_result_set() -> None:
    call = CALLS[0]
    answered = FunctionResult("gone", is_error=True).answer(call)
    assert answered == dataclasses.replace(call, result="gone", is_error=True)
