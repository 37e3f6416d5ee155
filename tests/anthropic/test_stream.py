"""AnthropicStreamAggregator: live updates and one final message equal to from_anthropic."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from anthropic.types import Message as AnthropicMessage
from hypothesis import given
from hypothesis import strategies as st

from llmbridge import (
    EmptyResponseError,
    Message,
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
from llmbridge.anthropic import AnthropicStreamAggregator, from_anthropic
from llmbridge.testing import (
    anthropic_message,
    anthropic_redacted_thinking_block,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
)
from tests.anthropic.helpers import (
    UNMODELLED_BLOCKS,
    constructed,
    constructed_events,
    constructed_events_of,
    sdk_events,
    sdk_events_of,
    web_search_reply,
    web_search_stream,
)
from tests.corpus import AGENT


def run(events: list[Any]) -> tuple[list[Message], Message]:
    aggregator = AnthropicStreamAggregator(AGENT)
    updates = [update for event in events for update in aggregator.add(event)]
    return updates, aggregator.finish()


def non_streaming(body: dict[str, Any]) -> Message:
    return from_anthropic(AnthropicMessage.model_validate(body), agent_name=AGENT)


BODIES = [
    pytest.param(anthropic_message("Hello there, world!"), id="text"),
    pytest.param(
        anthropic_message(
            [anthropic_thinking_block("Let me think.", "sig-1"), anthropic_text_block("Done.")]
        ),
        id="thinking_with_signature_then_text",
    ),
    pytest.param(
        anthropic_message(
            [anthropic_redacted_thinking_block("opaque=="), anthropic_text_block("Done.")]
        ),
        id="redacted_thinking",
    ),
    pytest.param(
        anthropic_message(
            [
                anthropic_text_block("Checking both."),
                anthropic_tool_use_block("toolu_1", "get_weather", {"city": "Paris", "days": 3}),
                anthropic_tool_use_block("toolu_2", "get_time", {"tz": "Europe/Paris"}),
            ],
            stop_reason="tool_use",
        ),
        id="parallel_tool_use_with_input_json_fragments",
    ),
    pytest.param(
        anthropic_message([anthropic_tool_use_block("toolu_1", "now")], stop_reason="tool_use"),
        id="tool_without_argument_deltas",
    ),
    pytest.param(
        anthropic_message(
            [anthropic_tool_use_block("toolu_1", "say", {"text": "héllo ✓", "n": [1, 2.5]})],
            stop_reason="tool_use",
        ),
        id="non_ascii_and_nested_arguments",
    ),
    pytest.param(
        anthropic_message(
            "cached", cache_read_input_tokens=100, cache_creation_input_tokens=7, output_tokens=9
        ),
        id="usage_with_cache_tokens",
    ),
    pytest.param(anthropic_message("cut", stop_reason="max_tokens"), id="max_tokens"),
    pytest.param(anthropic_message("paused", stop_reason="pause_turn"), id="pause_turn"),
]


@pytest.mark.parametrize("pieces", [1, 3, 50], ids=["one_piece", "three_pieces", "tiny_pieces"])
@pytest.mark.parametrize("body", BODIES)
def test_final_message_equals_non_streaming(body: dict[str, Any], pieces: int) -> None:
    _, final = run(sdk_events(body, pieces=pieces))

    assert final == non_streaming(body)
    assert isinstance(final.raw, AnthropicMessage)
    assert from_anthropic(final.raw, agent_name=AGENT) == final


def test_updates_arrive_live_and_in_order() -> None:
    body = anthropic_message(
        [
            anthropic_thinking_block("abcdef", "sig"),
            anthropic_text_block("Hello!"),
            anthropic_tool_use_block("toolu_1", "f", {"a": 1}),
        ],
        stop_reason="tool_use",
    )
    aggregator = AnthropicStreamAggregator(AGENT)
    per_event = [aggregator.add(event) for event in sdk_events(body, pieces=2)]

    updates = [update for produced in per_event for update in produced]
    assert updates == [
        ReasoningMessageUpdate("abc", AGENT),
        ReasoningMessageUpdate("def", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "Hel", AGENT),
        TextMessageUpdate(Role.ASSISTANT, "lo!", AGENT),
        ToolCallMessageUpdate("f", "", AGENT, index=2, tool_call_id="toolu_1"),
        ToolCallMessageUpdate("f", '{"a"', AGENT, index=2, tool_call_id="toolu_1"),
        ToolCallMessageUpdate("f", ": 1}", AGENT, index=2, tool_call_id="toolu_1"),
    ]
    assert all(len(produced) <= 1 for produced in per_event), "one update per event, live"


def test_parallel_tool_updates_are_keyed_by_block_index() -> None:
    body = anthropic_message(
        [
            anthropic_tool_use_block("toolu_a", "first", {"x": "1"}),
            anthropic_tool_use_block("toolu_b", "second", {"y": "2"}),
        ],
        stop_reason="tool_use",
    )

    updates, final = run(sdk_events(body))

    by_index: dict[int, str] = {}
    for update in updates:
        assert isinstance(update, ToolCallMessageUpdate)
        by_index[update.index] = by_index.get(update.index, "") + update.function_arguments_update
    assert by_index == {0: '{"x": "1"}', 1: '{"y": "2"}'}
    assert isinstance(final, ToolCallMessage)
    assert [call.tool_call_id for call in final.tool_calls] == ["toolu_a", "toolu_b"]


def test_tool_with_no_argument_deltas_gets_empty_object() -> None:
    body = anthropic_message([anthropic_tool_use_block("toolu_1", "now")], stop_reason="tool_use")

    updates, final = run(sdk_events(body))

    assert updates == [ToolCallMessageUpdate("now", "", AGENT, index=0, tool_call_id="toolu_1")]
    assert isinstance(final, ToolCallMessage)
    assert final.tool_calls[0].function_arguments == "{}"


def test_usage_from_message_delta_is_a_running_total() -> None:
    events = sdk_events(anthropic_message("Hi", input_tokens=5, output_tokens=2))
    delta = next(event for event in events if event.type == "message_delta")
    earlier = delta.model_copy(
        update={"usage": delta.usage.model_copy(update={"output_tokens": 1})}
    )
    events.insert(events.index(delta), earlier)

    _, final = run(events)

    assert final.usage == Usage(5, 2)


def test_message_delta_input_and_cache_counts_replace_message_start_counts() -> None:
    events = sdk_events(anthropic_message("Hi", input_tokens=5, cache_read_input_tokens=10))

    _, final = run(events)

    assert final.usage == Usage(15, 5, cache_read_tokens=10)


def test_ping_and_unknown_events_are_ignored() -> None:
    aggregator = AnthropicStreamAggregator(AGENT)

    assert aggregator.add(SimpleNamespace(type="ping")) == []  # type: ignore[arg-type]
    assert aggregator.add(SimpleNamespace(type="future_event")) == []  # type: ignore[arg-type]


def test_stream_without_message_stop_still_completes_after_message_delta() -> None:
    body = anthropic_message("Hi")

    _, final = run(sdk_events(body, message_stop=False))

    assert final == non_streaming(body)


@pytest.mark.parametrize(
    ("cut", "partial"),
    [
        pytest.param(
            "message_delta",
            TextMessage(Role.ASSISTANT, "Hello", AGENT, usage=Usage(10, 1)),
            id="text_so_far",
        ),
        pytest.param("content_block_start", None, id="nothing_yet_is_none"),
    ],
)
def test_stream_ending_before_a_stop_reason_is_interrupted(cut: str, partial: Any) -> None:
    events = sdk_events(anthropic_message("Hello", output_tokens=4), pieces=1)
    events = events[: next(i for i, event in enumerate(events) if event.type == cut)]

    with pytest.raises(StreamInterruptedError) as caught:
        run(events)

    assert caught.value.partial == partial
    assert caught.value.retryable is True
    assert caught.value.status_code is None
    assert caught.value.provider == "anthropic"


def test_refusal_raises_after_the_updates_with_the_text_so_far() -> None:
    body = anthropic_message("I will not", stop_reason="refusal")
    aggregator = AnthropicStreamAggregator(AGENT)
    updates = [update for event in sdk_events(body) for update in aggregator.add(event)]

    with pytest.raises(RefusalError) as caught:
        aggregator.finish()

    assert "".join(update.get_content() or "" for update in updates) == "I will not"
    assert caught.value.refusal == "I will not"


def test_empty_stream_raises_like_non_streaming() -> None:
    with pytest.raises(EmptyResponseError):
        run(sdk_events(anthropic_message([])))


# -- property: any reply streamed in any pieces equals the non-streaming conversion ---------

_TEXT = st.text(min_size=1, max_size=30)
_JSON_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
_BLOCK = st.one_of(
    _TEXT.map(anthropic_text_block),
    st.builds(anthropic_thinking_block, _TEXT, st.text(min_size=1, max_size=10)),
    st.builds(
        anthropic_tool_use_block,
        st.from_regex(r"toolu_[a-z0-9]{1,6}", fullmatch=True),
        st.from_regex(r"[a-z_]{1,10}", fullmatch=True),
        st.dictionaries(st.text(max_size=6), _JSON_VALUE, max_size=4),
    ),
)


@given(
    blocks=st.lists(_BLOCK, min_size=1, max_size=5),
    pieces=st.integers(min_value=1, max_value=12),
    stop_reason=st.sampled_from(["end_turn", "tool_use", "max_tokens", "stop_sequence"]),
)
def test_any_stream_equals_its_non_streaming_reply(
    blocks: list[dict[str, Any]], pieces: int, stop_reason: str
) -> None:
    body = anthropic_message(blocks, stop_reason=stop_reason)
    try:
        expected: Message | type[Exception] = non_streaming(body)
    except EmptyResponseError:
        expected = EmptyResponseError

    if expected is EmptyResponseError:
        with pytest.raises(EmptyResponseError):
            run(sdk_events(body, pieces=pieces))
    else:
        assert run(sdk_events(body, pieces=pieces))[1] == expected


# -- server tools (hosted tools now) and block types the SDK does not model ---------------


@pytest.mark.parametrize("stop_reason", ["end_turn", "pause_turn"])
def test_server_tool_input_never_becomes_a_client_tool_call(stop_reason: str) -> None:
    body = web_search_reply(stop_reason)

    updates, final = run(constructed_events_of(web_search_stream(stop_reason)))

    assert not any(isinstance(update, ToolCallMessageUpdate) for update in updates)
    assert isinstance(final, TextMessage)
    assert final == from_anthropic(constructed(body), agent_name=AGENT)
    assert final.finish_reason == ("stop" if stop_reason == "end_turn" else "pause")
    server_block = final.raw.content[1]
    assert (server_block.type, server_block.input) == (
        "server_tool_use",
        {"query": "anthropic api rate limits"},
    ), "the raw snapshot keeps the server tool's input"


@pytest.mark.parametrize("stop_reason", ["end_turn", "pause_turn"])
def test_server_tool_blocks_are_hosted_tools_in_strict_mode_as_non_streaming(
    stop_reason: str,
) -> None:
    body = web_search_reply(stop_reason)
    aggregator = AnthropicStreamAggregator(AGENT, strict_mode=True)
    for event in constructed_events_of(web_search_stream(stop_reason)):
        aggregator.add(event)

    final = aggregator.finish()

    assert final == from_anthropic(constructed(body), agent_name=AGENT, strict_mode=True)
    assert isinstance(final, TextMessage)
    assert [call.name for call in final.hosted_tools] == ["web_search"]


@pytest.mark.parametrize("block", UNMODELLED_BLOCKS)
def test_unmodelled_blocks_convert_the_same_streamed_and_not(block: dict[str, Any]) -> None:
    body = anthropic_message([block, anthropic_text_block("Done.")])

    updates, final = run(constructed_events(body))

    assert not any(isinstance(update, ToolCallMessageUpdate) for update in updates)
    assert final == from_anthropic(constructed(body), agent_name=AGENT)
    assert final.get_content() == "Done."


# -- arguments no recursive JSON parser reads ---------------------------------------------

DEEP_ARGUMENTS = '{"a":' * 20_000 + "1" + "}" * 20_000


def test_arguments_nested_too_deep_to_parse_are_kept_verbatim() -> None:
    events = sdk_events(
        anthropic_message([anthropic_tool_use_block("toolu_1", "f")], stop_reason="tool_use")
    )
    start = next(i for i, event in enumerate(events) if event.type == "content_block_start")
    fragments = [DEEP_ARGUMENTS[:20_000], DEEP_ARGUMENTS[20_000:]]
    deltas = sdk_events_of(
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": part},
        }
        for part in fragments
    )
    events[start + 1 : start + 1] = deltas

    _, final = run(events)

    assert final.get_tool_calls() == [ToolCall("f", DEEP_ARGUMENTS, tool_call_id="toolu_1")]
    assert final.raw.content[0].input == {}, "unparsed, as for truncated JSON"
