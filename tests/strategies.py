"""Hypothesis strategies for neutral messages and conversations."""

from __future__ import annotations

import base64

from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
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
    Usage,
)

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
IMAGE_PREFIXES = (
    PNG[:16],
    b"\xff\xd8\xff\xe0",
    b"GIF89a",
    b"RIFF\x00\x00\x00\x00WEBPVP8 ",
)

names = st.one_of(st.none(), st.sampled_from(["assistant", "critic", "Dr. Who?", "a" * 70]))
texts = st.one_of(st.text(max_size=30), st.sampled_from(["", "   ", "\n", "hello"]))
roles = st.sampled_from([Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL, Role("critic")])
optional_ids = st.one_of(st.none(), st.sampled_from(["call_1", "call_2", "call 3", "x" * 50]))
usages = st.one_of(
    st.none(),
    st.builds(
        Usage,
        st.integers(0, 10_000),
        st.integers(0, 10_000),
        cache_read_tokens=st.one_of(st.none(), st.integers(0, 100)),
        cache_write_tokens=st.one_of(st.none(), st.integers(0, 100)),
        reasoning_tokens=st.one_of(st.none(), st.integers(0, 100)),
    ),
)
reasonings = st.lists(
    st.builds(
        Reasoning,
        texts,
        signature=st.one_of(st.none(), st.text(max_size=10)),
        redacted_data=st.one_of(st.none(), st.text(max_size=10)),
        provider=st.sampled_from([None, "openai", "anthropic"]),
    ),
    max_size=2,
)
finish_reasons = st.sampled_from([None, "stop", "length", "tool_calls", "pause", "weird"])
arguments = st.one_of(
    st.sampled_from(["", "{}", '{"a": 1}', "not json", "[1]"]), st.text(max_size=10)
)

tool_calls = st.builds(
    ToolCall,
    st.sampled_from(["get_weather", "now", "search"]),
    arguments,
    tool_call_id=optional_ids,
    result=st.one_of(st.none(), texts),
    is_error=st.booleans(),
)

image_bytes = st.builds(
    lambda prefix, tail: prefix + tail, st.sampled_from(IMAGE_PREFIXES), st.binary(max_size=16)
)
images = st.one_of(
    st.builds(
        ImageMessage,
        roles,
        st.sampled_from(["https://example.com/a.png", "http://x/y.jpg"]),
        names,
        detail=st.sampled_from([None, "auto", "low", "high"]),
    ),
    st.builds(ImageMessage, roles, from_=names, data=image_bytes),
)
text_messages = st.builds(
    TextMessage,
    roles,
    texts,
    names,
    reasoning=reasonings,
    usage=usages,
    finish_reason=finish_reasons,
)
tool_call_messages = st.builds(
    ToolCallMessage,
    st.lists(tool_calls, min_size=1, max_size=3),
    names,
    content=st.one_of(st.none(), texts),
    reasoning=reasonings,
    usage=usages,
    finish_reason=finish_reasons,
)
result_messages = st.builds(
    ToolCallResultMessage, st.lists(tool_calls, min_size=1, max_size=3), names
)

messages: st.SearchStrategy[Message] = st.one_of(
    text_messages,
    images,
    st.builds(
        MultiModalMessage,
        roles,
        st.lists(st.one_of(text_messages, images), min_size=1, max_size=3),
        names,
    ),
    tool_call_messages,
    result_messages,
    st.builds(ToolCallAggregateMessage, tool_call_messages, result_messages, names),
    st.builds(TextMessageUpdate, roles, texts, names),
    st.builds(ReasoningMessageUpdate, texts, names),
    st.builds(
        ToolCallMessageUpdate,
        st.sampled_from(["get_weather", "now"]),
        texts,
        names,
        index=st.integers(0, 5),
        tool_call_id=optional_ids,
    ),
    st.builds(
        MessageEnvelope,
        st.one_of(
            st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5))),
            st.text(max_size=5),
        ),
        names,
        metadata=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), st.integers())),
    ),
)
