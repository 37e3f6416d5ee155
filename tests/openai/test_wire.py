"""The strict wire validator itself: it accepts what the API accepts and rejects the rest."""

from __future__ import annotations

from typing import Any

import pytest

from tests.openai import wire

CALL = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
VALID: list[dict[str, Any]] = [
    {"role": "developer", "content": "Be brief."},
    {"role": "system", "content": [{"type": "text", "text": "Be kind."}], "name": "boss"},
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Look"},
            {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "low"}},
        ],
        "name": "Zoe_S-1",
    },
    {"role": "assistant", "content": None, "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
    {"role": "assistant", "content": "Done.", "name": "assistant"},
]


def test_a_valid_conversation_passes() -> None:
    wire.check_messages(VALID)


def with_message(position: int, message: dict[str, Any]) -> list[dict[str, Any]]:
    messages = list(VALID)
    messages[position] = message
    return messages


REJECTED = [
    pytest.param([], id="empty_conversation"),
    pytest.param(with_message(0, {"role": "user", "content": "x", "nam": "a"}), id="unknown_key"),
    pytest.param(with_message(0, {"role": "user"}), id="missing_required_content"),
    pytest.param(with_message(0, {"role": "human", "content": "x"}), id="unknown_role"),
    pytest.param(with_message(0, {"role": "user", "content": ("x",)}), id="tuple_instead_of_list"),
    pytest.param(with_message(0, {"role": "user", "content": 3}), id="number_instead_of_text"),
    pytest.param(
        with_message(
            0, {"role": "system", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}
        ),
        id="image_in_system_message",
    ),
    pytest.param(
        with_message(
            5, {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}
        ),
        id="image_in_assistant_message",
    ),
    pytest.param(
        with_message(
            2,
            {
                "role": "user",
                "content": [{"type": "image_url", "image_url": {"url": "u", "detail": "max"}}],
            },
        ),
        id="unknown_image_detail",
    ),
    pytest.param(
        with_message(0, {"role": "user", "content": "x", "name": "Zoë"}), id="name_pattern"
    ),
    pytest.param(
        with_message(0, {"role": "user", "content": "x", "name": "n" * 65}), id="name_too_long"
    ),
    pytest.param(
        with_message(5, {"role": "assistant", "content": None}), id="null_content_without_calls"
    ),
    pytest.param(
        with_message(3, {"role": "assistant", "content": None, "tool_calls": []}),
        id="empty_tool_calls",
    ),
    pytest.param(
        [*VALID[:3], {"role": "assistant", "tool_calls": [{**CALL, "id": "c" * 41}]}, *VALID[4:]],
        id="tool_call_id_too_long",
    ),
    pytest.param(
        [
            *VALID[:3],
            {
                "role": "assistant",
                "tool_calls": [{**CALL, "function": {"name": "a.b", "arguments": ""}}],
            },
            *VALID[4:],
        ],
        id="tool_call_function_name_pattern",
    ),
    pytest.param(
        [
            *VALID[:3],
            {**VALID[3], "tool_calls": [{**CALL, "function": {"name": "f", "arguments": {}}}]},
            *VALID[4:],
        ],
        id="arguments_object_instead_of_string",
    ),
    pytest.param(
        with_message(3, {"role": "user", "content": "x"}), id="tool_message_without_preceding_call"
    ),
    pytest.param([*VALID[:4], VALID[5]], id="call_unanswered_before_next_message"),
    pytest.param(VALID[:4], id="call_unanswered_at_end"),
    pytest.param([*VALID[:5], VALID[4], VALID[5]], id="duplicate_tool_message"),
    pytest.param([*VALID[:5], VALID[3], VALID[4]], id="tool_call_id_reused_in_the_request"),
    pytest.param(
        with_message(4, {"role": "tool", "tool_call_id": "call_1", "content": "ok", "name": "f"}),
        id="name_on_tool_message",
    ),
]


@pytest.mark.parametrize("messages", REJECTED)
def test_invalid_conversation_is_rejected(messages: list[dict[str, Any]]) -> None:
    with pytest.raises(wire.WireError):
        wire.check_messages(messages)


BODY = {"model": "gpt-4o-mini", "messages": VALID[:1]}

BODIES = [
    pytest.param({**BODY, "temprature": 0.1}, id="unknown_top_level_key"),
    pytest.param({**BODY, "temperature": "hot"}, id="wrong_type"),
    pytest.param({**BODY, "max_completion_tokens": True}, id="bool_for_int"),
    pytest.param({"messages": VALID[:1]}, id="missing_model"),
    pytest.param(
        {**BODY, "stream": True, "stream_options": {"include_usage": 1}}, id="stream_options_type"
    ),
    pytest.param(
        {**BODY, "tools": [{"type": "function", "function": {"name": "a b"}}]},
        id="tool_name_pattern",
    ),
    pytest.param({**BODY, "tool_choice": "sometimes"}, id="tool_choice_mode"),
]


@pytest.mark.parametrize("body", BODIES)
def test_invalid_request_body_is_rejected(body: dict[str, Any]) -> None:
    with pytest.raises(wire.WireError):
        wire.check_request_body(body)


def test_a_valid_streaming_body_passes_and_extra_keys_can_be_allowed() -> None:
    body = {
        **BODY,
        "stream": True,
        "stream_options": {"include_usage": True},
        "tools": [
            {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
        ],
        "tool_choice": {"type": "function", "function": {"name": "f"}},
        "stop": ["END"],
        "vendor_setting": 1,
    }

    wire.check_request_body(body, extra_keys=["vendor_setting"])
    with pytest.raises(wire.WireError, match="vendor_setting"):
        wire.check_request_body(body)


FILE_PART = {
    "type": "file",
    "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0="},
}
AUDIO_PART = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}}
IMAGE_PART = {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}


def test_documents_and_audio_in_a_user_message_pass() -> None:
    wire.check_messages(with_message(2, {"role": "user", "content": [FILE_PART, AUDIO_PART]}))


MEDIA_REJECTED = [
    pytest.param(
        with_message(4, {"role": "tool", "tool_call_id": "call_1", "content": [IMAGE_PART]}),
        id="image_in_tool_message",
    ),
    pytest.param(
        with_message(4, {"role": "tool", "tool_call_id": "call_1", "content": [FILE_PART]}),
        id="file_in_tool_message",
    ),
    pytest.param(
        with_message(5, {"role": "assistant", "content": [FILE_PART]}), id="file_in_assistant"
    ),
    pytest.param(
        with_message(0, {"role": "system", "content": [FILE_PART]}), id="file_in_system_message"
    ),
    pytest.param(
        with_message(5, {"role": "assistant", "content": [AUDIO_PART]}),
        id="input_audio_in_assistant",
    ),
    pytest.param(
        with_message(
            2,
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"file_data": FILE_PART["file"]["file_data"]}}
                ],  # type: ignore[index]
            },
        ),
        id="file_data_without_filename",
    ),
    pytest.param(
        with_message(
            2,
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"filename": "a.pdf", "file_data": "https://x/a.pdf"}}
                ],
            },
        ),
        id="file_data_that_is_a_url",
    ),
    pytest.param(
        with_message(
            2,
            {
                "role": "user",
                "content": [{"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}],
            },
        ),
        id="empty_audio_data",
    ),
    pytest.param(
        with_message(
            2,
            {
                "role": "user",
                "content": [
                    {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "ogg"}}
                ],
            },
        ),
        id="audio_format_not_wav_or_mp3",
    ),
]


@pytest.mark.parametrize("messages", MEDIA_REJECTED)
def test_media_the_api_refuses_are_rejected(messages: list[dict[str, Any]]) -> None:
    with pytest.raises(wire.WireError):
        wire.check_messages(messages)
