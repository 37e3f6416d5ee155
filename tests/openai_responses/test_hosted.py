"""Hosted tools (API.md 19.5, 19.7): hosted tool items -> ``HostedToolCall``s, replayed to
Responses in place (ids and reasoning placement kept), the same from a stream, read back by
the payload importer; another provider's hosted tools are not sent (a note, never raising)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.types.responses import Response

from llmbridge import (
    EmptyResponseError,
    FunctionCallMiddleware,
    HostedToolCall,
    MessageEnvelope,
    Role,
    StreamInterruptedError,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.openai import (
    from_openai_responses,
    from_openai_responses_input,
    to_openai_responses,
)
from llmbridge.testing import (
    openai_response,
    openai_response_events,
    openai_response_function_call,
)
from tests.openai_responses.rev3 import (
    AGENT,
    CODE_INTERPRETER,
    FILE_SEARCH,
    IMAGE_GENERATION,
    MCP_APPROVAL_REQUEST,
    MCP_CALL,
    MCP_CALL_ERROR,
    MCP_LIST_TOOLS,
    URL_CITATION,
    USER,
    WEB_OPEN_PAGE,
    WEB_SEARCH,
    aggregate,
    as_sent,
    bodies,
    connected,
    reasoning,
    reply_of,
    sent_input,
    state,
    text_message,
)
from tests.openai_responses.sdk import fetched, streamed

MODES = pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
DONE = text_message(("Done.", []))


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# name -> (item, name, arguments, result, is_error) of API.md 19.7
READS: dict[str, tuple[dict[str, Any], str, str, str | None, bool]] = {
    "web_search_arguments_are_its_action_and_its_sources_the_result": (
        WEB_SEARCH,
        "web_search",
        compact(WEB_SEARCH["action"]),
        "https://a.test\nhttps://b.test",
        False,
    ),
    "web_search_opening_a_page_has_no_result": (
        WEB_OPEN_PAGE,
        "web_search",
        '{"type":"open_page","url":"https://a.test"}',
        None,
        False,
    ),
    "file_search_arguments_are_its_queries_one_result_line_per_file": (
        FILE_SEARCH,
        "file_search",
        '{"queries":["embedding model"]}',
        "ai.pdf file-1",
        False,
    ),
    "code_interpreter_arguments_are_its_code_its_logs_the_result": (
        CODE_INTERPRETER,
        "code_interpreter",
        '{"code":"print(1 + 1)"}',
        "2",
        False,
    ),
    "image_generation_arguments_are_its_settings_the_image_stays_in_the_item": (
        IMAGE_GENERATION,
        "image_generation",
        '{"revised_prompt":"A cat.","size":"1024x1024","quality":"low","background":"opaque"}',
        None,
        False,
    ),
    "mcp_list_tools_lists_the_tool_names": (
        MCP_LIST_TOOLS,
        "mcp_list_tools",
        '{"server_label":"deepwiki"}',
        "ask_question\nread_wiki",
        False,
    ),
    "mcp_list_tools_with_an_error_is_an_error": (
        {**MCP_LIST_TOOLS, "tools": [], "error": "unreachable"},
        "mcp_list_tools",
        '{"server_label":"deepwiki"}',
        "unreachable",
        True,
    ),
    "mcp_call_is_the_named_tool_its_output_the_result": (
        MCP_CALL,
        "ask_question",
        '{"question":"What is it?"}',
        "It is a library.",
        False,
    ),
    "mcp_call_with_an_error_is_an_error": (
        MCP_CALL_ERROR,
        "ask_question",
        '{"question":"What is it?"}',
        None,
        True,
    ),
    "mcp_approval_request_is_the_named_tool_waiting_for_approval": (
        MCP_APPROVAL_REQUEST,
        "delete",
        '{"question":"Delete it?"}',
        None,
        False,
    ),
}


def hosted(item: dict[str, Any], position: int, name: str, arguments: str, **more: Any) -> Any:
    return HostedToolCall(
        name,
        arguments,
        id=item["id"],
        provider="openai",
        provider_data=state(item=item, position=position),
        **more,
    )


@MODES
@pytest.mark.parametrize("name", list(READS), ids=list(READS))
async def test_a_hosted_item_is_a_hosted_tool_call_of_the_reply(
    name: str, strict_mode: bool
) -> None:
    item, tool, arguments, result, is_error = READS[name]

    reply = await reply_of([item, DONE], strict_mode=strict_mode)

    assert reply == TextMessage(
        Role.ASSISTANT,
        "Done.",
        AGENT,
        usage=reply.usage,  # type: ignore[attr-defined]
        finish_reason="stop",
        provider_data=state(id="msg_1"),
        hosted_tools=[hosted(item, 0, tool, arguments, result=result, is_error=is_error)],
    )


# name -> the output items of a reply, replayed as they came
IN_PLACE: dict[str, list[dict[str, Any]]] = {
    "reasoning_before_each_search": [
        reasoning("rs_1"),
        WEB_SEARCH,
        reasoning("rs_2"),
        WEB_OPEN_PAGE,
        reasoning("rs_3"),
        text_message(("Found it.", [URL_CITATION])),
    ],
    "mcp_tools_listed_then_called": [
        MCP_LIST_TOOLS,
        reasoning("rs_1"),
        MCP_CALL,
        reasoning("rs_2"),
        text_message(("It is a library.", [])),
    ],
    "between_a_commentary_and_a_final_answer": [
        text_message(("Let me look. ", []), item_id="msg_1", phase="commentary"),
        WEB_SEARCH,
        text_message(("Found it.", [URL_CITATION]), item_id="msg_2", phase="final_answer"),
    ],
    "code_runs_without_reasoning": [CODE_INTERPRETER, {**CODE_INTERPRETER, "id": "ci_2"}, DONE],
    "every_hosted_item_before_an_image": [
        FILE_SEARCH,
        IMAGE_GENERATION,
        MCP_CALL_ERROR,
        MCP_APPROVAL_REQUEST,
        DONE,
    ],
}


@pytest.mark.parametrize("name", list(IN_PLACE), ids=list(IN_PLACE))
async def test_the_reply_sent_back_replays_its_hosted_items_in_place(name: str) -> None:
    items = IN_PLACE[name]
    reply = await reply_of(items)

    sent = await sent_input([USER, reply, TextMessage(Role.USER, "And?")])

    assert sent[1:-1] == [as_sent(item) for item in items]


async def test_hosted_items_before_a_function_call_go_back_before_it() -> None:
    items = [reasoning("rs_1"), WEB_SEARCH, reasoning("rs_2"), openai_response_function_call("f")]
    reply = await reply_of(items)
    assert isinstance(reply, ToolCallMessage)
    answered = ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="call_test", result="ok")])

    sent = await sent_input([USER, reply, answered])

    call = {"type": "function_call", "id": "fc_call_test", "call_id": "call_test"}
    assert sent[1:-1] == [*items[:3], {**call, "name": "f", "arguments": "{}"}]
    assert sent[-1] == {"type": "function_call_output", "call_id": "call_test", "output": "ok"}


def lookup(city: str) -> str:
    """Look a city up."""
    return f"{city}: found"


async def test_a_function_loop_sends_the_hosted_items_back_before_its_call() -> None:
    call = openai_response_function_call("lookup", '{"city": "Oslo"}')
    items = [reasoning("rs_1"), WEB_SEARCH, reasoning("rs_2"), call]
    agent, route = connected(openai_response(items), openai_response("Oslo is found."))
    looped = agent.register_middleware(FunctionCallMiddleware([lookup]))

    aggregate = await looped.generate_reply([USER])
    await looped.generate_reply([USER, aggregate])

    sent = bodies(route)[1]["input"]
    assert sent[1:4] == items[:3]
    assert sent[4]["id"] == "fc_call_test"
    assert sent[5] == {
        "type": "function_call_output",
        "call_id": "call_test",
        "output": "Oslo: found",
    }


@MODES
async def test_a_hosted_item_whose_reasoning_cannot_be_sent_is_left_out_with_a_note(
    strict_mode: bool,
) -> None:
    reply = await reply_of([reasoning("rs_1", signature=None), WEB_SEARCH, DONE])

    request = to_openai_responses([USER, reply], agent_name=AGENT, strict_mode=strict_mode)

    assert request.input[1:] == [as_sent(DONE)]
    (note,) = request.notes
    assert note.kind == "omitted"
    assert "hosted tool item ws_1" in note.detail


FOREIGN = HostedToolCall("web_search", '{"query":"x"}', id="srvtoolu_1", provider="anthropic")
UNRECORDED = HostedToolCall("web_search", '{"query":"x"}', id="ws_9", provider="openai")


@MODES
@pytest.mark.parametrize(
    ("call", "detail"),
    [
        pytest.param(FOREIGN, "hosted tool calls of anthropic (web_search)", id="another_provider"),
        pytest.param(UNRECORDED, "web_search ws_9 (no item recorded)", id="no_recorded_item"),
    ],
)
def test_a_hosted_tool_call_that_cannot_be_replayed_is_omitted_never_raising(
    call: HostedToolCall, detail: str, strict_mode: bool
) -> None:
    reply = TextMessage(
        Role.ASSISTANT, "Done.", AGENT, provider_data=state(id="msg_1"), hosted_tools=[call]
    )

    request = to_openai_responses([USER, reply], agent_name=AGENT, strict_mode=strict_mode)

    assert request.input[1:] == [as_sent(DONE)]
    (note,) = request.notes
    assert (note.index, note.kind) == (1, "omitted")
    assert detail in note.detail


@MODES
async def test_a_hosted_item_id_is_sent_once(strict_mode: bool) -> None:
    reply = await reply_of([WEB_SEARCH, DONE])
    again = TextMessage(Role.ASSISTANT, "Again.", AGENT, hosted_tools=reply.hosted_tools)  # type: ignore[attr-defined]

    request = to_openai_responses([USER, reply, again], agent_name=AGENT, strict_mode=strict_mode)

    assert [item.get("id") for item in request.input] == [None, "ws_1", "msg_1", None]
    (note,) = request.notes
    assert "ws_1 (sent earlier in this input)" in note.detail


@MODES
async def test_another_agents_hosted_tools_are_not_sent_in_its_user_item(
    strict_mode: bool,
) -> None:
    reply = await reply_of([WEB_SEARCH, DONE])
    theirs = TextMessage(Role.ASSISTANT, "Done.", "researcher", hosted_tools=reply.hosted_tools)  # type: ignore[attr-defined]

    request = to_openai_responses(
        [USER, theirs], agent_name=AGENT, strict_mode=strict_mode, name_policy="prefix"
    )

    assert request.input[1:] == [{"role": "user", "content": "[researcher] Done."}]
    note, _ = request.notes  # and the name's "repaired" note
    assert note.kind == "omitted"
    assert "hosted tool calls are not sent in a user item" in note.detail


@MODES
async def test_a_reply_of_hosted_tools_only_follows_the_empty_rule(strict_mode: bool) -> None:
    response = await fetched(openai_response([reasoning("rs_1"), IMAGE_GENERATION]))

    with pytest.raises(EmptyResponseError) as raised:
        from_openai_responses(response, agent_name=AGENT, strict_mode=strict_mode)

    assert raised.value.response is response


STREAMED = {**{name: [item, DONE] for name, (item, *_) in READS.items()}, **IN_PLACE}


@pytest.mark.parametrize("terminal_output", ["full", "null"])
@pytest.mark.parametrize("name", list(STREAMED), ids=list(STREAMED))
async def test_a_stream_ends_with_the_hosted_tools_of_the_reply(
    name: str, terminal_output: Any
) -> None:
    body = openai_response(STREAMED[name])
    events = await streamed(openai_response_events(body, terminal_output=terminal_output))

    final = aggregate(events, strict_mode=True).finish()

    expected = from_openai_responses(Response.model_validate(body), agent_name=AGENT)
    assert final == expected
    assert final.hosted_tools  # type: ignore[attr-defined]


async def test_an_interrupted_stream_keeps_the_hosted_items_done_so_far() -> None:
    events = openai_response_events(openai_response([WEB_SEARCH, DONE]), pieces=1)
    text_done = next(i for i, e in enumerate(events) if e["type"] == "response.output_text.done")
    aggregator = aggregate(await streamed(events[:text_done]), strict_mode=True)

    with pytest.raises(StreamInterruptedError) as raised:
        aggregator.finish()

    partial = raised.value.partial
    assert isinstance(partial, TextMessage)
    assert partial.hosted_tools == (await reply_of([WEB_SEARCH, DONE])).hosted_tools  # type: ignore[attr-defined]


@MODES
@pytest.mark.parametrize("name", list(STREAMED), ids=list(STREAMED))
async def test_the_importer_reads_the_replayed_hosted_items_back(
    name: str, strict_mode: bool
) -> None:
    reply = await reply_of(STREAMED[name])
    payload = to_openai_responses([USER, reply], agent_name=AGENT).input

    imported = from_openai_responses_input(payload, agent_name=AGENT, strict_mode=strict_mode)

    assert to_openai_responses(imported, agent_name=AGENT).input == payload
    (turn,) = imported[1:]
    assert [call.id for call in turn.hosted_tools] == [c.id for c in reply.hosted_tools]  # type: ignore[attr-defined]


@MODES
@pytest.mark.parametrize(
    "turn",
    [
        pytest.param([WEB_SEARCH], id="a_hosted_item_alone"),
        pytest.param([reasoning("rs_1"), MCP_LIST_TOOLS], id="reasoning_then_a_hosted_item"),
        pytest.param([MCP_LIST_TOOLS, MCP_CALL, as_sent(DONE)], id="hosted_items_then_text"),
    ],
)
def test_a_payload_of_hosted_items_round_trips_exactly(
    turn: list[dict[str, Any]], strict_mode: bool
) -> None:
    payload = [{"role": "user", "content": "Hi"}, *turn, {"role": "user", "content": "And?"}]

    imported = from_openai_responses_input(payload, agent_name=AGENT, strict_mode=strict_mode)

    assert not any(isinstance(message, MessageEnvelope) for message in imported)
    assert to_openai_responses(imported, agent_name=AGENT).input == payload


def test_a_hosted_item_without_its_id_is_kept_as_it_is() -> None:
    item = {key: value for key, value in WEB_SEARCH.items() if key != "id"}

    (imported,) = from_openai_responses_input([item], agent_name=AGENT)

    assert imported == MessageEnvelope(item)
