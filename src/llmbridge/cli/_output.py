"""How ``llmbridge demo`` prints: one-line messages, exact request bodies, live streams."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import IO, Any, Final

from llmbridge._agents._describe import citation_label, hosted_label, media_label, reply_metadata
from llmbridge._messages import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MultiModalMessage,
    ReasoningMessageUpdate,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    VideoMessage,
    describe_result,
)

__all__ = ["LivePrinter", "describe", "request_json", "summary_lines", "write_request"]

_INDENT: Final = "   "


def _call(call: ToolCall) -> str:
    line = f"{call.function_name}({call.function_arguments})"
    if call.result is not None:
        line += f" -> {'error: ' if call.is_error else ''}{describe_result(call.result)}"
    return line


def _header(message: Message) -> str:
    role = getattr(message, "role", None)
    parts = [type(message).__name__]
    if role is not None:
        parts.append(f"role={role}")
    if message.from_ is not None:
        parts.append(f"from={message.from_}")
    return " ".join(parts)


def _body(message: Message) -> str:
    match message:
        case TextMessage(content=content):
            return json.dumps(content, ensure_ascii=False)
        case ImageMessage() | DocumentMessage() | AudioMessage() | VideoMessage():
            return media_label(message)
        case MultiModalMessage(content=items):
            return " + ".join(_body(item) for item in items)
        case ToolCallMessage(tool_calls=calls) | ToolCallResultMessage(tool_calls=calls):
            return "; ".join(_call(call) for call in calls)
        case ToolCallAggregateMessage(tool_call_result_message=results):
            return _body(results)
        case _:
            return repr(message.get_content())


def _metadata(message: Message) -> str:
    hosted, citations = reply_metadata(message)
    parts = []
    for call in hosted:
        part = f"hosted {hosted_label(call)}"
        if call.result is not None:
            part += f" -> {'error: ' if call.is_error else ''}{call.result}"
        parts.append(part)
    parts.extend(f"cites {citation_label(citation)}" for citation in citations)
    return "".join(f"; {part}" for part in parts)


def describe(message: Message) -> str:
    """One line: the type, role and sender, then the content (media by source, or type and
    size), then a reply's hosted tool calls and citations."""
    return f"{_header(message)}: {_body(message)}{_metadata(message)}"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def request_json(body: Mapping[str, Any]) -> str:
    """The body as valid JSON laid out for reading: a line per key, a line per list item."""
    lines = []
    for key, value in body.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {_compact(item)}" for item in value)
            lines.append(f"  {_compact(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {_compact(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def write_request(file: IO[str], number: int, method: str, url: str, body: Any) -> None:
    """Print a request's method, URL and exact JSON body (one line per message and tool)."""
    file.write(f"-- request {number}: {method} {url}, the JSON body exactly as sent\n")
    file.write(request_json(body) + "\n")
    file.flush()


class LivePrinter:
    """Prints streamed updates as they arrive, then each complete reply.

    Text and reasoning deltas are written as they come; tool-call argument fragments are
    written after a ``[tool call] name`` label, a new line whenever the call index changes.
    """

    def __init__(self, file: IO[str]) -> None:
        self.file = file
        self.mid_line = False
        self.streamed = False
        self.kind: tuple[str, int] | None = None

    def update(self, message: Message) -> None:
        """Write one streamed update, labelling each new run of reasoning or tool-call deltas."""
        match message:
            case TextMessageUpdate(content=text):
                self._run(("text", 0), "")
                self._write(text)
            case ReasoningMessageUpdate(content=text):
                self._run(("reasoning", 0), "[reasoning] ")
                self._write(text)
            case ToolCallMessageUpdate(index=index, function_name=name):
                # The index only keys the deltas (OpenAI counts calls, Anthropic blocks).
                self._run(("tool", index), f"[tool call] {name} ")
                self._write(message.function_arguments_update)
        self.streamed = True

    def end_line(self) -> None:
        """Finish a line left open by streamed text."""
        if self.mid_line:
            self.file.write("\n")
            self.mid_line = False
        self.kind = None
        self.file.flush()

    def complete(self, reply: Message) -> None:
        """Write a complete reply: text only if it was not streamed, then calls and results."""
        self.end_line()
        streamed, self.streamed = self.streamed, False
        text = reply.get_content() if isinstance(reply, TextMessage | ToolCallMessage) else None
        if isinstance(reply, ToolCallAggregateMessage):
            text = reply.tool_call_message.content
        if text and not streamed:
            self.file.write(f"{text}\n")
        self.file.write(f"=> {_header(reply)}{_details(reply)}\n")
        if isinstance(reply, ToolCallAggregateMessage):
            self.file.write(f"{_INDENT}FunctionCallMiddleware ran the calls:\n")
            for call in reply.tool_call_result_message.tool_calls:
                self.file.write(f"{_INDENT}{_call(call)}  [id {call.tool_call_id}]\n")
        self.file.flush()

    def _run(self, kind: tuple[str, int], label: str) -> None:
        if self.kind != kind:
            self.end_line()
            self.kind = kind
            self.file.write(label)
            self.mid_line = bool(label)

    def _write(self, text: str) -> None:
        self.file.write(text)
        self.file.flush()
        self.mid_line = self.mid_line or bool(text)


def _details(reply: Message) -> str:
    source = reply.tool_call_message if isinstance(reply, ToolCallAggregateMessage) else reply
    reason = getattr(source, "finish_reason", None)
    usage = getattr(source, "usage", None)
    parts = [f"finish_reason={reason}"] if reason else []
    if usage is not None:
        parts.append(f"usage {usage.input_tokens} in / {usage.output_tokens} out")
    return f" ({', '.join(parts)})" if parts else ""


def _tool_results(replies: Sequence[Message]) -> list[tuple[str, str | None, bool]]:
    return [
        (call.function_name, describe_result(call.result), call.is_error)
        for reply in replies
        if isinstance(reply, ToolCallAggregateMessage)
        for call in reply.tool_call_result_message.tool_calls
    ]


def summary_lines(results: Mapping[str, Sequence[Message]]) -> list[str]:
    """Per provider: the neutral reply types and the tool results; then whether they agree."""
    lines = []
    width = max((len(name) for name in results), default=0)
    for provider, replies in results.items():
        types = " -> ".join(type(reply).__name__ for reply in replies)
        lines.append(f"{provider:<{width}}  replies: {types}")
        for name, result, is_error in _tool_results(replies):
            lines.append(f"{'':<{width}}  tool {name} -> {'error: ' if is_error else ''}{result}")
    if len(results) > 1:
        shapes = {
            (tuple(type(reply) for reply in replies), tuple(_tool_results(replies)))
            for replies in results.values()
        }
        verdict = (
            "Same neutral reply types and tool results from every provider."
            if len(shapes) == 1
            else "The providers' replies differ (a live model may choose other calls)."
        )
        lines.append(verdict)
    return lines
