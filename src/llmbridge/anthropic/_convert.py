"""One neutral message -> Anthropic blocks (``match`` with class patterns over message types).

``Converter`` handles a message at a time (from the blocks of ``_blocks``) and hands the blocks
of one role to a sink (``_merge``); it never mutates its input and never re-encodes an image (it
reads the ``base64_data`` each ``ImageMessage`` caches). Lossy changes go through
``NoteRecorder``, the one lenient/strict decision point; rule violations raise
``InvalidMessageError`` in both modes.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.anthropic._arguments import parse_arguments
from llmbridge.anthropic._blocks import MAX_TOOL_NAME_LENGTH, BlockBuilder
from llmbridge.anthropic._media import MAX_IMAGE_BYTES
from llmbridge.anthropic._merge import Block
from llmbridge.anthropic._replay import reply_blocks
from llmbridge.kit import (
    SUPPORTED_IMAGE_TYPES,
    MessageDispatcher,
    ToolResultPart,
    check_text,
    text_or_parts,
    tool_call_id_or_fallback,
    unsupported_envelope,
)

__all__ = [
    "ALLOWED_MEDIA_TYPES",
    "ENVELOPE_ROLES",
    "MAX_IMAGE_BYTES",
    "MAX_TOOL_NAME_LENGTH",
    "Converter",
]

ALLOWED_MEDIA_TYPES: Final = SUPPORTED_IMAGE_TYPES
ENVELOPE_ROLES: Final = frozenset({"user", "assistant", "system"})
"""The roles of the provider messages passed through in envelopes (``system`` is lifted)."""
_ARTICLED: Final = {
    ImageMessage: "an ImageMessage",
    DocumentMessage: "a DocumentMessage",
    AudioMessage: "an AudioMessage",
}
_EMPTY_ERROR_TEXT: Final = "The tool failed without output."
_SYSTEM: Final = Role.SYSTEM
_ROLE_WITHOUT_SENDER: Final = {Role.USER: "user", Role.ASSISTANT: "assistant"}


class Converter(BlockBuilder, MessageDispatcher):
    """Converts one neutral message at a time into ``sink`` (``convert`` dispatches on type).

    ``convert(message, index)`` raises ``InvalidMessageError`` (both modes) for a message that
    breaks a rule, and records notes (raising in strict mode when they are lossy).
    """

    __slots__ = ()
    provider_title: ClassVar[str] = "Anthropic"

    # -- one handler per message type ----------------------------------------------------

    def text(self, message: TextMessage, index: int) -> None:
        """SYSTEM -> system blocks; self -> assistant (thinking first; a reply's citations and
        hosted tools replayed in place); no sender -> its role (user/assistant, else
        ``InvalidMessageError``); another agent -> user (name policy; hosted tools omitted)."""
        role, from_ = message.role, message.from_
        if role == _SYSTEM:
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
        if message.hosted_tools or message.citations:
            if turn == "assistant":
                self._reply(message, index)
                return
            if message.hosted_tools:
                self.recorder.record(
                    index, "omitted", "hosted tool calls are not sent in a user turn"
                )
                if not message.content.strip():  # a paused reply: nothing visible to lose
                    return
        content = message.content
        block: Block | None
        if content.isascii() and content and not content.isspace():  # most texts: no checks
            block = {"type": "text", "text": content}
        else:
            block = self._text_block(content, index, "content")
            if block is None:
                return
        reasoning = message.reasoning
        if turn == "user":
            if reasoning:
                self.recorder.record(index, "omitted", "reasoning is not sent in a user turn")
            blocks = [block] if from_ is None else self._sender([block], from_, index)
        else:
            blocks = [*self._thinking(reasoning, index), block] if reasoning else [block]
        self.sink.add(turn, blocks, index)

    def _reply(self, message: TextMessage, index: int) -> None:
        """An assistant text with citations or hosted tools: its blocks in place (thinking
        first); nothing left to send is noted only when no hosted tool was omitted."""
        blocks = reply_blocks(message, index, self.recorder)
        if not blocks:
            if not message.hosted_tools:
                self._empty(index)
            return
        reasoning = message.reasoning
        self.sink.add("assistant", [*self._thinking(reasoning, index), *blocks], index)

    def _system(self, message: TextMessage, index: int) -> None:
        block = self._text_block(message.content, index, "content")
        if block is None:
            return
        from_ = message.from_
        blocks = [block]
        if from_ is not None and from_ != self.agent_name:
            blocks = self._sender(blocks, from_, index)
        self.sink.add_system(blocks, index)

    def media_message(
        self, message: ImageMessage | DocumentMessage | AudioMessage, index: int
    ) -> None:
        """A user image or document block (audio is not supported); from self:
        ``InvalidMessageError``."""
        what = next(name for kind, name in _ARTICLED.items() if isinstance(message, kind))
        self._not_from_self(message, index, what)
        block = self._media_block(message, index, "")
        if block is None:
            return
        blocks = [block]
        if message.from_ is not None:
            blocks = self._sender(blocks, message.from_, index)
        self.sink.add("user", blocks, index)

    def multimodal(self, message: MultiModalMessage, index: int) -> None:
        """One user turn, items in order; from self: ``InvalidMessageError``."""
        self._not_from_self(message, index, "a MultiModalMessage")
        blocks = self._part_blocks(message.content, "content", index)
        if not blocks:
            self._empty(index)
            return
        if message.from_ is not None:
            blocks = self._sender(blocks, message.from_, index)
        self.sink.add("user", blocks, index)

    def tool_calls(self, message: ToolCallMessage, index: int) -> None:
        """An assistant turn: thinking, text (if any; with its citations and hosted tools in
        place), one ``tool_use`` per call with the parsed ``input``; from another agent or with
        non-object arguments: ``InvalidMessageError``."""
        from_ = message.from_
        if from_ is not None and from_ != self.agent_name:
            raise InvalidMessageError(
                f"tool calls from another agent ({from_!r}) cannot be sent; only the agent "
                "itself calls tools",
                index=index,
                field="from_",
            )
        blocks = self._thinking(message.reasoning, index) if message.reasoning else []
        if message.hosted_tools or message.citations:
            blocks.extend(reply_blocks(message, index, self.recorder))
        elif message.content:
            block = self._text_block(message.content, index, "content")
            if block is not None:
                blocks.append(block)
        cut_off = message.finish_reason == "length"
        for position, call in enumerate(message.tool_calls):
            # Ids come assigned and mapped to Anthropic's pattern (prepare_conversation).
            tool_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            # A call cut off at the token limit goes with {}; its text goes with its result.
            repaired = self.cut.take(message, call, tool_id) if cut_off else None
            if repaired is not None:
                self.recorder.record(index, "repaired", repaired)
            name = call.function_name
            if name not in self.valid_names:
                name = self._tool_name(name, position, index)
            blocks.append(
                {
                    "type": "tool_use",
                    "id": tool_id,
                    "name": name,
                    "input": {} if repaired else parse_arguments(call, position, index),
                }
            )
        if blocks:
            self.sink.add("assistant", blocks, index)
        else:
            self._empty(index)

    def tool_results(self, message: ToolCallResultMessage, index: int) -> None:
        """A user turn of ``tool_result`` blocks for the calls whose result is not ``None``;
        a parts result becomes content blocks (text, image, document)."""
        blocks: list[Block] = []
        cut = self.cut
        for position, call in enumerate(message.tool_calls):
            if call.result is None:
                continue
            tool_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            result = text_or_parts(call.result)  # a structured result: its JSON text
            if isinstance(result, str) and result.isascii() and not cut.arguments:
                content: str | list[Block] = result  # most results: text, nothing to add
            else:
                content = self._result_content(result, tool_id, position, index)
            block: Block = {"type": "tool_result", "tool_use_id": tool_id}
            if call.is_error:
                block["is_error"] = True
                if not content or (isinstance(content, str) and content.isspace()):
                    # The API refuses an error result without content.
                    content = _EMPTY_ERROR_TEXT
                    self.recorder.record(
                        index, "repaired", f"empty error result {position} given a short text"
                    )
                block["content"] = content
            elif content and not (isinstance(content, str) and content.isspace()):
                block["content"] = content
            blocks.append(block)
        if blocks:  # results that are all None carry nothing: no turn, nothing lost
            self.sink.add("user", blocks, index)

    def _result_content(
        self, result: str | tuple[ToolResultPart, ...], tool_id: str, position: int, index: int
    ) -> str | list[Block]:
        """A result as ``tool_result`` content: its text, or the blocks of its parts; the cut
        arguments of the call it answers go after it."""
        field = f"tool_calls[{position}].result"
        if isinstance(result, str):
            if not result.isascii():
                check_text(result, index=index, field=field)
            return self.cut.result(tool_id, result) if self.cut.arguments else result
        blocks = self._part_blocks(result, field, index)
        cut = self.cut.result(tool_id, "") if self.cut.arguments else ""
        if cut:
            blocks.append({"type": "text", "text": cut})
        return blocks

    def aggregate(self, message: ToolCallAggregateMessage, index: int) -> None:
        """Self or no sender: the call turn then the result turn; another agent: the results as
        user text and media blocks (name policy)."""
        from_ = message.from_
        if from_ is None or from_ == self.agent_name:
            self.tool_calls(message.tool_call_message, index)
            self.tool_results(message.tool_call_result_message, index)
            return
        blocks: list[Block] = []
        for position, call in enumerate(message.tool_call_result_message.tool_calls):
            field = f"tool_calls[{position}].result"
            result = None if call.result is None else text_or_parts(call.result)
            if isinstance(result, str):
                block = self._text_block(result, index, field)
                if block is not None:
                    blocks.append(block)
            elif result is not None:
                blocks.extend(self._part_blocks(result, field, index))
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
            self.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
