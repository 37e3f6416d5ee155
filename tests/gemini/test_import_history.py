"""from_gemini_contents on histories as real traffic writes them (issue 26): any response
object, camelCase keys, calls without ids, a turn ending in empty text, URL-safe base64, and
malformed input (typed errors only; lenient never raises)."""

from __future__ import annotations

import base64
import contextlib
import copy
import json
from typing import Any

import pytest
import respx
from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import (
    AudioMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import from_gemini_contents, to_gemini
from llmbridge.openai import to_openai, to_openai_responses
from tests.corpus import AGENT, PNG
from tests.gemini.sending import sent_body, snake
from tests.gemini.test_import import model, user

SIG = base64.b64encode(b"sig").decode()
QUESTION = {"role": "user", "parts": [{"text": "list the files"}]}
# Signed, as to_gemini writes a call of its own tag (an unsigned one gets the bypass value).
CALL = {"function_call": {"name": "ls", "args": {"dir": "/"}, "id": "c1"}, "thought_signature": SIG}


def answered(response: Any) -> list[dict[str, Any]]:
    return [
        QUESTION,
        model(CALL),
        user({"function_response": {"name": "ls", "id": "c1", "response": response}}),
    ]


def imported_result(contents: list[Any]) -> ToolCall:
    messages = from_gemini_contents(contents, agent_name=AGENT, strict_mode=True)
    result = messages[-1]
    assert isinstance(result, ToolCallResultMessage)
    [call] = result.tool_calls
    return call


RESPONSES = {
    "output_text": ({"output": "a.txt"}, "a.txt", False),
    "error_text": ({"error": "denied"}, "denied", True),
    "return_value": ({"return_value": ["a.txt"]}, {"return_value": ["a.txt"]}, False),
    "result_key": ({"result": {"n": 1}}, {"result": {"n": 1}}, False),
    "files_key": ({"files": []}, {"files": []}, False),
    "empty_object": ({}, {}, False),
    "error_not_text_stays_structured": ({"error": {"code": 3}}, {"error": {"code": 3}}, False),
    "output_not_text_stays_structured": ({"output": 42}, {"output": 42}, False),
    "output_and_more": ({"output": "x", "n": 1}, {"output": "x", "n": 1}, False),
}


@pytest.mark.parametrize(("response", "result", "is_error"), RESPONSES.values(), ids=RESPONSES)
def test_every_response_object_imports_as_api_md_19_3_says(
    response: Any, result: Any, is_error: bool
) -> None:
    call = imported_result(answered(response))
    assert (call.result, call.is_error) == (result, is_error)
    assert (call.function_name, call.tool_call_id) == ("ls", "c1")


@pytest.mark.parametrize("response", [r for r, _, _ in RESPONSES.values()], ids=RESPONSES)
async def test_every_response_object_round_trips_exactly_through_the_sdk(
    router: respx.Router, response: Any
) -> None:
    contents = answered(response)
    request = to_gemini(from_gemini_contents(contents, agent_name=AGENT), agent_name=AGENT)
    assert request.contents == contents
    body = await sent_body(router, request)
    assert body["contents"][2]["parts"][0]["function_response"]["response"] == response


def test_a_structured_result_converts_for_every_other_wing() -> None:
    messages = from_gemini_contents(answered({"return_value": ["a.txt"]}), agent_name=AGENT)
    assert to_openai(messages, agent_name=AGENT).messages[2]["content"] == (
        '{"return_value":["a.txt"]}'
    )
    assert to_openai_responses(messages, agent_name=AGENT).messages[2]["output"] == (
        '{"return_value":["a.txt"]}'
    )
    tool_result = to_anthropic(messages, agent_name=AGENT).messages[2]["content"][0]
    assert tool_result["content"] == '{"return_value":["a.txt"]}'


PNG_SAFE = base64.urlsafe_b64encode(PNG).decode()
CAMEL = [
    {
        "role": "user",
        "parts": [{"text": "look"}, {"inlineData": {"mimeType": "image/png", "data": PNG_SAFE}}],
    },
    {
        "role": "model",
        "parts": [
            {"text": "calling", "thoughtSignature": SIG},
            {
                "functionCall": {"name": "ls", "args": {"dir": "/"}, "id": "c1"},
                "thoughtSignature": SIG,
            },
        ],
    },
    {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": "ls",
                    "id": "c1",
                    "response": {"output": "see"},
                    "parts": [{"fileData": {"fileUri": "gs://b/x.png", "mimeType": "image/png"}}],
                }
            }
        ],
    },
]


def test_camel_case_keys_read_as_snake_case_ones() -> None:
    camel = from_gemini_contents(CAMEL, agent_name=AGENT, strict_mode=True)
    snake_case = from_gemini_contents(snake(CAMEL), agent_name=AGENT, strict_mode=True)
    assert camel == snake_case
    assert isinstance(camel[0], Message)
    assert not any(isinstance(message, MessageEnvelope) for message in camel)


def test_camel_case_does_not_touch_user_data() -> None:
    contents = answered({"returnValue": {"mimeType": "x"}})
    assert imported_result(contents).result == {"returnValue": {"mimeType": "x"}}


def test_both_spellings_of_one_field_are_refused() -> None:
    part = {"inlineData": {"mime_type": "image/png", "data": PNG_SAFE}, "inline_data": {}}
    with pytest.raises(InvalidMessageError) as caught:
        from_gemini_contents([user(part)], agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 0


def test_a_url_safe_base64_image_is_accepted_like_audio() -> None:
    png = {"inline_data": {"mime_type": "image/png", "data": PNG_SAFE.rstrip("=")}}
    [image] = from_gemini_contents([user(png)], agent_name=AGENT, strict_mode=True)
    assert image == ImageMessage("user", data=PNG)
    wav = b"RIFF\x24\x00\x00\x00WAVEfmt \xff\xfe"
    audio = {
        "inline_data": {"mime_type": "audio/wav", "data": base64.urlsafe_b64encode(wav).decode()}
    }
    [sound] = from_gemini_contents([user(audio)], agent_name=AGENT, strict_mode=True)
    assert isinstance(sound, AudioMessage)
    assert sound.data == wav


def test_an_sdk_dump_of_a_history_imports() -> None:
    content = types.Content(
        role="user", parts=[types.Part.from_bytes(data=PNG + b"\xfb\xff", mime_type="image/png")]
    )
    dumped = content.model_dump(mode="json", exclude_none=True)
    assert (
        "-" in dumped["parts"][0]["inline_data"]["data"]
        or "_" in dumped["parts"][0]["inline_data"]["data"]
    )
    [image] = from_gemini_contents([dumped], agent_name=AGENT, strict_mode=True)
    assert isinstance(image, ImageMessage)
    assert image.data == PNG + b"\xfb\xff"


NO_IDS = [
    QUESTION,
    model(
        {"function_call": {"name": "weather", "args": {"city": "Paris"}}},
        {"function_call": {"name": "weather", "args": {"city": "Rome"}}},
        {"function_call": {"name": "time", "args": {}}},
    ),
    user(
        {"function_response": {"name": "time", "response": {"output": "14:05"}}},
        {"function_response": {"name": "weather", "response": {"output": "18C"}}},
        {"function_response": {"name": "weather", "response": {"output": "21C"}}},
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_calls_without_ids_are_answered_by_name_in_order(strict_mode: bool) -> None:
    messages = from_gemini_contents(NO_IDS, agent_name=AGENT, strict_mode=strict_mode)
    calls, results = messages[1], messages[2]
    assert isinstance(calls, ToolCallMessage)
    assert isinstance(results, ToolCallResultMessage)
    assert [c.tool_call_id for c in calls.tool_calls] == ["weather_0", "weather_1", "time_2"]
    assert [(r.tool_call_id, r.function_arguments, r.result) for r in results.tool_calls] == [
        ("time_2", "{}", "14:05"),
        ("weather_0", '{"city": "Paris"}', "18C"),
        ("weather_1", '{"city": "Rome"}', "21C"),
    ]
    request = to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)
    # The ids from_gemini gives such calls go on the wire (the API takes them); the rest is
    # the history as it was, responses in call order.
    [sent_calls, sent_responses] = request.contents[1:]
    assert [p["function_call"]["id"] for p in sent_calls["parts"]] == [
        "weather_0",
        "weather_1",
        "time_2",
    ]
    assert [
        (p["function_response"]["name"], p["function_response"]["response"])
        for p in sent_responses["parts"]
    ] == [
        ("weather", {"output": "18C"}),
        ("weather", {"output": "21C"}),
        ("time", {"output": "14:05"}),
    ]


def test_a_response_naming_no_open_call_is_not_paired() -> None:
    contents = [*NO_IDS[:2], user({"function_response": {"name": "other", "response": {}}})]
    with pytest.raises(InvalidMessageError) as caught:
        from_gemini_contents(contents, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 2


SIGNED_EMPTY = {"text": "", "thought_signature": SIG}
ENDS_IN_EMPTY_TEXT = {
    "empty_text": {"text": ""},
    "signed_empty_text": SIGNED_EMPTY,
}


@pytest.mark.parametrize("last", ENDS_IN_EMPTY_TEXT.values(), ids=ENDS_IN_EMPTY_TEXT)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_a_call_turn_ending_in_empty_text_converts_back_exactly(
    last: dict[str, Any], strict_mode: bool
) -> None:
    contents = [
        QUESTION,
        model({"text": "Let me look."}, CALL, last),
        user({"function_response": {"name": "ls", "id": "c1", "response": {"output": "a"}}}),
    ]
    messages = from_gemini_contents(contents, agent_name=AGENT, strict_mode=strict_mode)
    assert [type(m) for m in messages] == [TextMessage, ToolCallMessage, ToolCallResultMessage]
    request = to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)
    assert request.contents == contents


MALFORMED = {
    "a_part_that_is_a_number": [user(5)],
    "a_part_that_is_a_list": [model(["x"])],
    "a_response_id_that_is_a_dict": [
        QUESTION,
        model(CALL),
        user({"function_response": {"name": "ls", "id": {"x": 1}, "response": {}}}),
    ],
    "a_call_id_that_is_a_list": [QUESTION, model({"function_call": {"name": "f", "id": [1]}})],
    "args_that_are_not_json": [
        QUESTION,
        model({"function_call": {"name": "f", "args": {"x": float("nan")}}}),
    ],
    "a_response_that_is_a_string": [
        QUESTION,
        model(CALL),
        user({"function_response": {"name": "ls", "id": "c1", "response": "ok"}}),
    ],
    "a_signature_that_is_a_number": [QUESTION, model({"text": "x", "thought_signature": 1})],
    "a_mime_type_that_is_a_list": [user({"file_data": {"file_uri": "gs://x", "mime_type": []}})],
    "an_inline_image_that_is_empty": [
        user({"inline_data": {"mime_type": "image/png", "data": ""}})
    ],
    "an_inline_image_that_is_not_base64": [
        user({"inline_data": {"mime_type": "image/png", "data": "*"}})
    ],
    "a_structured_result_with_a_nan": [
        QUESTION,
        model(CALL),
        user({"function_response": {"name": "ls", "id": "c1", "response": {"x": float("nan")}}}),
    ],
    "integer_keys": [user({1: "x"})],
}


@pytest.mark.parametrize("contents", MALFORMED.values(), ids=MALFORMED)
def test_malformed_input_raises_naming_its_index_when_strict(contents: list[Any]) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_gemini_contents(contents, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == len(contents) - 1


@pytest.mark.parametrize("contents", MALFORMED.values(), ids=MALFORMED)
def test_malformed_input_becomes_an_envelope_when_lenient(contents: list[Any]) -> None:
    original = copy.deepcopy(contents)
    messages = from_gemini_contents(contents, agent_name=AGENT)
    assert messages[-1] == MessageEnvelope(contents[-1])
    assert json.dumps(contents, default=str) == json.dumps(original, default=str)


@pytest.mark.parametrize("system", [5, {"parts": 5}, [5], {"parts": [{"text": 1}]}])
def test_a_malformed_system_instruction_is_typed(system: Any) -> None:
    with pytest.raises(InvalidMessageError):
        from_gemini_contents(
            [QUESTION], agent_name=AGENT, system_instruction=system, strict_mode=True
        )
    messages = from_gemini_contents([QUESTION], agent_name=AGENT, system_instruction=system)
    assert isinstance(messages[0], MessageEnvelope)


_KEYS = st.sampled_from(
    [
        "role", "parts", "text", "thought", "thought_signature", "thoughtSignature",
        "function_call", "functionCall", "function_response", "functionResponse",
        "inline_data", "inlineData", "file_data", "fileData", "name", "id", "args",
        "response", "output", "error", "mime_type", "mimeType", "data", "file_uri",
        "fileUri", "user", "model",
    ]
)  # fmt: skip
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.sampled_from(["user", "model", "image/png", "audio/wav", "application/pdf", "", "ls"])
    | st.text(max_size=5)
)
JSONISH = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(_KEYS | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(JSONISH, max_size=5), JSONISH | st.none())
def test_any_json_input_gives_typed_errors_only(contents: list[Any], system: Any) -> None:
    messages = from_gemini_contents(contents, agent_name=AGENT, system_instruction=system)
    assert all(isinstance(message, Message) for message in messages)
    with contextlib.suppress(InvalidMessageError):
        from_gemini_contents(
            contents, agent_name=AGENT, system_instruction=system, strict_mode=True
        )
