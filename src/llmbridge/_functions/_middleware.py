"""``FunctionCallMiddleware``: offers tools to the model, runs the calls it makes, answers each one.

Unlike its AutoGen.NET ancestor, every call gets a result (an unknown function, bad arguments
or a raised exception become an error result, so the history stays valid for the next
request), nothing a tool raises escapes, the streaming path passes every update through and
never calls the model after running an incoming tool call.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Any, Final, TypeAlias

import pydantic_core

from llmbridge._agents import Agent, GenerateReplyOptions, MiddlewareContext, StreamingAgent
from llmbridge._errors import InvalidMessageError
from llmbridge._functions._contracts import (
    ArgumentsError,
    FunctionContract,
    PythonFunction,
    validate_function_name,
)
from llmbridge._functions._result import FunctionResult
from llmbridge._messages import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    ToolResult,
    ToolResultPart,
    VideoMessage,
    describe_result,
)

__all__ = ["FunctionCallMiddleware", "RawFunction"]

RawFunction: TypeAlias = Callable[[str], Any]
"""A ``function_map`` entry: ``fn(arguments_json) -> result``, sync or async."""

_LOGGER: Final = logging.getLogger("llmbridge")
_DEFAULT_NAME: Final = "FunctionCallMiddleware"
_MEDIA: Final = (ImageMessage, DocumentMessage, AudioMessage, VideoMessage)
_CUT_OFF: Final = (
    "Not run: the reply was cut off (finish reason 'length') while its tool calls were being "
    "written, so the arguments may be incomplete. Allow more output tokens and ask again."
)


@dataclasses.dataclass(frozen=True, slots=True)
class _RawFunction:
    """A ``function_map`` entry: called with the model's arguments as the raw JSON text."""

    fn: RawFunction


_Runner: TypeAlias = PythonFunction | _RawFunction


class FunctionCallMiddleware:
    """Offers functions to the model and runs the calls it makes.

    ``functions`` holds ``FunctionContract``s and plain (sync or async) Python functions; a
    plain function is described with ``FunctionContract.from_function`` and called with its
    arguments validated by pydantic. ``function_map`` maps names to ``fn(arguments_json: str)``
    (sync or async), for contracts given without a Python function. A map exists when either
    supplies a function. Behaviour:

    1. the last incoming message is a ``ToolCallMessage`` and a map exists: its calls are run
       and a ``ToolCallResultMessage`` is returned; the model is not called;
    2. else the contracts are added to ``options.functions`` (these first, no duplicate names;
       options are created when ``None``) and the inner agent is called;
    3. the reply is a ``ToolCallMessage`` and a map exists: every call runs, concurrently, and
       a ``ToolCallAggregateMessage`` of the reply and its results is returned;
    4. any other reply is returned unchanged.

    Streaming takes the same steps: updates pass through live, the stream's final
    ``ToolCallMessage`` is replaced by the aggregate. Results are copies of the calls (ids
    kept, call order kept) with ``result`` set; an ``ImageMessage``, ``DocumentMessage``,
    ``AudioMessage`` or ``VideoMessage``, or a list mixing them with strings, becomes a parts
    result (strings as text parts); a dict a structured result; other non-string values are
    JSON-serialized (pydantic models, dataclasses, lists ...). A ``FunctionResult`` answers
    its call with exactly its ``result``, ``is_error`` and ``provider_data`` (an error result
    without raising, logged at INFO). Every call gets a result: an unknown function (the
    available ones are listed), invalid JSON, arguments that fail validation, a raised
    exception, an unserializable value or a list mixing media with other values give
    ``is_error=True`` and a text naming the problem. No call of a message whose
    ``finish_reason`` is ``"length"`` is run (it was cut off, so any call may be truncated):
    each gets such an error result. Failures are logged on the ``llmbridge`` logger: the
    model's mistakes (unknown function, bad arguments) at INFO, a tool's own failures (and
    cut-off calls) at WARNING.
    Result messages are sent ``from_`` the agent's name. Sync functions run in worker threads.

    Raises ``ValueError`` for invalid or duplicate function names (a name given both as a
    Python function and in ``function_map`` is a duplicate) and ``TypeError`` for entries that
    are neither contracts nor callables.
    """

    def __init__(
        self,
        functions: Sequence[FunctionContract | Callable[..., Any]] | None = None,
        function_map: Mapping[str, RawFunction] | None = None,
        *,
        name: str | None = None,
    ) -> None:
        contracts, python_functions = _describe(functions)
        self.name = name if name is not None else _DEFAULT_NAME
        self.functions: tuple[FunctionContract, ...] = contracts
        self._runners = _runners(python_functions, function_map)

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        """Run an incoming tool call, or call the agent with the functions and run its calls."""
        incoming = self._incoming_calls(context)
        if incoming is not None:
            return await self._results(incoming, agent.name)
        reply = await agent.generate_reply(context.messages, self._options(context.options))
        if isinstance(reply, ToolCallMessage) and self._runners is not None:
            return await self._aggregate(reply, agent.name)
        return reply

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        """Stream the reply; the final ``ToolCallMessage`` is run and replaced by its aggregate."""
        incoming = self._incoming_calls(context)
        if incoming is not None:
            yield await self._results(incoming, agent.name)
            return
        held: ToolCallMessage | None = None
        options = self._options(context.options)
        async for message in agent.generate_streaming_reply(context.messages, options):
            if held is not None:
                # Something followed it, so it was not the stream's final message.
                yield held
                held = None
            if isinstance(message, ToolCallMessage) and self._runners is not None:
                held = message
            else:
                yield message
        if held is not None:
            yield await self._aggregate(held, agent.name)

    def _incoming_calls(self, context: MiddlewareContext) -> ToolCallMessage | None:
        last = context.messages[-1] if context.messages else None
        if isinstance(last, ToolCallMessage) and self._runners is not None:
            return last
        return None

    def _options(self, options: GenerateReplyOptions | None) -> GenerateReplyOptions | None:
        if not self.functions:
            return options
        given = options.functions if options is not None and options.functions else ()
        merged = tuple(_first_of_each_name((*self.functions, *given)))
        if options is None:
            return GenerateReplyOptions(functions=merged)
        return dataclasses.replace(options, functions=merged)

    async def _aggregate(self, reply: ToolCallMessage, agent_name: str) -> Message:
        results = await self._results(reply, agent_name)
        return ToolCallAggregateMessage(reply, results, from_=agent_name)

    async def _results(self, message: ToolCallMessage, agent_name: str) -> ToolCallResultMessage:
        if message.finish_reason == "length":
            cut_off = [_failed(call, _CUT_OFF) for call in message.tool_calls]
            return ToolCallResultMessage(cut_off, from_=agent_name)
        # gather keeps the order of the calls whatever order they finish in.
        answered = await asyncio.gather(*(self._answer(call) for call in message.tool_calls))
        return ToolCallResultMessage(answered, from_=agent_name)

    async def _answer(self, call: ToolCall) -> ToolCall:
        """Run one call; never raises (but lets cancellation through)."""
        runners = self._runners or {}
        name = call.function_name
        runner = runners.get(name)
        args: Sequence[Any]
        kwargs: Mapping[str, Any] = {}
        match runner:
            case None:
                available = ", ".join(runners) or "none"
                text = f"Function {name!r} is not available. Available functions: {available}."
                return _failed(call, text, level=logging.INFO)
            case PythonFunction():
                try:
                    args, kwargs = runner.bind(call.function_arguments)
                except ArgumentsError as exc:
                    return _failed(call, str(exc), level=logging.INFO)
            case _RawFunction():
                args = (call.function_arguments,)
        try:
            value = await _call(runner.fn, args, kwargs)
        except Exception as exc:  # a tool's failure becomes its result, for the model to see
            return _failed(call, f"Function {name!r} raised {type(exc).__name__}: {exc}", exc)
        if isinstance(value, FunctionResult):
            return _reported(call, value)
        try:
            return dataclasses.replace(call, result=_as_result(value), is_error=False)
        except pydantic_core.PydanticSerializationError as exc:
            return _failed(call, f"The result of function {name!r} is not serializable: {exc}.")
        except (TypeError, InvalidMessageError) as exc:  # a list mixing media, a NaN in a dict
            return _failed(call, f"The result of function {name!r} cannot be sent: {exc}.")

    def __repr__(self) -> str:
        names = [contract.name for contract in self.functions]
        runnable = None if self._runners is None else list(self._runners)
        return (
            f"FunctionCallMiddleware(functions={names}, function_map={runnable}, "
            f"name={self.name!r})"
        )


def _as_result(value: Any) -> ToolResult:
    """A function's return value as a result: text, parts (media), a structured result, or
    JSON text.

    An ``ImageMessage``, ``DocumentMessage``, ``AudioMessage`` or ``VideoMessage``, or a list
    (or tuple) holding at least one of them, becomes a parts result (strings in the list
    become text parts). A dict (any mapping) becomes a structured result, its values made
    JSON-compatible as JSON text would hold them (a date as its ISO text, a key as text).
    Raises ``TypeError`` for such a list with other items and ``PydanticSerializationError``
    for a value JSON cannot hold.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        structured: dict[str, Any] = pydantic_core.to_jsonable_python(dict(value))
        return structured
    if isinstance(value, _MEDIA):
        return (value,)
    if isinstance(value, list | tuple) and any(isinstance(item, _MEDIA) for item in value):
        return tuple(_result_part(item, position) for position, item in enumerate(value))
    return pydantic_core.to_json(value).decode()


def _result_part(item: object, position: int) -> ToolResultPart:
    if isinstance(item, str):
        return TextMessage(Role.TOOL, item)
    if isinstance(item, TextMessage | ImageMessage | DocumentMessage | AudioMessage | VideoMessage):
        return item
    raise TypeError(
        f"item {position} of the returned list is a {type(item).__name__}; a list with images, "
        "documents, audio or video may hold only them and strings"
    )


def _reported(call: ToolCall, reported: FunctionResult) -> ToolCall:
    """``call`` answered with the function's own ``FunctionResult``: an error it reports is
    the function's answer, not a failure, so it is logged at INFO."""
    if reported.is_error:
        who = call.tool_call_id or call.function_name
        _LOGGER.info("tool call %s reported an error: %s", who, describe_result(reported.result))
    return reported.answer(call)


async def _call(fn: Callable[..., Any], args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
    if inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - an object with an async __call__
    ):
        return await fn(*args, **kwargs)
    # Sync tools run in a worker thread: they block neither the event loop nor each other.
    value = await asyncio.to_thread(fn, *args, **kwargs)
    # A sync callable may still hand back an awaitable (a lambda around a coroutine function).
    return await value if inspect.isawaitable(value) else value


def _failed(
    call: ToolCall, text: str, exc: BaseException | None = None, *, level: int = logging.WARNING
) -> ToolCall:
    who = call.tool_call_id or call.function_name
    _LOGGER.log(level, "tool call %s failed: %s", who, text, exc_info=exc)
    return dataclasses.replace(call, result=text, is_error=True)


def _describe(
    functions: Sequence[FunctionContract | Callable[..., Any]] | None,
) -> tuple[tuple[FunctionContract, ...], list[PythonFunction]]:
    if functions is None:
        return (), []
    if isinstance(functions, FunctionContract) or callable(functions):
        raise TypeError("functions must be a sequence of contracts or functions; wrap it in a list")
    contracts: list[FunctionContract] = []
    python_functions: list[PythonFunction] = []
    for item in functions:
        match item:
            case FunctionContract():
                contracts.append(item)
            case _ if callable(item):
                described = PythonFunction.of(item)
                python_functions.append(described)
                contracts.append(described.contract)
            case _:
                raise TypeError(
                    f"functions holds {item!r}: expected a FunctionContract or a callable"
                )
    _reject_duplicates(contract.name for contract in contracts)
    return tuple(contracts), python_functions


def _runners(
    python_functions: Sequence[PythonFunction], function_map: Mapping[str, RawFunction] | None
) -> dict[str, _Runner] | None:
    if function_map is None and not python_functions:
        return None
    runners: dict[str, _Runner] = {fn.contract.name: fn for fn in python_functions}
    for name, fn in (function_map or {}).items():
        validate_function_name(name)
        if not callable(fn):
            raise TypeError(f"function_map[{name!r}] is {fn!r}, not a callable")
        if name in runners:
            raise ValueError(
                f"function {name!r} is given both as a Python function and in function_map; "
                "give it once"
            )
        runners[name] = _RawFunction(fn)
    return runners


def _reject_duplicates(names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"two functions are named {name!r}; function names must be unique")
        seen.add(name)


def _first_of_each_name(contracts: Iterable[FunctionContract]) -> Iterable[FunctionContract]:
    seen: set[str] = set()
    for contract in contracts:
        if contract.name not in seen:
            seen.add(contract.name)
            yield contract
