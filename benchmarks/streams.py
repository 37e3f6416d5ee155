"""Stream aggregation cost per chunk: the library, a hand-written floor, the SDK's accumulator.

The stream is ``text_deltas`` text deltas and ``calls`` parallel tool calls of ``fragments``
argument fragments each, parsed once into SDK objects. A run feeds every chunk (or event) to
a fresh aggregator and finishes it; per-chunk cost = run time / number of chunks.

Two floors, each with its own target: the hand-written aggregator (the same updates and final
message as the library, built with the least code; ``TARGET``, issue 12) and the bare pass (text
and arguments joined, nothing built: the floor issue 19 quotes the SDKs against;
``BARE_TARGET``). Before timing,
the library's updates and final message are checked equal to the floor's, and the bare pass's
and the SDK accumulator's text and arguments are checked against the same reply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Protocol

from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import RawMessageStreamEvent
from google.genai import types
from openai import omit
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.lib.streaming.responses import ResponseStreamState
from openai.types.chat import ChatCompletionChunk

from benchmarks.conversation import AGENT, anthropic_stream, openai_stream, responses_stream
from benchmarks.gemini import gemini_stream
from benchmarks.stream_floors import (
    AnthropicFloorAggregator,
    GeminiFloorAggregator,
    OpenAIFloorAggregator,
    ResponsesFloorAggregator,
    anthropic_bare,
    gemini_bare,
    openai_bare,
    responses_bare,
)
from benchmarks.timing import FloorMismatchError, Settings, best_time, best_times, check_same
from llmbridge import Message
from llmbridge.anthropic import AnthropicStreamAggregator
from llmbridge.gemini import GeminiStreamAggregator
from llmbridge.openai import OpenAIResponsesStreamAggregator, OpenAIStreamAggregator

__all__ = [
    "BARE_TARGET",
    "TARGET",
    "StreamResult",
    "StreamShape",
    "run_streams",
    "stream_cases",
    "stream_contenders",
]

TARGET: Final = 5.0
"""The highest accepted ratio of library cost per chunk to the floor aggregator's (issue 12)."""

BARE_TARGET: Final = 6.0
"""The highest accepted ratio of library cost per chunk to the bare pass's (issue 19)."""


class _Aggregator(Protocol):
    def add(self, chunk: Any, /) -> list[Message]: ...

    def finish(self) -> Message: ...


@dataclass(frozen=True, slots=True)
class StreamShape:
    """The stream measured: text deltas, parallel tool calls, argument fragments per call."""

    text_deltas: int = 2000
    calls: int = 3
    fragments: int = 500


@dataclass(frozen=True, slots=True)
class StreamResult:
    """One provider's per-chunk costs in microseconds: library, floor, bare pass, SDK."""

    provider: str
    chunks: int
    library_us: float
    floor_us: float
    bare_us: float
    sdk_us: float
    target: float
    bare_target: float

    @property
    def ratio(self) -> float:
        """Library cost over the floor's (same updates and final message)."""
        return self.library_us / self.floor_us

    @property
    def bare_ratio(self) -> float:
        """Library cost over the bare pass's (text and arguments joined, nothing built)."""
        return self.library_us / self.bare_us

    @property
    def sdk_ratio(self) -> float:
        """SDK accumulator cost over the library's (above 1: the library is faster)."""
        return self.sdk_us / self.library_us

    @property
    def sdk_bare_ratio(self) -> float:
        """SDK accumulator cost over the bare pass's (how the issue quotes the SDKs)."""
        return self.sdk_us / self.bare_us


def _aggregate(factory: Callable[[], _Aggregator], chunks: Sequence[object]) -> Message:
    aggregator = factory()
    for chunk in chunks:
        aggregator.add(chunk)
    return aggregator.finish()


def _transcript(factory: Callable[[], _Aggregator], chunks: Sequence[object]) -> list[Message]:
    aggregator = factory()
    updates = [update for chunk in chunks for update in aggregator.add(chunk)]
    return [*updates, aggregator.finish()]


def _openai_sdk(chunks: Sequence[ChatCompletionChunk]) -> Any:
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    for chunk in chunks:
        list(state.handle_chunk(chunk))
    return state.get_final_completion()


def _responses_sdk(events: Sequence[Any]) -> Any:
    state: ResponseStreamState[Any] = ResponseStreamState(input_tools=omit, text_format=omit)
    for event in events:
        state.handle_event(event)
    return state._completed_response  # what ResponseStream.get_final_response returns


def _anthropic_sdk(events: Sequence[RawMessageStreamEvent]) -> Any:
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    return snapshot


def _gemini_sdk(chunks: Sequence[types.GenerateContentResponse]) -> tuple[str, list[Any]]:
    """What the SDK offers instead of an accumulator: each chunk's ``.text`` and
    ``.function_calls`` accessors (google-genai has no stream accumulator)."""
    text: list[str] = []
    calls: list[Any] = []
    for chunk in chunks:
        function_calls = chunk.function_calls
        if function_calls:
            calls += [call.args for call in function_calls]
        else:
            text.append(chunk.text or "")
    return "".join(text), calls


def _reply_parts(message: Message) -> tuple[str, list[Any]]:
    calls = message.get_tool_calls() or []
    return message.get_content() or "", [json.loads(call.function_arguments) for call in calls]


def _check_openai_sdk(completion: Any, expected: Message) -> None:
    reply = completion.choices[0].message
    calls = [json.loads(call.function.arguments) for call in reply.tool_calls or ()]
    if (reply.content or "", calls) != _reply_parts(expected):
        raise FloorMismatchError("openai stream: the SDK accumulator assembled another reply")


def _check_responses_sdk(response: Any, expected: Message) -> None:
    calls = [json.loads(item.arguments) for item in response.output if item.type == "function_call"]
    if (response.output_text, calls) != _reply_parts(expected):
        raise FloorMismatchError("openai-responses stream: the SDK assembled another reply")


def _check_anthropic_sdk(snapshot: Any, expected: Message) -> None:
    text = "".join(block.text for block in snapshot.content if block.type == "text")
    calls = [block.input for block in snapshot.content if block.type == "tool_use"]
    if (text, calls) != _reply_parts(expected):
        raise FloorMismatchError("anthropic stream: the SDK accumulator assembled another reply")


def _check_gemini_sdk(result: Any, expected: Message) -> None:
    if (result[0], result[1]) != _reply_parts(expected):
        raise FloorMismatchError("gemini stream: the SDK accessors assembled another reply")


@dataclass(frozen=True, slots=True)
class _Case:
    library: Callable[[], _Aggregator]
    floor: Callable[[], _Aggregator]
    bare: Callable[[Sequence[Any]], tuple[str, list[str]]]
    sdk: Callable[[Sequence[Any]], Any]
    check_sdk: Callable[[Any, Message], None]


_CASES: Final = {
    "openai": _Case(
        lambda: OpenAIStreamAggregator(AGENT),
        lambda: OpenAIFloorAggregator(AGENT),
        openai_bare,
        _openai_sdk,
        _check_openai_sdk,
    ),
    "openai-responses": _Case(
        lambda: OpenAIResponsesStreamAggregator(AGENT),
        lambda: ResponsesFloorAggregator(AGENT),
        responses_bare,
        _responses_sdk,
        _check_responses_sdk,
    ),
    "anthropic": _Case(
        lambda: AnthropicStreamAggregator(AGENT),
        lambda: AnthropicFloorAggregator(AGENT),
        anthropic_bare,
        _anthropic_sdk,
        _check_anthropic_sdk,
    ),
    "gemini": _Case(
        lambda: GeminiStreamAggregator(AGENT),
        lambda: GeminiFloorAggregator(AGENT),
        gemini_bare,
        _gemini_sdk,
        _check_gemini_sdk,
    ),
}


def _check_bare(provider: str, bare: tuple[str, list[str]], expected: Message) -> None:
    calls = [json.loads(arguments) for arguments in bare[1]]
    if (bare[0], calls) != _reply_parts(expected):
        raise FloorMismatchError(f"{provider} stream: the bare pass assembled another reply")


def _stream(provider: str, shape: StreamShape, seed: int) -> Sequence[Any]:
    build = _STREAMS[provider]
    return build(shape.text_deltas, shape.calls, shape.fragments, seed=seed)


_STREAMS: Final[dict[str, Callable[..., Sequence[Any]]]] = {
    "openai": openai_stream,
    "openai-responses": responses_stream,
    "anthropic": anthropic_stream,
    "gemini": gemini_stream,
}


def stream_contenders(provider: str, chunks: Sequence[Any]) -> dict[str, Callable[[], object]]:
    """``floor``, ``llmbridge`` and ``SDK`` calls aggregating ``chunks`` of ``provider``, once."""
    case = _CASES[provider]
    return {
        "floor": partial(_aggregate, case.floor, chunks),
        "llmbridge": partial(_aggregate, case.library, chunks),
        "SDK": partial(case.sdk, chunks),
    }


def stream_cases(shape: StreamShape, *, seed: int = 0) -> dict[str, Callable[[], Message]]:
    """``provider -> callable`` aggregating that provider's stream with the library, once."""
    cases: dict[str, Callable[[], Message]] = {}
    for provider, case in _CASES.items():
        chunks = _stream(provider, shape, seed)
        cases[provider] = partial(_aggregate, case.library, chunks)
    return cases


def run_streams(
    shape: StreamShape | None = None,
    settings: Settings | None = None,
    *,
    sdk_settings: Settings | None = None,
    seed: int = 0,
) -> list[StreamResult]:
    """Time stream aggregation per chunk for every provider.

    ``sdk_settings`` (default: ``settings`` with at most 3 repeats) times the SDKs'
    accumulators, which are orders of magnitude slower. Raises ``FloorMismatchError`` when the
    floor's transcript differs from the library's or the SDK assembles another reply.
    """
    shape = shape or StreamShape()
    settings = settings or Settings()
    sdk_settings = sdk_settings or Settings(settings.min_time, min(settings.repeats, 3))
    results = []
    for provider, case in _CASES.items():
        chunks = _stream(provider, shape, seed)
        expected = _transcript(case.floor, chunks)
        check_same(f"{provider} stream", _transcript(case.library, chunks), expected)
        _check_bare(provider, case.bare(chunks), expected[-1])
        case.check_sdk(case.sdk(chunks), expected[-1])
        timings = best_times(
            {
                "library": partial(_aggregate, case.library, chunks),
                "floor": partial(_aggregate, case.floor, chunks),
                "bare": partial(case.bare, chunks),
            },
            settings,
        )
        timings["sdk"] = best_time(partial(case.sdk, chunks), sdk_settings)
        library, floor, bare, sdk = (time.seconds / len(chunks) * 1e6 for time in timings.values())
        results.append(
            StreamResult(provider, len(chunks), library, floor, bare, sdk, TARGET, BARE_TARGET)
        )
    return results
