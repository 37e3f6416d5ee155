"""``TracingMiddleware``: one GenAI client span (and the client metrics) per model call.

Registered after the connector, it sees the neutral conversation and the neutral reply; inside
the connector it sees envelopes and records what they show (the response model and id). The
span is made current while the next agent works, so HTTP spans of an instrumented client nest
under it; on the streaming path it is current only while the next chunk is awaited, never
while the consumer holds an item.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Final

from opentelemetry import context as otel_context
from opentelemetry import metrics, trace
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as genai
from opentelemetry.semconv.attributes.error_attributes import ERROR_TYPE
from opentelemetry.semconv.attributes.server_attributes import SERVER_ADDRESS, SERVER_PORT
from opentelemetry.trace import SpanKind, Status, StatusCode

from llmbridge._messages import (
    Message,
    ReasoningMessageUpdate,
    TextMessageUpdate,
    ToolCallMessage,
    ToolCallMessageUpdate,
)
from llmbridge._tracing._attributes import (
    OPERATION,
    STOPPED,
    TOOL_CALL_EVENT,
    Attributes,
    RequestDefaults,
    error_attributes,
    error_description,
    options_attributes,
    provider_attributes,
    reply_attributes,
    reply_message,
    tool_call_attributes,
)
from llmbridge._tracing._content import input_messages, output_messages
from llmbridge._tracing._metrics import Instruments

if TYPE_CHECKING:
    from opentelemetry.metrics import MeterProvider
    from opentelemetry.trace import Span, TracerProvider

    from llmbridge._agents._context import MiddlewareContext
    from llmbridge._agents._protocols import Agent, StreamingAgent
    from llmbridge._tracing._target import Target

__all__ = ["TracingMiddleware"]

_SCOPE: Final = "llmbridge"  # the instrumentation scope, named after the distribution
_UPDATES: Final = (TextMessageUpdate, ReasoningMessageUpdate, ToolCallMessageUpdate)
# Attributes the metrics carry (the conventions' list), taken from the span's (error.type only
# on a failure).
_METRIC_KEYS: Final = (
    genai.GEN_AI_OPERATION_NAME,
    genai.GEN_AI_PROVIDER_NAME,
    genai.GEN_AI_REQUEST_MODEL,
    genai.GEN_AI_RESPONSE_MODEL,
    SERVER_ADDRESS,
    SERVER_PORT,
    ERROR_TYPE,
)


class _Call:
    """The state of one traced call: its span, clock, first-chunk time and last message."""

    __slots__ = ("attributes", "first_chunk", "reply", "span", "started")

    def __init__(self, span: Span, attributes: Attributes) -> None:
        self.span = span
        self.attributes = attributes
        self.started = time.perf_counter()
        self.first_chunk: float | None = None
        self.reply: Message | None = None

    def observe(self, item: Message) -> None:
        """Note one streamed item: the first one's time, and every complete message."""
        if self.first_chunk is None:
            self.first_chunk = time.perf_counter() - self.started
        if not isinstance(item, _UPDATES):
            self.reply = item


class TracingMiddleware:
    """A streaming middleware that records each call as an OpenTelemetry GenAI client span.

    Span ``chat {model}`` (kind CLIENT) with the operation, provider name, request model and
    settings, server address; at the end the response model and id, finish reasons, token
    usage, one ``llmbridge.tool_call`` event per tool call, and on failure ``error.type`` (the
    exception's class name, ``"cancelled"`` when the consumer stopped early) with status ERROR.
    Streams also get ``gen_ai.response.time_to_first_chunk``. Metrics:
    ``gen_ai.client.operation.duration``, ``gen_ai.client.token.usage`` (by token type) and,
    for streams, ``gen_ai.client.operation.time_to_first_chunk``. Message content (inputs,
    outputs, tool-call arguments) only with ``capture_content``. Build it with
    ``llmbridge.register_tracing``.
    """

    name = "tracing"

    def __init__(
        self,
        target: Target,
        *,
        tracer_provider: TracerProvider | None = None,
        meter_provider: MeterProvider | None = None,
        capture_content: bool = False,
    ) -> None:
        self.target = target
        self.capture_content = capture_content
        scope_version = _scope_version()
        self._tracer = trace.get_tracer(_SCOPE, scope_version, tracer_provider)
        self._instruments = Instruments(metrics.get_meter(_SCOPE, scope_version, meter_provider))
        self._defaults = RequestDefaults.of(target.agent)
        static: Attributes = {
            genai.GEN_AI_OPERATION_NAME: OPERATION,
            **provider_attributes(target.provider),
        }
        if target.server_address is not None:
            static[SERVER_ADDRESS] = target.server_address
            if target.server_port is not None:
                static[SERVER_PORT] = target.server_port
        self._static = static

    def __repr__(self) -> str:
        return (
            f"TracingMiddleware(provider={self.target.provider!r}, model={self.target.model!r}, "
            f"capture_content={self.capture_content!r})"
        )

    def _begin(self, context: MiddlewareContext, *, streaming: bool) -> _Call:
        options = context.options
        # The agent's model: the built-in agents refuse another one in options.extra.
        model = self.target.model
        attributes = {**self._static, **options_attributes(options, self._defaults)}
        if model is not None:
            attributes[genai.GEN_AI_REQUEST_MODEL] = model
        if streaming:
            attributes[genai.GEN_AI_REQUEST_STREAM] = True
        if self.capture_content:
            attributes[genai.GEN_AI_INPUT_MESSAGES] = input_messages(context.messages)
        span = self._tracer.start_span(
            f"{OPERATION} {model}" if model else OPERATION,
            kind=SpanKind.CLIENT,
            attributes=attributes,
            record_exception=False,
            set_status_on_exception=False,
        )
        return _Call(span, attributes)

    def _finish(self, call: _Call, error: BaseException | None) -> None:
        seconds = time.perf_counter() - call.started
        reply = call.reply
        model_reply = reply_message(reply) if reply is not None else None
        if isinstance(error, STOPPED) and model_reply is not None:
            error = None  # the consumer stopped after the complete message: the call is done
        span = call.span
        attributes = reply_attributes(reply) if reply is not None else {}
        if call.first_chunk is not None:
            attributes[genai.GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK] = call.first_chunk
        if error is not None:
            attributes.update(error_attributes(error))
        if self.capture_content:
            shown = reply if error is None else getattr(error, "partial", None)
            output = output_messages(shown) if shown is not None else None
            if output is not None:
                attributes[genai.GEN_AI_OUTPUT_MESSAGES] = output
        span.set_attributes(attributes)
        if isinstance(model_reply, ToolCallMessage):
            for tool_call in model_reply.tool_calls:
                event = tool_call_attributes(tool_call, capture_content=self.capture_content)
                span.add_event(TOOL_CALL_EVENT, event)
        if error is not None:
            description = error_description(error, capture_content=self.capture_content)
            span.set_status(Status(StatusCode.ERROR, description))
        span.end()
        self._record(call, attributes, seconds, model_reply)

    def _record(
        self, call: _Call, attributes: Attributes, seconds: float, reply: Message | None
    ) -> None:
        every = {**call.attributes, **attributes}
        shared: Attributes = {key: every[key] for key in _METRIC_KEYS if key in every}
        usage = getattr(reply, "usage", None)
        self._instruments.record(
            shared, seconds=seconds, usage=usage, first_chunk_seconds=call.first_chunk
        )

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Call the next agent inside a span; the span ends with the reply or the error."""
        call = self._begin(context, streaming=False)
        token = otel_context.attach(trace.set_span_in_context(call.span))
        try:
            reply = await agent.generate_reply(context.messages, context.options)
        except BaseException as exc:
            self._finish(call, exc)
            raise
        finally:
            otel_context.detach(token)
        call.reply = reply
        self._finish(call, None)
        return reply

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Pass the stream through inside a span that ends when the stream does.

        The span ends after the complete message (success), with the error when the stream
        raises, and as ``cancelled`` when the consumer closes or cancels the stream before the
        complete message arrived.
        """
        call = self._begin(context, streaming=True)
        current = trace.set_span_in_context(call.span)
        stream: AsyncIterator[Message] | None = None
        error: BaseException | None = None
        try:
            stream = agent.generate_streaming_reply(context.messages, context.options)
            while True:
                token = otel_context.attach(current)
                try:
                    item = await anext(stream)
                except StopAsyncIteration:
                    break
                finally:
                    otel_context.detach(token)
                call.observe(item)
                yield item
        except BaseException as exc:
            error = exc
            raise
        finally:
            try:
                close = getattr(stream, "aclose", None)  # None when the stream never started
                if close is not None:
                    await close()
            finally:
                self._finish(call, error)


def _scope_version() -> str:
    """The installed llmbridge's version, the instrumentation scope's (``""``, OpenTelemetry's
    "unknown", when only a source tree is importable). Read from the package metadata:
    ``llmbridge.__version__`` would mean importing the package that imports the chain that
    imports this module."""
    try:
        return version(_SCOPE)
    except PackageNotFoundError:
        return ""
