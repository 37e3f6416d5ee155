"""Hand-written minimal translators and aggregators: the floor each measurement is compared to.

Each floor does only what the benchmark's inputs need (no validation, no notes, no repairs)
but produces exactly what the library produces for those inputs; ``convert`` and ``streams``
assert that equality once per run before timing. Where they differ, the floor is made to
follow API.md, never the other way round.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from anthropic.types import RawMessageStreamEvent
from openai.types.chat import ChatCompletionChunk

from llmbridge import (
    ImageMessage,
    Message,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    Usage,
)

__all__ = [
    "AnthropicFloorAggregator",
    "OpenAIFloorAggregator",
    "anthropic_bare",
    "anthropic_floor",
    "openai_bare",
    "openai_floor",
]

Payload = dict[str, Any]


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


_OPENAI: Final[dict[type[Message], Callable[[Any, str], list[Payload]]]] = {
    TextMessage: _openai_text,
    ImageMessage: _openai_image,
    ToolCallMessage: _openai_calls,
    ToolCallResultMessage: _openai_results,
}


def openai_floor(messages: Sequence[Message], agent_name: str) -> list[Payload]:
    """Translate the benchmark conversation to Chat Completions messages, by hand."""
    out: list[Payload] = []
    for message in messages:
        out += _OPENAI[type(message)](message, agent_name)
    return out


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


# --- Stream aggregation ------------------------------------------------------------------


class _Call:
    __slots__ = ("fragments", "name", "tool_call_id")

    def __init__(self, tool_call_id: str | None, name: str) -> None:
        self.tool_call_id = tool_call_id
        self.name = name
        self.fragments: list[str] = []

    def done(self) -> ToolCall:
        return ToolCall(self.name, "".join(self.fragments), tool_call_id=self.tool_call_id)


def _final(
    agent_name: str, text: list[str], calls: dict[int, _Call], usage: Usage | None, finish: str
) -> Message:
    content = "".join(text)
    if calls:
        tool_calls = [calls[index].done() for index in sorted(calls)]
        return ToolCallMessage(
            tool_calls, agent_name, content=content or None, usage=usage, finish_reason=finish
        )
    return TextMessage(Role.ASSISTANT, content, agent_name, usage=usage, finish_reason=finish)


_OPENAI_FINISH: Final = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}


class OpenAIFloorAggregator:
    """A minimal Chat Completions stream aggregator: updates per chunk, one message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.text: list[str] = []
        self.calls: dict[int, _Call] = {}
        self.usage: Usage | None = None
        self.reason = "stop"

    def add(self, chunk: ChatCompletionChunk) -> list[Message]:
        """Fold one chunk in and return its updates."""
        if chunk.usage is not None:
            self.usage = Usage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens)
        updates: list[Message] = []
        for choice in chunk.choices:
            delta = choice.delta
            if delta.content:
                self.text.append(delta.content)
                updates.append(TextMessageUpdate(Role.ASSISTANT, delta.content, self.agent_name))
            for tool in delta.tool_calls or ():
                call = self.calls.get(tool.index)
                function = tool.function
                if call is None:
                    name = function.name if function and function.name else ""
                    call = self.calls[tool.index] = _Call(tool.id, name)
                fragment = (function.arguments if function else None) or ""
                if fragment:
                    call.fragments.append(fragment)
                updates.append(
                    ToolCallMessageUpdate(
                        call.name,
                        fragment,
                        self.agent_name,
                        index=tool.index,
                        tool_call_id=call.tool_call_id,
                    )
                )
            if choice.finish_reason:
                self.reason = _OPENAI_FINISH.get(choice.finish_reason, choice.finish_reason)
        return updates

    def finish(self) -> Message:
        """The complete reply."""
        return _final(self.agent_name, self.text, self.calls, self.usage, self.reason)


_ANTHROPIC_FINISH: Final = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "tool_use": "tool_calls",
}


class AnthropicFloorAggregator:
    """A minimal Messages stream aggregator: updates per event, one message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.text: list[str] = []
        self.calls: dict[int, _Call] = {}
        self.input_tokens = 0
        self.output_tokens = 0
        self.reason = "stop"

    def add(self, event: RawMessageStreamEvent) -> list[Message]:
        """Fold one event in and return its updates."""
        match event.type:
            case "content_block_delta":
                delta = event.delta
                if delta.type == "text_delta":
                    self.text.append(delta.text)
                    return [TextMessageUpdate(Role.ASSISTANT, delta.text, self.agent_name)]
                if delta.type == "input_json_delta":
                    call = self.calls[event.index]
                    call.fragments.append(delta.partial_json)
                    update = ToolCallMessageUpdate(
                        call.name,
                        delta.partial_json,
                        self.agent_name,
                        index=event.index,
                        tool_call_id=call.tool_call_id,
                    )
                    return [update]
            case "content_block_start" if event.content_block.type == "tool_use":
                # The block start carries id and name: the call's first delta, as in OpenAI.
                block = event.content_block
                self.calls[event.index] = _Call(block.id, block.name)
                update = ToolCallMessageUpdate(
                    block.name, "", self.agent_name, index=event.index, tool_call_id=block.id
                )
                return [update]
            case "message_start":
                usage = event.message.usage
                self.input_tokens = usage.input_tokens
            case "message_delta":
                self.output_tokens = event.usage.output_tokens
                reason = event.delta.stop_reason or "end_turn"
                self.reason = _ANTHROPIC_FINISH.get(reason, reason)
        return []

    def finish(self) -> Message:
        """The complete reply."""
        usage = Usage(self.input_tokens, self.output_tokens)
        return _final(self.agent_name, self.text, self.calls, usage, self.reason)


# --- Bare assembly: no updates, no final message ----------------------------------------
# The cheapest possible pass over a stream: join the text and each call's arguments. It is the
# floor the SDK figures are quoted against; the aggregators above also build the
# neutral updates and message the contract requires, which a real aggregator cannot skip.


def openai_bare(chunks: Sequence[ChatCompletionChunk]) -> tuple[str, list[str]]:
    """Join a Chat Completions stream's text and each tool call's arguments (by index)."""
    text: list[str] = []
    calls: dict[int, list[str]] = {}
    for chunk in chunks:
        for choice in chunk.choices:
            delta = choice.delta
            if delta.content:
                text.append(delta.content)
            for tool in delta.tool_calls or ():
                fragments = calls.setdefault(tool.index, [])
                if tool.function and tool.function.arguments:
                    fragments.append(tool.function.arguments)
    return "".join(text), ["".join(calls[index]) for index in sorted(calls)]


def anthropic_bare(events: Sequence[RawMessageStreamEvent]) -> tuple[str, list[str]]:
    """Join a Messages stream's text and each tool_use block's input JSON (by block index)."""
    text: list[str] = []
    calls: dict[int, list[str]] = {}
    for event in events:
        if event.type == "content_block_delta":
            delta = event.delta
            if delta.type == "text_delta":
                text.append(delta.text)
            elif delta.type == "input_json_delta":
                calls.setdefault(event.index, []).append(delta.partial_json)
    return "".join(text), ["".join(calls[index]) for index in sorted(calls)]
