"""``GeminiMessageConnector``: the kit's connector template for Gemini ``generateContent``.

Glue only: it names the pure conversions (``to_gemini``, ``convert_each``, ``from_gemini``,
``GeminiStreamAggregator``) and ``map_error``, and picks the provider tag (``"gemini"``, or
``"vertex"`` for a Vertex AI client) from the agent it serves; ``MessageConnector`` does the
rest.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from typing import Any, ClassVar, Final

from google.genai import types

from llmbridge import (
    Agent,
    Message,
    MiddlewareContext,
    ProviderAPIError,
    StreamingAgent,
    register_default_connector,
)
from llmbridge.gemini._agent import GeminiChatAgent
from llmbridge.gemini._errors import PROVIDER, VERTEX_PROVIDER, map_error
from llmbridge.gemini._request import NamePolicy, check_name_policy, convert_each, to_gemini
from llmbridge.gemini._response import from_gemini
from llmbridge.gemini._stream import GeminiStreamAggregator
from llmbridge.kit import MessageConnector, ProviderRequest

__all__ = ["GeminiMessageConnector", "provider_of"]

# How far provider_of looks through middleware layers for the agent holding the client.
_MAX_DEPTH: Final = 64


def provider_of(agent: object) -> str:
    """The provider tag for ``agent``: ``"vertex"`` when its client is a Vertex AI client.

    Looks through middleware layers (``.inner`` of a chain link, ``.agent`` of a middleware
    agent) for the first object with a ``client``; ``"gemini"`` when none is found.
    """
    current: object = agent
    for _ in range(_MAX_DEPTH):
        client = getattr(current, "client", None)
        if client is not None:
            return VERTEX_PROVIDER if getattr(client, "vertexai", False) is True else PROVIDER
        inner = getattr(current, "inner", None) or getattr(current, "agent", None)
        if inner is None:
            break
        current = inner
    return PROVIDER


class GeminiMessageConnector(MessageConnector):
    """Lets a Gemini agent speak neutral messages, on both the plain and streaming paths.

    Before a call the whole conversation goes through ``to_gemini`` (pairing step, merged
    contents, the bypass signature for foreign calls of the current turn; system text as one
    ``{"role": "system"}`` content the agent places after its own system message);
    ``process_incoming_messages`` converts message by message (``convert_each``: no merging,
    no pairing step). Replies go through ``from_gemini`` and streams through
    ``GeminiStreamAggregator``. The provider tag is ``"vertex"`` when the agent's client is a
    Vertex AI client (``client.vertexai``), else ``"gemini"``; ``provider`` fixes it instead.
    Thought signatures and reasoning of that tag go back to the API, others are omitted.
    ``strict_mode`` and ``name_policy`` (``"drop"`` or ``"prefix"``) are those of ``to_gemini``.
    A stream that fails after it started, or ends before a finish reason (even before any
    chunk), raises ``StreamInterruptedError`` whose ``partial`` holds what had arrived. Replies
    that are not Gemini responses are returned unchanged (strict mode:
    ``UnsupportedMessageError``). Raises ``ValueError`` for an unknown ``name_policy`` or
    ``provider``.
    """

    provider: ClassVar[str] = PROVIDER

    def __init__(
        self,
        strict_mode: bool = False,
        name_policy: NamePolicy = "drop",
        *,
        provider: str | None = None,
    ) -> None:
        check_name_policy(name_policy)
        if provider not in (None, PROVIDER, VERTEX_PROVIDER):
            raise ValueError(f"provider must be 'gemini' or 'vertex', got {provider!r}")
        super().__init__(strict_mode)
        self.name_policy: NamePolicy = name_policy
        self._fixed = provider
        self._vertex: GeminiMessageConnector | None = None

    def __repr__(self) -> str:
        return (
            f"GeminiMessageConnector(strict_mode={self.strict_mode!r}, "
            f"name_policy={self.name_policy!r}, provider={self._fixed!r})"
        )

    # -- the tag: one connector per tag, so the template's hooks need no agent --------------

    def _for(self, agent: object) -> GeminiMessageConnector:
        """The connector for ``agent``'s tag: this one, or its Vertex AI twin."""
        tag = self._fixed or provider_of(agent)
        if tag == self.provider:
            return self
        if self._vertex is None:
            self._vertex = _VertexMessageConnector(
                self.strict_mode, self.name_policy, provider=VERTEX_PROVIDER
            )
        return self._vertex

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Convert the conversation, call ``agent``, convert the reply (see the class)."""
        target = self._for(agent)
        if target is not self:
            return await target.invoke(context, agent)
        return await super().invoke(context, agent)

    def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Yield the reply's updates live, then exactly one complete message."""
        target = self._for(agent)
        if target is not self:
            return target.invoke_streaming(context, agent)
        return super().invoke_streaming(context, agent)

    def process_incoming_messages(self, agent: Agent, messages: Sequence[Message]) -> list[Message]:
        """Convert neutral messages to envelopes of content dicts, message by message."""
        target = self._for(agent)
        if target is not self:
            return target.process_incoming_messages(agent, messages)
        return super().process_incoming_messages(agent, messages)

    def post_process_message(self, agent: Agent, reply: Message) -> Message:
        """Convert a Gemini reply (an envelope of a ``GenerateContentResponse``) to neutral."""
        return self._for(agent).convert_reply(reply, agent_name=agent.name)

    # -- the template's hooks ----------------------------------------------------------------

    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> ProviderRequest:
        """``to_gemini`` with this connector's settings; without the pairing step (fragments,
        ``process_incoming_messages``) ``convert_each``, message by message."""
        # The two differ in the pairing step only; they take the same settings.
        convert: Callable[..., ProviderRequest] = (
            partial(to_gemini, scans=self.scans) if check_pairing else convert_each
        )
        return convert(
            messages,
            agent_name=agent_name,
            strict_mode=self.strict_mode,
            name_policy=self.name_policy,
            provider=self.provider,
        )

    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        """``from_gemini`` with this connector's mode and tag."""
        return from_gemini(
            reply, agent_name=agent_name, strict_mode=self.strict_mode, provider=self.provider
        )

    def new_stream_aggregator(self, agent_name: str) -> GeminiStreamAggregator:
        """A fresh ``GeminiStreamAggregator`` in this connector's mode and tag."""
        return GeminiStreamAggregator(
            agent_name, provider=self.provider, strict_mode=self.strict_mode
        )

    def is_stream_item(self, item: object) -> bool:
        """Whether ``item`` is a streamed ``GenerateContentResponse`` chunk."""
        return isinstance(item, types.GenerateContentResponse)

    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        """``map_error`` with this connector's tag (an error chunk of a 200 stream: interrupted)."""
        return map_error(exc, provider=self.provider)


class _VertexMessageConnector(GeminiMessageConnector):
    """The same connector for a Vertex AI client: its signatures are not the Gemini API's."""

    provider: ClassVar[str] = VERTEX_PROVIDER

    def _for(self, agent: Any) -> GeminiMessageConnector:
        return self


# GeminiChatAgent's default connector: register_message_connector() with no connector uses it.
register_default_connector(GeminiChatAgent, GeminiMessageConnector)
