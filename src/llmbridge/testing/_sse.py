"""The streaming ``text/event-stream`` response every SSE builder of the kit returns."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence

import httpx


def sse_stream_response(
    frames: Sequence[bytes],
    *,
    error: httpx.TransportError | None = None,
    headers: Mapping[str, str] | None = None,
) -> httpx.Response:
    """A 200 ``text/event-stream`` response producing ``frames`` one at a time.

    ``error`` is raised after the last frame, as a dropped connection does. The body can be read
    once: use a route ``side_effect`` for repeats.
    """

    async def body() -> AsyncIterator[bytes]:
        for frame in frames:
            yield frame
        if error is not None:
            raise error

    return httpx.Response(
        200, headers={"content-type": "text/event-stream", **(headers or {})}, content=body()
    )
