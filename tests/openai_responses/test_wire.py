"""The strict Responses wire validator itself: every item kind passes, every rule has a breaker."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from llmbridge.testing import (
    openai_response,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
)
from tests.openai_responses import wire
from tests.openai_responses.bodies import (
    ITEMS,
    ORDER,
    ORDER_KINDS,
    TOOL,
    body,
    drop_part_key,
    edit_item,
    replace_input,
    set_key,
    set_part,
)


@pytest.mark.parametrize("kind", list(ITEMS), ids=list(ITEMS))
def test_each_valid_item_kind_passes_on_its_own(kind: str) -> None:
    wire.check_item(copy.deepcopy(ITEMS[kind]))


def test_a_valid_body_with_every_item_kind_passes() -> None:
    kinds = wire.check_request_body(body())

    assert kinds == [ORDER_KINDS.get(name, name) for name in ORDER]


@pytest.mark.parametrize(
    "valid",
    [
        pytest.param({"model": "m", "input": "Hi"}, id="string_input"),
        pytest.param({"model": "m", "input": [ITEMS["user_text"]]}, id="stateful_by_default"),
        pytest.param(
            {"model": "m", "input": [{"type": "item_reference", "id": "msg_1"}], "store": True},
            id="item_reference_when_stored",
        ),
        pytest.param({**body(), "x_extra": 1}, id="extra_body_key_left_out"),
        # Stored (the default) responses take their reasoning items back in input too: the
        # reasoning guide's manual-history loop replays `response.output` as it is.
        pytest.param(body(store=None, include=None), id="replayed_reasoning_when_stored"),
        pytest.param(body(store=True), id="replayed_reasoning_with_store_true"),
    ],
)
def test_other_valid_bodies_pass(valid: dict[str, Any]) -> None:
    wire.check_request_body(valid, extra_keys=["x_extra"])


BROKEN = [
    pytest.param(
        edit_item(
            "assistant_output_message", set_key("content", [{"type": "input_text", "text": "x"}])
        ),
        "R9 input_text in assistant",
        id="R9_assistant_content_is_never_input_text",
    ),
    pytest.param(
        edit_item("assistant_text", set_key("content", [{"type": "input_text", "text": "x"}])),
        "R9 input_text in assistant",
        id="R9_assistant_list_content_is_never_input_text",
    ),
    pytest.param(
        edit_item("user_parts", set_part("type", "output_text", 0)),
        "output_text outside assistant",
        id="output_text_only_in_assistant_items",
    ),
    pytest.param(
        edit_item(
            "function_call_output_parts",
            lambda item: item["output"].__setitem__(0, {"type": "output_text", "text": "x"}),
        ),
        "output_text outside assistant",
        id="output_text_never_in_a_tool_output",
    ),
    pytest.param(
        edit_item("user_parts", drop_part_key("detail", 1)),
        "1.4 rule 2 input_image detail",
        id="input_image_always_has_detail",
    ),
    pytest.param(
        edit_item(
            "function_call_output_parts", lambda item: item["output"][1].__setitem__("detail", None)
        ),
        "1.4 rule 2 input_image detail",
        id="input_image_in_tool_output_has_detail",
    ),
    pytest.param(
        edit_item("user_parts", set_part("image_url", "http://x.test/a.png")),
        "input_image source",
        id="image_url_is_https_or_a_data_url",
    ),
    pytest.param(
        edit_item("user_parts", set_part("file_id", "file_9")),
        "input_image source",
        id="input_image_has_one_source",
    ),
    pytest.param(
        edit_item("user_parts", set_part("file_data", "JVBERi0xLjQ=", 4)),
        "input_file source",
        id="file_data_is_a_data_url",
    ),
    pytest.param(
        edit_item("user_parts", drop_part_key("filename", 4)),
        "input_file source",
        id="file_data_needs_a_filename",
    ),
    pytest.param(
        edit_item("user_parts", set_part("file_id", "file_9", 5)),
        "input_file source",
        id="input_file_has_one_source",
    ),
    pytest.param(
        edit_item("user_text", set_key("name", "Zoe")),
        "1.4 rule 4 no names",
        id="messages_carry_no_name",
    ),
    pytest.param(
        replace_input("function_call", "user_text"),
        "R1 call without output",
        id="R1_every_function_call_gets_an_output_later",
    ),
    pytest.param(
        replace_input("function_call_output_text", "function_call"),
        "R2 output without call",
        id="R2_function_call_output_answers_an_earlier_call",
    ),
    pytest.param(
        edit_item("function_call_output_text", set_key("call_id", "call_9")),
        "R2 output without call",
        id="R2_function_call_output_call_id_matches_a_call",
    ),
    pytest.param(
        edit_item("function_call_output_text", lambda item: item.pop("call_id")),
        "R2 output without call",
        id="R2_function_call_output_has_a_call_id",
    ),
    pytest.param(
        replace_input("user_text", "reasoning"),
        "R3 reasoning without following item",
        id="R3_reasoning_is_not_last",
    ),
    pytest.param(
        replace_input("user_text", "reasoning", "assistant_text"),
        "R3 reasoning without following item",
        id="R3_reasoning_is_followed_by_an_output_message_or_call",
    ),
    pytest.param(
        replace_input("reasoning", "function_call_without_id", "function_call_output_parts"),
        "R3 reasoning without following item",
        id="R3_the_item_after_reasoning_carries_its_id",
    ),
    pytest.param(
        edit_item("function_call", set_key("id", "call_1")),
        "R5 id prefix",
        id="R5_function_call_id_begins_with_fc",
    ),
    pytest.param(
        edit_item("reasoning", set_key("id", "item_1")),
        "R5 id prefix",
        id="R5_reasoning_id_begins_with_rs",
    ),
    pytest.param(
        edit_item("assistant_output_message", set_key("id", "0b8a-uuid")),
        "R5 id prefix",
        id="R5_message_id_begins_with_msg",
    ),
    pytest.param(
        edit_item("function_call", set_key("id", "fc 1")),
        "R6 id characters",
        id="R6_item_id_is_letters_digits_underscore_dash",
    ),
    pytest.param(
        edit_item("reasoning", set_key("id", "")),
        "R6 id characters",
        id="R6_item_id_is_not_empty",
    ),
    pytest.param(
        body(store=True, previous_response_id="resp.1", include=None, input="Hi"),
        "R6 id characters",
        id="R6_previous_response_id_characters",
    ),
    pytest.param(
        body(input=[{"type": "item_reference", "id": "msg_1"}]),
        "R7 unstored id",
        id="R7_store_false_sends_no_item_reference",
    ),
    pytest.param(
        edit_item("reasoning", lambda item: item.pop("encrypted_content")),
        "R7 unstored id",
        id="R7_store_false_reasoning_carries_encrypted_content",
    ),
    pytest.param(
        edit_item("function_call_without_id", set_key("id", "fc_1")),
        "R8 duplicate id",
        id="R8_item_ids_are_unique",
    ),
    pytest.param(
        edit_item("reasoning", lambda item: item.pop("summary")),
        "R10 reasoning summary",
        id="R10_reasoning_has_a_summary",
    ),
    pytest.param(
        body(tools=[{"type": "function", "function": {"name": "add", "parameters": {}}}]),
        "R11 flat tools",
        id="R11_tools_are_flat_not_chat_shaped",
    ),
    pytest.param(
        body(tools=[{k: v for k, v in TOOL.items() if k != "strict"}]),
        "1.4 rule 11 strict explicit",
        id="function_tools_send_strict",
    ),
    pytest.param(
        body(tool_choice={"type": "function", "function": {"name": "add"}}),
        "1.4 rule 11 flat tool_choice",
        id="tool_choice_is_flat",
    ),
    pytest.param(
        body(previous_response_id="resp_1", conversation="conv_1", store=True, input="Hi"),
        "R12 previous_response_id with conversation",
        id="R12_previous_response_id_excludes_conversation",
    ),
    pytest.param(
        body(include=[]),
        "1.4 rule 8 stateless reasoning",
        id="replayed_reasoning_needs_include_encrypted_content",
    ),
    pytest.param(
        {**body(), "messages": []},
        "Chat Completions key",
        id="no_chat_completions_keys",
    ),
    pytest.param(
        body(stop=["\n"]),
        "Chat Completions key",
        id="no_stop_sequences",
    ),
]


@pytest.mark.parametrize(("broken", "rule"), BROKEN)
def test_each_rule_rejects_the_body_breaking_it(broken: dict[str, Any], rule: str) -> None:
    with pytest.raises(wire.WireError, match=re.escape(f"[{rule}]")):
        wire.check_request_body(broken)


SHAPE_ERRORS = [
    pytest.param(
        edit_item("user_text", set_key("role", "human")), "'human' is not one of", id="unknown_role"
    ),
    pytest.param(
        edit_item("function_call", set_key("arguments", {"a": 1})),
        "arguments: expected str",
        id="arguments_are_a_json_string",
    ),
    pytest.param(
        edit_item("function_call", lambda item: item.pop("name")),
        "missing required key 'name'",
        id="call_needs_a_name",
    ),
    pytest.param(
        edit_item("assistant_output_message", lambda item: item.pop("status")),
        "missing required key 'status'",
        id="output_message_needs_status",
    ),
    pytest.param(
        edit_item("assistant_output_message", lambda item: item["content"][0].pop("annotations")),
        "missing required key 'annotations'",
        id="output_text_needs_annotations",
    ),
    pytest.param(
        edit_item("user_parts", set_part("detail", "max")),
        "'max' is not one of",
        id="unknown_image_detail",
    ),
    pytest.param(
        edit_item("user_text", set_key("type", "bogus")),
        "matches no allowed type",
        id="unknown_item_type",
    ),
    pytest.param(
        body(include=["reasoning.everything"]),
        "'reasoning.everything' is not one of",
        id="unknown_include_value",
    ),
    pytest.param(
        body(tools=[{**TOOL, "strict": "no"}]), "strict: expected bool", id="strict_is_a_bool"
    ),
    pytest.param(body(temperature="hot"), "expected float", id="temperature_is_a_number"),
]


@pytest.mark.parametrize(("broken", "problem"), SHAPE_ERRORS)
def test_sdk_shapes_are_enforced(broken: dict[str, Any], problem: str) -> None:
    with pytest.raises(wire.WireError, match=re.escape(problem)):
        wire.check_request_body(broken)


def test_the_output_items_of_a_built_response_replay_as_valid_input() -> None:
    output = openai_response(
        [
            openai_response_reasoning("Look it up.", item_id="rs_9"),
            openai_response_function_call("add", '{"a": 1}', call_id="call_9"),
            openai_response_reasoning(item_id="rs_10"),
            openai_response_message("Done.", item_id="msg_9", phase="final_answer"),
        ]
    )["output"]
    answer = {"type": "function_call_output", "call_id": "call_9", "output": "2"}

    kinds = wire.check_request_body(
        body(input=[ITEMS["user_text"], *output[:2], answer, *output[2:]])
    )

    assert kinds[1:] == [
        "reasoning",
        "function_call",
        "function_call_output",
        "reasoning",
        "output_message",
    ]
