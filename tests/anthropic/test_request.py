"""to_anthropic: the rules of API.md 4.2 (and the 4.1 From/Role decisions) in both modes."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from llmbridge import (
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
from llmbridge.anthropic import to_anthropic
from tests.anthropic.helpers import (
    assistant,
    convert,
    kinds,
    text,
    tool_result,
    tool_use,
    user,
)
from tests.corpus import AGENT, PNG

OTHER = "critic"
PNG_B64 = base64.b64encode(PNG).decode()
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
GIF = b"GIF89a" + b"\x00" * 16
WEBP = b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 8
THINKING = Reasoning("Let me think.", signature="sig-1", provider="anthropic")
REDACTED = Reasoning("", redacted_data="opaque==", provider="anthropic")
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
RESULT = ToolCall("get_weather", "{}", tool_call_id="call_1", result="sunny")
USE = tool_use("call_1", "get_weather", {"city": "Paris"})


def base64_image(media_type: str, data: bytes) -> dict[str, Any]:
    encoded = base64.b64encode(data).decode()
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": media_type, "data": encoded},
    }


URL_IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}

# Rows whose output is the same in both modes and records no lossy note:
# (messages, expected messages, expected note kinds). Converted with check_pairing=False.
LOSSLESS = [
    pytest.param([TextMessage(Role.USER, "Hi")], [user(text("Hi"))], [], id="user_text_to_user"),
    pytest.param(
        [TextMessage(Role.ASSISTANT, "Hi")],
        [assistant(text("Hi"))],
        [],
        id="assistant_text_without_sender_to_assistant",
    ),
    pytest.param(
        [TextMessage(Role.USER, "Hi", AGENT)],
        [assistant(text("Hi"))],
        [],
        id="text_from_self_is_assistant_whatever_its_role",
    ),
    pytest.param(
        [ImageMessage(Role.USER, "https://example.com/cat.png", detail="high")],
        [user(URL_IMAGE)],
        [(0, "omitted")],  # detail: Anthropic has no such field
        id="image_url_becomes_url_source_never_downloaded",
    ),
    pytest.param(
        [ImageMessage(Role.USER, data=PNG)],
        [user(base64_image("image/png", PNG))],
        [],
        id="image_bytes_become_bare_base64_source",
    ),
    pytest.param(
        [ImageMessage(Role.USER, data=JPEG, media_type="image/png")],
        [user(base64_image("image/jpeg", JPEG))],
        [],
        id="image_media_type_is_the_sniffed_one",
    ),
    pytest.param(
        [ImageMessage(Role.USER, data=GIF), ImageMessage(Role.USER, data=WEBP)],
        [user(base64_image("image/gif", GIF), base64_image("image/webp", WEBP))],
        [(1, "merged")],
        id="gif_and_webp_are_allowed",
    ),
    pytest.param(
        [ImageMessage(Role.USER, f"data:image/jpg;base64,{PNG_B64}")],
        [user(base64_image("image/png", PNG))],
        [],
        id="data_url_loses_its_prefix",
    ),
    pytest.param(
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "a"),
                    ImageMessage(Role.USER, data=PNG),
                    TextMessage(Role.USER, "b"),
                    ImageMessage(Role.USER, "https://example.com/cat.png"),
                ],
            )
        ],
        [user(text("a"), base64_image("image/png", PNG), text("b"), URL_IMAGE)],
        [],
        id="multimodal_keeps_its_order",
    ),
    pytest.param(
        [ToolCallMessage([CALL, ToolCall("get_time", "{}", tool_call_id="call_2")], AGENT)],
        [assistant(USE, tool_use("call_2", "get_time", {}))],
        [],
        id="parallel_tool_calls_stay_in_one_turn_with_real_ids",
    ),
    pytest.param(
        [ToolCallMessage([CALL])],
        [assistant(USE)],
        [],
        id="tool_calls_without_sender_are_the_agents",
    ),
    pytest.param(
        [ToolCallMessage([ToolCall("now", "")], AGENT)],
        [assistant(tool_use("now_0", "now", {}))],
        [],
        id="empty_arguments_become_empty_object_and_missing_id_falls_back",
    ),
    pytest.param(
        [ToolCallMessage([CALL], AGENT, content="")],
        [assistant(USE)],
        [],
        id="empty_tool_call_content_gets_no_text_block_and_no_note",
    ),
    pytest.param(
        [ToolCallMessage([CALL], AGENT, content="Checking.", reasoning=[THINKING])],
        [
            assistant(
                {"type": "thinking", "thinking": "Let me think.", "signature": "sig-1"},
                text("Checking."),
                USE,
            )
        ],
        [],
        id="thinking_then_text_then_tool_use",
    ),
    pytest.param(
        [TextMessage(Role.ASSISTANT, "Answer.", AGENT, reasoning=[REDACTED, THINKING])],
        [
            assistant(
                {"type": "redacted_thinking", "data": "opaque=="},
                {"type": "thinking", "thinking": "Let me think.", "signature": "sig-1"},
                text("Answer."),
            )
        ],
        [],
        id="redacted_thinking_kept_in_order",
    ),
    pytest.param(
        [
            TextMessage(
                Role.ASSISTANT, "Done.", AGENT, reasoning=[Reasoning("x", provider="openai")]
            )
        ],
        [assistant(text("Done."))],
        [(0, "omitted")],
        id="other_providers_reasoning_is_omitted",
    ),
    pytest.param(
        [
            TextMessage(
                Role.ASSISTANT, "Done.", AGENT, reasoning=[Reasoning("x", provider="anthropic")]
            )
        ],
        [assistant(text("Done."))],
        [(0, "omitted")],
        id="unsigned_anthropic_reasoning_is_omitted",
    ),
    pytest.param(
        [ToolCallResultMessage([RESULT, ToolCall("f", "{}", tool_call_id="call_2")])],
        [user(tool_result("call_1", "sunny"))],
        [],
        id="result_none_is_not_sent",
    ),
    pytest.param(
        [
            ToolCallResultMessage(
                [ToolCall("f", "{}", tool_call_id="c", result="boom", is_error=True)]
            )
        ],
        [user(tool_result("c", "boom", is_error=True))],
        [],
        id="is_error_is_forwarded",
    ),
    pytest.param(
        [ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="c", result="", is_error=True)])],
        [user(tool_result("c", "The tool failed without output.", is_error=True))],
        [(0, "repaired")],
        id="empty_error_result_gets_a_short_text",
    ),
    pytest.param(
        [ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="c", result="")])],
        [user(tool_result("c"))],
        [],
        id="empty_ok_result_is_sent_without_content",
    ),
    pytest.param(
        [ToolCallMessage([ToolCall("f", "{}", tool_call_id="functions.f:1")], AGENT)],
        [assistant(tool_use("functions_f_1_d029b1d6", "f", {}))],
        [(0, "repaired")],
        id="id_outside_pattern_is_rewritten_in_the_call",
    ),
    pytest.param(
        [ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="functions.f:1", result="ok")])],
        [user(tool_result("functions_f_1_d029b1d6", "ok"))],
        [(0, "repaired")],
        id="id_outside_pattern_is_rewritten_the_same_in_the_result",
    ),
    pytest.param(
        [
            ToolCallAggregateMessage(
                ToolCallMessage([CALL], AGENT), ToolCallResultMessage([RESULT]), AGENT
            )
        ],
        [assistant(USE), user(tool_result("call_1", "sunny"))],
        [],
        id="aggregate_from_self_is_call_then_results",
    ),
    pytest.param(
        [TextMessage(Role.USER, "a"), TextMessage(Role.USER, "b")],
        [user(text("a"), text("b"))],
        [(1, "merged")],
        id="consecutive_user_turns_are_merged",
    ),
    pytest.param(
        [TextMessage(Role.USER, "look"), ToolCallResultMessage([RESULT])],
        [user(tool_result("call_1", "sunny"), text("look"))],
        [(1, "merged"), (1, "repaired")],
        id="merged_tool_results_move_before_text",
    ),
    pytest.param(
        [
            TextMessage(Role.ASSISTANT, "Checking.", AGENT),
            ToolCallMessage([CALL], AGENT, reasoning=[THINKING]),
        ],
        [
            assistant(
                {"type": "thinking", "thinking": "Let me think.", "signature": "sig-1"},
                text("Checking."),
                USE,
            )
        ],
        [(1, "merged"), (1, "repaired")],
        id="merged_thinking_moves_to_the_front",
    ),
    pytest.param(
        [MessageEnvelope({"role": "user", "content": "raw"}), TextMessage(Role.USER, "b")],
        [user(text("raw"), text("b"))],
        [(1, "merged")],
        id="envelope_of_a_user_dict_merges_with_the_next_user_turn",
    ),
]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("messages", "expected", "note_kinds"), LOSSLESS)
def test_lossless_rules(
    messages: list[Message], expected: list[Any], note_kinds: list[Any], strict: bool
) -> None:
    request = convert(messages, strict=strict, check_pairing=False)

    assert request.messages == expected
    assert request.system == []
    assert kinds(request) == note_kinds


# Rows that lose information: lenient drops with a note, strict raises InvalidMessageError.
# (messages, lenient messages, lenient system, note kinds, strict error field)
LOSSY = [
    pytest.param(
        [TextMessage(Role.ASSISTANT, "I disagree.", OTHER)],
        [user(text("I disagree."))],
        [],
        [(0, "dropped")],
        "from_",
        id="other_agents_name_is_dropped_and_text_becomes_user",
    ),
    pytest.param(
        [ImageMessage(Role.USER, "https://example.com/cat.png", OTHER)],
        [user(URL_IMAGE)],
        [],
        [(0, "dropped")],
        "from_",
        id="other_agents_image_loses_the_name",
    ),
    pytest.param(
        [TextMessage(Role.SYSTEM, "Be brief.", OTHER)],
        [],
        [text("Be brief.")],
        [(0, "dropped")],
        "from_",
        id="system_from_other_agent_loses_the_name",
    ),
    pytest.param(
        [TextMessage(Role.USER, "")],
        [],
        [],
        [(0, "dropped")],
        "content",
        id="empty_text_is_dropped",
    ),
    pytest.param(
        [TextMessage(Role.USER, " \n\t")],
        [],
        [],
        [(0, "dropped")],
        "content",
        id="whitespace_text_is_dropped",
    ),
    pytest.param(
        [TextMessage(Role.SYSTEM, "  ")],
        [],
        [],
        [(0, "dropped")],
        "content",
        id="whitespace_system_block_is_dropped",
    ),
    pytest.param(
        [ToolCallMessage([CALL], AGENT, content="  ")],
        [assistant(USE)],
        [],
        [(0, "dropped")],
        "content",
        id="whitespace_tool_call_content_is_dropped",
    ),
    pytest.param(
        [
            MultiModalMessage(
                Role.USER, [TextMessage(Role.USER, ""), ImageMessage(Role.USER, data=PNG)]
            )
        ],
        [user(base64_image("image/png", PNG))],
        [],
        [(0, "dropped")],
        "content[0]",
        id="empty_text_item_of_multimodal_is_dropped",
    ),
    pytest.param(
        [
            ToolCallAggregateMessage(
                ToolCallMessage([CALL], OTHER), ToolCallResultMessage([RESULT]), OTHER
            )
        ],
        [user(text("sunny"))],
        [],
        [(0, "dropped")],
        "from_",
        id="aggregate_from_other_agent_is_user_text",
    ),
]


@pytest.mark.parametrize(("messages", "expected", "system", "note_kinds", "field"), LOSSY)
def test_lossy_rules_lenient(
    messages: list[Message],
    expected: list[Any],
    system: list[Any],
    note_kinds: list[Any],
    field: str,
) -> None:
    request = convert(messages, check_pairing=False)

    assert request.messages == expected
    assert request.system == system
    assert kinds(request) == note_kinds


@pytest.mark.parametrize(("messages", "expected", "system", "note_kinds", "field"), LOSSY)
def test_lossy_rules_strict_raise(
    messages: list[Message],
    expected: list[Any],
    system: list[Any],
    note_kinds: list[Any],
    field: str,
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT, strict_mode=True, check_pairing=False)

    assert caught.value.index == 0
    assert caught.value.field == field


# Rows that raise InvalidMessageError in both modes: (message, field).
# Valid JSON that no recursive parser reads: json.loads raises RecursionError on it.
DEEP_ARGUMENTS = '{"a":' * 20_000 + "1" + "}" * 20_000

INVALID = [
    pytest.param(TextMessage(Role.TOOL, "x"), "role", id="text_without_sender_and_role_tool"),
    pytest.param(
        ImageMessage(Role.ASSISTANT, "https://example.com/me.png", AGENT),
        "from_",
        id="image_from_self",
    ),
    pytest.param(
        MultiModalMessage(Role.ASSISTANT, [TextMessage(Role.USER, "x")], AGENT),
        "from_",
        id="multimodal_from_self",
    ),
    pytest.param(
        ImageMessage(Role.USER, data=b"BM\x00\x00", media_type="image/bmp"),
        "media_type",
        id="image_media_type_outside_the_four",
    ),
    pytest.param(
        MultiModalMessage(
            Role.USER, [ImageMessage(Role.USER, data=b"II*\x00", media_type="image/tiff")]
        ),
        "content[0].media_type",
        id="multimodal_image_media_type_outside_the_four",
    ),
    pytest.param(ToolCallMessage([CALL], OTHER), "from_", id="tool_calls_from_other_agent"),
    pytest.param(
        ToolCallMessage([CALL, ToolCall("f", "{not json", tool_call_id="c2")], AGENT),
        "tool_calls[1].function_arguments",
        id="invalid_json_arguments",
    ),
    pytest.param(
        ToolCallMessage([ToolCall("f", "[1, 2]", tool_call_id="c")], AGENT),
        "tool_calls[0].function_arguments",
        id="non_object_json_arguments",
    ),
    pytest.param(
        ToolCallMessage([ToolCall("f", '"x"', tool_call_id="c")], AGENT),
        "tool_calls[0].function_arguments",
        id="string_json_arguments",
    ),
    pytest.param(
        ToolCallMessage([CALL, ToolCall("f", DEEP_ARGUMENTS, tool_call_id="c2")], AGENT),
        "tool_calls[1].function_arguments",
        id="arguments_nested_20000_deep",
    ),
]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("message", "field"), INVALID)
def test_invalid_messages_raise_in_both_modes(message: Message, field: str, strict: bool) -> None:
    messages = [TextMessage(Role.USER, "first"), message]

    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT, strict_mode=strict, check_pairing=False)

    assert caught.value.index == 1
    assert caught.value.field == field


UNSUPPORTED = [
    pytest.param(TextMessageUpdate(Role.ASSISTANT, "x", AGENT), id="text_update"),
    pytest.param(ReasoningMessageUpdate("x", AGENT), id="reasoning_update"),
    pytest.param(ToolCallMessageUpdate("f", "{", AGENT), id="tool_call_update"),
    pytest.param(MessageEnvelope("not a dict"), id="envelope_of_non_dict"),
]


@pytest.mark.parametrize("message", UNSUPPORTED)
def test_unsupported_types_dropped_lenient_raise_strict(message: Message) -> None:
    messages = [TextMessage(Role.USER, "hi"), message]

    request = convert(messages)
    assert request.messages == [user(text("hi"))]
    assert kinds(request) == [(1, "dropped")]
    with pytest.raises(UnsupportedMessageError) as caught:
        to_anthropic(messages, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 1


PREFIXED = [
    pytest.param(
        TextMessage(Role.ASSISTANT, "I disagree.", OTHER),
        [user(text("[critic] "), text("I disagree."))],
        [],
        id="text",
    ),
    pytest.param(
        ImageMessage(Role.USER, "https://example.com/cat.png", OTHER),
        [user(text("[critic] "), URL_IMAGE)],
        [],
        id="image_prefix_comes_before_the_image",
    ),
    pytest.param(
        MultiModalMessage(
            Role.USER, [ImageMessage(Role.USER, data=PNG), TextMessage(Role.USER, "x")], OTHER
        ),
        [user(text("[critic] "), base64_image("image/png", PNG), text("x"))],
        [],
        id="multimodal",
    ),
    pytest.param(
        TextMessage(Role.SYSTEM, "Be brief.", OTHER),
        [],
        [text("[critic] "), text("Be brief.")],
        id="system",
    ),
    pytest.param(
        ToolCallAggregateMessage(
            ToolCallMessage([CALL], OTHER), ToolCallResultMessage([RESULT]), OTHER
        ),
        [user(text("[critic] "), text("sunny"))],
        [],
        id="aggregate_from_other_agent",
    ),
]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("message", "expected", "system"), PREFIXED)
def test_prefix_policy_carries_the_name_in_a_text_block(
    message: Message, expected: list[Any], system: list[Any], strict: bool
) -> None:
    request = convert([message], strict=strict, check_pairing=False, name_policy="prefix")

    assert request.messages == expected
    assert request.system == system
    assert kinds(request) == [(0, "repaired")]


def test_prefix_policy_sends_nothing_for_an_empty_message() -> None:
    request = convert(
        [TextMessage(Role.USER, "", OTHER)], check_pairing=False, name_policy="prefix"
    )

    assert request.messages == []
    assert kinds(request) == [(0, "dropped")]


def test_unknown_name_policy_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="name_policy"):
        to_anthropic([TextMessage(Role.USER, "x")], agent_name=AGENT, name_policy="keep")  # type: ignore[arg-type]


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_system_text_is_lifted_in_order_after_the_agents_own(strict: bool) -> None:
    messages = [
        TextMessage(Role.SYSTEM, "one"),
        TextMessage(Role.USER, "hi"),
        TextMessage(Role.SYSTEM, "two", AGENT),
        MessageEnvelope({"role": "system", "content": "three"}),
    ]

    request = convert(messages, strict=strict, system="own")

    assert request.system == [text("own"), text("one"), text("two"), text("three")]
    assert request.messages == [user(text("hi"))]


def test_envelope_of_dict_is_the_same_object() -> None:
    raw = {"role": "user", "content": [text("raw")]}

    request = convert([MessageEnvelope(raw)])

    assert request.messages[0] is raw


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        pytest.param(["a"], ["b"], user(text("a"), text("raw"), text("b")), id="between"),
        pytest.param([], ["b"], user(text("raw"), text("b")), id="opening_the_turn"),
    ],
)
def test_merging_with_a_passed_through_dict_never_changes_it(
    before: list[str], after: list[str], expected: Any
) -> None:
    blocks = [text("raw")]
    raw = {"role": "user", "content": blocks}

    request = convert(
        [
            *(TextMessage(Role.USER, t) for t in before),
            MessageEnvelope(raw),
            *(TextMessage(Role.USER, t) for t in after),
        ],
        check_pairing=False,
    )

    assert request.messages == [expected]
    assert raw == {"role": "user", "content": [text("raw")]}
    assert raw["content"] is blocks


def test_merged_turns_are_new_lists_not_the_first_messages() -> None:
    first = to_anthropic([TextMessage(Role.USER, "a")], agent_name=AGENT)
    merged = to_anthropic(
        [TextMessage(Role.USER, "a"), TextMessage(Role.USER, "b")], agent_name=AGENT
    )

    assert first.messages == [user(text("a"))]
    assert merged.messages == [user(text("a"), text("b"))]


def test_tool_results_then_user_text_merge_in_natural_order() -> None:
    request = convert(
        [
            TextMessage(Role.USER, "weather?"),
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage([RESULT]),
            TextMessage(Role.USER, "and tomorrow?"),
        ]
    )

    assert request.messages == [
        user(text("weather?")),
        assistant(USE),
        user(tool_result("call_1", "sunny"), text("and tomorrow?")),
    ]
    assert kinds(request) == [(3, "merged")]


def test_thinking_turn_round_trips_with_tools() -> None:
    request = convert(
        [
            TextMessage(Role.USER, "weather?"),
            ToolCallMessage([CALL], AGENT, content="Checking.", reasoning=[THINKING]),
            ToolCallResultMessage([RESULT]),
        ]
    )

    assert request.messages[1]["content"][0] == {
        "type": "thinking",
        "thinking": "Let me think.",
        "signature": "sig-1",
    }


def test_rewritten_ids_stay_paired_across_a_request() -> None:
    call = ToolCall("f", "{}", tool_call_id="call|x")
    request = convert(
        [
            TextMessage(Role.USER, "go"),
            ToolCallMessage([call], AGENT),
            ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="call|x", result="ok")]),
        ]
    )

    new_id = request.messages[1]["content"][0]["id"]
    assert new_id != "call|x"
    assert request.messages[2]["content"][0]["tool_use_id"] == new_id
    assert kinds(request) == [(1, "repaired"), (2, "repaired")]


def test_reasoning_of_another_agents_message_is_omitted() -> None:
    message = TextMessage(Role.ASSISTANT, "I think so.", OTHER, reasoning=[THINKING])

    request = convert([message], check_pairing=False, name_policy="prefix", strict=True)

    assert request.messages == [user(text("[critic] "), text("I think so."))]
    assert kinds(request) == [(0, "omitted"), (0, "repaired")]
