"""``OpenAIChatRequestMessageConnector``: the middleware between neutral messages and OpenAI types.

Glue only: it calls ``to_openai`` / ``from_openai`` / ``OpenAIStreamAggregator`` and the next
agent, logs the conversion notes, and turns a failure inside a started stream into
``StreamInterruptedError``. The mapping rules live in the pure functions.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import openai
from openai.types.chat import ChatCompletionChunk

from llmbridge._agents import Agent, StreamingAgent
from llmbridge._errors import ProviderAPIError
from llmbridge._messages import Message, MessageEnvelope
from llmbridge._middleware import MiddlewareContext
from llmbridge._notes import NoteLog
from llmbridge.openai._errors import interrupted_stream_error, raised_mid_stream
from llmbridge.openai._request import MAX_IMAGE_BYTES, OpenAIRequest, to_openai
from llmbridge.openai._response import from_openai
from llmbridge.openai._stream import OpenAIStreamAggregator

__all__ = ["OpenAIChatRequestMessageConnector"]


def _envelopes(request: OpenAIRequest, messages: Sequence[Message]) -> list[Message]:
    """Wrap each request message in an envelope keeping its source's ``from_``.

    An envelope that was passed through unchanged is returned itself.
    """
    wrapped: list[Message] = []
    for payload, index in zip(request.messages, request.indices, strict=True):
        source = messages[index]
        if isinstance(source, MessageEnvelope) and source.content is payload:
            wrapped.append(source)
        else:
            wrapped.append(MessageEnvelope(payload, source.from_))
    return wrapped


class OpenAIChatRequestMessageConnector:
    """Connects an OpenAI agent (``OpenAIChatAgent`` or any agent of the same types) to neutral
    messages, on both the non-streaming and the streaming path.

    Incoming neutral messages become envelopes of ``ChatCompletionMessageParam`` (the From/Role
    rules; before a call, the tool-pairing step runs too); replies become neutral messages;
    streams yield live updates and end with one complete message. Notes are logged
    to the ``llmbridge`` logger, each once: a note this connector logged for an earlier request
    of the conversation is not logged again. ``strict_mode`` raises instead of dropping or renaming;
    ``max_image_bytes`` caps the base64 text of one image (``None``: no limit). A stream that
    ends before its finish reason raises ``StreamInterruptedError`` too.

    Raises ``InvalidMessageError`` / ``UnsupportedMessageError`` for conversions, the
    ``ProviderResponseError`` family for replies, the agent's ``ProviderAPIError`` when a call
    fails before its stream starts, and ``StreamInterruptedError`` (with ``.partial``) after.
    """

    name = "OpenAIChatRequestMessageConnector"

    def __init__(
        self, strict_mode: bool = False, *, max_image_bytes: int | None = MAX_IMAGE_BYTES
    ) -> None:
        self.strict_mode = strict_mode
        self.max_image_bytes = max_image_bytes
        self._note_log = NoteLog(self.name)

    def __repr__(self) -> str:
        return (
            f"OpenAIChatRequestMessageConnector(strict_mode={self.strict_mode!r}, "
            f"max_image_bytes={self.max_image_bytes!r})"
        )

    def _convert(
        self, agent: Agent, messages: Sequence[Message], *, check_pairing: bool
    ) -> list[Message]:
        request = to_openai(
            messages,
            agent_name=agent.name,
            strict_mode=self.strict_mode,
            check_pairing=check_pairing,
            max_image_bytes=self.max_image_bytes,
        )
        self._note_log.log(request.notes, messages)
        return _envelopes(request, messages)

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        """Convert neutral messages one by one to envelopes of OpenAI request messages.

        The request-level pairing step does not run here, so fragments convert too; envelopes
        of request dicts pass through unchanged.
        """
        return self._convert(agent, messages, check_pairing=False)

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        """Convert an OpenAI reply (an envelope of a ``ChatCompletion``) to a neutral message."""
        return from_openai(reply, agent_name=agent.name, strict_mode=self.strict_mode)

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Convert the conversation (pairing step included), call ``agent``, convert the reply."""
        messages = self._convert(agent, context.messages, check_pairing=True)
        reply = await agent.generate_reply(messages, context.options)
        return self.post_process_message(agent, reply)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Stream the reply: live updates, then exactly one complete message.

        Items that are not chunks go through ``post_process_message``.
        """
        messages = self._convert(agent, context.messages, check_pairing=True)
        aggregator = OpenAIStreamAggregator(agent.name)
        started = passed_on = False
        stream = agent.generate_streaming_reply(messages, context.options)
        try:
            while True:
                # Only the inner stream is guarded: errors thrown in at `yield` pass by.
                try:
                    item = await anext(stream)
                except StopAsyncIteration:
                    break
                except (ProviderAPIError, openai.APIError) as exc:
                    if not started and not raised_mid_stream(exc):
                        raise
                    # The SDK's error stays the cause, as for every ProviderAPIError.
                    cause = exc.__cause__ if isinstance(exc, ProviderAPIError) else None
                    raise interrupted_stream_error(exc, aggregator.partial) from (cause or exc)
                if isinstance(item, MessageEnvelope) and isinstance(
                    item.content, ChatCompletionChunk
                ):
                    started = True
                    for update in aggregator.add(item.content):
                        yield update
                else:
                    passed_on = True
                    yield self.post_process_message(agent, item)
        finally:
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
        # A stream that yielded nothing at all ended before its finish reason: finish() raises.
        if started or not passed_on:
            yield aggregator.finish()
