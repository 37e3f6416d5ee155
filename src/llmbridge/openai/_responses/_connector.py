"""``OpenAIResponsesConnector``: the kit's connector template for the OpenAI Responses API.

Glue only: it names the pure conversions (``to_openai_responses``, ``from_openai_responses``,
``OpenAIResponsesStreamAggregator``) and ``map_error``; ``MessageConnector`` does the rest.
Importing it makes it the default connector of ``OpenAIResponsesAgent``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, get_args

from openai.types.responses import ResponseStreamEvent

from llmbridge import Message, ProviderAPIError, register_default_connector
from llmbridge.kit import MessageConnector
from llmbridge.openai._errors import RESPONSES_PROVIDER, map_error
from llmbridge.openai._responses._agent import OpenAIResponsesAgent
from llmbridge.openai._responses._convert import MAX_IMAGE_BYTES
from llmbridge.openai._responses._request import (
    NamePolicy,
    OpenAIResponsesRequest,
    check_name_policy,
    to_openai_responses,
)
from llmbridge.openai._responses._response import from_openai_responses
from llmbridge.openai._responses._stream import OpenAIResponsesStreamAggregator

__all__ = ["OpenAIResponsesConnector"]

# The SDK parses every event (unknown types too) into one of the union's own classes, so an
# exact type lookup recognizes them all without an isinstance walk over 59 pydantic classes.
_EVENT_TYPES: Final = frozenset(get_args(get_args(ResponseStreamEvent)[0]))


class OpenAIResponsesConnector(MessageConnector):
    """Connects an OpenAI Responses agent to neutral messages, on both paths.

    Incoming neutral messages become envelopes of Responses input items (``to_openai_responses``:
    the From/Role table, reasoning and item ids replayed from ``provider_data``; before a call
    the pairing step runs too); replies go through ``from_openai_responses`` and streams through
    ``OpenAIResponsesStreamAggregator`` (updates live, then one complete message).
    ``strict_mode``, ``name_policy`` (``"drop"`` or ``"prefix"``) and ``max_image_bytes`` (the
    base64 text of one image; ``None``: no limit) are those of ``to_openai_responses``.

    Raises ``ValueError`` for an unknown ``name_policy``; ``InvalidMessageError`` /
    ``UnsupportedMessageError`` for conversions, the ``ProviderResponseError`` family and the
    errors of a failed response for replies, the agent's ``ProviderAPIError`` when a call fails
    before its stream starts, and ``StreamInterruptedError`` (with ``.partial``) after it, for
    a ``response.failed`` or ``error`` event and for a stream cut before its terminal event.
    """

    provider: ClassVar[str] = RESPONSES_PROVIDER

    def __init__(
        self,
        strict_mode: bool = False,
        name_policy: NamePolicy = "drop",
        *,
        max_image_bytes: int | None = MAX_IMAGE_BYTES,
    ) -> None:
        check_name_policy(name_policy)
        super().__init__(strict_mode)
        self.name_policy: NamePolicy = name_policy
        self.max_image_bytes = max_image_bytes

    def __repr__(self) -> str:
        return (
            f"OpenAIResponsesConnector(strict_mode={self.strict_mode!r}, "
            f"name_policy={self.name_policy!r}, max_image_bytes={self.max_image_bytes!r})"
        )

    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> OpenAIResponsesRequest:
        """``to_openai_responses`` with this connector's settings."""
        return to_openai_responses(
            messages,
            agent_name=agent_name,
            strict_mode=self.strict_mode,
            name_policy=self.name_policy,
            check_pairing=check_pairing,
            scans=self.scans,
            max_image_bytes=self.max_image_bytes,
        )

    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        """``from_openai_responses`` with this connector's mode."""
        return from_openai_responses(reply, agent_name=agent_name, strict_mode=self.strict_mode)

    def new_stream_aggregator(self, agent_name: str) -> OpenAIResponsesStreamAggregator:
        """A fresh ``OpenAIResponsesStreamAggregator`` in this connector's mode."""
        return OpenAIResponsesStreamAggregator(agent_name, strict_mode=self.strict_mode)

    def is_stream_item(self, item: object) -> bool:
        """Whether ``item`` is one of the SDK's Responses stream event objects."""
        return type(item) in _EVENT_TYPES

    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        """``map_error`` for a failure the connector sees (inside an accepted stream)."""
        return map_error(exc, accepted_stream=True, provider=RESPONSES_PROVIDER)


register_default_connector(OpenAIResponsesAgent, OpenAIResponsesConnector)
