"""Properties over generated replies with citations and hosted tools (API.md 19.4, 19.5, 16):
the stream ends in the non-streamed reply, and the request it makes imports back exactly."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai._models import construct_type
from openai.types.responses import Response, ResponseStreamEvent

from llmbridge import (
    EmptyResponseError,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallResultMessage,
)
from llmbridge.openai import (
    from_openai_responses,
    from_openai_responses_input,
    to_openai_responses,
)
from llmbridge.testing import openai_response, openai_response_events, openai_response_function_call
from tests.openai_responses import wire
from tests.openai_responses.rev3 import (
    AGENT,
    CODE_INTERPRETER,
    FILE_SEARCH,
    IMAGE_GENERATION,
    MCP_CALL,
    MCP_LIST_TOOLS,
    USER,
    WEB_SEARCH,
    aggregate,
    reasoning,
    text_message,
)
from tests.strategies import odd_texts

HOSTED_SAMPLES = (
    WEB_SEARCH,
    FILE_SEARCH,
    CODE_INTERPRETER,
    IMAGE_GENERATION,
    MCP_CALL,
    MCP_LIST_TOOLS,
)


@st.composite
def annotations(draw: st.DrawFn, text: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 2))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
        if draw(st.booleans()):
            found.append(
                {
                    "type": "url_citation",
                    "start_index": start,
                    "end_index": end,
                    "title": "T",
                    "url": f"https://s.test/{start}",
                }
            )
        else:
            found.append(
                {"type": "file_citation", "file_id": "file-1", "filename": "a.pdf", "index": end}
            )
    return found


@st.composite
def output_items(draw: st.DrawFn) -> list[dict[str, Any]]:
    """The output of a reply: messages (one or two parts), hosted items and function calls in
    any order, some after a reasoning item (signed or not)."""
    items: list[dict[str, Any]] = []
    for position in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            items.append(reasoning(f"rs_{position}", draw(st.sampled_from(["enc", None]))))
        kind = draw(st.sampled_from(["message", "message", "hosted", "call"]))
        if kind == "message":
            texts = draw(st.lists(odd_texts, min_size=1, max_size=2))
            parts = [(text, draw(annotations(text))) for text in texts]
            phase = draw(st.sampled_from([None, "commentary", "final_answer"]))
            items.append(text_message(*parts, item_id=f"msg_{position}", phase=phase))
        elif kind == "hosted":
            sample = draw(st.sampled_from(HOSTED_SAMPLES))
            items.append({**sample, "id": f"{sample['id']}_{position}"})
        else:
            items.append(openai_response_function_call("f", call_id=f"call_{position}"))
    return items


def request_for(reply: Message) -> list[Message]:
    conversation = [USER, reply]
    calls = reply.get_tool_calls()
    if calls:
        results = [
            ToolCall(c.function_name, "{}", tool_call_id=c.tool_call_id, result="ok") for c in calls
        ]
        conversation.append(ToolCallResultMessage(results))
    return [*conversation, TextMessage(Role.USER, "Next.")]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=output_items(), ending=st.sampled_from(["full", "null"]))
def test_a_stream_ends_in_the_non_streamed_reply(items: list[dict[str, Any]], ending: Any) -> None:
    body = openai_response(items)
    events = openai_response_events(body, terminal_output=ending)
    parsed = [construct_type(type_=ResponseStreamEvent, value=copy.deepcopy(e)) for e in events]
    aggregator = aggregate(parsed)  # type: ignore[arg-type]

    try:
        expected = from_openai_responses(Response.model_validate(body), agent_name=AGENT)
    except EmptyResponseError:
        return
    assert aggregator.finish() == expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=output_items())
def test_the_request_a_reply_makes_imports_back_exactly(items: list[dict[str, Any]]) -> None:
    try:
        reply = from_openai_responses(
            Response.model_validate(openai_response(items)), agent_name=AGENT
        )
    except EmptyResponseError:
        return
    payload = to_openai_responses(request_for(reply), agent_name=AGENT).input
    wire.check_request_body(
        {"model": "m", "input": payload, "store": False, "include": ["reasoning.encrypted_content"]}
    )
    before = copy.deepcopy(payload)

    imported = from_openai_responses_input(payload, agent_name=AGENT, strict_mode=True)

    assert payload == before
    assert to_openai_responses(imported, agent_name=AGENT).input == payload
