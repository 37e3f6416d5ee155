"""``MessageConnector``: the one connector template every provider's connector is made from.

A subclass says how to convert a request, a reply and a stream for its provider, and how its
SDK's exceptions map to llmbridge's; the template does the rest, the same way for every
provider: the pairing step, notes logged once, envelopes that keep each message's sender, the
call, the reply conversion, stream aggregation (updates live, then exactly one complete
message), closing the inner stream when the consumer stops early, and deciding, in one place,
when a failure becomes ``StreamInterruptedError``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from typing import ClassVar

from llmbridge._agents import Agent, MiddlewareContext, StreamingAgent
from llmbridge._errors import ProviderAPIError, StreamInterruptedError
from llmbridge._messages import Message, MessageEnvelope
from llmbridge.kit._notes import NoteLog
from llmbridge.kit._request import ProviderRequest
from llmbridge.kit._scan_cache import ScanCache
from llmbridge.kit._stream import StreamAggregator

__all__ = ["MessageConnector"]


class MessageConnector(ABC):
    """Base class of every provider's connector (a ``Middleware`` and ``StreamingMiddleware``).

    A subclass sets ``provider`` (its provider tag) and implements ``convert_request``,
    ``convert_reply``, ``new_stream_aggregator``, ``is_stream_item`` and ``map_error``. The
    constructor takes ``strict_mode`` (keyword or first positional). ``scans`` is the
    connector's ``ScanCache``: ``convert_request`` passes it to its ``to_*`` function, so each
    conversation going through the connector is scanned only past what it was sent before.
    What the template does:

    - ``invoke``: converts the conversation with the pairing step, logs the notes (each once
      per connector), wraps each payload in a ``MessageEnvelope`` that keeps the sender of the
      neutral message it came from (an envelope passed through unchanged is itself), calls the
      next agent and converts its reply.
    - ``invoke_streaming``: the same conversion, then updates live and exactly one complete
      message; items that are not stream items go through ``convert_reply``. The inner stream
      is closed when the consumer stops early.
    - Failures: before the inner stream yields its first item, the mapped error is raised (the
      SDK error as ``__cause__``; a ``ProviderAPIError`` raised by the next agent is used as it
      is); after it, ``StreamInterruptedError`` with the mapped error's ``status_code`` and
      ``retryable`` and ``.partial`` set to what had been assembled. A ``map_error`` result
      that is already a ``StreamInterruptedError`` (the provider had accepted the stream) is
      raised as it is, with ``.partial`` filled in. Exceptions ``map_error`` does not know
      (``None``) propagate unchanged.
    """

    provider: ClassVar[str]

    def __init__(self, strict_mode: bool = False) -> None:
        self.strict_mode = strict_mode
        self.name: str = type(self).__name__
        self._note_log = NoteLog(source=self.name)
        self.scans = ScanCache()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(strict_mode={self.strict_mode!r})"

    # -- what a provider supplies ----------------------------------------------------------

    @abstractmethod
    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> ProviderRequest:
        """Convert neutral messages to this provider's request (its ``to_*`` function)."""

    @abstractmethod
    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        """Convert the next agent's reply (an envelope of a provider response) to neutral."""

    @abstractmethod
    def new_stream_aggregator(self, agent_name: str) -> StreamAggregator:
        """A fresh aggregator for one streamed reply."""

    @abstractmethod
    def is_stream_item(self, item: object) -> bool:
        """Whether ``item`` (an envelope's content) is one of this provider's stream items."""

    @abstractmethod
    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        """This provider's SDK exception -> llmbridge's error tree; ``None``: not one of its.

        Called with the SDK's exception: for a ``ProviderAPIError`` raised by the next agent,
        with that error's ``__cause__``. Return a ``StreamInterruptedError`` for a failure
        inside a stream the provider had already accepted.
        """

    # -- the template ------------------------------------------------------------------------

    def _envelopes(
        self, agent: Agent, messages: Sequence[Message], *, check_pairing: bool
    ) -> list[Message]:
        request = self.convert_request(messages, agent_name=agent.name, check_pairing=check_pairing)
        self._note_log.log(request.notes, messages)
        wrapped: list[Message] = []
        for payload, index in request.agent_input():
            source = None if index is None else messages[index]
            if isinstance(source, MessageEnvelope) and source.content is payload:
                wrapped.append(source)
            else:
                wrapped.append(MessageEnvelope(payload, None if source is None else source.from_))
        return wrapped

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        """Convert neutral messages to envelopes of provider messages, without the pairing step.

        So fragments (a lone tool call, a lone result) convert too; envelopes of provider
        messages pass through unchanged.
        """
        return self._envelopes(agent, messages, check_pairing=False)

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        """Convert a provider reply (an envelope of a provider response) to a neutral message."""
        return self.convert_reply(reply, agent_name=agent.name)

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Convert the conversation (pairing step included), call ``agent``, convert the reply."""
        envelopes = self._envelopes(agent, context.messages, check_pairing=True)
        try:
            reply = await agent.generate_reply(envelopes, context.options)
        except Exception as exc:
            failure = self._failure(exc, started=False, partial=None)
            if failure is None:
                raise
            raise failure from _sdk_error(exc)
        return self.post_process_message(agent, reply)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Yield the reply's updates live, then exactly one complete message (see the class)."""
        envelopes = self._envelopes(agent, context.messages, check_pairing=True)
        aggregator = self.new_stream_aggregator(agent.name)
        started = passed_on = False
        stream = agent.generate_streaming_reply(envelopes, context.options)
        try:
            while True:
                # Only the inner stream is guarded: errors thrown in at `yield` pass by.
                try:
                    item = await anext(stream)
                except StopAsyncIteration:
                    break
                except Exception as exc:
                    failure = self._failure(exc, started=started, partial=aggregator.partial)
                    if failure is None:
                        raise
                    raise failure from _sdk_error(exc)
                if isinstance(item, MessageEnvelope) and self.is_stream_item(item.content):
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
        # A stream that yielded nothing ended before its end marker: finish() raises.
        if started or not passed_on:
            yield aggregator.finish()

    def _failure(
        self, exc: Exception, *, started: bool, partial: Message | None
    ) -> ProviderAPIError | None:
        """The error to raise for ``exc`` (``None``: let it propagate unchanged)."""
        sdk_error = _sdk_error(exc)
        mapped = None if sdk_error is None else self.map_error(sdk_error)
        if isinstance(exc, ProviderAPIError) and not isinstance(mapped, StreamInterruptedError):
            mapped = exc  # the agent's own mapping stands
        if mapped is None:
            return None
        if isinstance(mapped, StreamInterruptedError):
            if partial is None or mapped.partial is not None:
                return mapped
            return _interrupted(str(mapped), mapped, partial)
        if not started:
            return mapped
        return _interrupted(
            f"the {mapped.provider} stream was interrupted: {mapped}", mapped, partial
        )


def _sdk_error(exc: BaseException) -> BaseException | None:
    """The SDK's own exception behind ``exc``: its cause for our errors, else ``exc``."""
    if isinstance(exc, ProviderAPIError):
        return exc.__cause__
    return exc


def _interrupted(
    message: str, mapped: ProviderAPIError, partial: Message | None
) -> StreamInterruptedError:
    return StreamInterruptedError(
        message,
        provider=mapped.provider,
        status_code=mapped.status_code,
        retryable=mapped.retryable,
        partial=partial,
    )
