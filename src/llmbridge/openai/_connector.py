"""``OpenAIChatRequestMessageConnector``: the kit's connector template for Chat Completions.

Glue only: it names the pure conversions (``to_openai``, ``from_openai``,
``OpenAIStreamAggregator``) and ``map_error``; ``MessageConnector`` does the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from openai.types.chat import ChatCompletionChunk

from llmbridge import Message, ProviderAPIError
from llmbridge.kit import MessageConnector
from llmbridge.openai._errors import PROVIDER, map_error
from llmbridge.openai._request import (
    MAX_DOCUMENT_BYTES,
    MAX_IMAGE_BYTES,
    OpenAIRequest,
    to_openai,
)
from llmbridge.openai._response import from_openai
from llmbridge.openai._stream import OpenAIStreamAggregator

__all__ = ["OpenAIChatRequestMessageConnector"]


class OpenAIChatRequestMessageConnector(MessageConnector):
    """Connects an OpenAI Chat Completions agent to neutral messages, on both paths.

    Incoming neutral messages become envelopes of ``ChatCompletionMessageParam`` (the From/Role
    table; before a call the pairing step runs too); replies become neutral messages; streams
    yield live updates and end with one complete message. ``strict_mode`` raises instead of
    dropping or renaming; ``max_image_bytes`` caps the base64 text of one image and
    ``max_document_bytes`` that of one document (``None``: no limit). A stream that ends before
    its finish reason raises ``StreamInterruptedError``.

    Raises ``InvalidMessageError`` / ``UnsupportedMessageError`` for conversions, the
    ``ProviderResponseError`` family for replies, the agent's ``ProviderAPIError`` when a call
    fails before its stream starts, and ``StreamInterruptedError`` (with ``.partial``) after.
    """

    provider: ClassVar[str] = PROVIDER

    def __init__(
        self,
        strict_mode: bool = False,
        *,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
        max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    ) -> None:
        super().__init__(strict_mode)
        self.max_image_bytes = max_image_bytes
        self.max_document_bytes = max_document_bytes

    def __repr__(self) -> str:
        return (
            f"OpenAIChatRequestMessageConnector(strict_mode={self.strict_mode!r}, "
            f"max_image_bytes={self.max_image_bytes!r}, "
            f"max_document_bytes={self.max_document_bytes!r})"
        )

    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> OpenAIRequest:
        """``to_openai`` with this connector's settings."""
        return to_openai(
            messages,
            agent_name=agent_name,
            strict_mode=self.strict_mode,
            check_pairing=check_pairing,
            scans=self.scans,
            max_image_bytes=self.max_image_bytes,
            max_document_bytes=self.max_document_bytes,
        )

    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        """``from_openai`` with this connector's mode."""
        return from_openai(reply, agent_name=agent_name, strict_mode=self.strict_mode)

    def new_stream_aggregator(self, agent_name: str) -> OpenAIStreamAggregator:
        """A fresh ``OpenAIStreamAggregator`` in this connector's mode."""
        return OpenAIStreamAggregator(agent_name, strict_mode=self.strict_mode)

    def is_stream_item(self, item: object) -> bool:
        """Whether ``item`` is a ``ChatCompletionChunk``."""
        return isinstance(item, ChatCompletionChunk)

    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        """``map_error`` for a failure the connector sees (inside an accepted stream)."""
        return map_error(exc, accepted_stream=True)
