"""The GenAI client metrics: token usage by token type, call duration, time to first chunk.

Instruments are created once per ``register_tracing`` call, with the bucket boundaries the
conventions recommend (as advice: a view the application configures wins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as genai
from opentelemetry.semconv._incubating.metrics import gen_ai_metrics

if TYPE_CHECKING:
    from opentelemetry.metrics import Meter

    from llmbridge._messages import Usage
    from llmbridge._tracing._attributes import Attributes

__all__ = ["Instruments"]

# The conventions' ExplicitBucketBoundaries for the token and the seconds histograms.
TOKEN_BUCKETS: Final = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576,
                        4194304, 16777216, 67108864)  # fmt: skip
SECONDS_BUCKETS: Final = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24,
                          20.48, 40.96, 81.92)  # fmt: skip
_INPUT: Final = genai.GenAiTokenTypeValues.INPUT.value
_OUTPUT: Final = genai.GenAiTokenTypeValues.OUTPUT.value


class Instruments:
    """The three histograms of one traced agent, and how a finished call is recorded on them."""

    __slots__ = ("duration", "time_to_first_chunk", "token_usage")

    def __init__(self, meter: Meter) -> None:
        self.token_usage = meter.create_histogram(
            gen_ai_metrics.GEN_AI_CLIENT_TOKEN_USAGE,
            unit="{token}",
            description="Number of input and output tokens used.",
            explicit_bucket_boundaries_advisory=TOKEN_BUCKETS,
        )
        self.duration = meter.create_histogram(
            gen_ai_metrics.GEN_AI_CLIENT_OPERATION_DURATION,
            unit="s",
            description="GenAI operation duration.",
            explicit_bucket_boundaries_advisory=SECONDS_BUCKETS,
        )
        self.time_to_first_chunk = meter.create_histogram(
            gen_ai_metrics.GEN_AI_CLIENT_OPERATION_TIME_TO_FIRST_CHUNK,
            unit="s",
            description="Time to receive the first chunk of a streaming response.",
            explicit_bucket_boundaries_advisory=SECONDS_BUCKETS,
        )

    def record(
        self,
        attributes: Attributes,
        *,
        seconds: float,
        usage: Usage | None,
        first_chunk_seconds: float | None,
    ) -> None:
        """Record one finished call; ``attributes`` carry ``error.type`` when it failed."""
        self.duration.record(seconds, attributes)
        if first_chunk_seconds is not None:
            self.time_to_first_chunk.record(first_chunk_seconds, attributes)
        if usage is not None:
            token_type = genai.GEN_AI_TOKEN_TYPE
            self.token_usage.record(usage.input_tokens, {**attributes, token_type: _INPUT})
            self.token_usage.record(usage.output_tokens, {**attributes, token_type: _OUTPUT})
