"""Properties of to_openai over generated conversations: valid on the wire, or a clear error."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import to_openai
from tests.corpus import AGENT, PNG
from tests.openai import wire

senders = st.sampled_from([None, AGENT, "critic", "Dr. Who", "user"])
others = st.sampled_from([None, "critic", "Dr. Who", "user"])
roles = st.sampled_from([Role.USER, Role.ASSISTANT, Role.SYSTEM])
texts = st.text(max_size=12)
# A small pool makes repeated ids (across rounds) and missing ids (fallbacks) common.
call_ids = st.sampled_from([None, "call_1", "call_2", "x" * 45])
function_names = st.sampled_from(["now", "get_weather", "f"])


@st.composite
def tool_calls(draw: st.DrawFn, *, with_results: bool) -> list[ToolCall]:
    count = draw(st.integers(1, 3))
    return [
        ToolCall(
            draw(function_names),
            draw(st.sampled_from(["", "{}", '{"a": 1}'])),
            tool_call_id=draw(call_ids),
            result=draw(st.one_of(st.none(), texts)) if with_results else None,
        )
        for _ in range(count)
    ]


@st.composite
def answered_round(draw: st.DrawFn) -> list[Message]:
    """A tool-call message of the agent and the results of all its calls (maybe split)."""
    calls = draw(tool_calls(with_results=False))
    results = [
        ToolCall(c.function_name, c.function_arguments, tool_call_id=c.tool_call_id, result="ok")
        for c in calls
    ]
    sender = draw(st.sampled_from([None, AGENT]))
    if draw(st.booleans()):
        return [
            ToolCallAggregateMessage(
                ToolCallMessage(calls, sender), ToolCallResultMessage(results), sender
            )
        ]
    # Anything but an assistant turn may sit between the calls and their results.
    interruption = (
        [TextMessage(Role.USER, draw(texts), draw(others))] if draw(st.booleans()) else []
    )
    return [ToolCallMessage(calls, sender), *interruption, ToolCallResultMessage(results)]


single_messages = st.one_of(
    st.builds(TextMessage, roles, texts, senders),
    st.builds(ImageMessage, st.just(Role.USER), st.just("https://x.test/a.png"), senders),
    st.builds(
        lambda sender: MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "see"), ImageMessage(Role.USER, data=PNG)], sender
        ),
        senders,
    ),
    st.builds(ToolCallMessage, tool_calls(with_results=False), senders),
    st.builds(ToolCallResultMessage, tool_calls(with_results=True), senders),
    st.builds(
        lambda calls, sender: ToolCallAggregateMessage(
            ToolCallMessage(calls), ToolCallResultMessage(calls), sender
        ),
        tool_calls(with_results=True),
        senders,
    ),
    st.just(MessageEnvelope({"role": "user", "content": "raw"})),
    st.just(TextMessageUpdate(Role.ASSISTANT, "delta")),
)

segments = st.one_of(st.lists(single_messages, max_size=2), answered_round())
conversations = st.lists(segments, max_size=6).map(lambda parts: [m for p in parts for m in p])


@given(conversations)
def test_every_request_is_valid_on_the_wire_or_raises_invalid_message(
    messages: list[Message],
) -> None:
    try:
        request = to_openai(messages, agent_name=AGENT)
    except InvalidMessageError as error:
        failure = error
    else:
        wire.check_messages(request.messages)
        assert set(request.indices) <= set(range(len(messages)))
        return
    assert failure.index is None or 0 <= failure.index < len(messages)


harmless = st.one_of(
    st.builds(TextMessage, roles, texts, senders),
    st.builds(ImageMessage, st.just(Role.USER), st.just("https://x.test/a.png"), others),
    st.just(MessageEnvelope({"role": "user", "content": "raw"})),
)


@given(
    st.lists(
        st.one_of(answered_round(), st.lists(harmless, min_size=1, max_size=2)),
        min_size=1,
        max_size=5,
    )
)
def test_answered_rounds_between_valid_messages_always_convert(parts: list[list[Message]]) -> None:
    messages = [message for part in parts for message in part]

    request = to_openai(messages, agent_name=AGENT)

    wire.check_messages(request.messages)


@given(conversations)
def test_conversion_is_deterministic_and_leaves_raw_dicts_alone(messages: list[Message]) -> None:
    raw = [m.content for m in messages if isinstance(m, MessageEnvelope)]
    try:
        first = to_openai(messages, agent_name=AGENT, check_pairing=False)
    except InvalidMessageError:
        return
    second = to_openai(messages, agent_name=AGENT, check_pairing=False)

    assert first == second
    assert raw == [{"role": "user", "content": "raw"}] * len(raw)
