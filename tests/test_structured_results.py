"""Structured tool results (API.md 19.3, 19.7): a JSON object stored read-only, compared by
value, serialized as an object, sent as the object to Gemini and as compact JSON text to every
other wing; audio and video result parts kept as parts, and a message that is no result part
raising."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    AudioMessage,
    InvalidMessageError,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    VideoMessage,
    dump_messages,
    load_messages,
)
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import to_gemini
from llmbridge.kit import result_text, split_result
from llmbridge.openai import to_openai, to_openai_responses

AGENT = "assistant"
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "
MP4 = b"\x00\x00\x00\x18ftypisom"
OBJECT = {"files": ["a.txt", "b.txt"], "count": 2, "ok": True, "ville": "Orléans", "n": None}
COMPACT = '{"files":["a.txt","b.txt"],"count":2,"ok":true,"ville":"Orléans","n":null}'


def result(value: Any, *, is_error: bool = False) -> ToolCall:
    return ToolCall("ls", "{}", tool_call_id="c1", result=value, is_error=is_error)


def history(value: Any, *, is_error: bool = False) -> list[Any]:
    return [
        TextMessage(Role.USER, "list the files"),
        ToolCallMessage([ToolCall("ls", "{}", tool_call_id="c1")], AGENT),
        ToolCallResultMessage([result(value, is_error=is_error)]),
    ]


def test_a_structured_result_is_stored_read_only_and_compared_by_value() -> None:
    given_object = {"files": ["a.txt"], "meta": {"size": 1}}
    call = result(given_object)
    given_object["files"].append("changed later")  # the result is a copy
    assert call.result == {"files": ["a.txt"], "meta": {"size": 1}}
    assert call == result({"files": ("a.txt",), "meta": {"size": 1}})
    assert call != result({"files": ["b.txt"], "meta": {"size": 1}})
    assert isinstance(call.result, dict) is False
    with pytest.raises(TypeError):
        call.result["files"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        call.result["meta"]["size"] = 2  # type: ignore[index]
    assert hash(call) == hash(result({"files": ["a.txt"], "meta": {"size": 1}}))


def test_a_structured_result_keeps_its_key_order() -> None:
    assert list(result({"b": 1, "a": 2, "c": 3}).result or ()) == ["b", "a", "c"]


def test_replace_keeps_the_structured_result() -> None:
    call = result(OBJECT)
    assert dataclasses.replace(call, is_error=True).result is call.result


BAD_OBJECTS = {
    "an_int_key": {1: "x"},
    "a_nested_int_key": {"a": {2: "x"}},
    "a_value_json_cannot_hold": {"a": object()},
    "a_nan": {"a": float("nan")},
}


@pytest.mark.parametrize("value", BAD_OBJECTS.values(), ids=BAD_OBJECTS.keys())
def test_a_structured_result_that_is_not_json_raises_on_the_result_field(value: Any) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        result(value)
    assert caught.value.field == "result"


def test_get_content_is_the_compact_json_text() -> None:
    message = ToolCallResultMessage([result(OBJECT)])
    assert message.get_content() == COMPACT
    assert result_text(result(OBJECT).result) == COMPACT
    assert split_result(result(OBJECT).result or "") == (COMPACT, ())


def test_a_structured_result_round_trips_through_json_as_an_object() -> None:
    messages = history(OBJECT)
    dumped = dump_messages(messages)
    assert json.loads(dumped)[2]["tool_calls"][0]["result"] == OBJECT
    assert load_messages(dumped) == messages


def test_a_text_result_still_dumps_as_text() -> None:
    # Revision-2 JSON loads unchanged and dumps byte-identical.
    dumped = dump_messages(history('{"files":["a.txt"]}'))
    assert '"result": "{\\"files\\":[\\"a.txt\\"]}"' in dumped
    assert dump_messages(load_messages(dumped)) == dumped


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), json_values, max_size=4))
def test_any_json_object_round_trips_and_gives_its_compact_json(value: dict[str, Any]) -> None:
    messages = history(value)
    assert load_messages(dump_messages(messages)) == messages
    text = messages[2].get_content()
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_gemini_sends_the_object_itself() -> None:
    [_, _, user] = to_gemini(history(OBJECT), agent_name=AGENT).contents
    assert user["parts"] == [{"function_response": {"name": "ls", "id": "c1", "response": OBJECT}}]


def test_gemini_sends_an_error_structured_result_as_error_text() -> None:
    [_, _, user] = to_gemini(history(OBJECT, is_error=True), agent_name=AGENT).contents
    assert user["parts"][0]["function_response"]["response"] == {"error": COMPACT}


def _openai(messages: list[Any]) -> Any:
    return to_openai(messages, agent_name=AGENT).messages[2]["content"]


def _responses(messages: list[Any]) -> Any:
    return to_openai_responses(messages, agent_name=AGENT).messages[2]["output"]


def _anthropic(messages: list[Any]) -> Any:
    return to_anthropic(messages, agent_name=AGENT).messages[2]["content"][0]["content"]


@pytest.mark.parametrize(
    "sent", [_openai, _responses, _anthropic], ids=["openai", "openai-responses", "anthropic"]
)
def test_other_wings_send_the_compact_json_text_without_a_note(sent: Any) -> None:
    assert sent(history(OBJECT)) == COMPACT


@pytest.mark.parametrize(
    "convert", [to_openai, to_openai_responses, to_anthropic, to_gemini], ids=lambda f: f.__name__
)
def test_a_structured_result_from_another_agent_is_its_json_text(convert: Any) -> None:
    aggregate = ToolCallAggregateMessage(
        ToolCallMessage([ToolCall("ls", "{}", tool_call_id="c1")], "other"),
        ToolCallResultMessage([result(OBJECT)], "other"),
        "other",
    )
    request = convert([aggregate], agent_name=AGENT)
    assert COMPACT in json.dumps(request.messages, ensure_ascii=False).replace('\\"', '"')


AUDIO = AudioMessage(Role.TOOL, data=WAV)
VIDEO = VideoMessage(Role.TOOL, data=MP4)
MEDIA_RESULTS = {
    "a_single_audio_part": (AUDIO, (AUDIO,)),
    "audio_alone_in_a_list": ([AUDIO], (AUDIO,)),
    "audio_after_text": ([TextMessage(Role.TOOL, "heard"), AUDIO], None),
    "a_single_video_part": (VIDEO, (VIDEO,)),
    "video_after_audio": ([AUDIO, VIDEO], (AUDIO, VIDEO)),
}


@pytest.mark.parametrize(("value", "stored"), MEDIA_RESULTS.values(), ids=MEDIA_RESULTS.keys())
def test_audio_and_video_result_parts_are_kept_as_parts(value: Any, stored: Any) -> None:
    # API.md 19.3: rev. 2 turned an AudioMessage into JSON text (issue 26, defect 4), rev. 3
    # takes audio and video as result parts.
    call = result(value)
    assert call.result == (stored if stored is not None else tuple(value))


NOT_PARTS = {
    "a_tool_call_message": (ToolCallMessage([ToolCall("f", "{}")]), "result"),
    "a_multimodal_message_after_text": (
        [TextMessage(Role.TOOL, "see"), MultiModalMessage(Role.TOOL, [AUDIO])],
        "result[1]",
    ),
}


@pytest.mark.parametrize(("value", "field"), NOT_PARTS.values(), ids=NOT_PARTS.keys())
def test_a_message_that_is_no_result_part_raises_instead_of_becoming_json_text(
    value: Any, field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        result(value)
    assert caught.value.field == field
