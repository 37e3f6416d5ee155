"""from_gemini_contents: Gemini request history -> neutral messages, and the round trip."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest
from hypothesis import given, settings

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
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
from llmbridge.gemini import SKIP_THOUGHT_SIGNATURE, from_gemini_contents, to_gemini
from tests.corpus import AGENT, CORPUS, PNG
from tests.gemini import wire
from tests.gemini.test_request import RULES
from tests.strategies import conversations, valid_conversations

SIG = base64.b64encode(b"sig").decode()
PNG_B64 = base64.b64encode(PNG).decode()
CALL_A = {"function_call": {"name": "a", "args": {"x": 1}, "id": "a1"}, "thought_signature": SIG}
CALL_B = {"function_call": {"name": "b", "args": {}, "id": "b1"}}
ANSWER_A = {"function_response": {"name": "a", "id": "a1", "response": {"output": "A"}}}
ANSWER_B = {"function_response": {"name": "b", "id": "b1", "response": {"error": "B"}}}
A = ToolCall(
    "a", '{"x": 1}', tool_call_id="a1", provider_data={"gemini": {"thought_signature": SIG}}
)
B = ToolCall("b", "{}", tool_call_id="b1")


def user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": [p if isinstance(p, dict) else {"text": p} for p in parts]}


def model(*parts: Any) -> dict[str, Any]:
    return {"role": "model", "parts": [p if isinstance(p, dict) else {"text": p} for p in parts]}


@pytest.mark.parametrize(
    ("contents", "expected"),
    [
        pytest.param([user("Hi")], [TextMessage(Role.USER, "Hi")], id="user text"),
        pytest.param(
            [user("Hi"), model("Hello"), user("More")],
            [
                TextMessage(Role.USER, "Hi"),
                TextMessage(Role.ASSISTANT, "Hello", AGENT),
                TextMessage(Role.USER, "More"),
            ],
            id="a model turn comes from the agent",
        ),
        pytest.param(
            [user("Hi"), model(CALL_A), model(CALL_B), user(ANSWER_A, ANSWER_B)],
            [
                TextMessage(Role.USER, "Hi"),
                ToolCallMessage([A, B], AGENT),
                ToolCallResultMessage(
                    [
                        ToolCall("a", '{"x": 1}', tool_call_id="a1", result="A"),
                        ToolCall("b", "{}", tool_call_id="b1", result="B", is_error=True),
                    ]
                ),
            ],
            id="consecutive model contents merge into one call turn; error responses",
        ),
        pytest.param(
            [
                user("Hi"),
                model(
                    {"text": "plan", "thought": True, "thought_signature": SIG},
                    {"text": "Let me check.", "thought_signature": SIG},
                    CALL_B,
                ),
                user(ANSWER_B),
            ],
            [
                TextMessage(Role.USER, "Hi"),
                ToolCallMessage(
                    [B],
                    AGENT,
                    content="Let me check.",
                    reasoning=[Reasoning("plan", signature=SIG, provider="gemini")],
                    provider_data={"gemini": {"thought_signature": SIG}},
                ),
                ToolCallResultMessage(
                    [ToolCall("b", "{}", tool_call_id="b1", result="B", is_error=True)]
                ),
            ],
            id="thoughts, a signed text and calls are one tool-call message",
        ),
        pytest.param(
            [
                user(
                    "look",
                    {"inline_data": {"mime_type": "image/png", "data": PNG_B64}},
                    {"file_data": {"file_uri": "gs://b/c.png", "mime_type": "image/png"}},
                )
            ],
            [
                MultiModalMessage(
                    Role.USER,
                    [
                        TextMessage(Role.USER, "look"),
                        ImageMessage(Role.USER, data=PNG),
                        ImageMessage(Role.USER, "gs://b/c.png", media_type="image/png"),
                    ],
                )
            ],
            id="user text and images are one multimodal message",
        ),
        pytest.param(
            [user({"text": "x", "video_metadata": {}})],
            [MessageEnvelope(user({"text": "x", "video_metadata": {}}))],
            id="an unknown part keeps its content as an envelope",
        ),
        pytest.param(
            [user("Hi"), user(ANSWER_A)],
            [TextMessage(Role.USER, "Hi"), MessageEnvelope(user(ANSWER_A))],
            id="a response answering no earlier call is an envelope",
        ),
    ],
)
def test_import_rules(contents: list[Any], expected: list[Message]) -> None:
    assert from_gemini_contents(contents, agent_name=AGENT) == expected


@pytest.mark.parametrize(
    ("content", "field"),
    [
        pytest.param(user({"text": "x", "video_metadata": {}}), "parts[0]", id="unknown part key"),
        pytest.param({"role": "tool", "parts": [{"text": "x"}]}, "role", id="unknown role"),
        pytest.param(user(ANSWER_A), "function_response", id="orphan response"),
        pytest.param({"role": "user", "parts": []}, "parts", id="no parts"),
    ],
)
def test_an_unmappable_content_raises_naming_its_index_when_strict(
    content: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        from_gemini_contents([user("a"), content], agent_name=AGENT, strict_mode=True)
    assert (caught.value.index, caught.value.field) == (1, field)


@pytest.mark.parametrize(
    "system",
    [
        pytest.param("Be brief.", id="text"),
        pytest.param({"parts": [{"text": "Be brief."}]}, id="a content"),
        pytest.param([{"text": "Be brief."}], id="a list of parts"),
    ],
)
def test_the_system_instruction_becomes_system_messages_first(system: Any) -> None:
    imported = from_gemini_contents([user("Hi")], agent_name=AGENT, system_instruction=system)
    assert imported == [TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "Hi")]


def test_an_unknown_system_part_raises_when_strict_and_is_kept_when_lenient() -> None:
    part = {"inline_data": {"mime_type": "image/png", "data": PNG_B64}}
    with pytest.raises(InvalidMessageError) as caught:
        from_gemini_contents([], agent_name=AGENT, system_instruction=[part], strict_mode=True)
    assert (caught.value.index, caught.value.field) == (None, "system_instruction[0]")
    imported = from_gemini_contents([], agent_name=AGENT, system_instruction=[part])
    assert imported == [MessageEnvelope({"role": "system", "parts": [part]})]


def _round_trip(messages: list[Message], **options: Any) -> None:
    try:
        request = to_gemini(messages, agent_name=AGENT, **options)
    except LLMBridgeError:
        return  # conversations to_gemini refuses produce no payload to import
    payload = (request.contents, request.system_instruction)
    body: dict[str, Any] = {"contents": request.contents}
    if request.system_instruction:
        body["system_instruction"] = {"parts": request.system_instruction}
    wire.check_request_body(body, require_signatures=True)
    before = copy.deepcopy(payload)
    imported = from_gemini_contents(
        request.contents,
        agent_name=AGENT,
        system_instruction=request.system_instruction,
        provider=options.get("provider", "gemini"),
    )
    assert payload == before, "the import mutated its input"
    if not any(isinstance(message, MessageEnvelope) for message in messages):
        strict = from_gemini_contents(
            request.contents,
            agent_name=AGENT,
            system_instruction=request.system_instruction,
            strict_mode=True,
            provider=options.get("provider", "gemini"),
        )
        assert strict == imported
    # The agent's own system text is imported as a SYSTEM message: not passed again.
    again_options = {key: value for key, value in options.items() if key != "system"}
    again = to_gemini(imported, agent_name=AGENT, **again_options)
    assert (again.contents, again.system_instruction) == payload


@pytest.mark.parametrize("case", list(RULES.values()), ids=list(RULES))
def test_every_rule_payload_round_trips(case: Any) -> None:
    _round_trip(case.messages, **case.kwargs)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_round_trips_through_the_import(name: str) -> None:
    _round_trip([TextMessage(Role.USER, "Start."), CORPUS[name], TextMessage(Role.USER, "End.")])


def test_the_bypass_value_round_trips_as_the_call_signature() -> None:
    messages = [
        TextMessage(Role.USER, "Hi"),
        ToolCallMessage([B], AGENT),
        ToolCallResultMessage([ToolCall("b", "", tool_call_id="b1", result="B")]),
    ]
    request = to_gemini(messages, agent_name=AGENT)
    imported = from_gemini_contents(request.contents, agent_name=AGENT)
    call = imported[1].get_tool_calls()[0]  # type: ignore[index]
    assert call.provider_data == {"gemini": {"thought_signature": SKIP_THOUGHT_SIGNATURE}}
    assert to_gemini(imported, agent_name=AGENT).notes == ()


@settings(max_examples=80)
@given(messages=conversations(envelopes=True))
def test_every_payload_to_gemini_produces_round_trips(messages: list[Message]) -> None:
    _round_trip([*messages, TextMessage(Role.USER, "End.")])


@settings(max_examples=60)
@given(messages=valid_conversations(envelopes=True))
def test_every_valid_conversation_round_trips(messages: list[Message]) -> None:
    _round_trip([*messages, TextMessage(Role.USER, "End.")])
