"""OpenAI Chat Completions stream chunks -> live neutral updates and one final reply .

State is kept apart from I/O: feed ``OpenAIStreamAggregator.add`` a chunk, get the updates it
carries; call ``finish`` for the complete reply, built by the same rules as ``from_openai``.
"""

from __future__ import annotations

from typing import Any

from openai.types.chat import ChatCompletionChunk

from llmbridge import (
    Message,
    ProviderResponseError,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessageUpdate,
    Usage,
)
from llmbridge.kit import (
    NoteRecorder,
    ReplyParts,
    ToolCallAccumulator,
    build_reply,
    log_notes,
    partial_reply,
)
from llmbridge.openai._citations import annotation_dicts, cited_reply
from llmbridge.openai._errors import PROVIDER
from llmbridge.openai._response import reasoning_text, reply_parts, usage_from_openai

__all__ = ["OpenAIStreamAggregator"]


class OpenAIStreamAggregator:
    """Turns ``ChatCompletionChunk``s into neutral updates and, at the end, the complete reply.

    ``add(chunk)`` returns, in order, a ``ReasoningMessageUpdate`` per reasoning delta (from
    OpenAI-compatible servers), a ``TextMessageUpdate`` per text delta and a
    ``ToolCallMessageUpdate`` per tool-call delta. The ``annotations`` of the deltas (a key the
    SDK does not declare) are gathered in order and become the reply's citations at the end,
    as ``from_openai`` reads ``message.annotations`` (their offsets count in the whole text;
    ``strict_mode`` as there). Tool-call deltas are joined by their
    ``index`` only, so interleaved parallel calls and ids or names repeated in every delta work;
    a usage chunk with no choices is fine, and so are chunks with ``choices: null`` (some
    OpenAI-compatible servers) or a choice with ``delta: null`` (Azure's content filter): they
    carry no update, but their usage and finish reason count. A stream that ends without
    ``[DONE]`` once its finish reason has arrived is complete. ``finish()`` returns the reply
    ``from_openai`` gives for the equivalent completion (usage and finish reason included) or
    raises as it does; a stream that ended before its finish reason raises
    ``StreamInterruptedError`` (retryable, ``.partial`` set), even after ``[DONE]``: the SDK
    ends its iteration alike on ``[DONE]`` and on a body that closed without it, so a reply
    without its finish reason cannot be told from a cut one. ``partial`` is what arrived so far.

    Raises ``ProviderResponseError`` from ``add`` for a chunk of a second choice (n > 1) and
    for ``annotations`` that are not a list.
    """

    __slots__ = (
        "_annotations",
        "_calls",
        "_chunks",
        "_finish_reason",
        "_reasoning",
        "_refusal",
        "_text",
        "_usage",
        "agent_name",
        "strict_mode",
    )

    def __init__(self, agent_name: str, *, strict_mode: bool = False) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self._annotations: list[Any] = []
        self._text: list[str] = []
        self._reasoning: list[str] = []
        self._refusal: list[str] = []
        self._calls = ToolCallAccumulator()
        self._finish_reason: str | None = None
        self._usage: Usage | None = None
        self._chunks: list[ChatCompletionChunk] = []

    def add(self, chunk: ChatCompletionChunk) -> list[Message]:
        """Record one chunk and return the updates it carries (possibly none)."""
        self._chunks.append(chunk)
        if chunk.usage is not None:
            # Only the last chunk (with include_usage) carries usage; it covers the request.
            self._usage = usage_from_openai(chunk.usage)
        updates: list[Message] = []
        agent = self.agent_name
        # The SDK builds chunks without validation: OpenAI-compatible servers send
        # "choices": null, Azure's content filter "delta": null (its finish reason still counts).
        for choice in chunk.choices or ():
            if choice.index != 0:
                raise ProviderResponseError(
                    f"the stream holds a chunk of choice {choice.index}; only one choice is "
                    "supported (n > 1)",
                    response=tuple(self._chunks),
                )
            if choice.finish_reason is not None:
                self._finish_reason = choice.finish_reason
            delta = choice.delta
            if delta is None:
                continue
            reasoning = reasoning_text(delta)
            if reasoning:
                self._reasoning.append(reasoning)
                updates.append(ReasoningMessageUpdate(reasoning, agent))
            if delta.content:
                self._text.append(delta.content)
                updates.append(TextMessageUpdate(Role.ASSISTANT, delta.content, agent))
            if delta.refusal:
                self._refusal.append(delta.refusal)
            annotations = getattr(delta, "annotations", None)  # undeclared: in model_extra
            if annotations is not None:
                self._add_annotations(annotations)
            for call in delta.tool_calls or ():
                function = call.function
                updates.append(
                    self._calls.add(
                        call.index,
                        tool_call_id=call.id,
                        function_name=function.name if function else None,
                        arguments=function.arguments if function else None,
                        from_=agent,
                    )
                )
        return updates

    def _add_annotations(self, annotations: object) -> None:
        if not isinstance(annotations, list):
            raise ProviderResponseError(
                "the stream is not an OpenAI chat completion stream: a delta's annotations "
                f"are of type {type(annotations).__name__}, not a list",
                response=tuple(self._chunks),
            )
        self._annotations += annotation_dicts(annotations)

    def _parts(self) -> ReplyParts:
        return reply_parts(
            text="".join(self._text),
            refusal="".join(self._refusal),
            tool_calls=self._calls.tool_calls(),
            reasoning="".join(self._reasoning) or None,
            usage=self._usage,
            finish_reason=self._finish_reason,
        )

    @property
    def partial(self) -> Message | None:
        """The reply assembled so far, or ``None`` when no text, reasoning or tool call arrived.

        Never raises: a refusal or content filter seen so far does not stop it. It carries the
        citations whose span the text has reached.
        """
        partial = partial_reply(self._parts(), agent_name=self.agent_name, raw=tuple(self._chunks))
        return None if partial is None else cited_reply(partial, self._annotations, None)

    def finish(self) -> Message:
        """Return the complete reply; ``raw`` is the tuple of chunks received.

        Raises ``ContentFilteredError``, ``RefusalError`` or ``EmptyResponseError`` exactly as
        ``from_openai`` does for the equivalent completion, and ``StreamInterruptedError`` when
        no finish reason arrived (the stream stopped early: the reply may be cut anywhere).
        """
        if self._finish_reason is None:
            raise StreamInterruptedError(
                "the OpenAI stream ended before its finish reason (the reply is incomplete)",
                provider=PROVIDER,
                retryable=True,
                partial=self.partial,
            )
        reply = build_reply(self._parts(), agent_name=self.agent_name, raw=tuple(self._chunks))
        if not self._annotations:
            return reply
        recorder = NoteRecorder(strict_mode=self.strict_mode)
        reply = cited_reply(reply, self._annotations, recorder)
        log_notes(recorder.notes, source="OpenAIStreamAggregator")
        return reply
