"""``MessageDispatcher``: one neutral message -> the handler of its type, written once.

A wing's converter keeps only its handlers; the exhaustive match over the neutral types and
the one lenient/strict decision for a type no wing sends live here, so every wing dispatches
the same way (STYLE.md: "an unhandled type goes through the one lenient/strict decision
point").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from llmbridge._errors import UnsupportedMessageError
from llmbridge._messages import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit._notes import NoteRecorder

__all__ = ["MessageDispatcher"]

MediaMessage = ImageMessage | DocumentMessage | AudioMessage


class MessageDispatcher(ABC):
    """Template of a converter: ``convert(message, index)`` calls the handler of its type.

    A subclass sets ``provider_title`` (the provider as the notes name it, e.g.
    ``"Anthropic"``), holds its ``recorder`` and implements the seven handlers. Class patterns
    match, so a subclass of a neutral type converts as its nearest base. Any other message type
    is not supported: dropped with a ``"dropped"`` note (strict mode:
    ``UnsupportedMessageError`` naming the index).
    """

    __slots__ = ()
    provider_title: ClassVar[str]
    recorder: NoteRecorder

    def convert(self, message: Message, index: int) -> None:
        """Convert ``message`` (neutral index ``index``) through the handler of its type."""
        match message:
            case TextMessage():
                self.text(message, index)
            case ToolCallMessage():
                self.tool_calls(message, index)
            case ToolCallResultMessage():
                self.tool_results(message, index)
            case ToolCallAggregateMessage():
                self.aggregate(message, index)
            case ImageMessage() | DocumentMessage() | AudioMessage():
                self.media_message(message, index)
            case MultiModalMessage():
                self.multimodal(message, index)
            case MessageEnvelope():
                self.envelope(message, index)
            case _:
                self.recorder.record(
                    index,
                    "dropped",
                    f"{type(message).__name__} cannot be sent to {self.provider_title}",
                    error=UnsupportedMessageError,
                )

    @abstractmethod
    def text(self, message: TextMessage, index: int) -> None:
        """Convert a text message."""

    @abstractmethod
    def tool_calls(self, message: ToolCallMessage, index: int) -> None:
        """Convert a tool-call message."""

    @abstractmethod
    def tool_results(self, message: ToolCallResultMessage, index: int) -> None:
        """Convert a tool-result message."""

    @abstractmethod
    def aggregate(self, message: ToolCallAggregateMessage, index: int) -> None:
        """Convert a tool-call aggregate (calls and their results)."""

    @abstractmethod
    def media_message(self, message: MediaMessage, index: int) -> None:
        """Convert an image, document or audio message."""

    @abstractmethod
    def multimodal(self, message: MultiModalMessage, index: int) -> None:
        """Convert a multimodal message."""

    @abstractmethod
    def envelope(self, message: MessageEnvelope[Any], index: int) -> None:
        """Convert an envelope of a provider payload."""
