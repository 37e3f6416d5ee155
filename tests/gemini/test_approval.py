"""Approval snapshots: the shared corpus through to_gemini, and the exact body of a tool loop.

Review ``snapshots/gemini/test_approval/`` like code, beside the OpenAI and Anthropic ones: each
payload must be what API.md 15 says. The tool-loop body is what the real SDK sent (the conftest
router runs it through the strict wire validator first).
"""

from __future__ import annotations

import base64
from typing import Any

import respx

from llmbridge import (
    FunctionCallMiddleware,
    GenerateReplyOptions,
    LLMBridgeError,
    Message,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
)
from llmbridge.gemini import GeminiChatAgent, to_gemini
from llmbridge.testing import (
    gemini_client,
    gemini_function_call_part,
    gemini_response,
    gemini_sse_response,
    gemini_stream_chunks,
    gemini_text_part,
    last_request_json,
)
from tests.corpus import AGENT, approval_rows
from tests.gemini.helpers import GENERATE, MODEL, STREAM

SIGNED_BYTES = b"\xfb\xff\xfe gemini-3 signature of the weather call"
SIGNATURE = base64.b64encode(SIGNED_BYTES).decode()  # as the API sends it and llmbridge keeps it


def converted(message: Message, *, strict_mode: bool, name_policy: str = "drop") -> dict[str, Any]:
    try:
        request = to_gemini(
            [message],
            agent_name=AGENT,
            strict_mode=strict_mode,
            name_policy=name_policy,  # type: ignore[arg-type]
            check_pairing=False,
        )
    except LLMBridgeError as error:
        return {"error": f"{type(error).__name__}: {error}"}
    return {
        "system_instruction": request.system_instruction,
        "contents": request.contents,
        "notes": [f"{note.index} {note.kind}: {note.detail}" for note in request.notes],
    }


def test_corpus_converts_as_approved(snapshot: Any) -> None:
    assert approval_rows(converted) == snapshot


def get_weather(city: str) -> dict[str, Any]:
    """Get the current weather.

    Args:
        city: The city.
    """
    return {"city": city, "temperature_c": 18}


def now(tz: str) -> str:
    """Get the local time.

    Args:
        tz: An IANA time zone.
    """
    return f"14:05 in {tz}"


async def test_a_tool_loop_sends_the_call_back_with_its_signature(
    snapshot: Any, router: respx.Router
) -> None:
    """The second request of a tool loop: the model's calls as they came (the first one signed,
    ids given by llmbridge), their responses in call order, through the real SDK."""
    first = gemini_response(
        [
            gemini_text_part("Weather and time: two calls.", thought=True),
            gemini_function_call_part(
                "get_weather", {"city": "Paris"}, thought_signature=SIGNATURE
            ),
            gemini_function_call_part("now", {"tz": "Europe/Paris"}),
        ],
        thoughts_token_count=12,
    )
    router.post(url__regex=STREAM).mock(
        return_value=gemini_sse_response(gemini_stream_chunks(first))
    )
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("18C at 14:05."))
    client = gemini_client(router)  # kept: a collected Client closes its HTTP clients
    agent = (
        GeminiChatAgent(client, name=AGENT, model=MODEL, system_message="You are a weather bot.")
        .register_message_connector()
        .register_streaming_middleware(FunctionCallMiddleware([get_weather, now]))
    )
    history: list[Message] = [TextMessage(Role.USER, "Weather and time in Paris?")]
    options = GenerateReplyOptions(tool_choice="auto")

    streamed = [m async for m in agent.stream(chat_history=history, options=options)]
    aggregate = streamed[-1]
    answer = await agent.send(chat_history=[*history, aggregate], options=options)

    assert isinstance(aggregate, ToolCallAggregateMessage)
    [signed, unsigned] = aggregate.tool_call_message.tool_calls
    assert signed.provider_data == {"gemini": {"thought_signature": SIGNATURE}}
    assert unsigned.provider_data == {}
    assert answer.get_content() == "18C at 14:05."
    body = last_request_json(route)
    # The SDK re-encodes bytes fields URL-safe; the bytes are the ones the API signed.
    sent = body["contents"][1]["parts"][1]["thoughtSignature"]
    assert base64.urlsafe_b64decode(sent) == SIGNED_BYTES
    assert body == snapshot
