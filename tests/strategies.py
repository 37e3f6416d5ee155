"""Hypothesis strategies for neutral messages and conversations."""

from __future__ import annotations

import base64
import dataclasses

from hypothesis import strategies as st

from llmbridge import (
    AudioMessage,
    DocumentMessage,
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

PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + b"\x00" * 8
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\x00" * 8
MP4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"  # an ftyp box, brand mp42
TEXT_DOCUMENT_TYPES = ("text/plain", "text/markdown", "text/csv")

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
# provider_data: any JSON-compatible values (bytes included: stored as base64 text), under the
# tags of providers that do and do not exist.
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=5),
        st.binary(max_size=5),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
provider_datas = st.one_of(
    st.just({}),
    st.dictionaries(
        st.sampled_from(["gemini", "openai-responses", "openai", "anthropic", "x-custom"]),
        st.dictionaries(st.text(max_size=5), json_values, max_size=3),
        max_size=2,
    ),
)
reasonings = st.lists(
    st.builds(
        Reasoning,
        texts,
        signature=st.one_of(st.none(), st.text(max_size=10)),
        redacted_data=st.one_of(st.none(), st.text(max_size=10)),
        provider=st.sampled_from([None, "openai", "anthropic"]),
        provider_data=provider_datas,
    ),
    max_size=2,
)
finish_reasons = st.sampled_from([None, "stop", "length", "tool_calls", "pause", "weird"])
arguments = st.one_of(
    st.sampled_from(["", "{}", '{"a": 1}', "not json", "[1]"]), st.text(max_size=10)
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
filenames = st.sampled_from([None, "report.pdf", "notes.md", "Zoë's file.txt"])
text_bytes = st.text(max_size=20).map(lambda text: text.encode("utf-8", "surrogatepass"))
documents = st.one_of(
    st.builds(
        DocumentMessage,
        roles,
        st.sampled_from(["https://example.com/a.pdf", "http://x/y"]),
        names,
        media_type=st.sampled_from([None, "application/pdf"]),
        filename=filenames,
    ),
    st.builds(
        DocumentMessage,
        roles,
        from_=names,
        data=st.builds(lambda tail: PDF + tail, st.binary(max_size=8)),
        filename=filenames,
    ),
    st.builds(
        DocumentMessage,
        roles,
        from_=names,
        data=text_bytes.filter(lambda data: bool(data) and not data.startswith(b"%PDF-")),
        media_type=st.sampled_from(TEXT_DOCUMENT_TYPES),
        filename=filenames,
    ),
)
audios = st.one_of(
    st.builds(
        AudioMessage,
        roles,
        names,
        data=st.builds(
            lambda prefix, tail: prefix + tail, st.sampled_from([WAV, MP3]), st.binary(max_size=8)
        ),
    ),
    st.builds(
        AudioMessage, roles, names, data=st.just(b"OggS\x00"), media_type=st.just("audio/ogg")
    ),
)
result_parts = st.lists(
    st.one_of(st.builds(TextMessage, roles, texts), images, documents), min_size=1, max_size=3
).map(tuple)

tool_calls = st.builds(
    ToolCall,
    st.sampled_from(["get_weather", "now", "search"]),
    arguments,
    tool_call_id=optional_ids,
    result=st.one_of(st.none(), texts, result_parts),
    is_error=st.booleans(),
    provider_data=provider_datas,
)
text_messages = st.builds(
    TextMessage,
    roles,
    texts,
    names,
    reasoning=reasonings,
    usage=usages,
    finish_reason=finish_reasons,
    provider_data=provider_datas,
)
tool_call_messages = st.builds(
    ToolCallMessage,
    st.lists(tool_calls, min_size=1, max_size=3),
    names,
    content=st.one_of(st.none(), texts),
    reasoning=reasonings,
    usage=usages,
    finish_reason=finish_reasons,
    provider_data=provider_datas,
)
result_messages = st.builds(
    ToolCallResultMessage, st.lists(tool_calls, min_size=1, max_size=3), names
)

neutral_messages: st.SearchStrategy[Message] = st.one_of(
    text_messages,
    images,
    documents,
    audios,
    st.builds(
        MultiModalMessage,
        roles,
        st.lists(st.one_of(text_messages, images, documents, audios), min_size=1, max_size=3),
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
)
"""Every neutral message type but ``MessageEnvelope``."""
messages: st.SearchStrategy[Message] = st.one_of(
    neutral_messages,
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


# -- conversations ---------------------------------------------------------------------------
# Whole conversations for the agent named AGENT: odd sender and function names, empty and
# whitespace text, images, parallel tool calls with and without ids (repeated across rounds),
# missing results, reasoning from both providers. `conversations()` may break any rule;
# `valid_conversations()` only what llmbridge repairs, so lenient conversion never raises.

AGENT = "assistant"
senders = st.sampled_from([None, AGENT, "critic", "Dr. Who?", "Zoë Smith", "a" * 70])
other_senders = st.sampled_from([None, "critic", "Dr. Who?", "Zoë Smith", "a" * 70])
odd_texts = st.one_of(
    st.sampled_from(["", " ", "\n\t", "ok", "trailing ", "[x] y", "naïve — ☃"]),
    st.text(max_size=20),
)
function_names = st.sampled_from(["get_weather", "now", "search-web", "web.search", "f" * 70])
call_ids = st.sampled_from([None, None, "call_1", "call_2", "toolu_01", "fn.a:1", "x" * 50])
object_arguments = st.sampled_from(["", "{}", '{"city": "Paris"}', '{"q": "x", "n": [1, 2.5]}'])
any_arguments = st.one_of(object_arguments, st.sampled_from(["not json", "[1]", '"x"', "5"]))
signed_reasoning = st.one_of(
    st.builds(Reasoning, odd_texts, signature=st.just("sig"), provider=st.just("anthropic")),
    st.builds(
        Reasoning, st.just(""), redacted_data=st.just("opaque=="), provider=st.just("anthropic")
    ),
    st.builds(Reasoning, odd_texts, provider=st.sampled_from(["openai", None])),
)
reasoning_lists = st.lists(signed_reasoning, max_size=2)
sendable_images = st.one_of(
    st.builds(ImageMessage, st.just(Role.USER), st.just("https://images.example.test/a.png")),
    st.builds(
        ImageMessage, st.just(Role.USER), data=image_bytes, detail=st.sampled_from([None, "low"])
    ),
)
sendable_documents = st.one_of(
    st.builds(DocumentMessage, st.just(Role.USER), data=st.just(PDF), filename=filenames),
    st.builds(
        DocumentMessage,
        st.just(Role.USER),
        st.sampled_from(["https://docs.example.test/a.pdf", "gs://bucket/a.pdf"]),
    ),
    st.builds(
        DocumentMessage,
        st.just(Role.USER),
        data=st.sampled_from([b"city,temp\nParis,18\n", "naïve — ☃".encode(), b"  "]),
        media_type=st.sampled_from([*TEXT_DOCUMENT_TYPES, "application/msword"]),
        filename=filenames,
    ),
)
sendable_audio = st.builds(
    AudioMessage,
    st.just(Role.USER),
    data=st.sampled_from([WAV, MP3, b"OggS\x00"]),
    media_type=st.just("audio/ogg"),
)
sendable_parts = st.lists(
    st.one_of(
        odd_texts.map(lambda t: TextMessage(Role.TOOL, t)), sendable_images, sendable_documents
    ),
    min_size=1,
    max_size=3,
).map(tuple)
raw_envelopes = st.sampled_from(
    [
        MessageEnvelope({"role": "user", "content": "raw"}),
        MessageEnvelope({"role": "system", "content": "raw system"}),
        MessageEnvelope({"role": "assistant", "content": "raw answer"}),
    ]
)


def _with_sender(image: ImageMessage, sender: str | None) -> ImageMessage:
    if image.url is not None:
        return ImageMessage(image.role, image.url, sender, detail=image.detail)
    return ImageMessage(image.role, None, sender, data=image.data, detail=image.detail)


@st.composite
def sendable_messages(draw: st.DrawFn) -> Message:
    """One message that converts for both providers (lenient), outside any tool round."""
    kind = draw(
        st.sampled_from(
            ["text", "text", "image", "document", "audio", "multimodal", "other_aggregate"]
        )
    )
    if kind == "text":
        role = draw(st.sampled_from([Role.SYSTEM, Role.USER, Role.ASSISTANT]))
        reasoning = draw(reasoning_lists)
        return TextMessage(role, draw(odd_texts), draw(senders), reasoning=reasoning)
    if kind == "image":
        return _with_sender(draw(sendable_images), draw(other_senders))
    if kind == "document":
        return dataclasses.replace(draw(sendable_documents), from_=draw(other_senders))
    if kind == "audio":
        return dataclasses.replace(draw(sendable_audio), from_=draw(other_senders))
    if kind == "multimodal":
        parts = st.one_of(
            odd_texts.map(lambda t: TextMessage(Role.USER, t)),
            sendable_images,
            sendable_documents,
            sendable_audio,
        )
        items = draw(st.lists(parts, min_size=1, max_size=3))
        return MultiModalMessage(Role.USER, items, draw(other_senders))
    calls = draw(
        st.lists(st.builds(ToolCall, function_names, any_arguments), min_size=1, max_size=2)
    )
    answered = [
        ToolCall(c.function_name, c.function_arguments, result=draw(odd_texts | sendable_parts))
        for c in calls
    ]
    return ToolCallAggregateMessage(
        ToolCallMessage(calls, "critic"), ToolCallResultMessage(answered, "critic"), "critic"
    )


@st.composite
def interruptions(draw: st.DrawFn) -> list[Message]:
    """Messages that may sit between calls and their results (moved after them)."""
    pool = st.one_of(
        st.builds(TextMessage, st.sampled_from([Role.USER, Role.SYSTEM]), odd_texts, other_senders),
        st.builds(_with_sender, sendable_images, other_senders),
    )
    return draw(st.lists(pool, max_size=1))


@st.composite
def tool_rounds(draw: st.DrawFn, *, valid: bool) -> list[Message]:
    """The agent's parallel calls and their results, maybe split, interrupted or aggregated.

    Invalid rounds may leave results missing (``None``) or give non-object arguments.
    """
    arguments = object_arguments if valid else any_arguments
    calls = draw(
        st.lists(
            st.builds(ToolCall, function_names, arguments, tool_call_id=call_ids),
            min_size=1,
            max_size=3,
        )
    )
    results = [
        ToolCall(
            call.function_name,
            call.function_arguments,
            tool_call_id=call.tool_call_id,
            result=draw(odd_texts | sendable_parts if valid else st.one_of(odd_texts, st.none())),
            is_error=draw(st.booleans()),
        )
        for call in calls
    ]
    sender = draw(st.sampled_from([None, AGENT]))
    call_message = ToolCallMessage(
        calls, sender, content=draw(st.none() | odd_texts), reasoning=draw(reasoning_lists)
    )
    if draw(st.booleans()):
        return [ToolCallAggregateMessage(call_message, ToolCallResultMessage(results), sender)]
    # Results split over two messages only when every call has an id: the fallback id of a
    # call without one is its position, which must be the same in calls and results.
    whole = not all(call.tool_call_id for call in calls)
    split = len(results) if whole else draw(st.integers(0, len(results)))
    parts = [results[:split], results[split:]]
    result_messages = [
        ToolCallResultMessage(part, draw(st.sampled_from([None, "tools"])))
        for part in parts
        if part
    ]
    return [call_message, *draw(interruptions()), *result_messages]


@st.composite
def valid_conversations(draw: st.DrawFn, *, envelopes: bool = False) -> list[Message]:
    """A conversation lenient conversion accepts for both providers; it starts with user text."""
    singles = st.one_of(sendable_messages(), raw_envelopes) if envelopes else sendable_messages()
    parts = draw(
        st.lists(st.one_of(singles.map(lambda m: [m]), tool_rounds(valid=True)), max_size=6)
    )
    return [TextMessage(Role.USER, "Start."), *(message for part in parts for message in part)]


@st.composite
def conversations(draw: st.DrawFn, *, envelopes: bool = False) -> list[Message]:
    """Any conversation: every message type, rule breakers included; starts with user text."""
    singles = st.one_of(
        neutral_messages,
        st.just(MessageEnvelope("not a provider message")),
        *([raw_envelopes] if envelopes else []),
    )
    parts = draw(
        st.lists(
            st.one_of(
                singles.map(lambda m: [m]), tool_rounds(valid=False), tool_rounds(valid=True)
            ),
            max_size=6,
        )
    )
    return [TextMessage(Role.USER, "Start."), *(message for part in parts for message in part)]
