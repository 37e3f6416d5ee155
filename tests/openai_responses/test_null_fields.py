"""Nulls where a 200 Responses body must hold a value: ``ProviderResponseError``, never a
``TypeError`` or ``AttributeError`` from the conversion (issue 26, defect 12)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from llmbridge import ProviderResponseError
from llmbridge.openai import OpenAIResponsesStreamAggregator, from_openai_responses
from llmbridge.testing import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
    openai_response_message,
    openai_response_reasoning,
)
from tests.openai_responses.sdk import fetched, streamed

AGENT = "assistant"


def _body() -> dict[str, Any]:
    return openai_response(
        [
            openai_response_reasoning("thinking", item_id="rs_1"),
            openai_response_message("Hello", item_id="msg_1"),
            openai_response_function_call("get_weather", '{"city":"Paris"}', call_id="call_1"),
        ]
    )


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        target: Any = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


NULLS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "output_text_text": (_set(("output", 1, "content", 0, "text"), None), "output[1].content[0]"),
    "output_entry": (_set(("output", 1), None), "output[1]"),
    "summary_part": (_set(("output", 0, "summary", 0), None), "output[0].summary[0]"),
    "summary_text": (_set(("output", 0, "summary", 0, "text"), None), "output[0].summary[0]"),
    "content_part": (_set(("output", 1, "content", 0), None), "output[1].content[0]"),
    "call_name": (_set(("output", 2, "name"), None), "output[2].name"),
    "call_arguments": (_set(("output", 2, "arguments"), None), "output[2].arguments"),
}


def _with_null(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    body = copy.deepcopy(_body())
    change(body)
    return body


@pytest.mark.parametrize(("change", "where"), NULLS.values(), ids=NULLS.keys())
async def test_a_null_in_a_reply_raises_provider_response_error(
    change: Callable[[dict[str, Any]], None], where: str
) -> None:
    response = await fetched(_with_null(change))

    with pytest.raises(ProviderResponseError, match=re.escape(where)):
        from_openai_responses(response, agent_name=AGENT)


@pytest.mark.parametrize(("change", "where"), NULLS.values(), ids=NULLS.keys())
async def test_a_null_in_a_streams_final_response_raises_provider_response_error(
    change: Callable[[dict[str, Any]], None], where: str
) -> None:
    events = openai_response_events(_body(), pieces=1)
    change(events[-1]["response"])  # the terminal response.completed event
    aggregator = OpenAIResponsesStreamAggregator(AGENT)
    for event in await streamed(events):
        aggregator.add(event)

    with pytest.raises(ProviderResponseError, match=re.escape(where)):
        aggregator.finish()
