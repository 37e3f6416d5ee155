"""research/wave2.md 2.7: for each offline-checkable row G1-G13, llmbridge never produces it.

Each test builds the neutral input that would lead a naive converter into the row and shows
what llmbridge does instead (repairs it, or raises before sending); whatever is sent goes
through the real SDK to the strict wire validator (conftest), on a Gemini 3 model where
signatures matter (G4).
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
import respx

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
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
from llmbridge.gemini import SKIP_THOUGHT_SIGNATURE, GeminiChatAgent, to_gemini
from llmbridge.testing import gemini_client, gemini_response, last_request_json
from tests.corpus import AGENT, PNG
from tests.gemini import wire
from tests.gemini.helpers import GENERATE

GEMINI_3 = "gemini-3-flash-preview"
HI = TextMessage(Role.USER, "Hi")
GO = TextMessage(Role.USER, "Go on")


def calls(*names: str, sender: str | None = AGENT, **data: Any) -> ToolCallMessage:
    return ToolCallMessage(
        [ToolCall(name, "{}", tool_call_id=f"{name}1", **data) for name in names], sender
    )


def answers(*names: str) -> ToolCallResultMessage:
    return ToolCallResultMessage(
        [ToolCall(name, "", tool_call_id=f"{name}1", result=name.upper()) for name in names]
    )


async def send(router: respx.Router, messages: list[Message], **options: Any) -> dict[str, Any]:
    """Send ``messages`` as GeminiChatAgent does on a Gemini 3 model; return the wire body."""
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    request = to_gemini(messages, agent_name=AGENT)
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name=AGENT, model=GEMINI_3)
    envelopes = [MessageEnvelope(payload) for payload, _ in request.agent_input()]
    await agent.generate_reply(envelopes, GenerateReplyOptions(**options) if options else None)
    body: dict[str, Any] = last_request_json(route)
    return body


@pytest.mark.parametrize(
    "messages",
    [
        pytest.param([calls("a"), answers("a")], id="history opening with a call turn"),
        pytest.param([TextMessage(Role.ASSISTANT, "Hello", AGENT), HI], id="opening model text"),
    ],
)
@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_g1_a_call_turn_never_opens_the_history(messages: list[Message], strict_mode: bool) -> None:
    with pytest.raises(InvalidMessageError, match="starts with a model turn") as raised:
        to_gemini(messages, agent_name=AGENT, strict_mode=strict_mode)
    assert raised.value.index == 0


async def test_g1_a_call_after_model_text_joins_its_turn(router: respx.Router) -> None:
    body = await send(
        router, [HI, TextMessage(Role.ASSISTANT, "Checking.", AGENT), calls("a"), answers("a")]
    )
    assert [content["role"] for content in body["contents"]] == ["user", "model", "user"]


@pytest.mark.parametrize(
    ("messages", "index"),
    [
        pytest.param([HI, calls("a", "b"), answers("a"), GO], 1, id="a call left unanswered"),
        pytest.param([HI, calls("a"), answers("a", "b")], 2, id="a response answering no call"),
    ],
)
def test_g2_response_and_call_counts_always_match(messages: list[Message], index: int) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini(messages, agent_name=AGENT)
    assert raised.value.index == index


async def test_g2_responses_split_over_messages_go_in_one_content(router: respx.Router) -> None:
    body = await send(router, [HI, calls("a", "b"), answers("b"), GO, answers("a")])
    responses = [p["functionResponse"]["name"] for p in body["contents"][2]["parts"][:2]]
    assert responses == ["a", "b"]  # call order; the user text moved after them


async def test_g3_a_response_is_named_after_its_call(router: respx.Router) -> None:
    mislabelled = ToolCallResultMessage(
        [ToolCall("a1", "", tool_call_id="a1", result="A")]  # the id given as the name
    )
    body = await send(router, [HI, calls("a"), mislabelled])
    assert body["contents"][2]["parts"][0]["functionResponse"]["name"] == "a"


@pytest.mark.parametrize(
    "history",
    [
        pytest.param([calls("a")], id="calls without any signature"),
        pytest.param(
            [calls("a", provider_data={"vertex": {"thought_signature": "c2ln"}})],
            id="calls signed for another transport",
        ),
    ],
)
async def test_g4_every_call_turn_of_the_current_loop_carries_a_signature(
    history: list[Message], router: respx.Router
) -> None:
    # The validator applies G4 on gemini-3 models: without the bypass this would fail it.
    body = await send(router, [HI, *history, answers("a"), calls("b"), answers("b")])
    signatures = [content["parts"][0].get("thoughtSignature") for content in body["contents"]]
    assert signatures == [None, SKIP_THOUGHT_SIGNATURE, None, SKIP_THOUGHT_SIGNATURE, None]


async def test_g5_no_foreign_signature_and_no_base64_of_the_bypass(router: respx.Router) -> None:
    foreign = ToolCallMessage(
        [ToolCall("a", "{}", tool_call_id="a1")],
        AGENT,
        reasoning=[Reasoning("hm", signature="anthropic-sig", provider="anthropic")],
        provider_data={"openai-responses": {"thought_signature": "c2ln"}},
    )
    body = await send(router, [HI, foreign, answers("a")])
    assert body["contents"][1]["parts"] == [
        {
            "functionCall": {"id": "a1", "args": {}, "name": "a"},
            "thoughtSignature": SKIP_THOUGHT_SIGNATURE,
        }
    ]
    encoded = base64.b64encode(SKIP_THOUGHT_SIGNATURE.encode()).decode()
    assert encoded.rstrip("=") not in str(body)


async def test_g6_no_empty_content_and_no_empty_text(router: respx.Router) -> None:
    empty = MultiModalMessage(Role.USER, [TextMessage(Role.USER, " "), TextMessage(Role.USER, "")])
    body = await send(router, [HI, empty, TextMessage(Role.ASSISTANT, "", AGENT), GO])
    assert body["contents"] == [{"parts": [{"text": "Hi"}, {"text": "Go on"}], "role": "user"}]


@pytest.mark.parametrize(
    "image",
    [
        pytest.param(ImageMessage(Role.USER, data=b"BM\x00\x00", media_type="image/bmp"), id="bmp"),
        pytest.param(ImageMessage(Role.USER, data=b"\x00\x01", media_type="pdf"), id="bare 'pdf'"),
    ],
)
def test_g7_no_mime_type_gemini_refuses(image: ImageMessage) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([image], agent_name=AGENT)
    assert raised.value.field == "media_type"


async def test_g7_a_gif_is_dropped_not_sent(router: respx.Router) -> None:
    body = await send(router, [HI, ImageMessage(Role.USER, data=b"GIF89a" + b"\x00" * 8)])
    assert body["contents"] == [{"parts": [{"text": "Hi"}], "role": "user"}]


def test_g8_inline_data_over_20_mb_raises_before_sending() -> None:
    chunk = ImageMessage(Role.USER, data=PNG + b"\x00" * (7 * 1024 * 1024))
    with pytest.raises(InvalidMessageError) as raised:
        to_gemini([chunk, chunk, chunk], agent_name=AGENT)
    assert (raised.value.index, raised.value.field) == (2, "data")


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(
            MessageEnvelope({"role": "assistant", "parts": [{"text": "x"}]}), id="assistant"
        ),
        pytest.param(MessageEnvelope({"role": "tool", "parts": [{"text": "x"}]}), id="tool"),
        pytest.param(
            MessageEnvelope({"role": "function", "parts": [{"text": "x"}]}), id="function"
        ),
    ],
)
async def test_g9_no_role_but_user_and_model(message: Message, router: respx.Router) -> None:
    request = to_gemini([HI, message], agent_name=AGENT)
    assert [content["role"] for content in request.contents] == ["user"]
    assert [note.kind for note in request.notes] == ["dropped"]
    await send(router, [HI, message])
    with pytest.raises(InvalidMessageError):
        to_gemini([TextMessage(Role.TOOL, "x")], agent_name=AGENT)


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(
            {
                "response_schema": {"type": "OBJECT"},
                "response_json_schema": {"type": "object"},
                "response_mime_type": "application/json",
            },
            id="both schemas",
        ),
        pytest.param({"response_json_schema": {"type": "object"}}, id="schema without mime type"),
    ],
)
def test_g10_no_config_gemini_refuses(extra: dict[str, Any], router: respx.Router) -> None:
    client = gemini_client(router)
    agent = GeminiChatAgent(client, name=AGENT, model=GEMINI_3)
    with pytest.raises(ValueError, match="response"):
        agent.request_arguments(
            [MessageEnvelope({"role": "user", "parts": [{"text": "x"}]})],
            GenerateReplyOptions(extra=extra),
        )


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
def test_g11_the_history_never_ends_on_a_model_turn(strict_mode: bool) -> None:
    with pytest.raises(InvalidMessageError, match="ends with a model turn") as raised:
        to_gemini(
            [HI, calls("a"), answers("a"), TextMessage(Role.ASSISTANT, "Done.", AGENT)],
            agent_name=AGENT,
            strict_mode=strict_mode,
        )
    assert raised.value.index == 3


async def test_g12_function_names_gemini_refuses(router: respx.Router) -> None:
    odd = ToolCallMessage([ToolCall("-lookup", "{}", tool_call_id="x1")], AGENT)
    result = ToolCallResultMessage([ToolCall("-lookup", "", tool_call_id="x1", result="r")])
    body = await send(router, [HI, odd, result])
    name = body["contents"][1]["parts"][0]["functionCall"]["name"]
    assert wire.FUNCTION_NAME.match(name)
    assert body["contents"][2]["parts"][0]["functionResponse"]["name"] == name
    with pytest.raises(ValueError, match="start with a letter"):
        await send(router, [HI], functions=[FunctionContract("9lives")])


async def test_g13_a_ref_in_a_result_is_never_read_as_a_part_reference(
    router: respx.Router,
) -> None:
    ref = ToolCallResultMessage([ToolCall("a", "", tool_call_id="a1", result='{"$ref": "#/0"}')])
    body = await send(router, [HI, calls("a"), ref])
    assert body["contents"][2]["parts"][0]["functionResponse"]["response"] == {
        "output": '{"$ref": "#/0"}'
    }
