"""The per-provider pieces of the handoff tests, in one table keyed by provider tag.

A wing joins every handoff, import and CLI test with one ``Wing`` entry in ``WINGS``: how its
connector produces a reply (from the test kit's response builders, so ids, reasoning and
``provider_data`` are that provider's own), the ids it issues, its strict wire validator over
the payload ``request_payload`` writes, and a payload message its import cannot map. Tests
parametrize over ``TAGS``, the registered wings; a registered wing without an entry here fails
``test_every_registered_wing_has_an_entry``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anthropic.types import Message as AnthropicMessage
from google.genai import types as gemini_types
from hypothesis import strategies as st
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from llmbridge import Message, ToolCall
from llmbridge.anthropic import AnthropicMessageConnector, to_anthropic
from llmbridge.gemini import GeminiMessageConnector, to_gemini
from llmbridge.kit import ProviderRequest, provider_tags
from llmbridge.openai import (
    OpenAIChatRequestMessageConnector,
    OpenAIResponsesConnector,
    to_openai,
    to_openai_responses,
)
from llmbridge.testing import (
    ScriptedProvider,
    anthropic_message,
    anthropic_text_block,
    anthropic_thinking_block,
    anthropic_tool_use_block,
    gemini_function_call_part,
    gemini_response,
    gemini_text_part,
    openai_completion,
    openai_response,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
)
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.gemini import wire as gemini_wire
from tests.openai import wire as openai_wire
from tests.openai_responses import wire as responses_wire

ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass(frozen=True)
class ReplySpec:
    """What a model answers, before any provider writes it: text, thinking, tool calls.

    ``calls`` are ``(id, function name, arguments object)``; the id is the producer's own
    (``None``: the call came without one, as the Gemini API often sends them). ``turn``: the
    reply's number in its history, from which the Responses producer makes its item ids,
    unique in a history as the API's are.
    """

    text: str | None
    thinking: str | None
    calls: tuple[tuple[str | None, str, dict[str, Any]], ...]
    turn: int = 0


@dataclass(frozen=True)
class Wing:
    """One provider's pieces: ``produce`` a reply through its connector, the ``call_ids`` it
    issues, ``check`` a ``request_payload`` payload (or a request body) with its strict wire
    validator, ``malformed``: a payload whose message ``malformed_index`` its import cannot
    map, ``convert`` (its ``to_x`` for ``AGENT``, lenient), ``client``: its SDK client over a
    ``ScriptedProvider``, ``sent_ids``: the tool-call ids of a body's calls and of its
    results, in order, ``items_key``: the payload key holding its message list, and
    ``replays_reasoning``: whether its API takes its own reasoning back (OpenAI Chat does not:
    even its own is omitted, with a note)."""

    tag: str
    produce: Callable[[ReplySpec], Message]
    call_ids: st.SearchStrategy[str]
    check: Callable[[Mapping[str, Any]], None]
    malformed: dict[str, Any]
    malformed_index: int
    convert: Callable[[Sequence[Message]], ProviderRequest]
    client: Callable[[ScriptedProvider], Any]
    sent_ids: Callable[[Mapping[str, Any]], tuple[list[str], list[str]]]
    items_key: str
    replays_reasoning: bool = True


@dataclass(frozen=True)
class Producer:
    """Who writes a history's replies: the connector of wing ``tag``, for a model whose calls
    carry ids drawn from ``call_ids`` (``None``: calls without ids)."""

    tag: str
    call_ids: st.SearchStrategy[str] | None


def _openai_reply(spec: ReplySpec) -> Message:
    calls = [ToolCall(name, json.dumps(args), tool_call_id=i) for i, name, args in spec.calls]
    body = openai_completion(spec.text, tool_calls=calls, reasoning_content=spec.thinking)
    completion = ChatCompletion.model_validate(body)
    return OpenAIChatRequestMessageConnector().convert_reply(completion, agent_name=AGENT)


def _anthropic_reply(spec: ReplySpec) -> Message:
    blocks = [anthropic_thinking_block(spec.thinking, "EqQBCkgIARABGAIiQ")] if spec.thinking else []
    if spec.text:
        blocks.append(anthropic_text_block(spec.text))
    blocks += [anthropic_tool_use_block(i, name, args) for i, name, args in spec.calls]
    body = anthropic_message(blocks, stop_reason="tool_use" if spec.calls else "end_turn")
    message = AnthropicMessage.model_validate(body)
    return AnthropicMessageConnector().convert_reply(message, agent_name=AGENT)


def _responses_reply(spec: ReplySpec) -> Message:
    turn = spec.turn
    items = (
        [openai_response_reasoning(spec.thinking, item_id=f"rs_{turn:02d}")]
        if spec.thinking
        else []
    )
    if spec.text:
        items.append(openai_response_message(spec.text, item_id=f"msg_{turn:02d}"))
    items += [
        openai_response_function_call(
            name, json.dumps(args), call_id=i or "", item_id=f"fc_{turn:02d}_{n}"
        )
        for n, (i, name, args) in enumerate(spec.calls)
    ]
    response = Response.model_validate(openai_response(items))
    return OpenAIResponsesConnector().convert_reply(response, agent_name=AGENT)


def _gemini_reply(spec: ReplySpec) -> Message:
    # Gemini 3 signs the first part of a turn (its first call when it calls), as the API does.
    signature = "c2lnLTAx"
    parts = [gemini_text_part(spec.thinking, thought=True)] if spec.thinking else []
    if spec.text:
        parts.append(gemini_text_part(spec.text))
    parts += [
        gemini_function_call_part(
            name, args, call_id=i, thought_signature=signature if not n else None
        )
        for n, (i, name, args) in enumerate(spec.calls)
    ]
    response = gemini_types.GenerateContentResponse.model_validate(gemini_response(parts))
    return GeminiMessageConnector().convert_reply(response, agent_name=AGENT)


def _openai_ids(body: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    messages = body["messages"]
    calls = [c["id"] for m in messages for c in m.get("tool_calls", ())]
    return calls, [m["tool_call_id"] for m in messages if m["role"] == "tool"]


def _anthropic_ids(body: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    blocks = [b for m in body["messages"] if isinstance(m["content"], list) for b in m["content"]]
    calls = [b["id"] for b in blocks if b["type"] == "tool_use"]
    return calls, [b["tool_use_id"] for b in blocks if b["type"] == "tool_result"]


def _responses_ids(body: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    items = body["input"]
    calls = [i["call_id"] for i in items if i.get("type") == "function_call"]
    return calls, [i["call_id"] for i in items if i.get("type") == "function_call_output"]


def _gemini_ids(body: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    # to_gemini writes snake_case keys, the SDK sends camelCase ones: read either.
    parts = [p for c in body["contents"] for p in c["parts"]]
    calls = [p.get("function_call", p.get("functionCall")) for p in parts]
    responses = [p.get("function_response", p.get("functionResponse")) for p in parts]
    return [c.get("id", "") for c in calls if c], [r.get("id", "") for r in responses if r]


def _ids(prefix: str, size: int) -> st.SearchStrategy[str]:
    return st.text(ALNUM, min_size=size, max_size=size).map(lambda tail: prefix + tail)


WINGS: dict[str, Wing] = {
    "openai": Wing(
        "openai",
        _openai_reply,
        _ids("call_", 24),
        lambda payload: openai_wire.check_messages(payload["messages"]),
        {
            "messages": [
                {"role": "user", "content": "Hi"},
                {"role": "user", "content": [{"type": "input_audio"}]},
            ]
        },
        1,
        lambda messages: to_openai(messages, agent_name=AGENT),
        ScriptedProvider.openai_client,
        _openai_ids,
        "messages",
        replays_reasoning=False,
    ),
    "anthropic": Wing(
        "anthropic",
        _anthropic_reply,
        _ids("toolu_01", 22),
        assert_valid_request,
        {
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                {"role": "assistant", "content": [{"type": "server_tool_use"}]},
            ]
        },
        1,
        lambda messages: to_anthropic(messages, agent_name=AGENT),
        ScriptedProvider.anthropic_client,
        _anthropic_ids,
        "messages",
    ),
    "openai-responses": Wing(
        "openai-responses",
        _responses_reply,
        _ids("call_", 24),
        lambda payload: responses_wire.check_input(payload["input"]),
        {"input": [{"role": "user", "content": "Hi"}, {"type": "item_reference", "id": "msg_1"}]},
        1,
        lambda messages: to_openai_responses(messages, agent_name=AGENT),
        ScriptedProvider.openai_client,
        _responses_ids,
        "input",
    ),
    "gemini": Wing(
        "gemini",
        _gemini_reply,
        _ids("", 8),
        gemini_wire.check_request_body,
        {
            "contents": [
                {"role": "user", "parts": [{"text": "Hi"}]},
                # a model turn, so the write-back does not merge it into the user turn before
                {"role": "model", "parts": [{"text": "x", "video_metadata": {}}]},
                {"role": "user", "parts": [{"text": "Go on."}]},
            ]
        },
        1,
        lambda messages: to_gemini(messages, agent_name=AGENT),
        ScriptedProvider.gemini_client,
        _gemini_ids,
        "contents",
    ),
}
"""One entry per wing; the key is its provider tag."""

TAGS: tuple[str, ...] = provider_tags()
"""The registered wings, in registry order."""

PAIRS: list[tuple[str, str]] = [(producer, target) for producer in TAGS for target in TAGS]
"""Every ordered ``(producer, target)`` pair, a wing with itself included."""

PRODUCERS: dict[str, Producer] = {
    **{tag: Producer(tag, WINGS[tag].call_ids) for tag in TAGS if tag in WINGS},
    **({"gemini-no-ids": Producer("gemini", None)} if "gemini" in WINGS else {}),
}
"""Each registered wing with the ids it issues, and Gemini once more with calls without ids."""

PRODUCER_PAIRS: list[tuple[str, str]] = [(p, target) for p in PRODUCERS for target in TAGS]
"""Every ``(producer, target)``: ``PAIRS`` and the Gemini producer without ids."""

DETOURS: list[tuple[str, str]] = [
    (producer, detour)
    for producer in PRODUCERS
    for detour in PRODUCERS
    if PRODUCERS[detour].tag != PRODUCERS[producer].tag
]
"""Every ``(producer, detour)`` of two wings: a history of the producer's replies, with the
detour's in between, continued on the producer's own wing."""
