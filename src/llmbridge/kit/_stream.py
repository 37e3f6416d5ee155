"""``StreamAggregator``: the protocol every provider's stream state implements."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from llmbridge._messages import Message

__all__ = ["StreamAggregator"]


@runtime_checkable
class StreamAggregator(Protocol):
    """The state of one streamed reply, kept apart from I/O.

    ``add(item)`` takes one stream item (an SDK event or chunk) and returns the neutral updates
    it carries, live; ``partial`` is the neutral message assembled so far (``None`` when no
    text, reasoning or tool call has arrived); ``finish()`` returns the complete message, equal
    to the non-streaming conversion of the same reply, and raises ``StreamInterruptedError``
    when the stream ended before the provider's end marker.
    """

    def add(self, item: Any) -> list[Message]:
        """Record one stream item and return the updates it carries (possibly none)."""
        ...

    @property
    def partial(self) -> Message | None:
        """What has arrived so far as a neutral message, or ``None``."""
        ...

    def finish(self) -> Message:
        """The complete message; raises as the non-streaming conversion would."""
        ...
