"""``AnthropicMessageConnector``: the middleware between neutral messages and Anthropic's types.

Glue only: the conversions live in ``_request``, ``_response`` and ``_stream``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

import anthropic
import httpx2
from anthropic.types import (
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
)

from llmbridge._agents import Agent, StreamingAgent
from llmbridge._errors import StreamInterruptedError, UnsupportedMessageError
from llmbridge._messages import Message, MessageEnvelope
from llmbridge._middleware import MiddlewareContext
from llmbridge._notes import NoteLog
from llmbridge.anthropic._convert import MAX_IMAGE_BYTES
from llmbridge.anthropic._errors import api_error, stream_interrupted
from llmbridge.anthropic._request import NamePolicy, build_request, check_name_policy, convert_each
from llmbridge.anthropic._response import from_anthropic
from llmbridge.anthropic._stream import AnthropicStreamAggregator

__all__ = ["AnthropicMessageConnector"]

_EVENT_TYPES: Final = (
    RawMessageStartEvent,
    RawMessageDeltaEvent,
    RawMessageStopEvent,
    RawContentBlockStartEvent,
    RawContentBlockDeltaEvent,
    RawContentBlockStopEvent,
)


def _event_of(reply: Message) -> Any:
    if isinstance(reply, MessageEnvelope) and isinstance(reply.content, _EVENT_TYPES):
        return reply.content
    return None


class AnthropicMessageConnector:
    """Lets an Anthropic agent speak neutral messages, on both the plain and streaming paths.

    Inbound, the whole conversation goes through ``to_anthropic`` (pairing step, merged turns;
    system text as one ``{"role": "system"}`` envelope the agent lifts after its own system
    message); outbound, replies go through ``from_anthropic`` and streams through
    ``AnthropicStreamAggregator``. Notes are logged to the ``llmbridge`` logger, each once (a
    note logged for an earlier request of the conversation is not logged again).
    ``strict_mode`` and ``name_policy`` (``"drop"`` or ``"prefix"``) are those of
    ``to_anthropic``, and so is ``max_image_bytes`` (the base64 text of one image; ``None``: no
    limit). A stream that fails after it started, or ends before its stop reason (even before
    any event), raises ``StreamInterruptedError`` whose ``partial`` holds what had arrived. A
    consumer that stops early (``aclose()``, task cancellation) closes the inner stream, and so
    the HTTP response, at once.
    Replies that are not Anthropic responses are returned unchanged (strict mode:
    ``UnsupportedMessageError``).
    """

    def __init__(
        self,
        strict_mode: bool = False,
        name_policy: NamePolicy = "drop",
        *,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
    ) -> None:
        check_name_policy(name_policy)
        self.strict_mode = strict_mode
        self.name_policy: NamePolicy = name_policy
        self.max_image_bytes = max_image_bytes
        self.name = "AnthropicMessageConnector"
        self._note_log = NoteLog(self.name)

    def __repr__(self) -> str:
        return (
            f"AnthropicMessageConnector(strict_mode={self.strict_mode!r}, "
            f"name_policy={self.name_policy!r}, max_image_bytes={self.max_image_bytes!r})"
        )

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        """Convert message by message (no merging, no pairing step) into ``MessageEnvelope``s.

        Each envelope keeps its source ``from_``; envelopes of dicts pass through unchanged.
        """
        envelopes, notes = convert_each(
            messages,
            agent_name=agent.name,
            strict_mode=self.strict_mode,
            name_policy=self.name_policy,
            max_image_bytes=self.max_image_bytes,
        )
        self._note_log.log(notes, messages)
        return envelopes

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        """Convert an envelope of an Anthropic ``Message`` into a neutral reply."""
        return from_anthropic(reply, agent_name=agent.name, strict_mode=self.strict_mode)

    def _request(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        request, first_indices = build_request(
            messages,
            agent_name=agent.name,
            strict_mode=self.strict_mode,
            name_policy=self.name_policy,
            max_image_bytes=self.max_image_bytes,
        )
        self._note_log.log(request.notes, messages)
        envelopes: list[Message] = []
        if request.system:
            envelopes.append(MessageEnvelope({"role": "system", "content": request.system}))
        for payload, index in zip(request.messages, first_indices, strict=True):
            envelopes.append(MessageEnvelope(payload, messages[index].from_))
        return envelopes

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Convert the conversation, ask ``agent``, convert its reply."""
        reply = await agent.generate_reply(self._request(agent, context.messages), context.options)
        return self.post_process_message(agent, reply)

    def _foreign(self, reply: Message) -> Message:
        if self.strict_mode:
            raise UnsupportedMessageError(
                f"expected Anthropic stream events, got {type(reply).__name__} (strict mode)"
            )
        return reply

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Yield live updates, then exactly one complete message (see the class)."""
        messages = self._request(agent, context.messages)
        aggregator = AnthropicStreamAggregator(agent.name, strict_mode=self.strict_mode)
        started = passed_on = False
        stream = agent.generate_streaming_reply(messages, context.options)
        try:
            async for reply in stream:
                event = _event_of(reply)
                if event is None:
                    passed_on = True
                    yield self._foreign(reply)
                    continue
                started = True
                for update in aggregator.add(event):
                    yield update
        except StreamInterruptedError as exc:
            raise StreamInterruptedError(
                str(exc),
                provider=exc.provider,
                status_code=exc.status_code,
                retryable=exc.retryable,
                partial=aggregator.partial(),
            ) from (exc.__cause__ or exc)
        except (anthropic.APIError, httpx2.TransportError) as exc:
            # An agent that lets SDK errors through: map them here.
            if not started and isinstance(exc, anthropic.APIError):
                raise api_error(exc) from exc
            raise stream_interrupted(exc, partial=aggregator.partial()) from exc
        finally:
            # A consumer that stops early (aclose, cancellation) closes the HTTP response now,
            # not when the garbage collector finds the abandoned inner stream.
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()
        # A stream that yielded nothing at all ended before its stop reason: finish() raises.
        if started or not passed_on:
            yield aggregator.finish()
