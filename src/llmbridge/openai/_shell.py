"""The public methods the two OpenAI agents (Chat Completions, Responses) share, written once.

``OpenAIAgentShell`` holds what both agents do alike around their own ``create_arguments``:
the client check and the common attributes, ``generate_reply``, ``generate_streaming_reply``
and ``register_message_connector``. An agent names its SDK resource call (``_create``), its
reply type and what its envelopes carry; the request building stays in each agent's module.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import AsyncIterator, Awaitable, Iterable, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

import openai

from llmbridge import (
    Connector,
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
    MiddlewareStreamingAgent,
    register_message_connector,
)
from llmbridge.kit import AgentMethods, NoteLog, check_async_client
from llmbridge.openai._calls import create_reply, envelope_dicts, stream_envelopes

__all__ = ["OpenAIAgentShell"]

ReplyT = TypeVar("ReplyT")
ChunkT = TypeVar("ChunkT")


class OpenAIAgentShell(AgentMethods, Generic[ReplyT, ChunkT]):
    """The shell of an OpenAI agent: one SDK resource, envelopes of request dicts in.

    A subclass sets ``provider``, ``_label`` (its class name in messages), ``_takes`` (the
    request dict type its envelopes carry), ``_reply_type`` and ``_reply_what``, and implements
    ``create_arguments`` and ``_create`` (the SDK call with those arguments).
    """

    provider: ClassVar[str]
    """The provider tag of the wire API this agent calls."""
    _label: ClassVar[str]
    _takes: ClassVar[str]
    _reply_type: ClassVar[type[Any]]
    _reply_what: ClassVar[str]

    client: openai.AsyncOpenAI
    name: str
    model: str
    system_message: str | None
    functions: tuple[FunctionContract, ...]

    def _set_up(
        self,
        client: openai.AsyncOpenAI,
        name: str,
        model: str,
        system_message: str | None,
        functions: Iterable[FunctionContract] | None,
    ) -> None:
        """Check ``client`` (``TypeError`` for a sync one) and keep the common attributes."""
        check_async_client(
            client,
            openai.OpenAI,
            openai,
            agent=self._label,
            use="openai.AsyncOpenAI or openai.AsyncAzureOpenAI",
        )
        self.client = client
        self.name = name
        self.model = model
        self.system_message = system_message
        self.functions = tuple(functions or ())
        # Each "repaired" note of an output_schema transform is logged once per agent.
        self._schema_log = NoteLog(source=f"{self._label} {name!r}")

    def __repr__(self) -> str:
        return f"{self._label}(name={self.name!r}, model={self.model!r})"

    def _dicts(self, messages: Sequence[Message]) -> list[Any]:
        """The request dicts of ``messages`` (``UnsupportedMessageError`` for anything else)."""
        return envelope_dicts(messages, agent=f"{self._label} {self.name!r}", takes=self._takes)

    @abstractmethod
    def create_arguments(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> dict[str, Any]:
        """Return the keyword arguments of the SDK ``create()`` call."""

    @abstractmethod
    def _create(self, arguments: dict[str, Any]) -> Awaitable[object]:
        """The SDK resource's ``create(**arguments)`` call, not yet awaited."""

    def _stream_arguments(self, arguments: dict[str, Any]) -> None:
        """Adjust ``arguments`` for a streaming call (``stream=True`` is set already)."""

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> MessageEnvelope[ReplyT]:
        """Call the API once and return its reply (a ``ChatCompletion`` or a ``Response``) in an
        envelope from this agent.

        Raises the mapped ``ProviderAPIError`` when the call fails, and
        ``ProviderResponseError`` when the HTTP 200 body is not even a JSON object (the SDK
        returns a JSON array or string as it is, not as its reply type).
        """
        arguments = self.create_arguments(messages, options)
        reply = await create_reply(
            self._create(arguments),
            self.client,
            self.provider,
            reply_type=self._reply_type,
            what=self._reply_what,
        )
        return MessageEnvelope(cast(ReplyT, reply), self.name)

    def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[MessageEnvelope[ChunkT]]:
        """Stream the API's chunks or events, each in an envelope from this agent (Chat
        Completions: with usage requested, which comes last).

        A failure before or during the stream raises the mapped ``ProviderAPIError``; event data
        that is not JSON raises ``StreamInterruptedError`` (not retryable).
        """

        async def open_stream() -> openai.AsyncStream[ChunkT]:
            arguments = self.create_arguments(messages, options)
            arguments["stream"] = True
            self._stream_arguments(arguments)
            stream = await self._create(arguments)
            return cast(openai.AsyncStream[ChunkT], stream)

        return stream_envelopes(open_stream, self.client, self.provider, name=self.name)

    def register_message_connector(
        self, connector: Connector | None = None
    ) -> MiddlewareStreamingAgent:
        """Return a new streaming agent that speaks neutral messages through ``connector``.

        With no connector, the default registered for this agent type is used (a lenient
        ``OpenAIChatRequestMessageConnector`` or ``OpenAIResponsesConnector``).
        """
        return register_message_connector(self, connector)
