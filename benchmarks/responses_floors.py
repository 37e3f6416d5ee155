"""The OpenAI Responses floors: a hand-written translation and stream aggregator, and its stream.

As in ``floors.py``: each floor does only what the benchmark's inputs need (no validation, no
notes, no repairs) but produces exactly what the library produces for them; ``convert`` and
``streams`` assert that equality before timing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import pydantic
from openai.types.responses import ResponseStreamEvent

from benchmarks.conversation import tool_plan, word_deltas
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
from llmbridge.testing import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
)

__all__ = ["ResponsesFloorAggregator", "responses_bare", "responses_floor", "responses_stream"]

Payload = dict[str, Any]
TAG: Final = "openai-responses"


def _text(message: TextMessage, agent_name: str) -> list[Payload]:
    if message.role == Role.SYSTEM:
        return [{"role": "system", "content": message.content}]
    role = "assistant" if message.from_ == agent_name else "user"
    return [{"role": role, "content": message.content}]


def _image(message: ImageMessage, agent_name: str) -> list[Payload]:
    part = {"type": "input_image", "image_url": message.data_url, "detail": "auto"}
    return [{"role": "user", "content": [part]}]


def _calls(message: ToolCallMessage, agent_name: str) -> list[Payload]:
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


def _results(message: ToolCallResultMessage, agent_name: str) -> list[Payload]:
    return [
        {"type": "function_call_output", "call_id": call.tool_call_id, "output": call.result}
        for call in message.tool_calls
        if call.result is not None
    ]


_ITEMS: Final[dict[type[Message], Callable[[Any, str], list[Payload]]]] = {
    TextMessage: _text,
    ImageMessage: _image,
    ToolCallMessage: _calls,
    ToolCallResultMessage: _results,
}


def responses_floor(messages: Sequence[Message], agent_name: str) -> list[Payload]:
    """Translate the benchmark conversation to Responses input items, by hand."""
    out: list[Payload] = []
    for message in messages:
        out += _ITEMS[type(message)](message, agent_name)
    return out


def responses_stream(
    text_count: int = 2000, calls: int = 3, fragments: int = 500, *, seed: int = 0
) -> list[ResponseStreamEvent]:
    """Return a Responses stream as SDK event objects: one message item of ``text_count`` text
    deltas, then ``calls`` function-call items of ``fragments`` argument deltas each (items
    stream one after another), then ``response.completed`` with the whole output and usage."""
    rng = random.Random(seed)
    texts = word_deltas(rng, text_count)
    plan = tool_plan(rng, calls, fragments)
    items = [openai_response_message("".join(texts), item_id="msg_bench")]
    items += [
        openai_response_function_call(name, "".join(parts), call_id=call_id)
        for call_id, name, parts in plan
    ]
    response = openai_response(items, input_tokens=1200, output_tokens=900)
    pieces: dict[int, list[str]] = {0: texts}
    pieces.update({index + 1: parts for index, (_, _, parts) in enumerate(plan)})
    raw: list[Payload] = []
    for event in openai_response_events(response, pieces=1):
        if event["type"].endswith(".delta"):
            raw += [{**event, "delta": piece} for piece in pieces[event["output_index"]]]
        else:
            raw.append(event)
    parse: Callable[[object], ResponseStreamEvent] = pydantic.TypeAdapter(
        ResponseStreamEvent
    ).validate_python
    return [parse({**event, "sequence_number": n}) for n, event in enumerate(raw)]


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
        content = "".join(text)
        if calls:
            return ToolCallMessage(
                calls,
                self.agent_name,
                content=content or None,
                usage=neutral,
                finish_reason="tool_calls",
                provider_data=state,
            )
        return TextMessage(
            Role.ASSISTANT,
            content,
            self.agent_name,
            usage=neutral,
            finish_reason="stop",
            provider_data=state,
        )


def responses_bare(events: Sequence[ResponseStreamEvent]) -> tuple[str, list[str]]:
    """Join a Responses stream's text and each function call's arguments (by output index)."""
    text: list[str] = []
    calls: dict[int, list[str]] = {}
    for event in events:
        if event.type == "response.output_text.delta":
            text.append(event.delta)
        elif event.type == "response.function_call_arguments.delta":
            calls.setdefault(event.output_index, []).append(event.delta)
    return "".join(text), ["".join(calls[index]) for index in sorted(calls)]
