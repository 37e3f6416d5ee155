"""A conversation cut off at the token limit inside a tool call goes on, with both providers.

The cut call keeps its raw arguments in the neutral history and is not run
(``FunctionCallMiddleware`` answers "not run"); on the next request it is sent with empty
arguments (``{}``, a ``"repaired"`` note) and its cut text goes after the text of the result that
answers it. Calls with invalid arguments in a reply that was not cut off still raise for
Anthropic (API.md 4.2) and go verbatim to OpenAI.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from llmbridge import (
    FunctionCallMiddleware,
    InvalidMessageError,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.kit._tool_calls import CUT_ARGUMENTS_SHOWN
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    anthropic_sse_response,
    anthropic_text_block,
    openai_client,
    openai_completion,
    openai_sse_response,
    openai_tool_call_chunks,
)
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.openai import wire as openai_wire
from tests.reliability.helpers import (
    ANTHROPIC_URL,
    OPENAI_URL,
    PROVIDERS,
    Provider,
    Raises,
    Sends,
    anthropic_tool_stream,
    convert,
    expect,
)

CUT = '{"city": "Ro'
QUESTION = TextMessage(Role.USER, "Weather in Rome?")
ANSWER = "I could not finish the call; ask me again with a higher limit."


def get_weather(city: str) -> str:
    """Weather in a city."""
    return f"24C in {city}"


def _cut_stream(provider: Provider) -> httpx.Response:
    if provider == "openai":
        call = ToolCall("get_weather", CUT, tool_call_id="toolu_1")
        return openai_sse_response(openai_tool_call_chunks([call], finish_reason="length"))
    return anthropic_sse_response(anthropic_tool_stream(['{"city": ', '"Ro'], "max_tokens"))


def _answer(provider: Provider) -> httpx.Response:
    if provider == "openai":
        return httpx.Response(200, json=openai_completion(ANSWER))
    return httpx.Response(200, json=anthropic_message([anthropic_text_block(ANSWER)]))


def _connected(provider: Provider, router: respx.Router) -> Any:
    agent: Any
    if provider == "openai":
        agent = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-test")
    else:
        agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    return agent.register_message_connector().register_streaming_middleware(
        FunctionCallMiddleware([get_weather])
    )


def _sent_call_and_result(provider: Provider, body: dict[str, Any]) -> tuple[Any, str]:
    """The arguments (OpenAI) or input (Anthropic) of the call sent back, and its result text."""
    if provider == "openai":
        openai_wire.check_request_body(body)
        _, assistant, tool = body["messages"]
        return assistant["tool_calls"][0]["function"]["arguments"], tool["content"]
    assert_valid_request(body)
    _, assistant, user = body["messages"]
    return assistant["content"][0]["input"], user["content"][0]["content"]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_call_cut_off_at_the_token_limit_is_not_run_and_the_loop_goes_on(
    provider: Provider,
) -> None:
    router = respx.Router()
    route = router.post(OPENAI_URL if provider == "openai" else ANTHROPIC_URL)
    route.mock(side_effect=[_cut_stream(provider), _answer(provider)])
    agent = _connected(provider, router)

    aggregate = [message async for message in agent.stream(QUESTION)][-1]
    reply = await agent.send(chat_history=[QUESTION, aggregate])

    assert isinstance(aggregate, ToolCallAggregateMessage)
    assert aggregate.tool_call_message.finish_reason == "length"
    assert [call.function_arguments for call in aggregate.tool_call_message.tool_calls] == [CUT]
    (not_run,) = aggregate.tool_call_result_message.tool_calls
    assert not_run.is_error
    assert not_run.result is not None
    assert not_run.result.startswith("Not run")
    assert reply.get_content() == ANSWER
    body = json.loads(route.calls[1].request.content)
    arguments, result = _sent_call_and_result(provider, body)
    assert arguments == ("{}" if provider == "openai" else {})
    assert result == f"{not_run.result}\n[The call was cut off; its arguments were: {CUT}]"


def _cut_round(arguments: str, *, finish_reason: str | None = "length") -> list[Message]:
    call = ToolCall("get_weather", arguments, tool_call_id="c1")
    answer = ToolCall("get_weather", arguments, tool_call_id="c1", result="Not run.", is_error=True)
    calls = ToolCallMessage([call], AGENT, finish_reason=finish_reason)
    return [QUESTION, calls, ToolCallResultMessage([answer])]


def _sent(provider: Provider) -> Any:
    """Probe: the sent call's arguments (OpenAI) or input (Anthropic), and its result text."""
    if provider == "openai":
        return lambda r: (
            r.messages[1]["tool_calls"][0]["function"]["arguments"],
            r.messages[2]["content"],
        )
    return lambda r: (r.messages[1]["content"][0]["input"], r.messages[2]["content"][0]["content"])


def _empty(provider: Provider) -> Any:
    return "{}" if provider == "openai" else {}


def _notes(provider: Provider, *notes: tuple[int, str], result_index: int = 2) -> list[Any]:
    """``notes``, plus OpenAI's note that the result's ``is_error`` is not sent."""
    return [*notes, (result_index, "omitted")] if provider == "openai" else list(notes)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "arguments",
    [CUT, "[1, 2", '"Rome"', "[1, 2]"],
    ids=["cut-object", "cut-array", "json-but-not-an-object", "complete-array"],
)
def test_a_cut_call_is_sent_with_empty_arguments_and_its_text_after_its_result(
    provider: Provider, arguments: str
) -> None:
    text = f"Not run.\n[The call was cut off; its arguments were: {arguments}]"
    notes = _notes(provider, (1, "repaired"))
    sends = Sends(_sent(provider), (_empty(provider), text), notes=notes)
    expect(provider, _cut_round(arguments), sends)  # strict mode alike: nothing is lost


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_cut_call_with_complete_arguments_is_sent_as_it_is(provider: Provider) -> None:
    arguments = '{"city": "Rome"}'
    sent = arguments if provider == "openai" else {"city": "Rome"}
    sends = Sends(_sent(provider), (sent, "Not run."), notes=_notes(provider))
    expect(provider, _cut_round(arguments), sends)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_cut_text_sent_is_bounded(provider: Provider) -> None:
    arguments = '{"text": "' + "x" * 5000
    request = convert(provider, _cut_round(arguments))
    _, result = _sent(provider)(request)
    shown = arguments[:CUT_ARGUMENTS_SHOWN]
    more = len(arguments) - CUT_ARGUMENTS_SHOWN
    cut = f"[The call was cut off; its arguments were: {shown} ... ({more} more characters)]"
    assert result == f"Not run.\n{cut}"
    assert "'get_weather' (c1) was cut off at the token limit" in request.notes[0].detail


@pytest.mark.parametrize("provider", PROVIDERS)
def test_invalid_arguments_of_a_reply_not_cut_off_keep_their_rule(provider: Provider) -> None:
    messages = _cut_round(CUT, finish_reason="tool_calls")
    if provider == "openai":
        sends = Sends(_sent(provider), (CUT, "Not run."), notes=_notes(provider))
        expect(provider, messages, sends)
    else:
        field = "tool_calls[0].function_arguments"
        expect(provider, messages, Raises(InvalidMessageError, 1, field))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_cut_call_in_an_aggregate_carries_its_text_into_the_results(provider: Provider) -> None:
    _, calls, results = _cut_round(CUT)
    assert isinstance(calls, ToolCallMessage)
    assert isinstance(results, ToolCallResultMessage)
    aggregate = ToolCallAggregateMessage(calls, results, AGENT)
    text = f"Not run.\n[The call was cut off; its arguments were: {CUT}]"
    expect(
        provider,
        [QUESTION, aggregate],
        Sends(
            _sent(provider),
            (_empty(provider), text),
            notes=_notes(provider, (1, "repaired"), result_index=1),
        ),
    )
