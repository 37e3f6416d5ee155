"""The peers' translators and stream assemblers, each over its own input built beforehand.

Every peer is imported lazily: one that is not installed contributes nothing. What is timed is
the peer's own public (or, where it has none, the function its client calls) translation of
messages it already holds, and its assembly of the SDK stream objects into one message, which
is the job llmbridge's ``to_*`` and stream aggregators do.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final

from benchmarks.conversation import AGENT
from llmbridge import (
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)

__all__ = ["PEERS", "peer_cases"]

PEERS: Final = ("LangChain", "Pydantic AI", "LiteLLM")
"""The peers, in table order."""

Cases = dict[str, dict[str, Callable[[], object]]]


# --- LangChain ---------------------------------------------------------------------------


def _langchain_messages(messages: Sequence[Message]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

    out: list[Any] = []
    for message in messages:
        match message:
            case TextMessage(role=Role.SYSTEM):
                out.append(SystemMessage(message.content))
            case TextMessage(from_=sender) if sender == AGENT:
                out.append(AIMessage(message.content, name=AGENT))
            case TextMessage():
                out.append(HumanMessage(message.content))
            case ImageMessage():
                url = message.url or message.data_url
                out.append(HumanMessage([{"type": "image_url", "image_url": {"url": url}}]))
            case ToolCallMessage():
                calls = [
                    {
                        "name": call.function_name,
                        "args": json.loads(call.function_arguments),
                        "id": call.tool_call_id,
                    }
                    for call in message.tool_calls
                ]
                out.append(AIMessage(message.content or "", tool_calls=calls))
            case ToolCallResultMessage():
                out += [
                    ToolMessage(call.result or "", tool_call_id=call.tool_call_id or "")
                    for call in message.tool_calls
                ]
    return out


def _langchain_openai_stream(chunks: Sequence[Any]) -> Any:
    from langchain_core.messages import AIMessageChunk
    from langchain_openai.chat_models.base import _convert_delta_to_message_chunk

    message: Any = None
    for chunk in chunks:
        # ChatOpenAI._stream dumps every SDK chunk to a dict before reading it.
        body = chunk.model_dump()
        if not body["choices"]:
            continue
        piece = _convert_delta_to_message_chunk(body["choices"][0]["delta"], AIMessageChunk)
        message = piece if message is None else message + piece
    return message


def _langchain_anthropic_stream(model: Any, events: Sequence[Any]) -> Any:
    message: Any = None
    block_start: Any = None
    for event in events:
        # As ChatAnthropic._stream does for a request with tools (content kept as blocks).
        piece, block_start = model._make_message_chunk_from_anthropic_event(
            event, stream_usage=True, coerce_content_to_string=False, block_start_event=block_start
        )
        if piece is not None:
            message = piece if message is None else message + piece
    return message


def _langchain(conversation: Sequence[Message], chunks: Any, events: Any) -> Cases:
    from langchain_anthropic import ChatAnthropic
    from langchain_anthropic.chat_models import _format_messages
    from langchain_core.messages import convert_to_openai_messages

    messages = _langchain_messages(conversation)
    model = ChatAnthropic(model_name="claude-haiku-4-5", api_key="test-key")  # type: ignore[call-arg]
    return {
        "openai": {"LangChain": partial(convert_to_openai_messages, messages)},
        "anthropic": {"LangChain": partial(_format_messages, messages, model="claude-haiku-4-5")},
        "openai-stream": {"LangChain": partial(_langchain_openai_stream, chunks)},
        "anthropic-stream": {"LangChain": partial(_langchain_anthropic_stream, model, events)},
    }


# --- Pydantic AI -------------------------------------------------------------------------


def _pydantic_ai_messages(messages: Sequence[Message]) -> list[Any]:
    from pydantic_ai.messages import (
        BinaryContent,
        ImageUrl,
        ModelRequest,
        ModelResponse,
        SystemPromptPart,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )

    out: list[Any] = []
    for message in messages:
        match message:
            case TextMessage(role=Role.SYSTEM):
                out.append(ModelRequest([SystemPromptPart(message.content)]))
            case TextMessage(from_=sender) if sender == AGENT:
                out.append(ModelResponse([TextPart(message.content)]))
            case TextMessage():
                out.append(ModelRequest([UserPromptPart(message.content)]))
            case ImageMessage(url=str(url)):
                out.append(ModelRequest([UserPromptPart([ImageUrl(url)])]))
            case ImageMessage():
                image = BinaryContent(message.data or b"", media_type=message.media_type or "")
                out.append(ModelRequest([UserPromptPart([image])]))
            case ToolCallMessage():
                parts: list[Any] = [TextPart(message.content)] if message.content else []
                parts += [
                    ToolCallPart(call.function_name, call.function_arguments, call.tool_call_id)
                    for call in message.tool_calls
                ]
                out.append(ModelResponse(parts))
            case ToolCallResultMessage():
                results = [
                    ToolReturnPart(call.function_name, call.result, call.tool_call_id or "")
                    for call in message.tool_calls
                ]
                out.append(ModelRequest(results))
    return out


def _pydantic_ai(conversation: Sequence[Message], chunks: Any, events: Any) -> Cases:
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.anthropic import AnthropicProvider
    from pydantic_ai.providers.openai import OpenAIProvider

    messages = _pydantic_ai_messages(conversation)
    parameters = ModelRequestParameters()
    openai_model = OpenAIChatModel("gpt-4o-mini", provider=OpenAIProvider(api_key="test-key"))
    anthropic_model = AnthropicModel(
        "claude-haiku-4-5", provider=AnthropicProvider(api_key="test-key")
    )
    loop = asyncio.new_event_loop()

    def openai() -> object:
        return loop.run_until_complete(openai_model._map_messages(messages, parameters))

    def anthropic() -> object:
        return loop.run_until_complete(anthropic_model._map_message(messages, parameters, {}))

    return {"openai": {"Pydantic AI": openai}, "anthropic": {"Pydantic AI": anthropic}}


# --- LiteLLM -----------------------------------------------------------------------------


def _litellm(conversation: Sequence[Message], chunks: Any, events: Any) -> Cases:
    from litellm.litellm_core_utils.prompt_templates.factory import anthropic_messages_pt

    from llmbridge.openai import to_openai

    # LiteLLM's input is the OpenAI Chat format: its Anthropic job starts from that.
    messages = [dict(message) for message in to_openai(conversation, agent_name=AGENT).messages]
    system = [message for message in messages if message["role"] == "system"]
    rest = [message for message in messages if message["role"] != "system"]

    def anthropic() -> object:
        return system, anthropic_messages_pt(rest, "claude-haiku-4-5", "anthropic")

    return {"anthropic": {"LiteLLM": anthropic}}


# One builder per peer, in the order of ``PEERS``.
_BUILDERS: Final = {"LangChain": _langchain, "Pydantic AI": _pydantic_ai, "LiteLLM": _litellm}


def peer_cases(conversation: Sequence[Message], chunks: Any, events: Any) -> Cases:
    """``job -> peer -> call`` for every peer installed (a peer not installed adds nothing)."""
    cases: Cases = {}
    for build in _BUILDERS.values():
        try:
            found = build(conversation, chunks, events)
        except ImportError:
            continue
        for job, calls in found.items():
            cases.setdefault(job, {}).update(calls)
    return cases
