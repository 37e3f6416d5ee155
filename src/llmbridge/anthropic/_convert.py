"""One neutral message -> Anthropic blocks, through a type-keyed table (API.md 4.2).

``Converter`` handles a message at a time and hands the blocks of one role to a sink
(``_merge``); it never mutates its input and never re-encodes an image (it reads the
``base64_data`` each ``ImageMessage`` caches). Lossy changes go through ``NoteRecorder``, the one
lenient/strict decision point; rule violations raise ``InvalidMessageError`` in both modes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge._names import sanitize_identifier
from llmbridge._notes import NoteRecorder
from llmbridge._request_checks import (
    SUPPORTED_IMAGE_TYPES,
    WEB_URL_SCHEMES,
    check_image,
    check_text,
    omitted_detail,
    unsupported_envelope,
    unsupported_image_url,
)
from llmbridge._tool_calls import CutOffCalls
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._merge import Block, Sink

__all__ = [
    "ALLOWED_MEDIA_TYPES",
    "ENVELOPE_ROLES",
    "MAX_IMAGE_BYTES",
    "MAX_TOOL_NAME_LENGTH",
    "Converter",
]

ALLOWED_MEDIA_TYPES: Final = SUPPORTED_IMAGE_TYPES
MAX_IMAGE_BYTES: Final = 5 * 1024 * 1024
"""Default ``max_image_bytes``: Anthropic refuses an image whose base64 text exceeds 5 MB."""
MAX_TOOL_NAME_LENGTH: Final = 128
ENVELOPE_ROLES: Final = frozenset({"user", "assistant", "system"})
"""The roles of the provider messages passed through in envelopes (``system`` is lifted)."""
_ID_PATTERN: Final = re.compile(r"[a-zA-Z0-9_-]+")
_TOOL_NAME_PATTERN: Final = re.compile(r"[a-zA-Z0-9_-]{1,128}")
_DECODE: Final = json.JSONDecoder().decode  # json.loads minus its per-call argument checks
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_EMPTY_ERROR_TEXT: Final = "The tool failed without output."
_ROLE_WITHOUT_SENDER: Final = {Role.USER: "user", Role.ASSISTANT: "assistant"}


def _parse_arguments(call: ToolCall, position: int, index: int) -> dict[str, Any]:
    arguments = call.function_arguments
    if arguments == "":
        return {}
    field = f"tool_calls[{position}].function_arguments"
    if not arguments.isascii():
        check_text(arguments, index=index, field=field)
    try:
        value = _DECODE(arguments)
    except ValueError:
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are not valid JSON; Anthropic "
            "needs a JSON object",
            index=index,
            field=field,
        ) from None
    except RecursionError:
        # Valid JSON nested deeper than a recursive parser goes (the SDK could not send it).
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are nested too deeply to parse; "
            "Anthropic needs a JSON object",
            index=index,
            field=field,
        ) from None
    if not isinstance(value, dict):
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are JSON but not an object "
            f"({type(value).__name__}); Anthropic needs a JSON object",
            index=index,
            field=field,
        )
    if "\\u" in arguments and _SURROGATE_ESCAPE.search(arguments):
        # A JSON escape such as "\ud800" parses to a lone surrogate, which cannot be sent.
        check_text(json.dumps(value, ensure_ascii=False), index=index, field=field)
    return value


class Converter:
    """Converts one neutral message at a time into ``sink`` (see ``_DISPATCH``).

    ``convert(message, index)`` raises ``InvalidMessageError`` (both modes) for a message that
    breaks a rule, and records notes (raising in strict mode when they are lossy).
    """

    __slots__ = ("agent_name", "cut", "max_image_bytes", "prefix", "recorder", "sink")

    def __init__(
        self,
        agent_name: str,
        recorder: NoteRecorder,
        name_policy: str,
        sink: Sink,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
    ) -> None:
        self.agent_name = agent_name
        self.recorder = recorder
        self.prefix = name_policy == "prefix"
        self.sink = sink
        self.max_image_bytes = max_image_bytes
        self.cut = CutOffCalls()

    def convert(self, message: Message, index: int) -> None:
        """Convert ``message`` (neutral index ``index``) via ``_DISPATCH``; other types are
        unsupported (dropped with a note; strict mode: ``UnsupportedMessageError``)."""
        handler = _DISPATCH.get(type(message))
        if handler is None:
            handler = next((_DISPATCH[t] for t in type(message).__mro__ if t in _DISPATCH), None)
        if handler is None:
            self.recorder.unsupported(
                index, f"{type(message).__name__} cannot be sent to Anthropic"
            )
            return
        handler(self, message, index)

    # -- shared pieces -------------------------------------------------------------------

    def _sender(self, blocks: list[Block], name: str, index: int) -> list[Block]:
        """Apply the name policy to the blocks of another agent's message."""
        if self.prefix:
            check_text(name, index=index, field="from_")
            self.recorder.note(index, "repaired", f"sender name carried as a '[{name}] ' prefix")
            return [{"type": "text", "text": f"[{name}] "}, *blocks]
        self.recorder.note(
            index, "dropped", f"sender name {name!r} cannot be sent to Anthropic", field="from_"
        )
        return blocks

    def _text_block(self, text: str, index: int, field: str) -> Block | None:
        # The ASCII test inline, as at every hot check_text site: a call per text made
        # to_anthropic 9% slower (benchmark conversation); a lone surrogate is never ASCII.
        if not text.isascii():
            check_text(text, index=index, field=field)
        if text and not text.isspace():  # isspace: no copy, unlike strip
            return {"type": "text", "text": text}
        self.recorder.note(index, "dropped", "empty or whitespace-only text", field=field)
        return None

    def _empty(self, index: int) -> None:
        self.recorder.note(index, "dropped", "nothing left to send in this message")

    def _thinking(self, reasoning: Sequence[Reasoning], index: int) -> list[Block]:
        blocks: list[Block] = []
        omitted: list[str] = []
        for position, item in enumerate(reasoning):
            # Empty data or signature cannot be verified by the API: such blocks are omitted.
            if item.provider == PROVIDER and item.redacted_data:
                blocks.append({"type": "redacted_thinking", "data": item.redacted_data})
            elif item.provider == PROVIDER and item.signature:
                check_text(item.text, index=index, field=f"reasoning[{position}].text")
                blocks.append(
                    {"type": "thinking", "thinking": item.text, "signature": item.signature}
                )
            else:
                omitted.append(repr(item.provider) if item.provider != PROVIDER else "unsigned")
        if omitted:
            self.recorder.note(
                index, "omitted", f"reasoning not sent to Anthropic ({', '.join(omitted)})"
            )
        return blocks

    def _tool_id(self, call: ToolCall, position: int, index: int, rewritten: list[str]) -> str:
        tool_id = call.tool_call_id or f"{call.function_name}_{position}"
        if _ID_PATTERN.fullmatch(tool_id):
            return tool_id
        new = sanitize_identifier(tool_id, max_length=None)
        rewritten.append(f"{tool_id!r} -> {new!r}")
        return new

    def _tool_name(self, name: str, position: int, index: int) -> str:
        if _TOOL_NAME_PATTERN.fullmatch(name):
            return name
        check_text(name, index=index, field=f"tool_calls[{position}].function_name")
        cleaned = sanitize_identifier(name, max_length=MAX_TOOL_NAME_LENGTH)
        self.recorder.note(
            index,
            "renamed",
            f"function name {name!r} does not match ^[a-zA-Z0-9_-]{{1,128}}$: renamed {cleaned!r}",
            field=f"tool_calls[{position}].function_name",
        )
        return cleaned

    def _note_ids(self, index: int, rewritten: list[str]) -> None:
        if rewritten:
            self.recorder.note(
                index,
                "repaired",
                f"tool call ids rewritten to [a-zA-Z0-9_-]: {', '.join(rewritten)}",
            )

    def _image_block(self, image: ImageMessage, index: int, field_prefix: str = "") -> Block | None:
        unsupported = unsupported_image_url(
            image, schemes=WEB_URL_SCHEMES, provider="Anthropic", field_prefix=field_prefix
        )
        if unsupported is not None:  # a gs:// URL: dropped, strict mode raises
            self.recorder.unsupported(index, unsupported)
            return None
        omitted = omitted_detail(image, provider="Anthropic", field_prefix=field_prefix)
        if omitted is not None:
            self.recorder.note(index, "omitted", omitted)
        if image.url is not None:
            return {"type": "image", "source": {"type": "url", "url": image.url}}
        check_image(
            image,
            max_bytes=self.max_image_bytes,
            provider="Anthropic",
            index=index,
            field_prefix=field_prefix,
        )
        source = {"type": "base64", "media_type": image.media_type, "data": image.base64_data}
        return {"type": "image", "source": source}

    def _not_from_self(self, message: Message, index: int, what: str) -> None:
        if message.from_ == self.agent_name:
            raise InvalidMessageError(
                f"{what} cannot come from the agent itself (models do not produce images)",
                index=index,
                field="from_",
            )

    # -- one handler per message type ----------------------------------------------------

    def text(self, message: TextMessage, index: int) -> None:
        """SYSTEM -> system blocks; self -> assistant (thinking first); no sender -> its role
        (user/assistant, else ``InvalidMessageError``); another agent -> user (name policy)."""
        role, from_ = message.role, message.from_
        if role == Role.SYSTEM:
            self._system(message, index)
            return
        if from_ == self.agent_name:
            turn = "assistant"
        elif from_ is None:
            turn = _ROLE_WITHOUT_SENDER.get(role, "")
            if not turn:
                raise InvalidMessageError(
                    f"a TextMessage without sender needs role user, assistant or system, got "
                    f"{str(role)!r}",
                    index=index,
                    field="role",
                )
        else:
            turn = "user"
        block = self._text_block(message.content, index, "content")
        if block is None:
            return
        if turn == "user":
            if message.reasoning:
                self.recorder.note(index, "omitted", "reasoning is not sent in a user turn")
            blocks = [block] if from_ is None else self._sender([block], from_, index)
        else:
            blocks = self._thinking(message.reasoning, index) if message.reasoning else []
            blocks.append(block)
        self.sink.add(turn, blocks, index)

    def _system(self, message: TextMessage, index: int) -> None:
        block = self._text_block(message.content, index, "content")
        if block is None:
            return
        from_ = message.from_
        blocks = [block]
        if from_ is not None and from_ != self.agent_name:
            blocks = self._sender(blocks, from_, index)
        self.sink.add_system(blocks, index)

    def image(self, message: ImageMessage, index: int) -> None:
        """A user image block (base64 or URL source); from self: ``InvalidMessageError``."""
        self._not_from_self(message, index, "an ImageMessage")
        block = self._image_block(message, index)
        if block is None:
            return
        blocks = [block]
        if message.from_ is not None:
            blocks = self._sender(blocks, message.from_, index)
        self.sink.add("user", blocks, index)

    def multimodal(self, message: MultiModalMessage, index: int) -> None:
        """One user turn, items in order; from self: ``InvalidMessageError``."""
        self._not_from_self(message, index, "a MultiModalMessage")
        blocks: list[Block] = []
        for position, item in enumerate(message.content):
            if isinstance(item, ImageMessage):
                block = self._image_block(item, index, f"content[{position}].")
            else:
                block = self._text_block(item.content, index, f"content[{position}]")
            if block is not None:
                blocks.append(block)
        if not blocks:
            self._empty(index)
            return
        if message.from_ is not None:
            blocks = self._sender(blocks, message.from_, index)
        self.sink.add("user", blocks, index)

    def tool_calls(self, message: ToolCallMessage, index: int) -> None:
        """An assistant turn: thinking, text (if any), one ``tool_use`` per call with the parsed
        ``input``; from another agent or with non-object arguments: ``InvalidMessageError``."""
        from_ = message.from_
        if from_ is not None and from_ != self.agent_name:
            raise InvalidMessageError(
                f"tool calls from another agent ({from_!r}) cannot be sent; only the agent "
                "itself calls tools",
                index=index,
                field="from_",
            )
        blocks = self._thinking(message.reasoning, index) if message.reasoning else []
        if message.content:
            block = self._text_block(message.content, index, "content")
            if block is not None:
                blocks.append(block)
        rewritten: list[str] = []
        for position, call in enumerate(message.tool_calls):
            tool_id = self._tool_id(call, position, index, rewritten)
            # A call cut off at the token limit goes with {}; its text goes with its result.
            repaired = self.cut.take(message, call, tool_id)
            if repaired is not None:
                self.recorder.note(index, "repaired", repaired)
            blocks.append(
                {
                    "type": "tool_use",
                    "id": tool_id,
                    "name": self._tool_name(call.function_name, position, index),
                    "input": {} if repaired else _parse_arguments(call, position, index),
                }
            )
        self._note_ids(index, rewritten)
        if blocks:
            self.sink.add("assistant", blocks, index)
        else:
            self._empty(index)

    def tool_results(self, message: ToolCallResultMessage, index: int) -> None:
        """A user turn of ``tool_result`` blocks for the calls whose result is not ``None``."""
        blocks: list[Block] = []
        rewritten: list[str] = []
        for position, call in enumerate(message.tool_calls):
            result = call.result
            if result is None:
                continue
            tool_id = self._tool_id(call, position, index, rewritten)
            if not result.isascii():
                check_text(result, index=index, field=f"tool_calls[{position}].result")
            if self.cut.arguments:
                result = self.cut.result(tool_id, result)
            block: Block = {"type": "tool_result", "tool_use_id": tool_id}
            if call.is_error:
                block["is_error"] = True
                if not result or result.isspace():
                    # The API refuses an error result without content.
                    result = _EMPTY_ERROR_TEXT
                    self.recorder.note(
                        index, "repaired", f"empty error result {position} given a short text"
                    )
                block["content"] = result
            elif result and not result.isspace():
                block["content"] = result
            blocks.append(block)
        self._note_ids(index, rewritten)
        if blocks:  # results that are all None carry nothing: no turn, nothing lost
            self.sink.add("user", blocks, index)

    def aggregate(self, message: ToolCallAggregateMessage, index: int) -> None:
        """Self or no sender: the call turn then the result turn; another agent: the results as
        user text (name policy)."""
        from_ = message.from_
        if from_ is None or from_ == self.agent_name:
            self.tool_calls(message.tool_call_message, index)
            self.tool_results(message.tool_call_result_message, index)
            return
        blocks: list[Block] = []
        for position, call in enumerate(message.tool_call_result_message.tool_calls):
            if call.result is not None:
                block = self._text_block(call.result, index, f"tool_calls[{position}].result")
                if block is not None:
                    blocks.append(block)
        if blocks:
            self.sink.add("user", self._sender(blocks, from_, index), index)
        else:
            self._empty(index)

    def envelope(self, message: MessageEnvelope[Any], index: int) -> None:
        """A user, assistant or system dict passes through to the sink; anything else (another
        provider's message, say an OpenAI ``"tool"`` one) is unsupported."""
        target, expected = "an Anthropic message", "a MessageParam dict"
        unsupported = unsupported_envelope(
            message, roles=ENVELOPE_ROLES, target=target, expected=expected
        )
        if unsupported is None:
            self.sink.pass_through(message, index)
        else:
            self.recorder.unsupported(index, unsupported)


_DISPATCH: Final[dict[type, Callable[[Converter, Any, int], None]]] = {
    TextMessage: Converter.text,
    ImageMessage: Converter.image,
    MultiModalMessage: Converter.multimodal,
    ToolCallMessage: Converter.tool_calls,
    ToolCallResultMessage: Converter.tool_results,
    ToolCallAggregateMessage: Converter.aggregate,
    MessageEnvelope: Converter.envelope,
}
