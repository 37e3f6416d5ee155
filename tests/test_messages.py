"""Constructor rules, immutability, value equality and accessors of the neutral messages."""

from __future__ import annotations

import base64
import copy
import dataclasses
import pickle
from typing import TypeVar

import pytest

import llmbridge
from llmbridge import (
    AudioMessage,
    DocumentMessage,
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
    Usage,
    VideoMessage,
    dump_messages,
    load_messages,
)
from tests.strategies import MP3, MP4, PDF, PNG, WAV

_M = TypeVar("_M", ImageMessage, DocumentMessage, AudioMessage)
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 8
GIF = b"GIF89a" + b"\x00" * 8
WEBP = b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 4


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class TestRole:
    def test_equal_to_plain_string(self) -> None:
        assert Role.USER == "user"
        assert Role("user") == Role.USER
        assert hash(Role("user")) == hash("user")

    def test_extensible(self) -> None:
        assert Role("critic") == "critic"
        assert Role("critic") != Role.USER

    @pytest.mark.parametrize(
        ("constant", "value"),
        [
            (Role.SYSTEM, "system"),
            (Role.USER, "user"),
            (Role.ASSISTANT, "assistant"),
            (Role.TOOL, "tool"),
        ],
    )
    def test_constants(self, constant: Role, value: str) -> None:
        assert constant == value
        assert isinstance(constant, Role)

    def test_message_role_becomes_role(self) -> None:
        assert isinstance(TextMessage("user", "hi").role, Role)


class TestImageMessage:
    @pytest.mark.parametrize(
        ("data", "declared", "expected"),
        [
            (PNG, None, "image/png"),
            (JPEG, None, "image/jpeg"),
            (GIF, None, "image/gif"),
            (WEBP, None, "image/webp"),
            (PNG, "image/jpeg", "image/png"),
            (b"\x00\x01unknown", "image/jpg", "image/jpeg"),
            (b"\x00\x01unknown", "image/heic", "image/heic"),
        ],
        ids=[
            "png-sniffed",
            "jpeg-sniffed",
            "gif-sniffed",
            "webp-sniffed",
            "sniffed-type-corrects-declared",
            "jpg-alias-normalized",
            "unknown-bytes-keep-declared",
        ],
    )
    def test_media_type_rules(self, data: bytes, declared: str | None, expected: str) -> None:
        assert ImageMessage(Role.USER, data=data, media_type=declared).media_type == expected

    def test_data_url_is_parsed_into_data(self) -> None:
        image = ImageMessage(Role.USER, f"data:image/jpg;base64,{b64(PNG)}")
        assert image.url is None
        assert image.data == PNG
        assert image.media_type == "image/png"

    def test_data_url_declared_type_used_for_unknown_bytes(self) -> None:
        image = ImageMessage(Role.USER, f"data:image/jpg;base64,{b64(b'rawbytes')}")
        assert image.media_type == "image/jpeg"

    def test_url_media_type_may_stay_none(self) -> None:
        image = ImageMessage(Role.USER, "https://example.com/a.png")
        assert image.media_type is None
        assert image.data_url == "https://example.com/a.png"
        assert image.base64_data is None

    def test_base64_computed_once(self) -> None:
        image = ImageMessage(Role.USER, data=PNG)
        assert image.base64_data == b64(PNG)
        assert image.base64_data is image.base64_data
        assert image.data_url == f"data:image/png;base64,{b64(PNG)}"
        assert image.data_url is image.data_url

    def test_data_url_cached_without_filling_base64(self) -> None:
        image = ImageMessage(Role.USER, data=PNG)
        assert image.data_url is image.data_url
        assert image.data_url.endswith(b64(PNG))

    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({}, "url"),
            ({"url": "https://x/a.png", "data": PNG}, "url"),
            ({"data": b""}, "data"),
            ({"url": "data:image/png;base64,@@@"}, "url"),
            ({"url": "data:image/png,rawtext"}, "url"),
            ({"url": "data:nocomma"}, "url"),
            ({"data": b"unknown bytes"}, "media_type"),
            ({"url": "   "}, "url"),
            ({"url": "https://x/a.png", "detail": "ultra"}, "detail"),
        ],
        ids=[
            "neither-url-nor-data",
            "both-url-and-data",
            "empty-data",
            "undecodable-base64",
            "data-url-not-base64",
            "malformed-data-url",
            "unknown-bytes-without-type",
            "blank-url",
            "bad-detail",
        ],
    )
    def test_invalid(self, kwargs: dict[str, object], field: str) -> None:
        with pytest.raises(InvalidMessageError) as info:
            ImageMessage(Role.USER, **kwargs)  # type: ignore[arg-type]
        assert info.value.field == field
        assert isinstance(info.value, ValueError)

    @pytest.mark.parametrize(
        "scheme", ["DATA", "Data", "dAtA"], ids=["upper-case", "capitalized", "mixed-case"]
    )
    def test_data_url_scheme_is_case_insensitive(self, scheme: str) -> None:
        image = ImageMessage(Role.USER, f"{scheme}:image/png;BASE64,{b64(PNG)}")
        assert (image.url, image.data, image.media_type) == (None, PNG, "image/png")

    @pytest.mark.parametrize(
        "url",
        [
            "https://example.com/cat.png",
            "http://example.com/cat.png?size=2#top",
            "HTTPS://EXAMPLE.COM/cat.png",
            "Http://user@example.com:8080/cat.png",
            "https://[2001:db8::1]/cat.png",
            "gs://bucket/cat.png",
            "GS://bucket/cat.png",
        ],
        ids=[
            "https",
            "http-with-query-and-fragment",
            "upper-case-scheme",
            "user-and-port",
            "ipv6-host",
            "gs-for-gemini",
            "upper-case-gs",
        ],
    )
    def test_absolute_web_and_gs_urls_are_urls(self, url: str) -> None:
        image = ImageMessage(Role.USER, url)
        assert (image.url, image.data) == (url, None)

    @pytest.mark.parametrize(
        "url",
        [
            "file:///home/me/cat.png",
            "cat.png",
            "/home/me/cat.png",
            "ftp://example.com/cat.png",
            "//example.com/cat.png",
            "https:///cat.png",
            "https://",
            "gs:///cat.png",
            "https:example.com/cat.png",
            "https://[2001:db8::1/cat.png",
            "javascript:alert(1)",
        ],
        ids=[
            "file-url",
            "relative-path",
            "absolute-path",
            "ftp-url",
            "scheme-relative",
            "empty-host",
            "nothing-after-the-scheme",
            "gs-without-bucket",
            "no-double-slash",
            "unclosed-ipv6-bracket",
            "javascript-url",
        ],
    )
    def test_urls_no_api_takes_are_refused_at_construction(self, url: str) -> None:
        with pytest.raises(InvalidMessageError) as info:
            ImageMessage(Role.USER, url)
        assert (info.value.index, info.value.field) == (None, "url")

    def test_loading_a_url_no_api_takes_names_the_message(self) -> None:
        data = dump_messages(
            [TextMessage(Role.USER, "look"), ImageMessage(Role.USER, "https://x/a.png")]
        )
        with pytest.raises(InvalidMessageError) as info:
            load_messages(data.replace("https://x/a.png", "file:///home/me/cat.png"))
        assert (info.value.index, info.value.field) == (1, "url")


class TestMultiModalMessage:
    def test_items_kept_in_order(self) -> None:
        text = TextMessage(Role.USER, "look")
        image = ImageMessage(Role.USER, "https://x/a.png")
        message = MultiModalMessage(Role.USER, [text, image])
        assert message.content == (text, image)

    def test_empty_content_rejected(self) -> None:
        with pytest.raises(InvalidMessageError, match="must not be empty"):
            MultiModalMessage(Role.USER, [])

    @pytest.mark.parametrize(
        "item",
        [ToolCallMessage([ToolCall("f", "{}")]), "plain string", MessageEnvelope({})],
        ids=["tool-call-message", "string", "envelope"],
    )
    def test_other_items_rejected(self, item: object) -> None:
        with pytest.raises(InvalidMessageError) as info:
            MultiModalMessage(Role.USER, [TextMessage(Role.USER, "a"), item])  # type: ignore[list-item]
        assert info.value.field == "content[1]"

    def test_string_content_rejected(self) -> None:
        with pytest.raises(InvalidMessageError):
            MultiModalMessage(Role.USER, "text")  # type: ignore[arg-type]


CALLS = (
    ToolCall("f", '{"a": 1}', tool_call_id="c1", result="one"),
    ToolCall("g", "{}", result=None),
)
ACCESSORS = [
    (TextMessage(Role.USER, "hi"), "hi", None),
    (ImageMessage(Role.USER, "https://x/a.png"), None, None),
    (MultiModalMessage(Role.USER, [TextMessage(Role.USER, "hi")]), None, None),
    (ToolCallMessage(CALLS, content="thinking aloud"), "thinking aloud", list(CALLS)),
    (ToolCallMessage(CALLS), None, list(CALLS)),
    (ToolCallResultMessage([*CALLS, ToolCall("h", "{}", result="two")]), "one\ntwo", None),
    (ToolCallResultMessage([ToolCall("h", "{}")]), None, None),
    (
        ToolCallAggregateMessage(ToolCallMessage(CALLS), ToolCallResultMessage(CALLS)),
        "one",
        list(CALLS),
    ),
    (TextMessageUpdate(Role.ASSISTANT, "delta"), "delta", None),
    (ReasoningMessageUpdate("hmm"), "hmm", None),
    (ToolCallMessageUpdate("f", '{"a"'), None, None),
    (MessageEnvelope({"role": "user"}), None, None),
]


@pytest.mark.parametrize(
    ("message", "content", "tool_calls"),
    ACCESSORS,
    ids=[type(m).__name__ + f"-{i}" for i, (m, _, _) in enumerate(ACCESSORS)],
)
def test_accessors(message: object, content: str | None, tool_calls: list[ToolCall] | None) -> None:
    assert message.get_content() == content  # type: ignore[attr-defined]
    assert message.get_tool_calls() == tool_calls  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (TextMessage(Role.USER, "a"), "content"),
        (ImageMessage(Role.USER, "https://x/a.png"), "url"),
        (ToolCallMessage(CALLS), "tool_calls"),
        (ToolCall("f", "{}"), "result"),
        (Usage(1, 2), "input_tokens"),
        (Reasoning("r"), "text"),
        (MessageEnvelope({}), "content"),
    ],
    ids=["text", "image", "tool-call", "tool-call-item", "usage", "reasoning", "envelope"],
)
def test_frozen(message: object, field: str) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, field, "changed")


def test_sequences_are_copied_to_tuples() -> None:
    calls = [ToolCall("f", "{}")]
    message = ToolCallMessage(calls)
    calls.append(ToolCall("g", "{}"))
    assert len(message.tool_calls) == 1
    assert isinstance(message.tool_calls, tuple)


def test_value_equality_ignores_raw() -> None:
    a = TextMessage(Role.ASSISTANT, "x", "bot", raw=object())
    b = TextMessage(Role.ASSISTANT, "x", "bot", raw=object())
    assert a == b
    assert hash(a) == hash(b)
    assert a != TextMessage(Role.ASSISTANT, "x", "other")


def test_different_types_are_not_equal() -> None:
    assert TextMessage(Role.ASSISTANT, "x") != TextMessageUpdate(Role.ASSISTANT, "x")


def test_usage_total() -> None:
    assert Usage(10, 5, cache_read_tokens=4).total_tokens == 15


def test_envelope_metadata_is_a_copy() -> None:
    metadata = {"k": 1}
    envelope = MessageEnvelope({"role": "user"}, "bot", metadata=metadata)
    metadata["k"] = 2
    assert envelope.metadata == {"k": 1}


@pytest.mark.parametrize(
    "build",
    [
        lambda: TextMessage(Role.USER, 42),
        lambda: ToolCallMessage(["not a call"]),
        lambda: TextMessage(Role.USER, "x", reasoning=["not reasoning"]),
        lambda: ToolCallAggregateMessage(TextMessage(Role.USER, "x"), ToolCallResultMessage([])),
    ],
    ids=[
        "text-content-not-str",
        "tool-calls-not-toolcall",
        "reasoning-wrong-type",
        "aggregate-wrong-parts",
    ],
)
def test_wrong_types_rejected(build: object) -> None:
    with pytest.raises(InvalidMessageError):
        build()  # type: ignore[operator]


def _cached(media: _M) -> _M:
    """``media`` with its base64 and data-URL caches filled, as after a first conversion."""
    assert media.data_url
    assert media.base64_data
    return media


ONE_OF_EACH: dict[str, Message] = {
    "text": TextMessage(Role.ASSISTANT, "x", "bot", finish_reason="stop"),
    "image-url": ImageMessage(Role.USER, "https://x/a.png", "user", detail="low"),
    "image-data-with-filled-caches": _cached(ImageMessage(Role.USER, data=PNG, detail="high")),
    "document-url": DocumentMessage(Role.USER, "https://x/a.pdf", "user", filename="a.pdf"),
    "document-pdf-with-filled-caches": _cached(DocumentMessage(Role.USER, data=PDF)),
    "document-text": DocumentMessage(Role.USER, data=b"a,b\n1,2\n", media_type="text/csv"),
    "audio-with-filled-caches": _cached(AudioMessage(Role.USER, data=WAV)),
    "video-with-filled-caches": _cached(VideoMessage(Role.USER, data=MP4)),
    "multimodal": MultiModalMessage(
        Role.USER,
        [
            TextMessage(Role.USER, "see"),
            ImageMessage(Role.USER, data=PNG),
            DocumentMessage(Role.USER, data=PDF),
            AudioMessage(Role.USER, data=MP3),
        ],
    ),
    "tool-call": ToolCallMessage(CALLS, "bot", content="calling"),
    "tool-call-result": ToolCallResultMessage(CALLS, "bot"),
    "tool-call-aggregate": ToolCallAggregateMessage(
        ToolCallMessage(CALLS), ToolCallResultMessage(CALLS), "bot"
    ),
    "text-update": TextMessageUpdate(Role.ASSISTANT, "delta", "bot"),
    "reasoning-update": ReasoningMessageUpdate("hmm", "bot"),
    "tool-call-update": ToolCallMessageUpdate("f", '{"a"', "bot", index=1, tool_call_id="c"),
    "envelope": MessageEnvelope({"role": "user", "content": "x"}, "bot", metadata={"k": 1}),
}


def test_one_of_each_covers_every_message_type() -> None:
    exported = {
        value
        for value in vars(llmbridge).values()
        if isinstance(value, type) and issubclass(value, Message) and value is not Message
    }
    assert {type(message) for message in ONE_OF_EACH.values()} == exported


@pytest.mark.parametrize("message", ONE_OF_EACH.values(), ids=ONE_OF_EACH.keys())
def test_replace_works_on_every_message_type(message: Message) -> None:
    changed = dataclasses.replace(message, from_="someone")  # type: ignore[type-var]
    assert type(changed) is type(message)
    assert changed.from_ == "someone"
    assert dataclasses.replace(changed, from_=message.from_) == message  # type: ignore[type-var]


def test_replace_on_an_image_recomputes_its_caches() -> None:
    image = ONE_OF_EACH["image-data-with-filled-caches"]
    assert isinstance(image, ImageMessage)
    jpeg = dataclasses.replace(image, data=JPEG)
    assert (jpeg.media_type, jpeg.base64_data) == ("image/jpeg", b64(JPEG))
    assert jpeg.data_url == f"data:image/jpeg;base64,{b64(JPEG)}"


def test_generic_envelope_constructs() -> None:
    payload = {"role": "user", "content": "x"}
    envelope = MessageEnvelope[dict[str, str]](payload, "bot")
    assert envelope == MessageEnvelope(payload, "bot")
    assert envelope.content is payload


def test_envelope_metadata_is_read_only() -> None:
    envelope = MessageEnvelope({"role": "user"}, "bot", metadata={"k": 1})
    with pytest.raises(TypeError):
        envelope.metadata["k"] = 2  # type: ignore[index]
    assert envelope.metadata == {"k": 1}
    assert MessageEnvelope({}).metadata == {}


def test_envelope_equality_and_copies_keep_the_metadata() -> None:
    envelope = MessageEnvelope({"role": "user"}, "bot", metadata={"k": [1]})
    assert envelope == MessageEnvelope({"role": "user"}, "bot", metadata={"k": [1]})
    assert envelope != MessageEnvelope({"role": "user"}, "bot", metadata={"k": [2]})
    assert hash(envelope) == hash(MessageEnvelope({"other": 1}, "bot"))  # from_ only
    for copied in (copy.deepcopy(envelope), pickle.loads(pickle.dumps(envelope))):
        assert copied == envelope
        assert copied.metadata["k"] is not envelope.metadata["k"]
        with pytest.raises(TypeError):
            copied.metadata["k"] = 2  # type: ignore[index]


# The stream updates have hand-written __init__s (set through their slots, for speed): they
# must take the arguments the generated ones took and stay frozen.
@pytest.mark.parametrize(
    ("built", "fields"),
    [
        (
            TextMessageUpdate("assistant", "d"),
            {"role": Role.ASSISTANT, "content": "d", "from_": None},
        ),
        (
            TextMessageUpdate(role=Role.USER, content="d", from_="bot"),
            {"role": Role.USER, "content": "d", "from_": "bot"},
        ),
        (ReasoningMessageUpdate("r"), {"content": "r", "from_": None}),
        (ReasoningMessageUpdate(content="r", from_="bot"), {"content": "r", "from_": "bot"}),
        (
            ToolCallMessageUpdate("f", "{"),
            {
                "function_name": "f",
                "function_arguments_update": "{",
                "from_": None,
                "index": 0,
                "tool_call_id": None,
            },
        ),
        (
            ToolCallMessageUpdate("f", "{", "bot", index=2, tool_call_id="c"),
            {
                "function_name": "f",
                "function_arguments_update": "{",
                "from_": "bot",
                "index": 2,
                "tool_call_id": "c",
            },
        ),
    ],
    ids=["text", "text-keywords", "reasoning", "reasoning-keywords", "call", "call-all"],
)
def test_updates_take_their_fields_and_stay_frozen(
    built: Message, fields: dict[str, object]
) -> None:
    assert {name: getattr(built, name) for name in fields} == fields
    assert {f.name for f in dataclasses.fields(built)} == set(fields)  # type: ignore[arg-type]
    assert type(built)(**fields) == built
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.from_ = "other"  # type: ignore[misc]


def test_update_keywords_stay_keyword_only() -> None:
    with pytest.raises(TypeError):
        ToolCallMessageUpdate("f", "{", "bot", 2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        TextMessageUpdate(Role.ASSISTANT)  # type: ignore[call-arg]
    assert type(TextMessageUpdate("assistant", "d").role) is Role
