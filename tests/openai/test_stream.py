"""OpenAIStreamAggregator: live updates, streaming oddities, and equality with from_openai."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    ContentFilteredError,
    EmptyResponseError,
    Message,
    ProviderResponseError,
    Reasoning,
    ReasoningMessageUpdate,
    RefusalError,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    Usage,
)
from llmbridge.openai import OpenAIStreamAggregator, from_openai
from llmbridge.testing import (
    openai_chunk,
    openai_completion,
    openai_text_chunks,
    openai_tool_call_chunks,
    openai_usage,
    openai_usage_chunk,
)
from tests.corpus import AGENT
from tests.openai.helpers import (
    azure_filter_chunk,
    chunks,
    completion,
    constructed_chunks,
    null_choices_chunk,
)

CALLS = [
    ToolCall("get_weather", '{"city": "Paris", "unit": "C"}', tool_call_id="call_A"),
    ToolCall("get_time", '{"tz": "Europe/Paris"}', tool_call_id="call_B"),
]
USAGE = openai_usage(30, 9, cached_tokens=10, reasoning_tokens=2)


def run(data: list[dict[str, Any]]) -> tuple[list[Message], Message]:
    aggregator = OpenAIStreamAggregator(AGENT)
    updates = [update for chunk in chunks(data) for update in aggregator.add(chunk)]
    return updates, aggregator.finish()


# Each recorded stream, with the completion the API would have returned for the same reply.
RECORDED = [
    pytest.param(
        openai_text_chunks(["Hel", "lo ", "world!"], usage=USAGE),
        openai_completion("Hello world!", usage=USAGE),
        id="text_with_usage_chunk",
    ),
    pytest.param(
        openai_text_chunks(["Hi"]),
        openai_completion("Hi"),
        id="text_without_usage",
    ),
    pytest.param(
        openai_text_chunks(["cut sh"], finish_reason="length", usage=USAGE),
        openai_completion("cut sh", finish_reason="length", usage=USAGE),
        id="length_finish",
    ),
    pytest.param(
        openai_text_chunks(["42"], reasoning=["Six ", "times seven."]),
        openai_completion("42", reasoning_content="Six times seven."),
        id="reasoning_then_text",
    ),
    pytest.param(
        openai_tool_call_chunks(CALLS, usage=USAGE),
        openai_completion(tool_calls=CALLS, usage=USAGE),
        id="parallel_tool_calls_one_after_another",
    ),
    pytest.param(
        openai_tool_call_chunks(CALLS, interleave=True, fragment_size=3),
        openai_completion(tool_calls=CALLS),
        id="parallel_tool_calls_interleaved",
    ),
    pytest.param(
        openai_tool_call_chunks(CALLS, interleave=True, repeat_id_and_name=True),
        openai_completion(tool_calls=CALLS),
        id="id_and_name_repeated_in_every_delta",
    ),
    pytest.param(
        openai_tool_call_chunks(CALLS, reverse_indices=True),
        openai_completion(tool_calls=CALLS),
        id="higher_index_arrives_first",
    ),
    pytest.param(
        openai_tool_call_chunks(CALLS[:1], content="Checking.", fragment_size=1),
        openai_completion("Checking.", tool_calls=CALLS[:1]),
        id="text_then_tool_call_in_one_character_fragments",
    ),
    pytest.param(
        openai_tool_call_chunks([ToolCall("now", "", tool_call_id="call_N")], usage=USAGE),
        openai_completion(tool_calls=[ToolCall("now", "", tool_call_id="call_N")], usage=USAGE),
        id="tool_call_without_arguments",
    ),
]


@pytest.mark.parametrize(("stream", "reply"), RECORDED)
def test_final_message_equals_from_openai_of_the_same_completion(
    stream: list[dict[str, Any]], reply: dict[str, Any]
) -> None:
    updates, final = run(stream)

    assert final == from_openai(completion(reply), agent_name=AGENT)
    assert final.from_ == AGENT
    assert all(update.from_ == AGENT for update in updates)


FAILING = [
    pytest.param(
        openai_text_chunks(["bad"], finish_reason="content_filter"),
        openai_completion("bad", finish_reason="content_filter"),
        ContentFilteredError,
        id="content_filter",
    ),
    pytest.param(
        openai_text_chunks([], refusal=["I can't ", "help."]),
        openai_completion(refusal="I can't help."),
        RefusalError,
        id="refusal",
    ),
    pytest.param(
        openai_text_chunks([]),
        openai_completion(None),
        EmptyResponseError,
        id="empty",
    ),
]


@pytest.mark.parametrize(("stream", "reply", "error"), FAILING)
def test_failing_stream_raises_as_from_openai_does_after_its_updates(
    stream: list[dict[str, Any]], reply: dict[str, Any], error: type[Exception]
) -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    updates = [u for chunk in chunks(stream) for u in aggregator.add(chunk)]

    with pytest.raises(error) as streamed:
        aggregator.finish()
    with pytest.raises(error) as direct:
        from_openai(completion(reply), agent_name=AGENT)

    assert str(streamed.value) == str(direct.value)
    assert [u.get_content() for u in updates] == [
        c["choices"][0]["delta"]["content"]
        for c in stream
        if c["choices"] and c["choices"][0]["delta"].get("content")
    ]


def test_refusal_text_is_joined_from_its_deltas() -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    for chunk in chunks(openai_text_chunks([], refusal=["No", ", sorry."])):
        aggregator.add(chunk)

    with pytest.raises(RefusalError) as caught:
        aggregator.finish()

    assert caught.value.refusal == "No, sorry."


def test_text_updates_are_true_deltas_in_order() -> None:
    updates, _ = run(openai_text_chunks(["Hel", "lo"], reasoning=["hm"]))

    assert updates == [
        ReasoningMessageUpdate("hm", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "Hel", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "lo", AGENT),
    ]


def test_interleaved_tool_call_updates_carry_index_id_and_first_name() -> None:
    calls = [ToolCall("a", "{}", tool_call_id="id_a"), ToolCall("b", "[1]", tool_call_id="id_b")]

    updates, final = run(openai_tool_call_chunks(calls, interleave=True, fragment_size=2))

    assert updates == [
        ToolCallMessageUpdate("a", "", AGENT, index=0, tool_call_id="id_a"),
        ToolCallMessageUpdate("b", "", AGENT, index=1, tool_call_id="id_b"),
        ToolCallMessageUpdate("a", "{}", AGENT, index=0, tool_call_id="id_a"),
        ToolCallMessageUpdate("b", "[1", AGENT, index=1, tool_call_id="id_b"),
        ToolCallMessageUpdate("b", "]", AGENT, index=1, tool_call_id="id_b"),
    ]
    assert final.get_tool_calls() == calls


def test_repeated_id_and_name_are_not_concatenated() -> None:
    _, final = run(openai_tool_call_chunks(CALLS, repeat_id_and_name=True, fragment_size=1))

    assert final.get_tool_calls() == CALLS


def test_several_fragments_of_one_call_in_one_chunk_are_joined() -> None:
    delta = {
        "tool_calls": [
            {
                "index": 0,
                "id": "c",
                "type": "function",
                "function": {"name": "f", "arguments": "{"},
            },
            {"index": 0, "function": {"arguments": "}"}},
        ]
    }

    updates, final = run([openai_chunk(delta), openai_chunk({}, finish_reason="tool_calls")])

    assert [u.function_arguments_update for u in updates] == ["{", "}"]  # type: ignore[attr-defined]
    assert final.get_tool_calls() == [ToolCall("f", "{}", tool_call_id="c")]


def test_usage_chunk_without_choices_yields_no_update_and_sets_usage() -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    for chunk in chunks(openai_text_chunks(["Hi"])):
        aggregator.add(chunk)

    (usage_chunk,) = chunks([openai_usage_chunk(USAGE)])
    assert aggregator.add(usage_chunk) == []
    assert aggregator.finish().usage == Usage(  # type: ignore[attr-defined]
        30, 9, cache_read_tokens=10, reasoning_tokens=2
    )


def test_stream_ending_without_finish_reason_is_interrupted_with_the_partial() -> None:
    with pytest.raises(StreamInterruptedError) as caught:
        run(openai_text_chunks(["Hel", "lo"], finish_reason=None))

    assert caught.value.retryable is True
    assert caught.value.partial == TextMessage(Role.ASSISTANT, "Hello", AGENT)


def test_final_message_keeps_the_chunks_as_raw() -> None:
    data = openai_text_chunks(["Hi"])
    aggregator = OpenAIStreamAggregator(AGENT)
    received = chunks(data)
    for chunk in received:
        aggregator.add(chunk)

    assert aggregator.finish().raw == tuple(received)  # type: ignore[attr-defined]


def test_chunk_of_a_second_choice_raises() -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    (chunk,) = chunks([openai_chunk({"content": "x"}, index=1)])

    with pytest.raises(ProviderResponseError, match="choice 1"):
        aggregator.add(chunk)


@pytest.mark.parametrize(
    ("stream", "expected"),
    [
        pytest.param([], None, id="nothing_yet"),
        pytest.param([openai_chunk({"role": "assistant", "content": ""})], None, id="role_only"),
        pytest.param(
            openai_text_chunks(["Hel"], reasoning=["r"], finish_reason=None),
            TextMessage(
                Role.ASSISTANT, "Hel", AGENT, reasoning=[Reasoning("r", provider="openai")]
            ),
            id="text_so_far",
        ),
        pytest.param(
            openai_text_chunks([], reasoning=["r"], finish_reason=None),
            TextMessage(Role.ASSISTANT, "", AGENT, reasoning=[Reasoning("r", provider="openai")]),
            id="reasoning_only",
        ),
        pytest.param(
            openai_tool_call_chunks(CALLS[:1], fragment_size=8, finish_reason=None)[:3],
            ToolCallMessage([ToolCall("get_weather", '{"city":', tool_call_id="call_A")], AGENT),
            id="half_a_tool_call",
        ),
        pytest.param(
            openai_text_chunks(["bad"], finish_reason="content_filter"),
            TextMessage(Role.ASSISTANT, "bad", AGENT, finish_reason="content_filter"),
            id="filtered_text_does_not_raise",
        ),
    ],
)
def test_partial_is_what_arrived_so_far(
    stream: list[dict[str, Any]], expected: Message | None
) -> None:
    aggregator = OpenAIStreamAggregator(AGENT)
    for chunk in chunks(stream):
        aggregator.add(chunk)

    assert aggregator.partial == expected


call_strategy = st.builds(
    ToolCall,
    st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    st.text(max_size=40),
    tool_call_id=st.from_regex(r"call_[A-Za-z0-9]{1,10}", fullmatch=True),
)


@given(
    text=st.lists(st.text(min_size=1, max_size=8), max_size=5),
    calls=st.lists(call_strategy, max_size=3, unique_by=lambda call: call.tool_call_id),
    fragment_size=st.integers(1, 9),
    interleave=st.booleans(),
    repeat=st.booleans(),
    with_usage=st.booleans(),
)
def test_any_split_of_a_reply_streams_to_the_non_streamed_message(
    text: list[str],
    calls: list[ToolCall],
    fragment_size: int,
    interleave: bool,
    repeat: bool,
    with_usage: bool,
) -> None:
    usage = USAGE if with_usage else None
    content = "".join(text)
    if calls:
        stream = openai_tool_call_chunks(
            calls,
            content=content or None,
            fragment_size=fragment_size,
            interleave=interleave,
            repeat_id_and_name=repeat,
            usage=usage,
        )
    else:
        stream = openai_text_chunks(text, usage=usage)
    reply = openai_completion(content or None, tool_calls=calls, usage=usage)

    try:
        expected: Message | type[Exception] = from_openai(completion(reply), agent_name=AGENT)
    except EmptyResponseError as error:
        expected = type(error)
    if isinstance(expected, Message):
        assert run(stream)[1] == expected
    else:
        with pytest.raises(expected):
            run(stream)


# -- chunks the SDK passes through unvalidated: Azure's content filter, odd compatible servers --


def run_constructed(data: list[dict[str, Any]]) -> tuple[list[Message], Message]:
    aggregator = OpenAIStreamAggregator(AGENT)
    updates = [update for chunk in constructed_chunks(data) for update in aggregator.add(chunk)]
    return updates, aggregator.finish()


@pytest.mark.parametrize(
    "odd_chunk",
    [
        pytest.param(azure_filter_chunk(), id="delta_null"),
        pytest.param({**openai_chunk({"content": "x"}), "choices": None}, id="choices_null"),
    ],
)
def test_chunks_without_delta_or_choices_are_skipped(odd_chunk: dict[str, Any]) -> None:
    stream = openai_text_chunks(["Hello ", "world!"])
    stream.insert(2, odd_chunk)

    updates, final = run_constructed(stream)

    assert [update.get_content() for update in updates] == ["Hello ", "world!"]
    assert final == from_openai(completion(openai_completion("Hello world!")), agent_name=AGENT)


def test_finish_reason_of_a_chunk_with_null_delta_still_counts() -> None:
    stream = [
        *openai_text_chunks(["Hello"], finish_reason=None),
        azure_filter_chunk(finish_reason="stop"),
    ]

    _, final = run_constructed(stream)

    assert final == TextMessage(Role.ASSISTANT, "Hello", AGENT, finish_reason="stop")


def test_usage_of_a_chunk_with_null_choices_still_counts() -> None:
    stream = [*openai_text_chunks(["Hi"]), null_choices_chunk(USAGE)]

    _, final = run_constructed(stream)

    assert final.usage == Usage(30, 9, cache_read_tokens=10, reasoning_tokens=2)
