"""Gemini 3 on Vertex AI streams a call's arguments in pieces (``partialArgs`` with
``willContinue``): the aggregator joins them into the calls the non-streaming reply carries,
and a malformed piece raises a typed error instead of inventing calls (issue 26, defect 6).

The recordings are real Vertex AI traffic (tests/fixtures/README.md).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import respx
from google.genai import types

from llmbridge import (
    ProviderResponseError,
    ToolCall,
    ToolCallMessage,
    ToolCallMessageUpdate,
)
from llmbridge.gemini import GeminiStreamAggregator
from llmbridge.gemini._response import from_gemini
from tests.corpus import AGENT
from tests.gemini.test_stream import aggregate, stream_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gemini"


def recorded(name: str) -> list[dict[str, Any]]:
    """The chunks of a recorded stream (one JSON object per line)."""
    lines = (FIXTURES / f"{name}.chunks.txt").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def whole_reply(chunks: list[dict[str, Any]], calls: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streaming reply of the same calls: the first piece's signature on its call, the
    last chunk's finish reason, usage and ids."""
    last = chunks[-1]
    signature = chunks[0]["candidates"][0]["content"]["parts"][0]["thoughtSignature"]
    parts: list[dict[str, Any]] = [{"functionCall": call} for call in calls]
    parts[0]["thoughtSignature"] = signature
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}
    return {**last, "candidates": [candidate]}


WEATHER = [
    {"name": "getWeather", "args": {"location": "Boston"}},
    {"name": "getWeather", "args": {"location": "San Francisco"}},
]


async def test_recorded_pieces_join_into_the_calls_of_the_non_streamed_reply(
    router: respx.Router,
) -> None:
    chunks = recorded("vertex-partial-args-get-weather")
    received, error = await stream_of(router, chunks)
    assert error is None
    aggregator, updates = aggregate(received, provider="vertex")

    final = aggregator.finish()

    assert isinstance(final, ToolCallMessage)
    assert [(c.function_name, json.loads(c.function_arguments)) for c in final.tool_calls] == [
        ("getWeather", {"location": "Boston"}),
        ("getWeather", {"location": "San Francisco"}),
    ]
    expected = from_gemini(
        whole_reply_response(chunks, WEATHER), agent_name=AGENT, provider="vertex"
    )
    assert final == expected
    assert [u for u in updates if isinstance(u, ToolCallMessageUpdate)] == [
        ToolCallMessageUpdate(
            "getWeather", '{"location": "Boston"}', AGENT, index=0, tool_call_id="getWeather_0"
        ),
        ToolCallMessageUpdate(
            "getWeather",
            '{"location": "San Francisco"}',
            AGENT,
            index=1,
            tool_call_id="getWeather_1",
        ),
    ]


def whole_reply_response(
    chunks: list[dict[str, Any]], calls: list[dict[str, Any]]
) -> types.GenerateContentResponse:
    return types.GenerateContentResponse.model_validate(whole_reply(chunks, calls))


async def test_recorded_nested_paths_build_the_whole_object(router: respx.Router) -> None:
    received, error = await stream_of(router, recorded("vertex-partial-args-nested"))
    assert error is None
    aggregator, _ = aggregate(received, provider="vertex")

    final = aggregator.finish()

    assert isinstance(final, ToolCallMessage)
    [call] = final.tool_calls
    args = json.loads(call.function_arguments)
    assert call.function_name == "cookRecipe"
    recipe = args["recipe"]
    assert recipe["name"] == "Lasagna"
    assert recipe["ingredients"][0] == {"amount": "16 oz", "name": "Lasagna noodles"}
    assert len(recipe["ingredients"]) == 10
    assert recipe["steps"][1] == (
        "Cook lasagna noodles according to package directions, drain and set aside."
    )
    assert recipe["steps"][4] == "In a 9x13 baking dish, spread a thin layer of meat sauce."
    assert len(recipe["steps"]) == 10


def chunk(*calls: dict[str, Any], finish: bool = False) -> dict[str, Any]:
    parts = [{"functionCall": call} for call in calls]
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}}
    if finish:
        candidate["finishReason"] = "STOP"
    return {"candidates": [candidate]}


def piece(path: str, **value: Any) -> dict[str, Any]:
    return {"partialArgs": [{"jsonPath": path, **value}], "willContinue": True}


JOINED = {
    "number_bool_null_values": (
        [
            chunk({"name": "light", "willContinue": True}),
            chunk(piece("$.brightness", numberValue=50)),
            chunk(piece("$.ratio", numberValue=0.5)),
            chunk(piece("$.on", boolValue=True)),
            chunk(piece("$.room", nullValue="NULL_VALUE")),
            chunk({}, finish=True),
        ],
        [ToolCall("light", '{"brightness": 50, "ratio": 0.5, "on": true, "room": null}')],
    ),
    "pieces_in_one_chunk_with_an_id": (
        [
            chunk(
                {
                    "id": "fc1",
                    "name": "lookup",
                    "partialArgs": [
                        {"jsonPath": "$.q", "stringValue": "par", "willContinue": True}
                    ],
                    "willContinue": True,
                },
                {
                    "id": "fc1",
                    "name": "lookup",
                    "partialArgs": [{"jsonPath": "$.q", "stringValue": "is"}],
                },
                finish=True,
            )
        ],
        [ToolCall("lookup", '{"q": "paris"}', tool_call_id="fc1")],
    ),
    "a_whole_call_after_a_streamed_one": (
        [
            chunk({"name": "a", "willContinue": True}, piece("$['x y']", stringValue="1")),
            chunk({}),
            chunk({"name": "b", "args": {"k": 2}}, finish=True),
        ],
        [
            ToolCall("a", '{"x y": "1"}', tool_call_id="a_0"),
            ToolCall("b", '{"k": 2}', tool_call_id="b_1"),
        ],
    ),
}


@pytest.mark.parametrize(("chunks", "calls"), JOINED.values(), ids=JOINED.keys())
async def test_pieces_join_in_order(
    router: respx.Router, chunks: list[dict[str, Any]], calls: list[ToolCall]
) -> None:
    received, _ = await stream_of(router, chunks)
    aggregator, _ = aggregate(received)
    final = aggregator.finish()
    assert isinstance(final, ToolCallMessage)
    assert list(final.tool_calls) == [
        call if call.tool_call_id else replace(call, tool_call_id=f"{call.function_name}_{n}")
        for n, call in enumerate(calls)
    ]


MALFORMED = {
    "a_piece_that_continues_no_call": [
        chunk(piece("$.x", stringValue="a")),
        chunk({}, finish=True),
    ],
    "an_empty_call_with_no_call_open": [chunk({}, finish=True)],
    "a_piece_naming_another_function": [
        chunk({"name": "a", "willContinue": True}),
        chunk({"name": "b", **piece("$.x", stringValue="1")}),
        chunk({}, finish=True),
    ],
    "the_reply_ends_inside_a_call": [
        chunk({"name": "a", "willContinue": True}),
        chunk(piece("$.x", stringValue="1"), finish=True),
    ],
    "text_between_the_pieces": [
        chunk({"name": "a", "willContinue": True}),
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "hm"}]}}]},
        chunk({}, finish=True),
    ],
    "a_path_that_is_not_json_path": [
        chunk({"name": "a", "willContinue": True}),
        chunk(piece("location", stringValue="x")),
        chunk({}, finish=True),
    ],
    "a_piece_with_two_values": [
        chunk({"name": "a", "willContinue": True}),
        chunk(piece("$.x", stringValue="x", numberValue=1)),
        chunk({}, finish=True),
    ],
    "an_index_into_an_object": [
        chunk({"name": "a", "willContinue": True}),
        chunk(piece("$.x", stringValue="x")),
        chunk(piece("$.x[0]", stringValue="y")),
        chunk({}, finish=True),
    ],
}


@pytest.mark.parametrize("chunks", MALFORMED.values(), ids=MALFORMED.keys())
async def test_a_malformed_piece_raises_instead_of_inventing_calls(
    router: respx.Router, chunks: list[dict[str, Any]]
) -> None:
    received, _ = await stream_of(router, chunks)
    aggregator = GeminiStreamAggregator(AGENT)
    with pytest.raises(ProviderResponseError, match="malformed"):  # in add(), or at the end
        _add_all_and_finish(aggregator, received)


def _add_all_and_finish(
    aggregator: GeminiStreamAggregator, chunks: list[types.GenerateContentResponse]
) -> None:
    for item in chunks:
        aggregator.add(item)
    aggregator.finish()


async def test_the_partial_message_leaves_out_a_call_not_ended(router: respx.Router) -> None:
    received, _ = await stream_of(
        router, [chunk({"name": "a", "willContinue": True}), chunk(piece("$.x", stringValue="1"))]
    )
    aggregator, _ = aggregate(received)
    assert aggregator.partial is None or not isinstance(aggregator.partial, ToolCallMessage)


def test_a_non_streamed_reply_in_pieces_is_joined_too() -> None:
    pieces = [
        {"functionCall": {"name": "getWeather", "willContinue": True}},
        {"functionCall": piece("$.location", stringValue="Bos", willContinue=True)},
        {"functionCall": piece("$.location", stringValue="ton")},
        {"functionCall": {}},
    ]
    response = types.GenerateContentResponse.model_validate(
        {"candidates": [{"content": {"role": "model", "parts": pieces}, "finishReason": "STOP"}]}
    )
    reply = from_gemini(response, agent_name=AGENT)
    assert isinstance(reply, ToolCallMessage)
    assert reply.tool_calls == (
        ToolCall("getWeather", '{"location": "Boston"}', tool_call_id="getWeather_0"),
    )
