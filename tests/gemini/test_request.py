"""to_gemini: the rules of API.md 15 (request side) in both modes, each body sent by the real
google-genai client over respx and checked by the strict wire validator (conftest)."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
import respx

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
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.gemini import SKIP_THOUGHT_SIGNATURE, to_gemini
from tests.corpus import AGENT, PNG
from tests.gemini.sending import as_sent, sent_body

OTHER = "critic"
PNG_B64 = base64.b64encode(PNG).decode()
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 16
GIF = b"GIF89a" + b"\x00" * 16
WEBP = b"RIFF\x00\x00\x00\x00WEBPVP8 " + b"\x00" * 8
SIG = base64.b64encode(b"signature-1").decode()
SIG2 = base64.b64encode(b"signature-2").decode()
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
WAV = b"RIFF$\x00\x00\x00WAVEfmt " + b"\x00" * 12
FILES_URI = "https://generativelanguage.googleapis.com/v1beta/files/abc123"
HI = TextMessage(Role.USER, "Hi")
GO = TextMessage(Role.USER, "Go on")


def user(*parts: Any) -> dict[str, Any]:
    return {"role": "user", "parts": [p if isinstance(p, dict) else {"text": p} for p in parts]}


def model(*parts: Any) -> dict[str, Any]:
    return {"role": "model", "parts": [p if isinstance(p, dict) else {"text": p} for p in parts]}


def call_part(call_id: str, name: str, args: dict[str, Any], sig: str | None = None) -> Any:
    part: dict[str, Any] = {"function_call": {"name": name, "args": args, "id": call_id}}
    if sig is not None:
        part["thought_signature"] = sig
    return part


def response_part(call_id: str, name: str, text: str, key: str = "output") -> Any:
    return {"function_response": {"name": name, "id": call_id, "response": {key: text}}}


def inline(media_type: str, data: bytes) -> Any:
    return {"inline_data": {"mime_type": media_type, "data": base64.b64encode(data).decode()}}


def signed(tag: str, signature: str) -> dict[str, Any]:
    return {tag: {"thought_signature": signature}}


CALL = ToolCall(
    "get_weather", '{"city": "Paris"}', tool_call_id="c1", provider_data=signed("gemini", SIG)
)
RESULT = ToolCall("get_weather", "", tool_call_id="c1", result="sunny")
SIGNED_CALL = call_part("c1", "get_weather", {"city": "Paris"}, SIG)
ANSWER = response_part("c1", "get_weather", "sunny")


@dataclass(frozen=True)
class Case:
    messages: list[Message]
    contents: list[Any]
    notes: list[tuple[int | None, str]] = field(default_factory=list)
    system_instruction: list[Any] = field(default_factory=list)
    kwargs: dict[str, Any] = field(default_factory=dict)


RULES = {
    "user text is a user content": Case([HI], [user("Hi")]),
    "self text is a model content": Case(
        [HI, TextMessage(Role.ASSISTANT, "Hello", AGENT), GO],
        [user("Hi"), model("Hello"), user("Go on")],
    ),
    "assistant text without sender is a model content": Case(
        [HI, TextMessage(Role.ASSISTANT, "Hello"), GO], [user("Hi"), model("Hello"), user("Go on")]
    ),
    "another agent's text is user and its name is dropped": Case(
        [TextMessage(Role.ASSISTANT, "Hm", OTHER)], [user("Hm")], [(0, "dropped")]
    ),
    "name_policy prefix carries the name as a first text part": Case(
        [TextMessage(Role.USER, "Hm", OTHER)],
        [user("[critic] ", "Hm")],
        [(0, "repaired")],
        kwargs={"name_policy": "prefix"},
    ),
    "system text goes to system_instruction after the system argument": Case(
        [TextMessage(Role.SYSTEM, "Be brief."), HI],
        [user("Hi")],
        system_instruction=[{"text": "Agent rules."}, {"text": "Be brief."}],
        kwargs={"system": "Agent rules."},
    ),
    "system text after a content moves to system_instruction": Case(
        [HI, TextMessage(Role.SYSTEM, "Late rule.")],
        [user("Hi")],
        [(1, "repaired")],
        system_instruction=[{"text": "Late rule."}],
    ),
    "consecutive user contents merge": Case(
        [HI, TextMessage(Role.USER, "There")], [user("Hi", "There")], [(1, "merged")]
    ),
    "empty and whitespace text is dropped": Case(
        [HI, TextMessage(Role.USER, "  ")], [user("Hi")], [(1, "dropped")]
    ),
    "a call turn: text, parsed args, '' is {}, fallback id, own signature": Case(
        [
            HI,
            ToolCallMessage(
                [CALL, ToolCall("now", "")], AGENT, content="Checking.", provider_data={}
            ),
            ToolCallResultMessage([RESULT, ToolCall("now", "", result="noon")]),
        ],
        [
            user("Hi"),
            model("Checking.", SIGNED_CALL, call_part("now_1", "now", {})),
            user(ANSWER, response_part("now_1", "now", "noon")),
        ],
    ),
    "responses go in call order in one user content, from several result messages": Case(
        [
            HI,
            ToolCallMessage([CALL, ToolCall("now", "{}", tool_call_id="c2")], AGENT),
            ToolCallResultMessage([ToolCall("now", "", tool_call_id="c2", result="noon")]),
            ToolCallResultMessage([RESULT]),
        ],
        [
            user("Hi"),
            model(SIGNED_CALL, call_part("c2", "now", {})),
            user(ANSWER, response_part("c2", "now", "noon")),
        ],
        [(3, "merged"), (3, "repaired")],
    ),
    "an error result goes under response.error": Case(
        [
            HI,
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage(
                [ToolCall("get_weather", "", tool_call_id="c1", result="boom", is_error=True)]
            ),
        ],
        [user("Hi"), model(SIGNED_CALL), user(response_part("c1", "get_weather", "boom", "error"))],
    ),
    "a result holding $ref is sent as a string under output": Case(
        [
            HI,
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage(
                [ToolCall("get_weather", "", tool_call_id="c1", result='{"$ref": "#/a"}')]
            ),
        ],
        [
            user("Hi"),
            model(SIGNED_CALL),
            user(response_part("c1", "get_weather", '{"$ref": "#/a"}')),
        ],
    ),
    "a user text after the responses joins their content": Case(
        [HI, ToolCallMessage([CALL], AGENT), ToolCallResultMessage([RESULT]), GO],
        [user("Hi"), model(SIGNED_CALL), user(ANSWER, "Go on")],
        [(3, "merged")],
    ),
    "own reasoning is a thought part with its signature; foreign reasoning is omitted": Case(
        [
            HI,
            ToolCallMessage(
                [CALL],
                AGENT,
                reasoning=(
                    Reasoning("Weather first.", signature=SIG2, provider="gemini"),
                    Reasoning("hidden", signature="x", provider="anthropic"),
                    Reasoning("summary", provider="gemini"),
                ),
            ),
            ToolCallResultMessage([RESULT]),
        ],
        [
            user("Hi"),
            model(
                {"text": "Weather first.", "thought": True, "thought_signature": SIG2},
                {"text": "summary", "thought": True},
                SIGNED_CALL,
            ),
            user(ANSWER),
        ],
        [(1, "omitted")],
    ),
    "a text signature comes back on its text part, an empty signed text included": Case(
        [
            HI,
            TextMessage(Role.ASSISTANT, "Sure.", AGENT, provider_data=signed("gemini", SIG)),
            GO,
            ToolCallMessage([CALL], AGENT, content="", provider_data=signed("gemini", SIG2)),
            ToolCallResultMessage([RESULT]),
        ],
        [
            user("Hi"),
            model({"text": "Sure.", "thought_signature": SIG}),
            user("Go on"),
            model({"text": "", "thought_signature": SIG2}, SIGNED_CALL),
            user(ANSWER),
        ],
    ),
    "a signature of another tag is not sent: the call gets the bypass value": Case(
        [
            HI,
            ToolCallMessage(
                [
                    ToolCall(
                        "get_weather", "{}", tool_call_id="c1", provider_data=signed("vertex", SIG)
                    )
                ],
                AGENT,
            ),
            ToolCallResultMessage([RESULT]),
        ],
        [
            user("Hi"),
            model(call_part("c1", "get_weather", {}, SKIP_THOUGHT_SIGNATURE)),
            user(ANSWER),
        ],
        [(1, "repaired")],
    ),
    "provider vertex reads the vertex signatures": Case(
        [
            HI,
            ToolCallMessage(
                [
                    ToolCall(
                        "get_weather", "{}", tool_call_id="c1", provider_data=signed("vertex", SIG)
                    )
                ],
                AGENT,
            ),
            ToolCallResultMessage([RESULT]),
        ],
        [user("Hi"), model(call_part("c1", "get_weather", {}, SIG)), user(ANSWER)],
        kwargs={"provider": "vertex"},
    ),
    "bypass: first call of each model turn since the last user text, earlier turns untouched": Case(
        [
            HI,
            ToolCallMessage([ToolCall("a", "{}", tool_call_id="a1")], AGENT),
            ToolCallResultMessage([ToolCall("a", "", tool_call_id="a1", result="A")]),
            GO,
            ToolCallMessage(
                [ToolCall("b", "{}", tool_call_id="b1"), ToolCall("c", "{}", tool_call_id="c1")],
                AGENT,
            ),
            ToolCallResultMessage(
                [
                    ToolCall("b", "", tool_call_id="b1", result="B"),
                    ToolCall("c", "", tool_call_id="c1", result="C"),
                ]
            ),
            ToolCallMessage([ToolCall("d", "{}", tool_call_id="d1")], AGENT),
            ToolCallResultMessage([ToolCall("d", "", tool_call_id="d1", result="D")]),
        ],
        [
            user("Hi"),
            model(call_part("a1", "a", {})),
            user(response_part("a1", "a", "A"), "Go on"),
            model(call_part("b1", "b", {}, SKIP_THOUGHT_SIGNATURE), call_part("c1", "c", {})),
            user(response_part("b1", "b", "B"), response_part("c1", "c", "C")),
            model(call_part("d1", "d", {}, SKIP_THOUGHT_SIGNATURE)),
            user(response_part("d1", "d", "D")),
        ],
        [(3, "merged"), (4, "repaired"), (6, "repaired")],
    ),
    "self text before the calls merges into their model content": Case(
        [
            HI,
            TextMessage(Role.ASSISTANT, "Let me see.", AGENT),
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage([RESULT]),
        ],
        [user("Hi"), model("Let me see.", SIGNED_CALL), user(ANSWER)],
        [(2, "merged")],
    ),
    "a self aggregate is a model content and a user content": Case(
        [
            HI,
            ToolCallAggregateMessage(
                ToolCallMessage([CALL], AGENT), ToolCallResultMessage([RESULT]), AGENT
            ),
        ],
        [user("Hi"), model(SIGNED_CALL), user(ANSWER)],
    ),
    "another agent's aggregate is user text, one part per result": Case(
        [
            ToolCallAggregateMessage(
                ToolCallMessage([CALL, ToolCall("now", "{}")], OTHER),
                ToolCallResultMessage([RESULT, ToolCall("now", "", result="noon")], OTHER),
                OTHER,
            )
        ],
        [user("[critic] ", "sunny", "noon")],
        [(0, "repaired")],
        kwargs={"name_policy": "prefix"},
    ),
    "png, jpeg and webp bytes are inline_data": Case(
        [
            ImageMessage(Role.USER, data=PNG),
            MultiModalMessage(
                Role.USER,
                [
                    TextMessage(Role.USER, "these"),
                    ImageMessage(Role.USER, data=JPEG),
                    ImageMessage(Role.USER, data=WEBP),
                ],
            ),
        ],
        [
            user(
                inline("image/png", PNG),
                "these",
                inline("image/jpeg", JPEG),
                inline("image/webp", WEBP),
            )
        ],
        [(1, "merged")],
    ),
    "gs:// and Files API URIs are file_data": Case(
        [
            ImageMessage(Role.USER, "gs://bucket/cat.png"),
            ImageMessage(Role.USER, FILES_URI, media_type="image/jpeg"),
        ],
        [
            user(
                {"file_data": {"file_uri": "gs://bucket/cat.png", "mime_type": "image/png"}},
                {"file_data": {"file_uri": FILES_URI, "mime_type": "image/jpeg"}},
            )
        ],
        [(1, "merged")],
    ),
    "an image detail is omitted": Case(
        [ImageMessage(Role.USER, data=PNG, detail="low")],
        [user(inline("image/png", PNG))],
        [(0, "omitted")],
    ),
    "a GIF is not supported": Case(
        [HI, ImageMessage(Role.USER, data=GIF)], [user("Hi")], [(1, "dropped")]
    ),
    "an https image URL is not supported": Case(
        [HI, ImageMessage(Role.USER, "https://example.com/cat.png")], [user("Hi")], [(1, "dropped")]
    ),
    "a function name Gemini refuses is renamed in call and response": Case(
        [
            HI,
            ToolCallMessage([ToolCall("9 lives", "{}", tool_call_id="c1")], AGENT),
            ToolCallResultMessage([ToolCall("9 lives", "", tool_call_id="c1", result="ok")]),
        ],
        [
            user("Hi"),
            model(call_part("c1", "_9_lives_d05adc7c", {}, SKIP_THOUGHT_SIGNATURE)),
            user(response_part("c1", "_9_lives_d05adc7c", "ok")),
        ],
        [(1, "renamed"), (1, "repaired")],
    ),
    "a content envelope passes through; a system envelope joins system_instruction": Case(
        [
            MessageEnvelope({"role": "system", "parts": [{"text": "Raw rule."}]}),
            MessageEnvelope({"role": "user", "parts": [{"text": "raw"}]}),
        ],
        [{"role": "user", "parts": [{"text": "raw"}]}],
        system_instruction=[{"text": "Raw rule."}],
    ),
    "a content envelope merges with a neighbour of its role": Case(
        [HI, MessageEnvelope({"role": "user", "parts": [{"text": "raw"}]})],
        [user("Hi", "raw")],
        [(1, "merged")],
    ),
    "an envelope of another provider's message is not supported": Case(
        [HI, MessageEnvelope({"role": "tool", "content": "x"})], [user("Hi")], [(1, "dropped")]
    ),
    "PDF and text document bytes are inline_data (markdown and csv as text/plain)": Case(
        [
            DocumentMessage(Role.USER, data=PDF),
            DocumentMessage(Role.USER, data=b"# Notes", media_type="text/markdown"),
        ],
        [user(inline("application/pdf", PDF), inline("text/plain", b"# Notes"))],
        [(1, "merged")],
    ),
    "a gs:// document URL is file_data, an https one is not supported": Case(
        [
            DocumentMessage(Role.USER, "gs://bucket/report.pdf"),
            DocumentMessage(Role.USER, "https://example.com/report.pdf"),
        ],
        [
            user(
                {
                    "file_data": {
                        "file_uri": "gs://bucket/report.pdf",
                        "mime_type": "application/pdf",
                    }
                }
            )
        ],
        [(1, "dropped")],
    ),
    "audio bytes are inline_data": Case(
        [AudioMessage(Role.USER, data=WAV)], [user(inline("audio/wav", WAV))]
    ),
    "a media tool result: text under output, media in function_response.parts": Case(
        [
            HI,
            ToolCallMessage([CALL, ToolCall("shot", "{}", tool_call_id="c2")], AGENT),
            ToolCallResultMessage(
                [
                    ToolCall(
                        "get_weather",
                        "",
                        tool_call_id="c1",
                        result=(
                            TextMessage(Role.TOOL, "sunny"),
                            TextMessage(Role.TOOL, "18C"),
                            ImageMessage(Role.USER, data=PNG),
                        ),
                    ),
                    ToolCall(
                        "shot",
                        "",
                        tool_call_id="c2",
                        result=(
                            ImageMessage(Role.USER, data=PNG),
                            DocumentMessage(Role.USER, data=PDF),
                        ),
                    ),
                ]
            ),
        ],
        [
            user("Hi"),
            model(SIGNED_CALL, call_part("c2", "shot", {})),
            user(
                {
                    "function_response": {
                        "name": "get_weather",
                        "id": "c1",
                        "response": {"output": "sunny\n18C"},
                        "parts": [inline("image/png", PNG)],
                    }
                },
                {
                    "function_response": {
                        "name": "shot",
                        "id": "c2",
                        "response": {"output": ""},
                        "parts": [inline("image/png", PNG), inline("application/pdf", PDF)],
                    }
                },
            ),
        ],
    ),
    "a GIF in a tool result is not supported": Case(
        [
            HI,
            ToolCallMessage([CALL], AGENT),
            ToolCallResultMessage(
                [
                    ToolCall(
                        "get_weather",
                        "",
                        tool_call_id="c1",
                        result=(ImageMessage(Role.USER, data=GIF),),
                    )
                ]
            ),
        ],
        [user("Hi"), model(SIGNED_CALL), user(response_part("c1", "get_weather", ""))],
        [(2, "dropped")],
    ),
    "an update message is not supported": Case(
        [HI, ReasoningMessageUpdate("hm")], [user("Hi")], [(1, "dropped")]
    ),
}
_LOSSY = {"dropped", "renamed"}


@pytest.mark.parametrize("case", list(RULES.values()), ids=list(RULES))
async def test_rule_lenient_payload_and_wire(case: Case, router: respx.Router) -> None:
    request = to_gemini(case.messages, agent_name=AGENT, **case.kwargs)

    assert request.contents == case.contents
    assert request.messages is request.contents
    assert request.system_instruction == case.system_instruction
    assert [(note.index, note.kind) for note in request.notes] == case.notes
    assert len(request.indices) == len(request.contents)
    body = await sent_body(router, request)
    assert body["contents"] == as_sent(case.contents)


@pytest.mark.parametrize("case", list(RULES.values()), ids=list(RULES))
def test_rule_strict_mode_raises_exactly_for_lossy_notes(case: Case) -> None:
    lossy = [kind for _, kind in case.notes if kind in _LOSSY]
    if not lossy:
        strict = to_gemini(case.messages, agent_name=AGENT, strict_mode=True, **case.kwargs)
        assert strict == to_gemini(case.messages, agent_name=AGENT, **case.kwargs)
        return
    with pytest.raises((InvalidMessageError, UnsupportedMessageError)) as raised:
        to_gemini(case.messages, agent_name=AGENT, strict_mode=True, **case.kwargs)
    first = next(index for index, kind in case.notes if kind in _LOSSY)
    assert raised.value.index == first


@pytest.mark.parametrize(
    ("messages", "error", "index", "field"),
    [
        pytest.param(
            [HI, ToolCallMessage([ToolCall("f", "not json", tool_call_id="c")], AGENT)],
            InvalidMessageError,
            1,
            "tool_calls[0].function_arguments",
            id="arguments that are not JSON",
        ),
        pytest.param(
            [HI, ToolCallMessage([ToolCall("f", "[1]", tool_call_id="c")], AGENT)],
            InvalidMessageError,
            1,
            "tool_calls[0].function_arguments",
            id="arguments that are no object",
        ),
        pytest.param(
            [HI, ToolCallMessage([ToolCall("f", "{}")], OTHER)],
            InvalidMessageError,
            1,
            "from_",
            id="tool calls from another agent",
        ),
        pytest.param(
            [ImageMessage(Role.USER, data=PNG, from_=AGENT)],
            InvalidMessageError,
            0,
            "from_",
            id="an image from the agent itself",
        ),
        pytest.param(
            [DocumentMessage(Role.USER, data=PDF, from_=AGENT)],
            InvalidMessageError,
            0,
            "from_",
            id="a document from the agent itself",
        ),
        pytest.param(
            [TextMessage(Role.TOOL, "x")],
            InvalidMessageError,
            0,
            "role",
            id="text without sender and a role that is not user assistant or system",
        ),
        pytest.param(
            [ImageMessage(Role.USER, data=b"\x00\x01", media_type="image/bmp")],
            InvalidMessageError,
            0,
            "media_type",
            id="image bytes of a type Gemini does not take",
        ),
        pytest.param(
            [
                HI,
                ToolCallMessage(
                    [
                        ToolCall(
                            "f",
                            "{}",
                            tool_call_id="c",
                            provider_data=signed("gemini", "no base64!"),
                        )
                    ],
                    AGENT,
                ),
                ToolCallResultMessage([ToolCall("f", "", tool_call_id="c", result="r")]),
            ],
            InvalidMessageError,
            1,
            "tool_calls[0].provider_data['gemini']",
            id="an own signature that is not base64",
        ),
        pytest.param(
            [TextMessage(Role.ASSISTANT, "Hello", AGENT), HI],
            InvalidMessageError,
            0,
            None,
            id="a conversation starting with a model turn",
        ),
        pytest.param(
            [HI, TextMessage(Role.ASSISTANT, "Hello", AGENT)],
            InvalidMessageError,
            1,
            None,
            id="a conversation ending with a model turn",
        ),
        pytest.param(
            [HI, ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")], AGENT), GO],
            InvalidMessageError,
            1,
            "tool_calls",
            id="an unanswered call",
        ),
        pytest.param(
            [TextMessage(Role.SYSTEM, "only rules")],
            InvalidMessageError,
            None,
            None,
            id="no content left to send",
        ),
    ],
)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_rule_breakers_raise_in_both_modes(
    messages: list[Message],
    error: type[Exception],
    index: int | None,
    field: str | None,
    strict_mode: bool,
) -> None:
    with pytest.raises(error) as raised:
        to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)
    assert getattr(raised.value, "index", None) == index
    if field is not None:
        assert getattr(raised.value, "field", None) == field


@pytest.mark.parametrize(
    ("image", "strict_error"),
    [
        pytest.param(ImageMessage(Role.USER, data=GIF), UnsupportedMessageError, id="gif"),
        pytest.param(
            ImageMessage(Role.USER, "https://example.com/a.png"),
            UnsupportedMessageError,
            id="https url",
        ),
    ],
)
def test_unsupported_images_raise_unsupported_in_strict_mode(
    image: ImageMessage, strict_error: type[Exception]
) -> None:
    with pytest.raises(strict_error):
        to_gemini([HI, image], agent_name=AGENT, strict_mode=True)


async def test_the_bypass_value_reaches_the_wire_literally(router: respx.Router) -> None:
    request = to_gemini(
        [
            HI,
            ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")], AGENT),
            ToolCallResultMessage([ToolCall("f", "", tool_call_id="c", result="r")]),
        ],
        agent_name=AGENT,
    )
    await sent_body(router, request)

    raw = json.loads(router.calls.last.request.content)
    assert SKIP_THOUGHT_SIGNATURE == "skip_thought_signature_validator"
    assert raw["contents"][1]["parts"][0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert b"c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I" not in router.calls.last.request.content


def test_the_input_is_never_mutated() -> None:
    raw = {"role": "model", "parts": [{"function_call": {"name": "f", "args": {}, "id": "c"}}]}
    messages: list[Message] = [
        HI,
        MessageEnvelope(raw),
        MessageEnvelope(
            {
                "role": "user",
                "parts": [{"function_response": {"name": "f", "id": "c", "response": {}}}],
            }
        ),
    ]
    before = json.dumps(raw)

    request = to_gemini(messages, agent_name=AGENT)

    assert json.dumps(raw) == before
    assert request.contents[1]["parts"][0]["thought_signature"] == SKIP_THOUGHT_SIGNATURE


def test_an_unknown_name_policy_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="name_policy"):
        to_gemini([HI], agent_name=AGENT, name_policy="keep")  # type: ignore[arg-type]


def test_requests_over_the_inline_limit_raise_naming_the_image() -> None:
    big = ImageMessage(Role.USER, data=PNG + b"\x00" * (11 * 1024 * 1024))
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([big, big], agent_name=AGENT)
    assert raised.value.index == 1
