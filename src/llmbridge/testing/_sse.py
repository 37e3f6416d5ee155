"""The ``text/event-stream`` response every provider's SSE builder returns, frame by frame."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any

import httpx


def named_event_frames(events: Iterable[Mapping[str, Any]]) -> list[bytes]:
    """Each event payload as one SSE frame: ``event: <its type>``, then ``data: <its JSON>``."""
    return [f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events]


def event_stream_response(
    frames: Sequence[bytes],
    *,
    error: httpx.TransportError | None = None,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """A 200 ``text/event-stream`` response yielding ``frames`` one at a time.

    ``error`` is raised after the last frame, as a dropped connection does. The body can be
    read once.
    """

    async def body() -> AsyncIterator[bytes]:
        for frame in frames:
            yield frame
        if error is not None:
            raise error

    return httpx.Response(
        200, headers={"content-type": "text/event-stream", **(headers or {})}, content=body()
    )
