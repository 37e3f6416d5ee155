"""Properties of to_anthropic over generated conversations: valid wire shape, no mutation,
determinism, and strict mode agreeing with lenient mode exactly when nothing is lost."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    LLMBridgeError,
    Message,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import to_anthropic
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT, PNG

SENDERS = st.sampled_from([None, AGENT, "critic", "Dr. Who?"])
TEXTS = st.one_of(st.sampled_from(["", " ", "\n\t"]), st.text(min_size=1, max_size=12))
NAMES = st.sampled_from(["get_weather", "now", "search-web"])
IDS = st.one_of(st.none(), st.sampled_from(["call_1", "call_1", "toolu_X", "fn.a:1", "a b", "x|y"]))
ARGS = st.sampled_from(["", "{}", '{"a": 1}', '{"q": "paris", "n": [1, 2]}'])
REASONING = st.lists(
    st.one_of(
        st.builds(Reasoning, TEXTS, signature=st.just("sig"), provider=st.just("anthropic")),
        st.builds(
            Reasoning, st.just(""), redacted_data=st.just("opaque"), provider=st.just("anthropic")
        ),
        st.builds(Reasoning, TEXTS, provider=st.sampled_from(["openai", None])),
    ),
    max_size=2,
)
# Mostly answered; now and then a call left without result (the pairing step must raise).
RESULTS = st.one_of(TEXTS, TEXTS, TEXTS, TEXTS, st.none())
IMAGES = st.one_of(
    st.just(ImageMessage(Role.USER, "https://example.com/a.png")),
    st.just(ImageMessage(Role.USER, data=PNG)),
)


@st.composite
def tool_round(draw: st.DrawFn) -> list[Message]:
    """A call message from the agent, then its results, sometimes interrupted by user text."""
    calls = draw(
        st.lists(st.builds(ToolCall, NAMES, ARGS, tool_call_id=IDS), min_size=1, max_size=3)
    )
    call_message = ToolCallMessage(
        calls,
        draw(st.sampled_from([AGENT, None])),
        content=draw(st.none() | TEXTS),
        reasoning=draw(REASONING),
    )
    results = [
        ToolCall(
            call.function_name,
            call.function_arguments,
            tool_call_id=call.tool_call_id,
            result=draw(RESULTS),
            is_error=draw(st.booleans()),
        )
        for call in calls
    ]
    result_message = ToolCallResultMessage(results, draw(st.sampled_from([None, "tools"])))
    if draw(st.booleans()):
        return [ToolCallAggregateMessage(call_message, result_message, call_message.from_)]
    interruption = [TextMessage(Role.USER, draw(TEXTS))] if draw(st.booleans()) else []
    return [call_message, *interruption, result_message]


@st.composite
def single(draw: st.DrawFn) -> list[Message]:
    role = draw(st.sampled_from([Role.USER, Role.ASSISTANT, Role.SYSTEM]))
    kind = draw(st.sampled_from(["text", "image", "multimodal"]))
    sender = draw(SENDERS)
    if kind == "text":
        return [TextMessage(role, draw(TEXTS), sender, reasoning=draw(REASONING))]
    if sender == AGENT:
        sender = None
    if kind == "image":
        image = draw(IMAGES)
        return [ImageMessage(Role.USER, image.url, sender, data=image.data)]
    items = draw(
        st.lists(
            st.one_of(TEXTS.map(lambda t: TextMessage(Role.USER, t)), IMAGES),
            min_size=1,
            max_size=3,
        )
    )
    return [MultiModalMessage(Role.USER, items, sender)]


@st.composite
def conversations(draw: st.DrawFn) -> list[Message]:
    parts = draw(st.lists(st.one_of(single(), tool_round()), max_size=6))
    messages: list[Message] = [TextMessage(Role.USER, "Start.")]
    for part in parts:
        messages.extend(part)
    return messages


def attempt(messages: list[Message], **kwargs: Any) -> Any:
    try:
        return to_anthropic(messages, agent_name=AGENT, **kwargs)
    except LLMBridgeError as error:
        return error


@given(conversations(), st.sampled_from(["drop", "prefix"]))
def test_every_produced_request_is_valid_and_inputs_stay_unchanged(
    messages: list[Message], name_policy: str
) -> None:
    before = copy.deepcopy(messages)

    result = attempt(messages, name_policy=name_policy)

    assert messages == before
    if isinstance(result, LLMBridgeError):
        assert isinstance(result, InvalidMessageError)
    else:
        assert_valid_request(result)
        assert attempt(messages, name_policy=name_policy) == result, "deterministic"


@given(conversations())
def test_strict_agrees_with_lenient_exactly_when_nothing_is_lost(messages: list[Message]) -> None:
    lenient = attempt(messages)
    strict = attempt(messages, strict_mode=True)

    if isinstance(lenient, LLMBridgeError):
        assert isinstance(strict, LLMBridgeError)
        return
    lossy = [note for note in lenient.notes if note.kind in ("dropped", "renamed")]
    if lossy:
        assert isinstance(strict, InvalidMessageError)
        assert strict.index == min(note.index for note in lossy if note.index is not None)
    else:
        assert strict == lenient
