"""Hand-written minimal translations, one per wing: the floor each conversion is compared to.

Each floor does only what the benchmark's inputs need (no validation, no notes, no repairs)
but produces exactly what the library produces for those inputs; ``convert`` asserts that
equality once per run before timing. Where they differ, the floor is made to follow API.md,
never the other way round. The stream floors are in ``stream_floors.py``.

OpenAI's two APIs take one flat list: one loop (``_flat``) serves both, given the wing's table
of handlers (one per message type, returning that message's payload items). Anthropic and
Gemini take turns in which consecutive same-role messages merge; each keeps its own loop, as
what a merge does to the turn differs and a hook would cost the floor a call per message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from llmbridge import (
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)

__all__ = ["anthropic_floor", "gemini_floor", "openai_floor", "responses_floor"]

Payload = dict[str, Any]
Handlers = dict[type[Message], Callable[[Any, str], list[Payload]]]
"""Message type -> the payload items of one message of it (given the agent's name)."""


# --- OpenAI Chat Completions -------------------------------------------------------------


def _openai_text(message: TextMessage, agent_name: str) -> list[Payload]:
    if message.role == Role.SYSTEM:
        out: Payload = {"role": "system", "content": message.content}
        if message.from_ is not None:
            out["name"] = message.from_
        return [out]
    if message.from_ == agent_name:
        return [{"role": "assistant", "content": message.content, "name": agent_name}]
    return [{"role": str(message.role), "content": message.content}]


def _openai_image(message: ImageMessage, agent_name: str) -> list[Payload]:
    image: Payload = {"url": message.data_url}
    if message.detail is not None:
        image["detail"] = message.detail
    return [{"role": "user", "content": [{"type": "image_url", "image_url": image}]}]


def _openai_calls(message: ToolCallMessage, agent_name: str) -> list[Payload]:
    calls = [
        {
            "id": call.tool_call_id,
            "type": "function",
            "function": {"name": call.function_name, "arguments": call.function_arguments},
        }
        for call in message.tool_calls
    ]
    return [{"role": "assistant", "content": message.content or None, "tool_calls": calls}]


def _openai_results(message: ToolCallResultMessage, agent_name: str) -> list[Payload]:
    return [
        {"role": "tool", "tool_call_id": call.tool_call_id, "content": call.result}
        for call in message.tool_calls
        if call.result is not None
    ]


# --- OpenAI Responses --------------------------------------------------------------------


def _responses_text(message: TextMessage, agent_name: str) -> list[Payload]:
    if message.role == Role.SYSTEM:
        return [{"role": "system", "content": message.content}]
    role = "assistant" if message.from_ == agent_name else "user"
    return [{"role": role, "content": message.content}]


def _responses_image(message: ImageMessage, agent_name: str) -> list[Payload]:
    part = {"type": "input_image", "image_url": message.data_url, "detail": "auto"}
    return [{"role": "user", "content": [part]}]


def _responses_calls(message: ToolCallMessage, agent_name: str) -> list[Payload]:
    items: list[Payload] = []
    if message.content:
        items.append({"role": "assistant", "content": message.content})
    for call in message.tool_calls:
        items.append(
            {
                "type": "function_call",
                "call_id": call.tool_call_id,
                "name": call.function_name,
                "arguments": call.function_arguments,
            }
        )
    return items


def _responses_results(message: ToolCallResultMessage, agent_name: str) -> list[Payload]:
    return [
        {"type": "function_call_output", "call_id": call.tool_call_id, "output": call.result}
        for call in message.tool_calls
        if call.result is not None
    ]


# --- The flat floors ---------------------------------------------------------------------
# OpenAI's two APIs take one list: each message becomes the items its handler returns.

_OPENAI: Final[Handlers] = {
    TextMessage: _openai_text,
    ImageMessage: _openai_image,
    ToolCallMessage: _openai_calls,
    ToolCallResultMessage: _openai_results,
}

_RESPONSES: Final[Handlers] = {
    TextMessage: _responses_text,
    ImageMessage: _responses_image,
    ToolCallMessage: _responses_calls,
    ToolCallResultMessage: _responses_results,
}


def _flat(handlers: Handlers, messages: Sequence[Message], agent_name: str) -> list[Payload]:
    out: list[Payload] = []
    for message in messages:
        out += handlers[type(message)](message, agent_name)
    return out


def openai_floor(messages: Sequence[Message], agent_name: str) -> list[Payload]:
    """Translate the benchmark conversation to Chat Completions messages, by hand."""
    return _flat(_OPENAI, messages, agent_name)


def responses_floor(messages: Sequence[Message], agent_name: str) -> list[Payload]:
    """Translate the benchmark conversation to Responses input items, by hand."""
    return _flat(_RESPONSES, messages, agent_name)


# --- Anthropic Messages ------------------------------------------------------------------


def _anthropic_image(message: ImageMessage) -> Payload:
    if message.url is not None:
        return {"type": "image", "source": {"type": "url", "url": message.url}}
    source = {"type": "base64", "media_type": message.media_type, "data": message.base64_data}
    return {"type": "image", "source": source}


def _anthropic_calls(message: ToolCallMessage) -> list[Payload]:
    blocks: list[Payload] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        arguments = call.function_arguments
        blocks.append(
            {
                "type": "tool_use",
                "id": call.tool_call_id,
                "name": call.function_name,
                "input": json.loads(arguments) if arguments else {},
            }
        )
    return blocks


def _anthropic_results(message: ToolCallResultMessage) -> list[Payload]:
    return [
        {"type": "tool_result", "tool_use_id": call.tool_call_id, "content": call.result}
        for call in message.tool_calls
        if call.result is not None
    ]


def _anthropic_blocks(message: Message, agent_name: str) -> tuple[str, list[Payload]]:
    match message:
        case TextMessage(content=text, from_=from_, role=role):
            own = from_ == agent_name or (from_ is None and role == Role.ASSISTANT)
            return ("assistant" if own else "user"), [{"type": "text", "text": text}]
        case ImageMessage():
            return "user", [_anthropic_image(message)]
        case ToolCallMessage():
            return "assistant", _anthropic_calls(message)
        case ToolCallResultMessage():
            return "user", _anthropic_results(message)
    raise TypeError(f"the floor does not translate {type(message).__name__}")


def anthropic_floor(
    messages: Sequence[Message], agent_name: str
) -> tuple[list[Payload] | None, list[Payload]]:
    """Translate the benchmark conversation to Anthropic ``(system, messages)``, by hand.

    System text goes to the top-level blocks; consecutive same-role messages merge into one
    turn, with ``tool_result`` blocks first in a user turn.
    """
    system: list[Payload] = []
    turns: list[Payload] = []
    for message in messages:
        if isinstance(message, TextMessage) and message.role == Role.SYSTEM:
            system.append({"type": "text", "text": message.content})
            continue
        role, blocks = _anthropic_blocks(message, agent_name)
        if turns and turns[-1]["role"] == role:
            content = turns[-1]["content"]
            if blocks[0]["type"] == "tool_result":
                # Results answer the preceding assistant turn: they go before any text.
                first = sum(1 for block in content if block["type"] == "tool_result")
                content[first:first] = blocks
            else:
                content += blocks
        else:
            turns.append({"role": role, "content": blocks})
    return (system or None), turns


# --- Gemini ------------------------------------------------------------------------------


def _gemini_parts(message: Message, agent_name: str) -> tuple[str, list[Payload]]:
    match message:
        case TextMessage(content=text, from_=from_, role=role):
            own = from_ == agent_name or (from_ is None and role == Role.ASSISTANT)
            return ("model" if own else "user"), [{"text": text}]
        case ImageMessage():
            inline = {"mime_type": message.media_type, "data": message.base64_data}
            return "user", [{"inline_data": inline}]
        case ToolCallMessage():
            parts: list[Payload] = [{"text": message.content}] if message.content else []
            for call in message.tool_calls:
                arguments = call.function_arguments
                args = json.loads(arguments) if arguments else {}
                parts.append(
                    {
                        "function_call": {
                            "name": call.function_name,
                            "args": args,
                            "id": call.tool_call_id,
                        }
                    }
                )
            return "model", parts
        case ToolCallResultMessage():
            return "user", [
                {
                    "function_response": {
                        "name": call.function_name,
                        "id": call.tool_call_id,
                        "response": {"output": call.result},
                    }
                }
                for call in message.tool_calls
            ]
    raise TypeError(f"the floor does not translate {type(message).__name__}")


def gemini_floor(
    messages: Sequence[Message], agent_name: str
) -> tuple[list[Payload], list[Payload]]:
    """Translate the benchmark conversation to Gemini ``(system_instruction, contents)``, by hand.

    System text goes to the system parts; image URLs are dropped (the conversation's are plain
    https URLs, which Gemini cannot fetch); consecutive same-role contents merge their parts.
    """
    system: list[Payload] = []
    contents: list[Payload] = []
    for message in messages:
        if isinstance(message, TextMessage) and message.role == Role.SYSTEM:
            system.append({"text": message.content})
            continue
        if isinstance(message, ImageMessage) and message.url is not None:
            continue
        role, parts = _gemini_parts(message, agent_name)
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"] += parts
        else:
            contents.append({"role": role, "parts": parts})
    return system, contents
