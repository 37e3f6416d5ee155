"""to_openai: every row of API.md 4.1 in both modes, names, notes, and the pairing step of 4.5."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from llmbridge import (
    ConversionNote,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.openai import to_openai
from tests.corpus import AGENT, PNG
from tests.openai.helpers import convert

OTHER = "critic"
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
RESULT = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1", result="sunny")
CALL_PAYLOAD = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
}
DICT = {"role": "developer", "content": "raw"}


def image_part(url: str, detail: str | None = None) -> dict[str, Any]:
    image_url: dict[str, Any] = {"url": url}
    if detail is not None:
        image_url["detail"] = detail
    return {"type": "image_url", "image_url": image_url}


# (message, expected payloads) for rows that convert the same way in both modes.
CONVERTING = [
    pytest.param(MessageEnvelope(DICT), [DICT], id="envelope_of_dict_passes_through"),
    pytest.param(
        TextMessage(Role.SYSTEM, "Be kind."),
        [{"role": "system", "content": "Be kind."}],
        id="system_text_without_sender_has_no_name",
    ),
    pytest.param(
        TextMessage(Role.SYSTEM, "Be kind.", OTHER),
        [{"role": "system", "content": "Be kind.", "name": OTHER}],
        id="system_text_from_other_agent_keeps_its_name",
    ),
    pytest.param(
        TextMessage(Role.SYSTEM, "Be kind.", AGENT),
        [{"role": "system", "content": "Be kind.", "name": AGENT}],
        id="system_text_from_self_stays_system",
    ),
    pytest.param(
        TextMessage(Role.ASSISTANT, "Hi.", AGENT),
        [{"role": "assistant", "content": "Hi.", "name": AGENT}],
        id="text_from_self_is_named_assistant",
    ),
    pytest.param(
        TextMessage(Role.USER, "Hi.", AGENT),
        [{"role": "assistant", "content": "Hi.", "name": AGENT}],
        id="text_from_self_with_user_role_is_still_assistant",
    ),
    pytest.param(
        TextMessage(Role.USER, "Hi."),
        [{"role": "user", "content": "Hi."}],
        id="user_text_without_sender_has_no_name",
    ),
    pytest.param(
        TextMessage(Role.ASSISTANT, "Hi."),
        [{"role": "assistant", "content": "Hi."}],
        id="assistant_text_without_sender_has_no_name",
    ),
    pytest.param(
        TextMessage(Role.ASSISTANT, "No.", OTHER),
        [{"role": "user", "content": "No.", "name": OTHER}],
        id="text_from_other_agent_is_named_user",
    ),
    pytest.param(
        TextMessage(Role.USER, ""),
        [{"role": "user", "content": ""}],
        id="empty_text_is_sent_as_is",
    ),
    pytest.param(
        ImageMessage(Role.USER, "https://x.test/a.png", detail="low"),
        [{"role": "user", "content": [image_part("https://x.test/a.png", "low")]}],
        id="image_url_keeps_detail",
    ),
    pytest.param(
        ImageMessage(Role.ASSISTANT, data=PNG, from_=OTHER),
        [{"role": "user", "content": [image_part(PNG_URL)], "name": OTHER}],
        id="image_bytes_from_other_agent_become_a_named_user_data_url",
    ),
    pytest.param(
        ImageMessage(Role.USER, "data:image/jpg;base64," + base64.b64encode(PNG).decode()),
        [{"role": "user", "content": [image_part(PNG_URL)]}],
        id="image_data_url_is_resent_with_its_sniffed_type",
    ),
    pytest.param(
        MultiModalMessage(
            Role.ASSISTANT,
            [TextMessage(Role.USER, "Look"), ImageMessage(Role.USER, data=PNG, detail="high")],
            OTHER,
        ),
        [
            {
                "role": "user",
                "content": [{"type": "text", "text": "Look"}, image_part(PNG_URL, "high")],
                "name": OTHER,
            }
        ],
        id="multimodal_from_other_agent_is_one_named_user_message_in_order",
    ),
    pytest.param(
        MultiModalMessage(Role.USER, [ImageMessage(Role.USER, "https://x.test/a.png")]),
        [{"role": "user", "content": [image_part("https://x.test/a.png")]}],
        id="multimodal_without_sender_has_no_name",
    ),
    pytest.param(
        ToolCallMessage([CALL], AGENT),
        [{"role": "assistant", "content": None, "tool_calls": [CALL_PAYLOAD]}],
        id="tool_calls_from_self_have_no_name_and_null_content",
    ),
    pytest.param(
        ToolCallMessage([CALL], content="Checking."),
        [{"role": "assistant", "content": "Checking.", "tool_calls": [CALL_PAYLOAD]}],
        id="tool_calls_without_sender_keep_their_text",
    ),
    pytest.param(
        ToolCallMessage([CALL], AGENT, content=""),
        [{"role": "assistant", "content": None, "tool_calls": [CALL_PAYLOAD]}],
        id="tool_calls_with_empty_text_send_null_content",
    ),
    pytest.param(
        ToolCallMessage([ToolCall("now", ""), ToolCall("now", "{}")], AGENT),
        [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "now_0",
                        "type": "function",
                        "function": {"name": "now", "arguments": ""},
                    },
                    {
                        "id": "now_1",
                        "type": "function",
                        "function": {"name": "now", "arguments": "{}"},
                    },
                ],
            }
        ],
        id="tool_calls_without_ids_get_name_and_position",
    ),
    pytest.param(
        ToolCallResultMessage([RESULT], OTHER),
        [{"role": "tool", "tool_call_id": "call_1", "content": "sunny"}],
        id="tool_results_from_anyone_are_tool_messages",
    ),
    pytest.param(
        ToolCallResultMessage(
            [ToolCall("now", "", result=None), ToolCall("now", "", result="12:00")]
        ),
        [{"role": "tool", "tool_call_id": "now_1", "content": "12:00"}],
        id="tool_results_skip_missing_results_and_keep_original_positions",
    ),
    pytest.param(
        ToolCallAggregateMessage(ToolCallMessage([CALL]), ToolCallResultMessage([RESULT]), AGENT),
        [
            {"role": "assistant", "content": None, "tool_calls": [CALL_PAYLOAD]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
        id="aggregate_from_self_is_calls_then_results",
    ),
    pytest.param(
        ToolCallAggregateMessage(ToolCallMessage([CALL]), ToolCallResultMessage([RESULT])),
        [
            {"role": "assistant", "content": None, "tool_calls": [CALL_PAYLOAD]},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
        id="aggregate_without_sender_is_calls_then_results",
    ),
    pytest.param(
        ToolCallAggregateMessage(
            ToolCallMessage([CALL, CALL]),
            ToolCallResultMessage([RESULT, ToolCall("f", "", result=None), RESULT]),
            OTHER,
        ),
        [
            {"role": "user", "content": "sunny", "name": OTHER},
            {"role": "user", "content": "sunny", "name": OTHER},
        ],
        id="aggregate_from_other_agent_is_one_named_user_message_per_result",
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("message", "expected"), CONVERTING)
def test_row_converts_the_same_in_both_modes(
    message: Message, expected: list[dict[str, Any]], strict_mode: bool
) -> None:
    request = convert([message], strict_mode=strict_mode, check_pairing=False)

    assert request.messages == expected
    assert request.notes == ()
    assert request.indices == (0,) * len(expected)


def test_envelope_of_dict_is_the_same_object() -> None:
    request = convert([MessageEnvelope(DICT)], check_pairing=False)

    assert request.messages[0] is DICT


INVALID = [
    pytest.param(TextMessage(Role.TOOL, "x"), "role", id="text_without_sender_and_tool_role"),
    pytest.param(TextMessage("critic", "x"), "role", id="text_without_sender_and_custom_role"),
    pytest.param(
        ImageMessage(Role.USER, "https://x.test/a.png", AGENT), "from_", id="image_from_self"
    ),
    pytest.param(
        MultiModalMessage(Role.ASSISTANT, [TextMessage(Role.USER, "x")], AGENT),
        "from_",
        id="multimodal_from_self",
    ),
    pytest.param(ToolCallMessage([CALL], OTHER), "from_", id="tool_calls_from_other_agent"),
    pytest.param(ToolCallMessage([], AGENT), "tool_calls", id="tool_call_message_without_calls"),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("message", "field"), INVALID)
def test_rule_breaking_message_raises_in_both_modes(
    message: Message, field: str, strict_mode: bool
) -> None:
    leading = TextMessage(Role.USER, "first")

    with pytest.raises(InvalidMessageError) as caught:
        to_openai(
            [leading, message], agent_name=AGENT, strict_mode=strict_mode, check_pairing=False
        )

    assert caught.value.index == 1
    assert caught.value.field == field


UNSUPPORTED = [
    pytest.param(MessageEnvelope("plain text"), id="envelope_of_a_string"),
    pytest.param(MessageEnvelope([DICT]), id="envelope_of_a_list"),
    pytest.param(TextMessageUpdate(Role.ASSISTANT, "par"), id="text_update"),
    pytest.param(ReasoningMessageUpdate("hmm"), id="reasoning_update"),
    pytest.param(ToolCallMessageUpdate("f", "{"), id="tool_call_update"),
]


@pytest.mark.parametrize("message", UNSUPPORTED)
def test_unsupported_message_is_dropped_with_a_note_when_lenient(message: Message) -> None:
    request = convert([TextMessage(Role.USER, "hi"), message], check_pairing=False)

    assert request.messages == [{"role": "user", "content": "hi"}]
    assert [(n.index, n.kind) for n in request.notes] == [(1, "dropped")]


@pytest.mark.parametrize("message", UNSUPPORTED)
def test_unsupported_message_raises_when_strict(message: Message) -> None:
    with pytest.raises(UnsupportedMessageError) as caught:
        to_openai([message], agent_name=AGENT, strict_mode=True, check_pairing=False)

    assert caught.value.index == 0


class Custom(Message):
    """A message type no connector knows."""

    __slots__ = ("from_",)

    def __init__(self) -> None:
        self.from_ = None


def test_unknown_message_type_goes_through_the_lenient_strict_decision() -> None:
    assert [n.kind for n in convert([Custom()], check_pairing=False).notes] == ["dropped"]
    with pytest.raises(UnsupportedMessageError):
        to_openai([Custom()], agent_name=AGENT, strict_mode=True, check_pairing=False)


def test_subclass_of_a_neutral_type_converts_as_its_base() -> None:
    class Shout(TextMessage):
        __slots__ = ()

    request = convert([Shout(Role.USER, "HI")], check_pairing=False)

    assert request.messages == [{"role": "user", "content": "HI"}]


NAMED = [
    pytest.param(TextMessage(Role.USER, "x", "Zoë Smith"), id="text_from_other_agent"),
    pytest.param(TextMessage(Role.SYSTEM, "x", "sys.admin"), id="system_text"),
    pytest.param(ImageMessage(Role.USER, "https://x.test/a.png", "a b"), id="image"),
    pytest.param(
        ToolCallAggregateMessage(ToolCallMessage([CALL]), ToolCallResultMessage([RESULT]), "a/b"),
        id="aggregate_from_other_agent",
    ),
    pytest.param(TextMessage(Role.USER, "x", "n" * 65), id="name_longer_than_64"),
]


@pytest.mark.parametrize("message", NAMED)
def test_invalid_name_is_sanitized_with_a_renamed_note_when_lenient(message: Message) -> None:
    request = convert([message], check_pairing=False)

    names = {payload["name"] for payload in request.messages}  # type: ignore[typeddict-item]
    assert len(names) == 1
    assert names != {message.from_}
    assert [(n.index, n.kind) for n in request.notes] == [(0, "renamed")] * len(request.messages)


@pytest.mark.parametrize("message", NAMED)
def test_invalid_name_raises_when_strict(message: Message) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_openai([message], agent_name=AGENT, strict_mode=True, check_pairing=False)

    assert (caught.value.index, caught.value.field) == (0, "from_")


def test_sanitized_names_are_deterministic_and_keep_different_senders_apart() -> None:
    messages = [TextMessage(Role.USER, "x", "a.b"), TextMessage(Role.USER, "x", "a b")]

    first = convert(messages, check_pairing=False).messages
    second = convert(messages, check_pairing=False).messages

    assert first == second
    assert first[0]["name"] != first[1]["name"]  # type: ignore[typeddict-item]


def test_invalid_agent_name_is_sanitized_on_its_own_text() -> None:
    request = convert([TextMessage(Role.ASSISTANT, "x", "my agent")], agent_name="my agent")

    assert request.messages[0]["role"] == "assistant"
    assert [n.kind for n in request.notes] == ["renamed"]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            TextMessage(Role.ASSISTANT, "Done.", AGENT, reasoning=[Reasoning("t", provider="x")]),
            id="text",
        ),
        pytest.param(
            ToolCallMessage([CALL], AGENT, reasoning=[Reasoning("t", signature="s")]),
            id="tool_calls",
        ),
    ],
)
def test_reasoning_is_omitted_with_a_note_in_both_modes(
    message: Message, strict_mode: bool
) -> None:
    request = convert([message], strict_mode=strict_mode, check_pairing=False)

    assert "reasoning" not in str(request.messages)
    assert [(n.index, n.kind) for n in request.notes] == [(0, "omitted")]


# --- the request-level pairing step (4.5) ---


def calls(*ids: str) -> ToolCallMessage:
    return ToolCallMessage([ToolCall("f", "{}", tool_call_id=i) for i in ids], AGENT)


def results(*ids: str) -> ToolCallResultMessage:
    return ToolCallResultMessage([ToolCall("f", "{}", tool_call_id=i, result="ok") for i in ids])


def test_user_text_between_call_and_results_is_moved_after_them() -> None:
    messages = [
        TextMessage(Role.USER, "go"),
        calls("a"),
        TextMessage(Role.USER, "hurry"),
        results("a"),
    ]

    request = convert(messages)

    assert [m["role"] for m in request.messages] == ["user", "assistant", "tool", "user"]
    assert request.indices == (0, 1, 3, 2)
    assert [(n.index, n.kind) for n in request.notes] == [(2, "repaired")]


def test_fallback_ids_repeated_across_rounds_are_made_unique() -> None:
    messages = [
        TextMessage(Role.USER, "time?"),
        ToolCallMessage([ToolCall("now", "")], AGENT),
        ToolCallResultMessage([ToolCall("now", "", result="12:00")]),
        TextMessage(Role.USER, "again?"),
        ToolCallMessage([ToolCall("now", "")], AGENT),
        ToolCallResultMessage([ToolCall("now", "", result="12:01")]),
    ]

    request = convert(messages)

    ids = [
        m.get("tool_call_id") or m.get("tool_calls", [{}])[0].get("id") for m in request.messages
    ]
    assert ids[1:3] == ["now_0", "now_0"]
    assert ids[4:6] == ["now_0_1", "now_0_1"]
    assert [(n.index, n.kind) for n in request.notes] == [(4, "repaired")]


def test_ids_longer_than_40_are_shortened_in_call_and_result() -> None:
    long_id = "call_" + "x" * 60

    request = convert([TextMessage(Role.USER, "go"), calls(long_id), results(long_id)])

    call_id = request.messages[1]["tool_calls"][0]["id"]  # type: ignore[typeddict-item]
    assert len(call_id) <= 40
    assert request.messages[2]["tool_call_id"] == call_id  # type: ignore[typeddict-item]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("messages", "index"),
    [
        pytest.param([TextMessage(Role.USER, "go"), calls("a")], 1, id="call_unanswered_at_end"),
        pytest.param(
            [calls("a", "b"), results("a"), TextMessage(Role.ASSISTANT, "done", AGENT)],
            0,
            id="call_partly_answered_before_assistant_turn",
        ),
        pytest.param([TextMessage(Role.USER, "go"), results("a")], 1, id="orphan_result"),
        pytest.param([calls("a"), results("b")], 1, id="result_for_another_call"),
        pytest.param(
            [calls("a"), ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="a")])],
            0,
            id="result_without_a_value_does_not_answer",
        ),
    ],
)
def test_pairing_violation_raises_at_the_message_at_fault(
    messages: list[Message], index: int, strict_mode: bool
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_openai(messages, agent_name=AGENT, strict_mode=strict_mode)

    assert caught.value.index == index


def test_single_message_errors_come_before_pairing_errors() -> None:
    messages = [calls("a"), TextMessage(Role.USER, "x"), TextMessage(Role.TOOL, "bad")]

    with pytest.raises(InvalidMessageError) as caught:
        to_openai(messages, agent_name=AGENT)

    assert caught.value.index == 2


def test_pairing_step_is_off_with_check_pairing_false() -> None:
    request = convert([results("a")], check_pairing=False)

    assert request.messages == [{"role": "tool", "tool_call_id": "a", "content": "ok"}]


@pytest.mark.parametrize(
    "messages",
    [
        pytest.param([], id="empty"),
        pytest.param([TextMessageUpdate(Role.USER, "x")], id="all_dropped"),
    ],
)
def test_request_with_no_message_left_raises_without_index(messages: list[Message]) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_openai(messages, agent_name=AGENT)

    assert caught.value.index is None


def test_notes_of_repairs_and_conversion_are_in_message_order() -> None:
    messages = [
        TextMessage(Role.USER, "go", "Dr. Who"),
        calls("a"),
        TextMessage(Role.USER, "hurry", "Dr. Who"),
        results("a"),
    ]

    notes = convert(messages).notes

    assert [(n.index, n.kind) for n in notes] == [(0, "renamed"), (2, "repaired"), (2, "renamed")]
    assert all(isinstance(note, ConversionNote) for note in notes)


def test_conversion_never_mutates_its_input() -> None:
    raw = {"role": "user", "content": "raw"}
    messages = [
        MessageEnvelope(raw),
        calls("a"),
        TextMessage(Role.USER, "hurry"),
        results("a"),
        ToolCallMessage([ToolCall("now", "")], AGENT),
        ToolCallResultMessage([ToolCall("now", "", result="1")]),
    ]
    before = list(messages)

    convert(messages)

    assert messages == before
    assert raw == {"role": "user", "content": "raw"}


def test_image_is_base64_encoded_once_across_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    import llmbridge._messages._media as messages_module

    encoded: list[bytes] = []
    real = messages_module.base64.b64encode

    def counting(data: bytes) -> bytes:
        encoded.append(data)
        return real(data)

    monkeypatch.setattr(messages_module.base64, "b64encode", counting)
    image = ImageMessage(Role.USER, data=PNG)

    first = convert([image]).messages
    second = convert([image]).messages

    assert first == second
    assert encoded == [PNG]
