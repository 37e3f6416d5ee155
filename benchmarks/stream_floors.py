"""Hand-written minimal stream aggregators and bare passes, one per wing: the stream floors.

Each aggregator floor returns what the contract asks of ``add()`` and ``finish()`` (a neutral
update per delta, one final message) with the least code, and exactly what the library's
aggregator returns for the benchmark's streams: ``streams`` asserts that equality before timing.
The bare passes build nothing (see the section below). What the aggregators share is in
``replies.py``; the conversion floors are in ``floors.py``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from anthropic.types import RawMessageStreamEvent
from google.genai import types
from openai.types.chat import ChatCompletionChunk
from openai.types.responses import ResponseStreamEvent

from benchmarks.replies import Call, done, reply
from llmbridge import Message, Role, TextMessageUpdate, ToolCall, ToolCallMessageUpdate, Usage

__all__ = [
    "AnthropicFloorAggregator",
    "GeminiFloorAggregator",
    "OpenAIFloorAggregator",
    "ResponsesFloorAggregator",
    "anthropic_bare",
    "gemini_bare",
    "openai_bare",
    "responses_bare",
]

TAG: Final = "openai-responses"
"""The Responses wing's ``provider_data`` tag (its items' ids ride on the final message)."""


# --- OpenAI Chat Completions -------------------------------------------------------------


_OPENAI_FINISH: Final = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}


class OpenAIFloorAggregator:
    """A minimal Chat Completions stream aggregator: updates per chunk, one message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.text: list[str] = []
        self.calls: dict[int, Call] = {}
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
                    call = self.calls[tool.index] = Call(tool.id, name)
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
        return reply(self.agent_name, "".join(self.text), done(self.calls), self.usage, self.reason)


# --- OpenAI Responses --------------------------------------------------------------------


class ResponsesFloorAggregator:
    """A minimal Responses stream aggregator: updates per delta, the message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.indices: dict[int, int] = {}
        self.names: dict[int, tuple[str, str]] = {}
        self.response: Any = None

    def add(self, event: ResponseStreamEvent) -> list[Message]:
        """Fold one event in and return its updates."""
        match event.type:
            case "response.output_text.delta":
                return [TextMessageUpdate(Role.ASSISTANT, event.delta, self.agent_name)]
            case "response.function_call_arguments.delta":
                index = self.indices[event.output_index]
                name, call_id = self.names[index]
                update = ToolCallMessageUpdate(
                    name, event.delta, self.agent_name, index=index, tool_call_id=call_id
                )
                return [update]
            case "response.output_item.added" if event.item.type == "function_call":
                index = self.indices[event.output_index] = len(self.indices)
                item = event.item
                self.names[index] = (item.name, item.call_id)
                update = ToolCallMessageUpdate(
                    item.name, "", self.agent_name, index=index, tool_call_id=item.call_id
                )
                return [update]
            case "response.completed":
                self.response = event.response
        return []

    def finish(self) -> Message:
        """The complete reply, from the completed response's items."""
        response = self.response
        text: list[str] = []
        calls: list[ToolCall] = []
        state: dict[str, Any] = {}
        for item in response.output:
            if item.type == "message":
                text += [part.text for part in item.content]
                state = {TAG: {"id": item.id}}
            elif item.type == "function_call":
                calls.append(
                    ToolCall(
                        item.name,
                        item.arguments,
                        tool_call_id=item.call_id,
                        provider_data={TAG: {"id": item.id}},
                    )
                )
        usage = response.usage
        neutral = Usage(
            usage.input_tokens,
            usage.output_tokens,
            cache_read_tokens=usage.input_tokens_details.cached_tokens,
            cache_write_tokens=usage.input_tokens_details.cache_write_tokens,
            reasoning_tokens=usage.output_tokens_details.reasoning_tokens,
        )
        reason = "tool_calls" if calls else "stop"
        return reply(self.agent_name, "".join(text), calls, neutral, reason, state)


# --- Anthropic Messages ------------------------------------------------------------------


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
        self.calls: dict[int, Call] = {}
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
                self.calls[event.index] = Call(block.id, block.name)
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
        return reply(self.agent_name, "".join(self.text), done(self.calls), usage, self.reason)


# --- Gemini ------------------------------------------------------------------------------


class GeminiFloorAggregator:
    """A minimal Gemini stream aggregator: updates per chunk, one message at the end."""

    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.text: list[str] = []
        self.calls: list[ToolCall] = []
        self.usage: dict[str, int] = {}
        self.reason = "stop"

    def add(self, chunk: types.GenerateContentResponse) -> list[Message]:
        """Fold one chunk in and return its updates."""
        usage = chunk.usage_metadata
        if usage is not None:
            self.usage["prompt"] = usage.prompt_token_count or 0
            self.usage["candidates"] = usage.candidates_token_count or 0
            self.usage["thoughts"] = usage.thoughts_token_count or 0
        updates: list[Message] = []
        for candidate in chunk.candidates or ():
            for part in candidate.content.parts or () if candidate.content else ():
                call = part.function_call
                if call is not None:
                    index = len(self.calls)
                    name = call.name or ""
                    arguments = json.dumps(call.args or {}, ensure_ascii=False)
                    call_id = call.id or f"{name}_{index}"
                    self.calls.append(ToolCall(name, arguments, tool_call_id=call_id))
                    updates.append(
                        ToolCallMessageUpdate(
                            name, arguments, self.agent_name, index=index, tool_call_id=call_id
                        )
                    )
                elif part.text:
                    self.text.append(part.text)
                    updates.append(TextMessageUpdate(Role.ASSISTANT, part.text, self.agent_name))
            if candidate.finish_reason is not None and self.calls:
                self.reason = "tool_calls"
        return updates

    def finish(self) -> Message:
        """The complete reply."""
        u = self.usage
        usage = Usage(u["prompt"], u["candidates"] + u["thoughts"], reasoning_tokens=u["thoughts"])
        return reply(self.agent_name, "".join(self.text), self.calls, usage, self.reason)


# --- Bare assembly: no updates, no final message ----------------------------------------
# The cheapest possible pass over a stream: join the text and each call's arguments. It is the
# floor the SDK figures are quoted against; the aggregators above also build the
# neutral updates and message the contract requires, which a real aggregator cannot skip.
# The two chunk streams (OpenAI, Gemini: choices or candidates per chunk) come first, then the
# two event streams (Anthropic, Responses: one typed event per delta).


def _joined(text: list[str], calls: dict[int, list[str]]) -> tuple[str, list[str]]:
    return "".join(text), ["".join(calls[index]) for index in sorted(calls)]


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
    return _joined(text, calls)


def gemini_bare(chunks: Sequence[types.GenerateContentResponse]) -> tuple[str, list[str]]:
    """Join a Gemini stream's text and serialize each call's ``args`` (calls arrive whole)."""
    text: list[str] = []
    calls: list[str] = []
    for chunk in chunks:
        for candidate in chunk.candidates or ():
            for part in candidate.content.parts or () if candidate.content else ():
                if part.function_call is not None:
                    calls.append(json.dumps(part.function_call.args or {}))
                elif part.text:
                    text.append(part.text)
    return "".join(text), calls


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
    return _joined(text, calls)


def responses_bare(events: Sequence[ResponseStreamEvent]) -> tuple[str, list[str]]:
    """Join a Responses stream's text and each function call's arguments (by output index)."""
    text: list[str] = []
    calls: dict[int, list[str]] = {}
    for event in events:
        if event.type == "response.output_text.delta":
            text.append(event.delta)
        elif event.type == "response.function_call_arguments.delta":
            calls.setdefault(event.output_index, []).append(event.delta)
    return _joined(text, calls)
