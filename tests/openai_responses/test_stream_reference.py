"""The stream aggregator's lean delta path against a reference that feeds every delta through
the kit's ``ToolCallAccumulator`` (as the aggregator once did): the same updates and the same
``partial`` after every event, for events in any order, repeated, or added twice."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from openai._models import construct_type
from openai.types.responses import ResponseStreamEvent

from llmbridge import (
    Message,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessageUpdate,
)
from llmbridge.kit import ReplyParts, ToolCallAccumulator, partial_reply
from llmbridge.openai import OpenAIResponsesStreamAggregator
from llmbridge.testing import openai_response_events
from tests.openai_responses.test_stream import AGENT, TAG, replies, resplit

_REASONING = ("response.reasoning_summary_text.delta", "response.reasoning_text.delta")


class Reference:
    """Every delta kept and every call delta through ``ToolCallAccumulator.add``."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.calls = ToolCallAccumulator()
        self.indices: dict[int, int] = {}

    def add(self, event: Any) -> list[Message]:
        kind = event.type
        if kind == "response.output_text.delta":
            self.text.append(event.delta)
            return [TextMessageUpdate(Role.ASSISTANT, event.delta, AGENT)]
        if kind in _REASONING:
            self.reasoning.append(event.delta)
            return [ReasoningMessageUpdate(event.delta, AGENT)]
        if kind == "response.function_call_arguments.delta":
            index = self.indices.get(event.output_index)
            if index is None:
                return []
            return [self.calls.add(index, arguments=event.delta, from_=AGENT)]
        item = getattr(event, "item", None)
        if kind != "response.output_item.added" or item is None or item.type != "function_call":
            return []
        index = self.indices.setdefault(event.output_index, len(self.indices))
        update = self.calls.add(
            index,
            tool_call_id=item.call_id,
            function_name=item.name,
            arguments=item.arguments or None,
            from_=AGENT,
        )
        return [update]

    def partial(self) -> Message | None:
        reasoning = "".join(self.reasoning)
        parts = ReplyParts(
            text="".join(self.text),
            reasoning=(Reasoning(reasoning, provider=TAG),) if reasoning else (),
            tool_calls=tuple(self.calls.tool_calls()),
        )
        return partial_reply(parts, agent_name=AGENT)


def _readded(event: dict[str, Any], name: str, call_id: str, arguments: str) -> dict[str, Any]:
    item = {**event["item"], "name": name, "call_id": call_id, "arguments": arguments}
    return {**event, "item": item}


@st.composite
def disordered_events(draw: st.DrawFn) -> list[Any]:
    """A reply's events, split, each kept, dropped or repeated, with its function-call items
    added again anywhere under other (or empty) names, ids and arguments."""
    body = draw(replies())
    cuts = draw(st.lists(st.integers(0, 50), max_size=20))
    events: list[dict[str, Any]] = []
    readded: list[dict[str, Any]] = []
    again = st.tuples(
        st.sampled_from(["", "g"]), st.sampled_from(["", "call_x"]), st.sampled_from(["", "{"])
    )
    for event in resplit(openai_response_events(body, pieces=1), cuts):
        events += [event] * draw(st.sampled_from([1, 1, 1, 0, 2]))
        item = event.get("item") or {}
        if event["type"] == "response.output_item.added" and item.get("type") == "function_call":
            readded += [_readded(event, *values) for values in draw(st.lists(again, max_size=2))]
    for event in readded:
        events.insert(draw(st.integers(0, len(events))), event)
    return [construct_type(type_=ResponseStreamEvent, value=copy.deepcopy(e)) for e in events]


@settings(max_examples=80, deadline=None)
@given(events=disordered_events())
def test_the_updates_and_the_partial_are_the_reference_ones_after_every_event(
    events: list[Any],
) -> None:
    aggregator = OpenAIResponsesStreamAggregator(AGENT)
    reference = Reference()

    for event in events:
        assert aggregator.add(event) == reference.add(event)
        assert aggregator.partial == reference.partial()
