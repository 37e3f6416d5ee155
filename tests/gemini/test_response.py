"""from_gemini: the outbound rules of API.md 15, on responses the real google-genai SDK parsed."""

from __future__ import annotations

import base64
import logging
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import (
    ContentFilteredError,
    EmptyResponseError,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.gemini._response import CONTENT_FILTER_REASONS, from_gemini
from llmbridge.testing import (
    gemini_client,
    gemini_function_call_part,
    gemini_response,
    gemini_text_part,
)
from tests.corpus import AGENT
from tests.gemini.helpers import GENERATE, MODEL

SIG = base64.b64encode(b"sig-1").decode()
SIG2 = base64.b64encode(b"sig-2").decode()
USAGE = Usage(10, 5)


async def fetch(router: respx.Router, body: dict[str, Any]) -> types.GenerateContentResponse:
    """The response the real SDK parses from ``body`` (answering one generateContent call)."""
    router.post(url__regex=GENERATE).respond(json=body)
    client = gemini_client(router)  # kept: a collected Client closes its HTTP clients
    return await client.aio.models.generate_content(model=MODEL, contents="hi")


def call_part(name: str, args: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    return gemini_function_call_part(name, args, **kwargs)


def tc(name: str, arguments: str, call_id: str, signature: str | None = None) -> ToolCall:
    data = {} if signature is None else {"gemini": {"thought_signature": signature}}
    return ToolCall(name, arguments, tool_call_id=call_id, provider_data=data)


CASES = [
    pytest.param(
        gemini_response("Hello"),
        TextMessage(Role.ASSISTANT, "Hello", AGENT, usage=USAGE, finish_reason="stop"),
        id="one text part is a text reply with finish reason stop",
    ),
    pytest.param(
        gemini_response([gemini_text_part("Hel"), gemini_text_part("lo")]),
        TextMessage(Role.ASSISTANT, "Hello", AGENT, usage=USAGE, finish_reason="stop"),
        id="text parts are joined",
    ),
    pytest.param(
        gemini_response("Hel", finish_reason="MAX_TOKENS"),
        TextMessage(Role.ASSISTANT, "Hel", AGENT, usage=USAGE, finish_reason="length"),
        id="MAX_TOKENS is length",
    ),
    pytest.param(
        gemini_response("Hi", finish_reason="FINISH_REASON_UNSPECIFIED"),
        TextMessage(
            Role.ASSISTANT, "Hi", AGENT, usage=USAGE, finish_reason="FINISH_REASON_UNSPECIFIED"
        ),
        id="another finish reason is kept raw",
    ),
    pytest.param(
        gemini_response("Hi", finish_reason=None),
        TextMessage(Role.ASSISTANT, "Hi", AGENT, usage=USAGE),
        id="no finish reason is None",
    ),
    pytest.param(
        gemini_response([call_part("get_weather", {"city": "Paris"})]),
        ToolCallMessage(
            [tc("get_weather", '{"city": "Paris"}', "get_weather_0")],
            AGENT,
            usage=USAGE,
            finish_reason="tool_calls",
        ),
        id="a call without id gets name_0 and STOP becomes tool_calls",
    ),
    pytest.param(
        gemini_response([call_part("a"), call_part("b", call_id="given"), call_part("a")]),
        ToolCallMessage(
            [tc("a", "{}", "a_0"), tc("b", "{}", "given"), tc("a", "{}", "a_2")],
            AGENT,
            usage=USAGE,
            finish_reason="tool_calls",
        ),
        id="fallback ids count the position among the calls and given ids are kept",
    ),
    pytest.param(
        gemini_response([gemini_text_part("Let me look."), call_part("f", {"x": "é"})]),
        ToolCallMessage(
            [tc("f", '{"x": "é"}', "f_0")],
            AGENT,
            content="Let me look.",
            usage=USAGE,
            finish_reason="tool_calls",
        ),
        id="text beside calls is the content and arguments keep non-ascii text",
    ),
    pytest.param(
        gemini_response([call_part("f")], finish_reason="UNEXPECTED_TOOL_CALL"),
        ToolCallMessage(
            [tc("f", "{}", "f_0")], AGENT, usage=USAGE, finish_reason="UNEXPECTED_TOOL_CALL"
        ),
        id="a call with a finish reason other than STOP keeps it raw",
    ),
    pytest.param(
        gemini_response([call_part("f", thought_signature=SIG), call_part("g")]),
        ToolCallMessage(
            [tc("f", "{}", "f_0", SIG), tc("g", "{}", "g_1")],
            AGENT,
            usage=USAGE,
            finish_reason="tool_calls",
        ),
        id="a call part's signature goes into that call's provider_data",
    ),
    pytest.param(
        gemini_response(
            [
                gemini_text_part("thinking", thought=True, thought_signature=SIG),
                gemini_text_part("Answer"),
            ]
        ),
        TextMessage(
            Role.ASSISTANT,
            "Answer",
            AGENT,
            reasoning=[Reasoning("thinking", signature=SIG, provider="gemini")],
            usage=USAGE,
            finish_reason="stop",
        ),
        id="a thought part is reasoning with its signature and the gemini tag",
    ),
    pytest.param(
        gemini_response(
            [
                gemini_text_part("a", thought=True),
                gemini_text_part("b", thought=True),
                gemini_text_part("c"),
            ]
        ),
        TextMessage(
            Role.ASSISTANT,
            "c",
            AGENT,
            reasoning=[Reasoning("ab", provider="gemini")],
            usage=USAGE,
            finish_reason="stop",
        ),
        id="unsigned thought pieces of one part are joined",
    ),
    pytest.param(
        gemini_response([gemini_text_part("Answer", thought_signature=SIG)]),
        TextMessage(
            Role.ASSISTANT,
            "Answer",
            AGENT,
            usage=USAGE,
            finish_reason="stop",
            provider_data={"gemini": {"thought_signature": SIG}},
        ),
        id="a text part's signature goes into the message's provider_data",
    ),
    pytest.param(
        gemini_response([gemini_text_part("Answer"), gemini_text_part("", thought_signature=SIG)]),
        TextMessage(
            Role.ASSISTANT,
            "Answer",
            AGENT,
            usage=USAGE,
            finish_reason="stop",
            provider_data={"gemini": {"thought_signature": SIG}},
        ),
        id="a signed empty text part signs the reply's text",
    ),
    pytest.param(
        gemini_response(
            "Hi",
            prompt_token_count=100,
            candidates_token_count=7,
            thoughts_token_count=20,
            cached_content_token_count=40,
            tool_use_prompt_token_count=3,
        ),
        TextMessage(
            Role.ASSISTANT,
            "Hi",
            AGENT,
            usage=Usage(103, 27, cache_read_tokens=40, reasoning_tokens=20),
            finish_reason="stop",
        ),
        id="usage: input is prompt plus tool-use prompt, output candidates plus thoughts",
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES)
async def test_a_response_converts_by_the_rule(
    body: dict[str, Any], expected: Any, router: respx.Router
) -> None:
    response = await fetch(router, body)

    reply = from_gemini(response, agent_name=AGENT)

    assert reply == expected
    assert reply.raw is response


async def test_usage_total_matches_gemini_total(router: respx.Router) -> None:
    body = gemini_response(
        "Hi", thoughts_token_count=4, cached_content_token_count=2, tool_use_prompt_token_count=3
    )
    response = await fetch(router, body)

    reply = from_gemini(response, agent_name=AGENT)

    assert reply.usage is not None
    assert reply.usage.total_tokens == body["usageMetadata"]["totalTokenCount"]


async def test_the_vertex_tag_goes_on_reasoning_and_provider_data(router: respx.Router) -> None:
    body = gemini_response(
        [
            gemini_text_part("t", thought=True, thought_signature=SIG),
            call_part("f", thought_signature=SIG2),
        ]
    )
    response = await fetch(router, body)

    reply = from_gemini(response, agent_name=AGENT, provider="vertex")

    assert reply == ToolCallMessage(
        [
            ToolCall(
                "f", "{}", tool_call_id="f_0", provider_data={"vertex": {"thought_signature": SIG2}}
            )
        ],
        AGENT,
        reasoning=[Reasoning("t", signature=SIG, provider="vertex")],
        usage=USAGE,
        finish_reason="tool_calls",
    )


async def test_an_envelope_of_a_response_converts(router: respx.Router) -> None:
    response = await fetch(router, gemini_response("Hi"))

    reply = from_gemini(MessageEnvelope(response), agent_name=AGENT)

    assert reply.get_content() == "Hi"


async def test_more_than_one_candidate_is_a_provider_response_error(router: respx.Router) -> None:
    body = gemini_response("one")
    body["candidates"].append({**body["candidates"][0], "index": 1})
    response = await fetch(router, body)

    with pytest.raises(ProviderResponseError, match="2 candidates") as caught:
        from_gemini(response, agent_name=AGENT)

    assert caught.value.response is response


async def test_a_blocked_prompt_is_content_filtered(router: respx.Router) -> None:
    response = await fetch(router, gemini_response(block_reason="PROHIBITED_CONTENT"))

    with pytest.raises(ContentFilteredError) as caught:
        from_gemini(response, agent_name=AGENT)

    assert caught.value.response is response


@pytest.mark.parametrize("reason", sorted(CONTENT_FILTER_REASONS))
@pytest.mark.parametrize(
    "parts",
    [
        pytest.param([], id="no parts"),
        pytest.param([gemini_text_part("partial")], id="partial text"),
    ],
)
async def test_a_filter_finish_reason_is_content_filtered(
    reason: str, parts: list[Any], router: respx.Router
) -> None:
    response = await fetch(router, gemini_response(parts, finish_reason=reason))

    with pytest.raises(ContentFilteredError):
        from_gemini(response, agent_name=AGENT)


def test_the_filter_reasons_are_those_of_api_md_15() -> None:
    assert {
        "SAFETY",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "RECITATION",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "MODEL_ARMOR",
    } == CONTENT_FILTER_REASONS
    assert {reason.value for reason in types.FinishReason} >= CONTENT_FILTER_REASONS


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(gemini_response([]), id="no parts"),
        pytest.param(gemini_response([], finish_reason="MALFORMED_FUNCTION_CALL"), id="malformed"),
        pytest.param({"candidates": [], "modelVersion": "m"}, id="no candidates, no block"),
    ],
)
async def test_a_reply_with_neither_text_nor_calls_is_empty(
    body: dict[str, Any], router: respx.Router
) -> None:
    response = await fetch(router, body)

    with pytest.raises(EmptyResponseError):
        from_gemini(response, agent_name=AGENT)


# A model-made image (Gemini image generation): replies have no neutral form for it. (Code
# execution parts have one since API.md 19.5: tests/gemini/test_hosted.py.)
IMAGE_PART = {"inlineData": {"mimeType": "image/png", "data": base64.b64encode(b"png").decode()}}


async def test_a_part_with_no_neutral_form_is_dropped_with_a_note(
    router: respx.Router, caplog: pytest.LogCaptureFixture
) -> None:
    response = await fetch(router, gemini_response([IMAGE_PART, gemini_text_part("1")]))

    with caplog.at_level(logging.WARNING, logger="llmbridge"):
        reply = from_gemini(response, agent_name=AGENT)

    assert reply.get_content() == "1"
    assert "inline_data" in caplog.text


async def test_strict_mode_refuses_a_part_with_no_neutral_form(router: respx.Router) -> None:
    response = await fetch(router, gemini_response([IMAGE_PART, gemini_text_part("1")]))

    with pytest.raises(UnsupportedMessageError, match="inline_data"):
        from_gemini(response, agent_name=AGENT, strict_mode=True)


async def test_a_second_signed_text_part_loses_its_signature_with_a_note(
    router: respx.Router,
) -> None:
    body = gemini_response(
        [
            gemini_text_part("a", thought_signature=SIG),
            gemini_text_part("b", thought_signature=SIG2),
        ]
    )
    response = await fetch(router, body)

    lenient = from_gemini(response, agent_name=AGENT)
    assert lenient.provider_data == {"gemini": {"thought_signature": SIG}}
    assert lenient.get_content() == "ab"
    with pytest.raises(UnsupportedMessageError, match="second signed text part"):
        from_gemini(response, agent_name=AGENT, strict_mode=True)


def test_something_else_passes_through_lenient_and_raises_strict() -> None:
    other = TextMessage(Role.ASSISTANT, "x", AGENT)

    assert from_gemini(other, agent_name=AGENT) is other
    with pytest.raises(UnsupportedMessageError, match="GenerateContentResponse"):
        from_gemini(other, agent_name=AGENT, strict_mode=True)


async def test_the_response_is_not_mutated(router: respx.Router) -> None:
    body = gemini_response(
        [gemini_text_part("a", thought=True), gemini_text_part("b", thought=True), call_part("f")]
    )
    response = await fetch(router, body)
    before = response.model_dump()

    from_gemini(response, agent_name=AGENT)

    assert response.model_dump() == before
