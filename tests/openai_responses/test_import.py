"""from_openai_responses_input: payload import, and the round trip through to_openai_responses."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import from_openai_responses_input, to_openai_responses
from tests.corpus import AGENT, PNG
from tests.openai_responses.wire import check_input
from tests.strategies import odd_texts, valid_conversations

TAG = "openai-responses"
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
FC = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}
OUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
RS = {
    "type": "reasoning",
    "id": "rs_1",
    "summary": [{"type": "summary_text", "text": "A."}, {"type": "summary_text", "text": "B."}],
    "encrypted_content": "enc",
}


def msg(msg_id: str, text: str, phase: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "message", "role": "assistant", "id": msg_id}
    item["status"] = "completed"
    item["content"] = [{"type": "output_text", "text": text, "annotations": []}]
    if phase is not None:
        item["phase"] = phase
    return item


CALL = ToolCall("f", "{}", tool_call_id="call_1", provider_data={TAG: {"id": "fc_1"}})
REASONING = Reasoning(
    "A.\nB.",
    signature="enc",
    provider=TAG,
    provider_data={TAG: {"id": "rs_1", "summary": ["A.", "B."], "before": "fc_1"}},
)

IMPORTS: list[tuple[str, list[dict[str, Any]], list[Message]]] = [
    (
        "system and user text",
        [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}],
        [TextMessage(Role.SYSTEM, "S"), TextMessage(Role.USER, "U")],
    ),
    (
        "a plain assistant text has no sender",
        [{"role": "assistant", "content": "A"}],
        [TextMessage(Role.ASSISTANT, "A")],
    ),
    (
        "an output message is the agent's, its id and phase kept",
        [msg("msg_1", "A", "final_answer")],
        [
            TextMessage(
                Role.ASSISTANT,
                "A",
                AGENT,
                provider_data={TAG: {"id": "msg_1", "phase": "final_answer"}},
            )
        ],
    ),
    (
        "several output messages of one reply are one text",
        [msg("msg_1", "A", "commentary"), msg("msg_2", "B")],
        [
            TextMessage(
                Role.ASSISTANT,
                "AB",
                AGENT,
                provider_data={
                    TAG: {
                        "messages": [
                            {"id": "msg_1", "phase": "commentary", "text": "A"},
                            {"id": "msg_2", "text": "B"},
                        ]
                    }
                },
            )
        ],
    ),
    (
        "two plain assistant texts stay two messages",
        [{"role": "assistant", "content": "A"}, {"role": "assistant", "content": "B"}],
        [TextMessage(Role.ASSISTANT, "A"), TextMessage(Role.ASSISTANT, "B")],
    ),
    (
        "reasoning, text and calls are one turn; outputs one result message",
        [msg("msg_1", "C"), RS, FC, OUT],
        [
            ToolCallMessage(
                [CALL],
                AGENT,
                content="C",
                reasoning=(REASONING,),
                provider_data={TAG: {"id": "msg_1"}},
            ),
            ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="call_1", result="ok")]),
        ],
    ),
    (
        "a user item of parts",
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Look"},
                    {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "low"},
                ],
            }
        ],
        [
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "Look"),
                    ImageMessage(Role.USER, "https://x.test/a.png", detail="low"),
                ],
            )
        ],
    ),
    (
        "a lone image part is an image message",
        [
            {
                "role": "user",
                "content": [{"type": "input_image", "image_url": PNG_URL, "detail": "auto"}],
            }
        ],
        [ImageMessage(Role.USER, PNG_URL, detail="auto")],
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("items", "expected"), [r[1:] for r in IMPORTS], ids=[r[0] for r in IMPORTS]
)
def test_import(items: list[dict[str, Any]], expected: list[Message], strict_mode: bool) -> None:
    check_input(items)
    before = copy.deepcopy(items)
    imported = from_openai_responses_input(items, agent_name=AGENT, strict_mode=strict_mode)
    assert imported == expected
    assert items == before
    assert to_openai_responses(imported, agent_name=AGENT).input == items


UNKNOWN: list[tuple[str, Any, str]] = [
    ("a developer message", {"role": "developer", "content": "D"}, "type"),
    ("an item reference", {"type": "item_reference", "id": "msg_1"}, "type"),
    ("an output answering no call", OUT, "call_id"),
    ("a call with a key llmbridge never reads", {**FC, "color": "red"}, "color"),
    (
        "an output message of two parts",
        {**msg("msg_1", "A"), "content": [msg("m", "A")["content"][0]] * 2},
        "content",
    ),
    (
        "a user file part by file id and url",
        {
            "role": "user",
            "content": [{"type": "input_file", "file_id": "file_1", "file_url": "https://a.b/c"}],
        },
        "content[0]",
    ),
    ("reasoning with no item after it", RS, "type"),
    ("not a dict", "hello", "type"),
]


@pytest.mark.parametrize(("item", "field"), [r[1:] for r in UNKNOWN], ids=[r[0] for r in UNKNOWN])
def test_unknown_items_are_envelopes_or_raise_in_strict_mode(item: Any, field: str) -> None:
    items = [{"role": "user", "content": "U"}, item]
    imported = from_openai_responses_input(items, agent_name=AGENT)
    assert imported == [TextMessage(Role.USER, "U"), MessageEnvelope(item)]
    with pytest.raises(InvalidMessageError) as caught:
        from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)
    assert caught.value.index == 1
    assert caught.value.field == field


# -- the round trip over generated conversations -------------------------------------------

item_ids = st.integers(1, 4)
phases = st.sampled_from([None, "commentary", "final_answer"])


@st.composite
def own_reasoning(draw: st.DrawFn, before: str | None) -> Reasoning:
    data: dict[str, Any] = {"id": f"rs_{draw(item_ids)}"}
    if draw(st.booleans()):
        data["summary"] = draw(st.lists(odd_texts, max_size=2))
    if before is not None and draw(st.booleans()):
        data["before"] = before
    signature = draw(st.sampled_from(["enc", "enc", None]))
    return Reasoning(draw(odd_texts), signature=signature, provider=TAG, provider_data={TAG: data})


@st.composite
def responses_turns(draw: st.DrawFn) -> list[Message]:
    """A reply as the Responses wing records it: ids, phases, reasoning placed by before."""
    text = draw(st.none() | odd_texts)
    data: dict[str, Any] = {}
    if draw(st.booleans()):
        data["id"] = f"msg_{draw(item_ids)}"
    phase = draw(phases)
    if phase is not None:
        data["phase"] = phase
    if text and draw(st.booleans()):
        cut = draw(st.integers(0, len(text)))
        data = {
            "messages": [{"id": "msg_8", "text": text[:cut]}, {"id": "msg_9", "text": text[cut:]}]
        }
    pd = {TAG: data} if data else {}
    if draw(st.booleans()):
        reasoning = draw(st.lists(own_reasoning(data.get("id")), max_size=2))
        return [
            TextMessage(Role.ASSISTANT, text or "x", AGENT, reasoning=reasoning, provider_data=pd)
        ]
    calls = []
    for position in range(draw(st.integers(1, 2))):
        fc = {TAG: {"id": f"fc_{draw(item_ids)}"}} if draw(st.booleans()) else {}
        calls.append(ToolCall("f", "{}", tool_call_id=f"c{position}", provider_data=fc))
    befores = [None, *(call.provider_data.get(TAG, {}).get("id") for call in calls)]
    reasoning = [
        draw(own_reasoning(draw(st.sampled_from(befores)))) for _ in range(draw(st.integers(0, 2)))
    ]
    results = [
        ToolCall("f", "{}", tool_call_id=call.tool_call_id, result=draw(odd_texts))
        for call in calls
    ]
    return [
        ToolCallMessage(calls, AGENT, content=text, reasoning=reasoning, provider_data=pd),
        ToolCallResultMessage(results),
    ]


@st.composite
def responses_conversations(draw: st.DrawFn) -> list[Message]:
    conversation = draw(valid_conversations(envelopes=True))
    for turn in draw(st.lists(responses_turns(), max_size=3)):
        conversation += [*turn, TextMessage(Role.USER, "Next.")]
    return conversation


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversation=responses_conversations(), name_policy=st.sampled_from(["drop", "prefix"]))
def test_round_trip_of_every_produced_input(conversation: list[Message], name_policy: str) -> None:
    payload = to_openai_responses(conversation, agent_name=AGENT, name_policy=name_policy).input  # type: ignore[arg-type]
    check_input(payload)
    before = copy.deepcopy(payload)
    imported = from_openai_responses_input(payload, agent_name=AGENT)
    assert payload == before
    assert to_openai_responses(imported, agent_name=AGENT).input == payload
    assert from_openai_responses_input(payload, agent_name=AGENT, strict_mode=True) == imported


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_a_bare_string_input_is_one_user_message(strict_mode: bool) -> None:
    # The API documents `input` as text or a list of items; iterating the text made one
    # envelope per character (issue 26, defect 10).
    messages = from_openai_responses_input("Say hi", agent_name=AGENT, strict_mode=strict_mode)

    assert messages == [TextMessage(Role.USER, "Say hi")]
    assert to_openai_responses(messages, agent_name=AGENT).input == [
        {"role": "user", "content": "Say hi"}
    ]
