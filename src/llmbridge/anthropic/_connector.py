"""``AnthropicMessageConnector``: the kit's connector template for Anthropic Messages.

Glue only: it names the pure conversions (``to_anthropic``, ``convert_each``,
``from_anthropic``, ``AnthropicStreamAggregator``) and ``map_error``; ``MessageConnector``
does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import ClassVar, Final

from anthropic.types import (
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
)

from llmbridge import Message, ProviderAPIError
from llmbridge.anthropic._errors import PROVIDER, map_error
from llmbridge.anthropic._media import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from llmbridge.anthropic._request import NamePolicy, check_name_policy, convert_each, to_anthropic
from llmbridge.anthropic._response import from_anthropic
from llmbridge.anthropic._stream import AnthropicStreamAggregator
from llmbridge.kit import MessageConnector, ProviderRequest

__all__ = ["AnthropicMessageConnector"]

_EVENT_TYPES: Final = (
    RawMessageStartEvent,
    RawMessageDeltaEvent,
    RawMessageStopEvent,
    RawContentBlockStartEvent,
    RawContentBlockDeltaEvent,
    RawContentBlockStopEvent,
)


class AnthropicMessageConnector(MessageConnector):
    """Lets an Anthropic agent speak neutral messages, on both the plain and streaming paths.

    Before a call the whole conversation goes through ``to_anthropic`` (pairing step, merged
    turns; system text as one ``{"role": "system"}`` envelope the agent lifts after its own
    system message); ``process_incoming_messages`` converts message by message
    (``convert_each``: no merging, no pairing step). Replies go through ``from_anthropic`` and
    streams through ``AnthropicStreamAggregator``. ``strict_mode``, ``name_policy``
    (``"drop"`` or ``"prefix"``), ``max_image_bytes`` and ``max_document_bytes`` (the base64
    text of one image, of one document; ``None``: no limit) are those of ``to_anthropic``. A
    stream that fails after it started, or ends before its stop reason (even before any
    event), raises ``StreamInterruptedError`` whose
    ``partial`` holds what had arrived. Replies that are not Anthropic responses are returned
    unchanged (strict mode: ``UnsupportedMessageError``). Raises ``ValueError`` for an unknown
    ``name_policy``.
    """

    provider: ClassVar[str] = PROVIDER

    def __init__(
        self,
        strict_mode: bool = False,
        name_policy: NamePolicy = "drop",
        *,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
        max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    ) -> None:
        check_name_policy(name_policy)
        super().__init__(strict_mode)
        self.name_policy: NamePolicy = name_policy
        self.max_image_bytes = max_image_bytes
        self.max_document_bytes = max_document_bytes

    def __repr__(self) -> str:
        return (
            f"AnthropicMessageConnector(strict_mode={self.strict_mode!r}, "
            f"name_policy={self.name_policy!r}, max_image_bytes={self.max_image_bytes!r}, "
            f"max_document_bytes={self.max_document_bytes!r})"
        )

    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> ProviderRequest:
        """``to_anthropic`` with this connector's settings; without the pairing step (fragments,
        ``process_incoming_messages``) ``convert_each``, message by message."""
        # The two differ in the pairing step only; they take the same settings.
        convert: Callable[..., ProviderRequest] = (
            partial(to_anthropic, scans=self.scans) if check_pairing else convert_each
        )
        return convert(
            messages,
            agent_name=agent_name,
            strict_mode=self.strict_mode,
            name_policy=self.name_policy,
            max_image_bytes=self.max_image_bytes,
            max_document_bytes=self.max_document_bytes,
        )

    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        """``from_anthropic`` with this connector's mode."""
        return from_anthropic(reply, agent_name=agent_name, strict_mode=self.strict_mode)

    def new_stream_aggregator(self, agent_name: str) -> AnthropicStreamAggregator:
        """A fresh ``AnthropicStreamAggregator`` in this connector's mode."""
        return AnthropicStreamAggregator(agent_name, strict_mode=self.strict_mode)

    def is_stream_item(self, item: object) -> bool:
        """Whether ``item`` is one of the SDK's stream event objects."""
        return isinstance(item, _EVENT_TYPES)

    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        """``map_error`` for a failure the connector sees."""
        return map_error(exc)
