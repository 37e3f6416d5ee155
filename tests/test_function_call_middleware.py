"""FunctionCallMiddleware: behaviours 1-4 of API.md section 7, on both paths."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from llmbridge import (
    DocumentMessage,
    FunctionCallMiddleware,
    FunctionContract,
    GenerateReplyOptions,
    ImageMessage,
    Message,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    function,
)
from llmbridge._agents import AgentMethods
from tests.strategies import PDF, PNG

AGENT = "assistant"
QUESTION = TextMessage(Role.USER, "Weather in Paris and the time?")


class ScriptedAgent(AgentMethods):
    """Answers each turn from a script and records what it was asked.

    A turn is the list of messages the stream yields; ``generate_reply`` returns its last one.
    """

    def __init__(self, *turns: Sequence[Message], name: str = AGENT) -> None:
        self.name = name
        self._turns = [list(turn) for turn in turns]
        self.requests: list[tuple[tuple[Message, ...], GenerateReplyOptions | None]] = []
        self.log: list[str] = []

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        self.requests.append((tuple(messages), options))
        return self._turns.pop(0)[-1]

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        self.requests.append((tuple(messages), options))
        for message in self._turns.pop(0):
            self.log.append(f"yield {type(message).__name__}")
            yield message


def weather(city: str) -> str:
    """Get the weather.

    Args:
        city: The city.
    """
    return f"18C in {city}"


async def clock(tz: str = "UTC") -> str:
    """Get the time."""
    return f"14:05 {tz}"


WEATHER_CALL = ToolCall("weather", '{"city": "Paris"}', tool_call_id="call_1")
CLOCK_CALL = ToolCall("clock", '{"tz": "CET"}', tool_call_id="call_2")
CALLS = ToolCallMessage([WEATHER_CALL, CLOCK_CALL], AGENT, finish_reason="tool_calls")
ANSWERED = (
    dataclasses.replace(WEATHER_CALL, result="18C in Paris"),
    dataclasses.replace(CLOCK_CALL, result="14:05 CET"),
)
TEXT_REPLY = TextMessage(Role.ASSISTANT, "It is sunny.", AGENT)


def connect(inner: ScriptedAgent, middleware: FunctionCallMiddleware) -> MiddlewareStreamingAgent:
    return inner.register_streaming_middleware(middleware)


async def run(
    agent: MiddlewareStreamingAgent, path: str, messages: Sequence[Message]
) -> list[Message]:
    """Every message the agent produces: the reply, or everything the stream yields."""
    if path == "reply":
        return [await agent.generate_reply(messages)]
    return [message async for message in agent.generate_streaming_reply(messages)]


PATHS = pytest.mark.parametrize("path", ["reply", "stream"])


# Behaviour 1: an incoming tool call is run; the model is not called.


@PATHS
async def test_incoming_tool_call_is_run_without_calling_the_model(path: str) -> None:
    inner = ScriptedAgent()
    agent = connect(inner, FunctionCallMiddleware([weather, clock]))

    produced = await run(agent, path, [QUESTION, CALLS])

    assert produced == [ToolCallResultMessage(ANSWERED, AGENT)]
    assert inner.requests == []


@PATHS
async def test_incoming_tool_call_without_a_map_goes_to_the_model(path: str) -> None:
    inner = ScriptedAgent([TEXT_REPLY])
    contracts = [FunctionContract.from_function(weather), FunctionContract.from_function(clock)]
    agent = connect(inner, FunctionCallMiddleware(contracts))

    produced = await run(agent, path, [QUESTION, CALLS])

    assert produced == [TEXT_REPLY]
    assert len(inner.requests) == 1


# Behaviour 2: contracts are added to the options.


OWN = (FunctionContract.from_function(weather), FunctionContract.from_function(clock))
SEARCH = FunctionContract("search", "Search the web.")
OTHER_WEATHER = FunctionContract("weather", "Someone else's weather.")
OPTION_CASES = {
    "none_creates_options": (None, GenerateReplyOptions(functions=OWN)),
    "other_settings_kept": (
        GenerateReplyOptions(temperature=0.5, tool_choice="auto"),
        GenerateReplyOptions(temperature=0.5, tool_choice="auto", functions=OWN),
    ),
    "own_first_then_given_without_duplicate_names": (
        GenerateReplyOptions(functions=[SEARCH, OTHER_WEATHER, SEARCH]),
        GenerateReplyOptions(functions=(*OWN, SEARCH)),
    ),
}


@PATHS
@pytest.mark.parametrize(("given", "expected"), OPTION_CASES.values(), ids=OPTION_CASES.keys())
async def test_contracts_are_added_to_the_options(
    path: str, given: GenerateReplyOptions | None, expected: GenerateReplyOptions
) -> None:
    inner = ScriptedAgent([TEXT_REPLY])
    agent = connect(inner, FunctionCallMiddleware([weather, clock]))

    if path == "reply":
        await agent.generate_reply([QUESTION], given)
    else:
        _ = [m async for m in agent.generate_streaming_reply([QUESTION], given)]

    assert inner.requests[0][1] == expected


async def test_options_pass_unchanged_without_contracts() -> None:
    inner = ScriptedAgent([TEXT_REPLY])
    given = GenerateReplyOptions(temperature=0.1)
    agent = connect(inner, FunctionCallMiddleware(function_map={"weather": weather}))

    await agent.generate_reply([QUESTION], given)

    assert inner.requests[0][1] is given


# Behaviour 3: the reply's calls are run and aggregated; behaviour 4: other replies pass.


@PATHS
async def test_tool_call_reply_becomes_an_aggregate_answering_every_call(path: str) -> None:
    inner = ScriptedAgent([CALLS])
    agent = connect(inner, FunctionCallMiddleware([weather, clock]))

    produced = await run(agent, path, [QUESTION])

    expected = ToolCallAggregateMessage(CALLS, ToolCallResultMessage(ANSWERED, AGENT), AGENT)
    assert produced == [expected]


@PATHS
async def test_tool_call_reply_without_a_map_is_returned_unchanged(path: str) -> None:
    inner = ScriptedAgent([CALLS])
    agent = connect(inner, FunctionCallMiddleware([FunctionContract("weather")]))

    assert await run(agent, path, [QUESTION]) == [CALLS]


@PATHS
async def test_other_replies_are_returned_unchanged(path: str) -> None:
    inner = ScriptedAgent([TEXT_REPLY])
    agent = connect(inner, FunctionCallMiddleware([weather]))

    produced = await run(agent, path, [QUESTION])

    assert produced == [TEXT_REPLY]
    assert produced[0] is TEXT_REPLY


async def test_results_are_sent_from_the_innermost_agents_name() -> None:
    inner = ScriptedAgent([CALLS], name="innermost")
    agent = MiddlewareStreamingAgent(inner, [FunctionCallMiddleware([weather, clock])])

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    assert reply.from_ == reply.tool_call_result_message.from_ == "innermost"


async def test_works_on_a_non_streaming_agent() -> None:
    class Plain:
        name = AGENT

        async def generate_reply(
            self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
        ) -> Message:
            return CALLS

    from llmbridge import register_middleware

    agent = register_middleware(Plain(), FunctionCallMiddleware([weather, clock]))

    reply = await agent.generate_reply([QUESTION])

    assert reply == ToolCallAggregateMessage(CALLS, ToolCallResultMessage(ANSWERED, AGENT), AGENT)


# Every call gets a result; nothing escapes.


class Colour(enum.Enum):
    RED = "red"


class Point(BaseModel):
    x: int
    y: int


@dataclasses.dataclass
class Box:
    width: int
    tags: list[str]


def boom(reason: str) -> str:
    raise RuntimeError(reason)


async def async_boom() -> str:
    raise KeyError("missing")


def returns(value: Any) -> Callable[[], Any]:
    def produce() -> Any:
        return value

    return produce


def raw_boom(arguments: str) -> str:
    raise ValueError(f"cannot use {arguments}")


FAILURES = {
    "unknown_function_lists_available": (
        ToolCall("forecast", "{}"),
        "Function 'forecast' is not available. Available functions: weather, boom, "
        "async_boom, raw.",
    ),
    "invalid_json": (
        ToolCall("weather", '{"city": Par'),
        "Invalid JSON arguments for function 'weather': Expecting value: line 1 column 10",
    ),
    "arguments_not_an_object": (
        ToolCall("weather", "[1, 2]"),
        "Arguments for function 'weather' must be a JSON object, got an array.",
    ),
    "validation_names_the_argument": (
        ToolCall("weather", '{"town": "Paris"}'),
        "Invalid arguments for function 'weather': city: Field required; "
        "town: unexpected argument.",
    ),
    "sync_exception_type_and_message": (
        ToolCall("boom", '{"reason": "disk full"}'),
        "Function 'boom' raised RuntimeError: disk full",
    ),
    "async_exception_type_and_message": (
        ToolCall("async_boom", ""),
        "Function 'async_boom' raised KeyError: 'missing'",
    ),
    "raw_map_exception": (
        ToolCall("raw", "not json"),
        "Function 'raw' raised ValueError: cannot use not json",
    ),
}


@PATHS
@pytest.mark.parametrize(("call", "text"), FAILURES.values(), ids=FAILURES.keys())
async def test_failures_become_error_results_naming_the_problem(
    path: str, call: ToolCall, text: str
) -> None:
    calls = ToolCallMessage([WEATHER_CALL, dataclasses.replace(call, tool_call_id="bad")], AGENT)
    middleware = FunctionCallMiddleware([weather, boom, async_boom], {"raw": raw_boom})
    agent = connect(ScriptedAgent([calls]), middleware)

    [reply] = await run(agent, path, [QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    good, bad = reply.tool_call_result_message.tool_calls
    assert good == ANSWERED[0]
    assert bad.is_error is True
    assert bad.tool_call_id == "bad"
    assert bad.result is not None
    assert bad.result.startswith(text)


async def test_unknown_function_with_an_empty_map_says_none_are_available() -> None:
    agent = connect(ScriptedAgent([CALLS]), FunctionCallMiddleware(function_map={}))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    results = reply.tool_call_result_message.tool_calls
    assert [call.result for call in results] == [
        "Function 'weather' is not available. Available functions: none.",
        "Function 'clock' is not available. Available functions: none.",
    ]
    assert all(call.is_error for call in results)


LOGGED = {
    "tool_exception_warning_with_traceback": (
        ToolCall("boom", '{"reason": "disk full"}', tool_call_id="c9"),
        logging.WARNING,
        "tool call c9 failed: Function 'boom' raised RuntimeError: disk full",
        True,
    ),
    "unknown_function_info": (
        ToolCall("nope", "{}", tool_call_id="c9"),
        logging.INFO,
        "tool call c9 failed: Function 'nope' is not available.",
        False,
    ),
    "invalid_arguments_info": (
        ToolCall("boom", "{}"),
        logging.INFO,
        "tool call boom failed: Invalid arguments for function 'boom': reason: Field required.",
        False,
    ),
}


@pytest.mark.parametrize(("call", "level", "text", "traceback"), LOGGED.values(), ids=LOGGED.keys())
async def test_failures_are_logged(
    caplog: pytest.LogCaptureFixture, call: ToolCall, level: int, text: str, traceback: bool
) -> None:
    agent = connect(ScriptedAgent([ToolCallMessage([call])]), FunctionCallMiddleware([boom]))

    with caplog.at_level(logging.DEBUG, logger="llmbridge"):
        await agent.generate_reply([QUESTION])

    [record] = caplog.records
    assert record.levelno == level
    assert record.message.startswith(text)
    assert (record.exc_info is not None) is traceback


RESULTS = {
    "string_unchanged": ("18C, sunny", "18C, sunny"),
    "number": (42, "42"),
    "none_is_json_null": (None, "null"),
    "list": ([1, "two", None], '[1,"two",null]'),
    "pydantic_model": (Point(x=1, y=2), '{"x":1,"y":2}'),
    "dataclass": (Box(3, ["a"]), '{"width":3,"tags":["a"]}'),
    "enum": (Colour.RED, '"red"'),
}


@pytest.mark.parametrize(("value", "text"), RESULTS.values(), ids=RESULTS.keys())
async def test_results_that_are_not_strings_are_json_serialized(value: Any, text: str) -> None:
    produce = function(name="produce")(returns(value))
    calls = ToolCallMessage([ToolCall("produce", "{}")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([produce]))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    assert reply.tool_call_result_message.tool_calls == (ToolCall("produce", "{}", result=text),)


async def produced(value: Any) -> ToolCall:
    """The answered call of a function that returns ``value``."""
    produce = function(name="produce")(returns(value))
    calls = ToolCallMessage([ToolCall("produce", "{}")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([produce]))
    reply = await agent.generate_reply([QUESTION])
    assert isinstance(reply, ToolCallAggregateMessage)
    [result] = reply.tool_call_result_message.tool_calls
    return result


DICT_RESULTS = {
    "dict": ({"city": "Paris", "temp": 18.5}, {"city": "Paris", "temp": 18.5}),
    "non_ascii_kept": ({"ville": "Orléans"}, {"ville": "Orléans"}),
    "nested_lists": ({"tags": ("a", ["b"])}, {"tags": ["a", ["b"]]}),
    "values_made_json": (
        {"box": Box(3, ["a"]), 1: Colour.RED},
        {"box": {"width": 3, "tags": ["a"]}, "1": "red"},
    ),
}


@pytest.mark.parametrize(("value", "structured"), DICT_RESULTS.values(), ids=DICT_RESULTS.keys())
async def test_a_dict_result_is_a_structured_result(value: Any, structured: Any) -> None:
    result = await produced(value)
    assert result == ToolCall("produce", "{}", result=structured)
    assert result.result == structured
    assert not result.is_error


async def test_a_dict_result_json_cannot_hold_is_an_error_result() -> None:
    result = await produced({"x": float("nan")})
    assert result.is_error is True
    assert isinstance(result.result, str)
    assert result.result.startswith("The result of function 'produce' cannot be sent")


async def test_an_unserializable_result_is_an_error_result() -> None:
    produce = function(name="produce")(returns(object()))
    calls = ToolCallMessage([ToolCall("produce", "{}")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([produce]))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    [result] = reply.tool_call_result_message.tool_calls
    assert result.is_error is True
    assert result.result is not None
    assert result.result.startswith("The result of function 'produce' is not serializable")


CHART = ImageMessage(Role.TOOL, data=PNG)
REPORT = DocumentMessage(Role.TOOL, data=PDF, filename="report.pdf")
MEDIA_RESULTS = {
    "an_image_is_a_one_part_result": (CHART, (CHART,)),
    "a_document_is_a_one_part_result": (REPORT, (REPORT,)),
    "strings_in_a_list_become_text_parts": (
        ["Sales by month:", CHART, "and the report", REPORT],
        (
            TextMessage(Role.TOOL, "Sales by month:"),
            CHART,
            TextMessage(Role.TOOL, "and the report"),
            REPORT,
        ),
    ),
    "a_tuple_works_as_a_list": ((CHART, "caption"), (CHART, TextMessage(Role.TOOL, "caption"))),
    "a_list_of_strings_only_stays_json": (["a", "b"], '["a","b"]'),
}


@pytest.mark.parametrize(("value", "result"), MEDIA_RESULTS.values(), ids=MEDIA_RESULTS.keys())
async def test_a_tool_returning_media_gives_a_parts_result(value: Any, result: Any) -> None:
    produce = function(name="produce")(returns(value))
    calls = ToolCallMessage([ToolCall("produce", "{}", tool_call_id="c1")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([produce]))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    [answered] = reply.tool_call_result_message.tool_calls
    assert (answered.result, answered.is_error) == (result, False)


async def test_a_list_mixing_media_with_other_values_is_an_error_result() -> None:
    produce = function(name="produce")(returns([CHART, {"x": 1}]))
    calls = ToolCallMessage([ToolCall("produce", "{}")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([produce]))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    [answered] = reply.tool_call_result_message.tool_calls
    assert answered.is_error is True
    assert answered.result == (
        "The result of function 'produce' cannot be sent: item 1 of the returned list is a "
        "dict; a list with images, documents, audio or video may hold only them and strings."
    )


# Function map entries take the raw JSON text.


def raw_sync(arguments: str) -> str:
    return f"sync got {arguments}"


async def raw_async(arguments: str) -> dict[str, str]:
    return {"async got": arguments}


async def test_function_map_entries_get_the_raw_json_text_verbatim() -> None:
    calls = ToolCallMessage(
        [ToolCall("one", '{"a":  1}'), ToolCall("two", "not json at all")], AGENT
    )
    contracts = [FunctionContract("one"), FunctionContract("two")]
    middleware = FunctionCallMiddleware(contracts, {"one": raw_sync, "two": raw_async})
    agent = connect(ScriptedAgent([calls]), middleware)

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    assert [call.result for call in reply.tool_call_result_message.tool_calls] == [
        'sync got {"a":  1}',
        {"async got": "not json at all"},  # a dict: a structured result (API.md 19.3)
    ]


async def test_a_sync_entry_returning_an_awaitable_is_awaited() -> None:
    async def later(arguments: str) -> str:
        return "awaited " + arguments

    def wrapper(arguments: str) -> Awaitable[str]:
        return later(arguments)

    calls = ToolCallMessage([ToolCall("later", "{}")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware(function_map={"later": wrapper}))

    reply = await agent.generate_reply([QUESTION])

    assert reply.get_content() == "awaited {}"


async def test_sync_functions_run_in_a_worker_thread() -> None:
    threads: list[int] = []

    def where() -> str:
        threads.append(threading.get_ident())
        return "ok"

    calls = ToolCallMessage([ToolCall("where", "")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([where]))

    await agent.generate_reply([QUESTION])

    assert threads
    assert threads[0] != threading.get_ident()


# Calls of one reply run concurrently; results keep call order.


async def test_sync_calls_run_concurrently() -> None:
    # Each call waits for the other inside the barrier: run one after the other, the first
    # would wait alone, break the barrier, and come back as an error result.
    barrier = threading.Barrier(2, timeout=10)

    def meet(who: str) -> str:
        barrier.wait()
        return who

    calls = ToolCallMessage([ToolCall("meet", '{"who": "a"}'), ToolCall("meet", '{"who": "b"}')])
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([meet]))

    reply = await agent.generate_reply([QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    assert [c.result for c in reply.tool_call_result_message.tool_calls] == ["a", "b"]


async def test_results_keep_call_order_when_calls_finish_in_reverse() -> None:
    second_done = asyncio.Event()
    finished: list[str] = []

    async def first() -> str:
        await second_done.wait()
        finished.append("first")
        return "1"

    async def second() -> str:
        finished.append("second")
        second_done.set()
        return "2"

    calls = ToolCallMessage([ToolCall("first", ""), ToolCall("second", "")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([first, second]))

    reply = await agent.generate_reply([QUESTION])

    assert finished == ["second", "first"]
    assert isinstance(reply, ToolCallAggregateMessage)
    assert [c.result for c in reply.tool_call_result_message.tool_calls] == ["1", "2"]


@PATHS
async def test_a_sync_and_an_async_tool_of_one_reply_run_at_the_same_time(path: str) -> None:
    # Each tool waits until the other has started. Run one after the other, the first would
    # wait alone until its timeout and come back as an error result; no clock is read.
    loop = asyncio.get_running_loop()
    async_started = threading.Event()
    sync_started = asyncio.Event()

    def blocking_tool() -> str:
        loop.call_soon_threadsafe(sync_started.set)
        if not async_started.wait(timeout=10):
            raise TimeoutError("the async tool did not start while this one ran")
        return "sync"

    async def async_tool() -> str:
        async_started.set()
        await asyncio.wait_for(sync_started.wait(), timeout=10)
        return "async"

    calls = ToolCallMessage([ToolCall("blocking_tool", ""), ToolCall("async_tool", "")], AGENT)
    agent = connect(ScriptedAgent([calls]), FunctionCallMiddleware([blocking_tool, async_tool]))

    [reply] = await run(agent, path, [QUESTION])

    assert isinstance(reply, ToolCallAggregateMessage)
    results = reply.tool_call_result_message.tool_calls
    assert [(c.result, c.is_error) for c in results] == [("sync", False), ("async", False)]


# Streaming specifics.


async def test_stream_passes_updates_through_live_and_replaces_the_final_tool_call() -> None:
    updates = [
        TextMessageUpdate(Role.ASSISTANT, "Checking", AGENT),
        ToolCallMessageUpdate("weather", '{"city": ', AGENT, index=0, tool_call_id="call_1"),
        ToolCallMessageUpdate("clock", '{"tz": "CET"}', AGENT, index=1, tool_call_id="call_2"),
        ToolCallMessageUpdate("weather", '"Paris"}', AGENT, index=0, tool_call_id="call_1"),
    ]
    inner = ScriptedAgent([*updates, CALLS])
    agent = connect(inner, FunctionCallMiddleware([weather, clock]))

    received: list[Message] = []
    async for message in agent.generate_streaming_reply([QUESTION]):
        inner.log.append(f"got {type(message).__name__}")
        received.append(message)

    aggregate = ToolCallAggregateMessage(CALLS, ToolCallResultMessage(ANSWERED, AGENT), AGENT)
    assert received == [*updates, aggregate]
    # Live: each update reaches the caller before the inner stream produces the next one.
    assert inner.log == [
        "yield TextMessageUpdate",
        "got TextMessageUpdate",
        *["yield ToolCallMessageUpdate", "got ToolCallMessageUpdate"] * 3,
        "yield ToolCallMessage",
        "got ToolCallAggregateMessage",
    ]


async def test_stream_passes_a_tool_call_that_is_not_the_final_message() -> None:
    inner = ScriptedAgent([CALLS, TEXT_REPLY])
    agent = connect(inner, FunctionCallMiddleware([weather, clock]))

    received = [message async for message in agent.generate_streaming_reply([QUESTION])]

    assert received == [CALLS, TEXT_REPLY]


async def test_stream_without_a_map_passes_updates_and_the_tool_call() -> None:
    update = ToolCallMessageUpdate("weather", "{}", AGENT)
    inner = ScriptedAgent([update, CALLS])
    agent = connect(inner, FunctionCallMiddleware([FunctionContract("weather")]))

    received = [message async for message in agent.generate_streaming_reply([QUESTION])]

    assert received == [update, CALLS]


# Construction.


def _marked_weather() -> Callable[..., str]:
    @function(name="weather")
    def other(city: str) -> str:
        return city

    return other


INVALID_SETUPS = {
    "duplicate_function_names": (
        lambda: FunctionCallMiddleware([weather, FunctionContract("weather")]),
        ValueError,
        "two functions are named 'weather'",
    ),
    "duplicate_via_decorator_name": (
        lambda: FunctionCallMiddleware([weather, _marked_weather()]),
        ValueError,
        "two functions are named 'weather'",
    ),
    "python_function_also_in_map": (
        lambda: FunctionCallMiddleware([weather], {"weather": raw_sync}),
        ValueError,
        "given both as a Python function and in function_map",
    ),
    "invalid_map_name": (
        lambda: FunctionCallMiddleware(function_map={"get weather": raw_sync}),
        ValueError,
        "invalid function name 'get weather'",
    ),
    "map_value_not_callable": (
        lambda: FunctionCallMiddleware(function_map={"weather": "nope"}),  # type: ignore[dict-item]
        TypeError,
        "not a callable",
    ),
    "entry_neither_contract_nor_callable": (
        lambda: FunctionCallMiddleware(["weather"]),  # type: ignore[list-item]
        TypeError,
        "expected a FunctionContract or a callable",
    ),
    "single_function_not_in_a_list": (
        lambda: FunctionCallMiddleware(weather),  # type: ignore[arg-type]
        TypeError,
        "wrap it in a list",
    ),
}


@pytest.mark.parametrize(
    ("build", "error", "message"), INVALID_SETUPS.values(), ids=INVALID_SETUPS.keys()
)
def test_invalid_setups_raise(
    build: Callable[[], object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        build()


def test_name_defaults_to_the_class_name_and_contracts_are_listed() -> None:
    contract = FunctionContract("lookup", "Look it up.")
    middleware = FunctionCallMiddleware([weather, contract], {"lookup": raw_sync})

    assert middleware.name == "FunctionCallMiddleware"
    assert FunctionCallMiddleware(name="tools").name == "tools"
    assert middleware.functions == (FunctionContract.from_function(weather), contract)
    assert repr(middleware) == (
        "FunctionCallMiddleware(functions=['weather', 'lookup'], "
        "function_map=['weather', 'lookup'], name='FunctionCallMiddleware')"
    )
