"""``PrintMessageMiddleware``: prints replies readably (``register_print_message``)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from typing import IO

from llmbridge._agents._context import MiddlewareContext
from llmbridge._agents._describe import citation_label, hosted_label, media_label, reply_metadata
from llmbridge._agents._protocols import Agent, StreamingAgent
from llmbridge._messages import (
    UPDATE_TYPES,
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    VideoMessage,
    describe_result,
)

__all__ = ["PrintMessageMiddleware", "format_message"]

_RULE = "-" * 40


def _format_call(call: ToolCall) -> str:
    line = f"- {call.function_name}({call.function_arguments})"
    if call.tool_call_id:
        line += f" [{call.tool_call_id}]"
    if call.result is not None:
        line += f"\n  {'error' if call.is_error else 'result'}: {describe_result(call.result)}"
    return line


def _body(message: Message) -> str:
    match message:
        case TextMessage(content=content):
            return content
        case ImageMessage() | DocumentMessage() | AudioMessage() | VideoMessage():
            return media_label(message)
        case MultiModalMessage(content=items):
            return "\n".join(_body(item) for item in items)
        case ToolCallMessage(tool_calls=calls, content=content):
            lines = [content] if content else []
            return "\n".join([*lines, *(_format_call(call) for call in calls)])
        case ToolCallResultMessage(tool_calls=calls):
            return "\n".join(_format_call(call) for call in calls)
        case ToolCallAggregateMessage(tool_call_result_message=results):
            return _body(results)
        case MessageEnvelope(content=content):
            return repr(content)
        case _:
            return message.get_content() or repr(message)


def _metadata(message: Message) -> list[str]:
    """The lines of a reply's hosted tool calls and citations."""
    hosted, citations = reply_metadata(message)
    lines = []
    if hosted:
        lines.append("hosted tool calls:")
        for call in hosted:
            lines.append(f"- {hosted_label(call)}")
            if call.result is not None:
                lines.append(f"  {'error' if call.is_error else 'result'}: {call.result}")
    if citations:
        lines.append("citations:")
        lines.extend(f"- {citation_label(citation)}" for citation in citations)
    return lines


def format_message(message: Message) -> str:
    """Return a readable block: a header naming the type and sender, the body, a rule.

    Media show by source (URL, provider file, or type and size), never their bytes; a
    reply's hosted tool calls and citations follow its body.
    """
    sender = message.from_ or "(caller)"
    # A reply of hosted tools alone (Anthropic's pause_turn) has no text: no empty line.
    body = "\n".join(line for line in (_body(message), *_metadata(message)) if line)
    return f"{type(message).__name__} from {sender}\n{_RULE}\n{body}\n{_RULE}"


class PrintMessageMiddleware:
    """Prints each reply to ``file`` (default: ``sys.stdout``).

    Streaming: text and reasoning deltas are printed as they arrive, then the complete message
    is printed once.
    """

    name = "print_message"

    def __init__(self, file: IO[str] | None = None) -> None:
        self.file = file

    def _out(self) -> IO[str]:
        return self.file if self.file is not None else sys.stdout

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Print the reply and return it unchanged."""
        reply = await agent.generate_reply(context.messages, context.options)
        print(format_message(reply), file=self._out(), flush=True)
        return reply

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Print deltas live and each complete message once; yield everything unchanged."""
        out = self._out()
        mid_line = False
        async for message in agent.generate_streaming_reply(context.messages, context.options):
            if isinstance(message, TextMessageUpdate | ReasoningMessageUpdate):
                out.write(message.content)
                out.flush()
                mid_line = bool(message.content) and not message.content.endswith("\n")
            elif not isinstance(message, UPDATE_TYPES):
                # Tool-call argument fragments are unreadable alone: the complete call prints here.
                if mid_line:
                    out.write("\n")
                    mid_line = False
                print(format_message(message), file=out, flush=True)
            yield message
