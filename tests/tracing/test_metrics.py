"""The GenAI client metrics: token usage by token type, call duration, time to first chunk, with
the conventions' attributes and recommended bucket boundaries."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tracing.helpers import (
    PROVIDERS,
    WINGS,
    Provider,
    Telemetry,
    send_or_stream,
    text_router,
    traced,
)

TOKENS = "gen_ai.client.token.usage"
DURATION = "gen_ai.client.operation.duration"
FIRST_CHUNK = "gen_ai.client.operation.time_to_first_chunk"
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304,
                 16777216, 67108864)  # fmt: skip
SECONDS_BUCKETS = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48,
                   40.96, 81.92)  # fmt: skip


def shared(provider: Provider) -> dict[str, Any]:
    """The attributes every metric point of a successful call carries."""
    wing = WINGS[provider]
    host = {"openai": "api.openai.com", "anthropic": "api.anthropic.com"}[provider]
    return {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": provider,
        "gen_ai.request.model": wing.model,
        "gen_ai.response.model": wing.response_model,
        "server.address": host,
        "server.port": 443,
    }


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_token_usage_is_one_point_per_token_type(
    provider: Provider, streaming: bool, telemetry: Telemetry
) -> None:
    agent = traced(provider, text_router(provider, streaming=streaming), telemetry)

    await send_or_stream(agent, streaming, "Hi")

    points = {p.attributes["gen_ai.token.type"]: p for p in telemetry.points(TOKENS)}  # type: ignore[index]
    assert sorted(points) == ["input", "output"]
    prompt, completion, *_ = WINGS[provider].usage
    for token_type, count in (("input", prompt), ("output", completion)):
        point = points[token_type]
        assert (point.count, point.sum) == (1, count)
        assert dict(point.attributes or {}) == {**shared(provider), "gen_ai.token.type": token_type}
        assert tuple(point.explicit_bounds) == TOKEN_BUCKETS


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_every_call_records_its_duration_and_a_stream_its_first_chunk(
    provider: Provider, streaming: bool, telemetry: Telemetry
) -> None:
    agent = traced(provider, text_router(provider, streaming=streaming, calls=2), telemetry)

    for _ in range(2):
        await send_or_stream(agent, streaming, "Hi")

    (duration,) = telemetry.points(DURATION)
    assert duration.count == 2
    assert duration.sum > 0
    assert dict(duration.attributes or {}) == shared(provider)
    assert tuple(duration.explicit_bounds) == SECONDS_BUCKETS
    first_chunk = telemetry.points(FIRST_CHUNK)
    if streaming:
        (point,) = first_chunk
        assert point.count == 2
        assert 0 < point.sum <= duration.sum
        assert dict(point.attributes or {}) == shared(provider)
    else:
        assert first_chunk == []
