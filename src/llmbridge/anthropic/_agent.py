"""``AnthropicChatAgent``: an agent that speaks Anthropic's own message types .

This is the one module of the package that calls the SDK client. It takes envelopes of
``MessageParam`` (and of ``{"role": "system"}``), builds the ``messages.create()`` arguments
from its settings and the reply options, and maps SDK errors to the llmbridge tree.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, NoReturn

import anthropic
import httpx2
from anthropic.resources.messages import AsyncMessages
from anthropic.types import Message as AnthropicMessage
from anthropic.types import RawMessageStreamEvent

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    register_default_connector,
)
from llmbridge.anthropic._connector import AnthropicMessageConnector
from llmbridge.anthropic._errors import PROVIDER, map_error
from llmbridge.anthropic._files import FILES_API_BETA, uses_files, with_beta
from llmbridge.anthropic._output import output_format
from llmbridge.anthropic._tools import tool_choice_param, tool_param
from llmbridge.kit import (
    AgentMethods,
    NoteLog,
    check_async_client,
    check_reserved,
    checked_tool_choice,
    combine_functions,
    create_keywords,
    layer_create_settings,
    raise_mapped,
    reply_settings,
    split_system_envelopes,
)

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic

    from llmbridge.kit import OutputSchema

__all__ = ["AnthropicChatAgent"]

TOO_DEEP: Final = "the reply is nested too deeply for the SDK to parse it as JSON"

# Read once: which settings the installed SDK's create() takes as keywords. The rest (in
# anthropic 2.x: temperature, top_p, top_k) must travel in the request body.
_CREATE_KEYWORDS: Final = create_keywords(AsyncMessages.create)
_TURN_ROLES: Final = frozenset({"user", "assistant"})
# Set by the agent itself: from its constructor and options, the conversation, the calling path.
_RESERVED: Final = frozenset({"model", "messages", "stream", "max_tokens"})
# tool_choice types that force a tool call, which Anthropic refuses while thinking is on.
_FORCING: Final = frozenset({"any", "tool"})


def _check_thinking(settings: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` for a forced tool choice with thinking on (an HTTP 400 otherwise)."""
    thinking = settings.get("thinking")
    choice = settings.get("tool_choice")
    thinking_on = isinstance(thinking, Mapping) and thinking.get("type") != "disabled"
    if thinking_on and isinstance(choice, Mapping) and choice.get("type") in _FORCING:
        raise ValueError(
            f"tool_choice {choice.get('type')!r} forces tool use, which Anthropic refuses while "
            "thinking is enabled; use tool_choice 'auto' or turn thinking off"
        )


def _text_blocks(content: Any) -> list[Any]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or ())


class AnthropicChatAgent(AgentMethods):
    """An agent backed by ``anthropic.AsyncAnthropic().messages.create()``.

    Accepts only ``MessageEnvelope``s of ``MessageParam`` dicts and of ``{"role": "system",
    ...}`` (lifted to the top-level ``system``, after ``system_message``); register a
    connector (``.register_message_connector()``) to speak neutral messages. Returns
    ``MessageEnvelope[anthropic.types.Message]``; streams
    ``MessageEnvelope[RawMessageStreamEvent]``. Options: ``max_tokens`` (default 4096),
    ``functions`` -> ``tools`` (constructor first, first of a name wins), ``tool_choice``
    (``"required"`` -> any, a name -> that tool), ``stop_sequences``, ``temperature``,
    ``output_schema`` -> ``output_config.format``;
    ``options.extra`` and ``**create_kwargs``: keys ``create()`` takes are keywords, the others
    go into ``extra_body``; ``model``, ``messages``, ``stream`` and ``max_tokens`` are the
    agent's own (``ValueError``). A request with a Files API ``file`` source gets the
    ``anthropic-beta: files-api-2025-04-14`` header. Raises ``TypeError`` at construction for a
    sync client (``anthropic.Anthropic``, ``anthropic.AnthropicBedrock`` ...),
    ``UnsupportedMessageError`` for other inputs,
    ``InvalidMessageError`` when no message is left, ``ValueError`` for a ``tool_choice`` naming
    no offered function or forcing tool use while thinking is enabled, and ``ProviderAPIError``
    subclasses for SDK errors (``StreamInterruptedError`` once a stream has started).
    """

    provider: ClassVar[str] = PROVIDER
    """The provider tag of the wire API this agent calls."""

    def __init__(
        self,
        client: AsyncAnthropic,
        *,
        name: str,
        model: str,
        system_message: str | None = None,
        max_tokens: int = 4096,
        temperature: float | None = None,
        functions: Sequence[FunctionContract] | None = None,
        **create_kwargs: Any,
    ) -> None:
        check_async_client(
            client,
            (
                anthropic.Anthropic,
                anthropic.AnthropicBedrock,
                anthropic.AnthropicVertex,
                anthropic.AnthropicFoundry,
            ),
            anthropic,
            agent="AnthropicChatAgent",
            use="anthropic.AsyncAnthropic, or a cloud's async class such as "
            "anthropic.AsyncAnthropicBedrock",
        )
        self.client = client
        self.name = name
        self.model = model
        self.system_message = system_message
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.functions: tuple[FunctionContract, ...] = tuple(functions or ())
        check_reserved(create_kwargs, _RESERVED, "AnthropicChatAgent")
        self.create_kwargs: dict[str, Any] = dict(create_kwargs)
        # Each note of an output_schema transform is logged once per agent.
        self._schema_log = NoteLog(source=f"AnthropicChatAgent {name!r}")

    def __repr__(self) -> str:
        return f"AnthropicChatAgent(name={self.name!r}, model={self.model!r})"

    def _split_messages(self, messages: Sequence[Message]) -> tuple[list[Any], list[Any]]:
        system = [{"type": "text", "text": self.system_message}] if self.system_message else []
        lifted, turns = split_system_envelopes(
            messages,
            turn_roles=_TURN_ROLES,
            system_parts=lambda payload: _text_blocks(payload.get("content")),
            agent="AnthropicChatAgent",
            takes="Anthropic MessageParam dicts",
            empty="no user or assistant message to send",
        )
        return [*system, *lifted], turns

    def create_arguments(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> dict[str, Any]:
        """The keyword arguments this agent passes to ``messages.create()`` (no ``stream``).

        Raises ``ValueError`` before anything is sent for a ``tool_choice`` naming no offered
        function (or ``"required"`` with none offered; ``"auto"`` and ``"none"`` without
        functions are left out), for a forced tool choice while thinking is enabled, and for
        ``options.output_schema`` beside an ``output_config`` format setting or a schema
        ``anthropic.transform_schema`` cannot take. ``output_schema`` becomes
        ``output_config.format`` (other ``output_config`` keys kept); the
        transform's notes go to the ``llmbridge`` logger, each once per agent. A request holding
        an image or document by Files API id (a ``file`` source, tool results included) gets
        the ``anthropic-beta: files-api-2025-04-14`` header, beside any betas asked for in
        ``extra_headers``.
        """
        options = options or GenerateReplyOptions()
        system, turns = self._split_messages(messages)
        settings = reply_settings(
            self.create_kwargs,
            options,
            reserved=_RESERVED,
            agent="AnthropicChatAgent",
            temperature=self.temperature,
        )
        functions = combine_functions(self.functions, options.functions)
        if functions:
            settings["tools"] = [tool_param(contract) for contract in functions]
        tool_choice = checked_tool_choice(options.tool_choice, [f.name for f in functions])
        if tool_choice is not None:
            settings["tool_choice"] = tool_choice_param(tool_choice)
        _check_thinking(settings)
        if options.output_schema is not None:
            settings["output_config"] = self._output_config(settings, options.output_schema)
        if system:
            settings["system"] = system
        settings["model"] = self.model
        settings["max_tokens"] = (
            options.max_tokens if options.max_tokens is not None else self.max_tokens
        )
        settings["messages"] = turns
        arguments: dict[str, Any] = {}
        layer_create_settings(arguments, settings, _CREATE_KEYWORDS)
        if uses_files(turns):
            with_beta(arguments, FILES_API_BETA)
        return arguments

    def _output_config(self, settings: Mapping[str, Any], schema: OutputSchema) -> dict[str, Any]:
        config = settings.get("output_config") or {}
        if not isinstance(config, Mapping) or config.get("format") is not None:
            raise ValueError(
                "output_schema and an output_config format setting both ask for a reply "
                "format; pass only one"
            )
        format_, notes = output_format(schema)
        self._schema_log.log(notes, ())
        # Other output settings (effort) stay beside the format.
        return {**config, "format": format_}

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> MessageEnvelope[AnthropicMessage]:
        """Send the request and return the SDK ``Message`` in an envelope from this agent."""
        arguments = self.create_arguments(messages, options)
        try:
            reply = await self.client.messages.create(**arguments)
        except anthropic.APIError as exc:
            self._raise(exc)
        except RecursionError:
            # The SDK's JSON parser gives up on a body nested thousands of levels deep.
            raise ProviderResponseError(TOO_DEEP) from None
        return MessageEnvelope(reply, self.name)

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[MessageEnvelope[RawMessageStreamEvent]]:
        """Stream the SDK events, each in an envelope from this agent.

        A failure before the first event raises as ``generate_reply`` does; after it, an SSE
        ``error`` event, a dropped connection or malformed event data raises
        ``StreamInterruptedError`` (its ``partial`` is ``None`` here; the connector fills it in).
        """
        arguments = self.create_arguments(messages, options)
        try:
            stream = await self.client.messages.create(**arguments, stream=True)
        except anthropic.APIError as exc:
            self._raise(exc)
        events = stream.__aiter__()
        try:
            while True:
                # Only the SDK's own iteration is guarded: errors thrown in at `yield` pass by.
                try:
                    event = await events.__anext__()
                except StopAsyncIteration:
                    return
                except (
                    anthropic.APIError,
                    httpx2.TransportError,
                    ValueError,
                    RecursionError,
                ) as exc:
                    # ValueError, RecursionError: event data that is not JSON, or nested too
                    # deeply to parse (the SDK lets json.loads raise).
                    self._raise(exc, accepted_stream=True)
                yield MessageEnvelope(event, self.name)
        finally:
            await stream.close()

    def _raise(self, exc: Exception, *, accepted_stream: bool = False) -> NoReturn:
        raise_mapped(
            exc, map_error(exc, secrets=(self.client.api_key,), accepted_stream=accepted_stream)
        )


register_default_connector(AnthropicChatAgent, AnthropicMessageConnector)
