"""to_anthropic runs the request-level tool-pairing step of API.md 4.5."""

from __future__ import annotations

import pytest

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    check_tool_pairing,
)
from llmbridge.anthropic import to_anthropic
from tests.anthropic.helpers import assistant, convert, kinds, text, tool_result, tool_use, user
from tests.corpus import AGENT

CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
RESULT = ToolCall("get_weather", "{}", tool_call_id="call_1", result="sunny")
ASK = TextMessage(Role.USER, "weather?")


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_user_text_between_call_and_results_moves_after_the_results(strict: bool) -> None:
    messages = [
        ASK,
        ToolCallMessage([CALL], AGENT),
        TextMessage(Role.USER, "hurry"),
        ToolCallResultMessage([RESULT]),
    ]

    request = convert(messages, strict=strict)

    assert request.messages == [
        user(text("weather?")),
        assistant(tool_use("call_1", "get_weather", {"city": "Paris"})),
        user(tool_result("call_1", "sunny"), text("hurry")),
    ]
    assert kinds(request) == [(2, "repaired"), (2, "merged")]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_repeated_fallback_ids_get_a_suffix(strict: bool) -> None:
    def round_trip() -> list[Message]:
        return [
            ToolCallMessage([ToolCall("now", "")], AGENT),
            ToolCallResultMessage([ToolCall("now", "", result="12:00")]),
        ]

    request = convert(
        [ASK, *round_trip(), TextMessage(Role.USER, "again"), *round_trip()], strict=strict
    )

    ids = [
        block.get("id") or block.get("tool_use_id")
        for message in request.messages
        for block in message["content"]
        if block["type"] in ("tool_use", "tool_result")
    ]
    assert ids == ["now_0", "now_0", "now_0_1", "now_0_1"]
    assert (4, "repaired") in kinds(request)


VIOLATIONS = [
    pytest.param([ASK, ToolCallMessage([CALL], AGENT)], 1, id="call_unanswered_at_the_end"),
    pytest.param(
        [ASK, ToolCallMessage([CALL], AGENT), TextMessage(Role.ASSISTANT, "done", AGENT)],
        1,
        id="call_unanswered_before_the_next_assistant_turn",
    ),
    pytest.param([ASK, ToolCallResultMessage([RESULT])], 1, id="orphan_result"),
    pytest.param(
        [
            ASK,
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage([ToolCall("get_weather", "{}", tool_call_id="call_1")]),
        ],
        1,
        id="a_none_result_does_not_answer",
    ),
]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("messages", "index"), VIOLATIONS)
def test_pairing_violations_raise_at_the_message_at_fault(
    messages: list[Message], index: int, strict: bool
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT, strict_mode=strict)

    assert caught.value.index == index
    with pytest.raises(InvalidMessageError):
        check_tool_pairing(messages, agent_name=AGENT)


def test_single_message_errors_come_before_the_pairing_check() -> None:
    messages = [
        ASK,
        ToolCallMessage([CALL], AGENT),
        ImageMessage(Role.USER, data=b"BM\x00\x00", media_type="image/bmp"),
    ]

    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT)

    assert caught.value.index == 2
    assert caught.value.field == "media_type"


NOTHING_LEFT = [
    pytest.param([TextMessage(Role.SYSTEM, "only system")], id="only_system"),
    pytest.param([TextMessage(Role.SYSTEM, "sys"), TextMessage(Role.USER, "  ")], id="only_blank"),
    pytest.param([], id="no_message"),
]


@pytest.mark.parametrize("messages", NOTHING_LEFT)
def test_no_message_left_raises_with_no_index(messages: list[Message]) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT)

    assert caught.value.index is None


def test_check_pairing_false_converts_fragments() -> None:
    request = convert([ToolCallMessage([CALL], AGENT)], check_pairing=False)

    assert request.messages == [assistant(tool_use("call_1", "get_weather", {"city": "Paris"}))]


def test_notes_name_the_original_index_after_a_move() -> None:
    messages = [
        ASK,
        ToolCallMessage([CALL], AGENT),
        TextMessage(Role.USER, "hurry", "critic"),
        ToolCallResultMessage([RESULT]),
    ]

    request = convert(messages)

    assert (2, "dropped") in kinds(request)
    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 2
