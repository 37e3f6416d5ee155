"""``OpenAIResponsesAgent``: the provider agent that speaks OpenAI Responses types.

The only module of the Responses wing that calls the SDK client. It takes envelopes of input
item dicts, maps reply options to ``responses.create()`` arguments and SDK exceptions to
``ProviderAPIError`` subclasses. Neutral messages need the connector in front.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

import openai
from openai.resources.responses import AsyncResponses
from openai.types.responses import Response, ResponseInputItemParam, ResponseStreamEvent

from llmbridge import FunctionContract, GenerateReplyOptions, Message
from llmbridge.kit import OutputSchema, checked_tool_choice, create_keywords
from llmbridge.openai._calls import layer_settings, set_if
from llmbridge.openai._output import text_format
from llmbridge.openai._responses._items import PROVIDER
from llmbridge.openai._responses._tools import responses_tool_choice, responses_tools
from llmbridge.openai._shell import OpenAIAgentShell

__all__ = ["ENCRYPTED_REASONING", "OpenAIResponsesAgent"]

ENCRYPTED_REASONING: Final = "reasoning.encrypted_content"
"""The ``include`` value that returns reasoning items a later request can replay."""

# Read once at import: the keywords this SDK's create() takes; other settings go in the body.
_CREATE_KEYWORDS: Final = create_keywords(AsyncResponses.create)
# Set by the agent itself: from its constructor, the conversation and the calling path.
_RESERVED: Final = frozenset({"model", "input", "instructions", "stream"})


def _layer(arguments: dict[str, Any], settings: Mapping[str, Any] | None) -> None:
    layer_settings(
        arguments,
        settings,
        reserved=_RESERVED,
        keywords=_CREATE_KEYWORDS,
        agent="OpenAIResponsesAgent",
    )


def _with_encrypted_reasoning(arguments: dict[str, Any]) -> None:
    """Request ``encrypted_content`` beside whatever ``include`` values were asked for."""
    include = list(arguments.get("include") or ())
    if ENCRYPTED_REASONING not in include:
        include.append(ENCRYPTED_REASONING)
    arguments["include"] = include


class OpenAIResponsesAgent(OpenAIAgentShell[Response, ResponseStreamEvent]):
    """An agent that answers through the OpenAI Responses API, in the SDK's own types.

    Takes only ``MessageEnvelope``s of input item dicts (register a connector to speak neutral
    messages). ``system_message`` is sent as ``instructions``. Stateless by default:
    ``store=False`` and ``include=["reasoning.encrypted_content"]`` (added to any ``include``
    given), so a conversation kept as neutral messages replays its reasoning; with
    ``store=True`` the same items are sent and ``encrypted_content`` is still requested.
    Replies are ``MessageEnvelope[Response]``; streams are
    ``MessageEnvelope[ResponseStreamEvent]``. Options: ``temperature``, ``max_tokens`` ->
    ``max_output_tokens``, ``functions`` -> flat ``tools`` with ``strict: false`` (constructor
    functions first; the first of a name wins), ``tool_choice`` flat; ``extra`` and
    ``create_kwargs`` keys ``create()`` takes pass as keywords, the rest through ``extra_body``.
    Per-call options win over constructor settings.

    Raises ``TypeError`` at construction for a sync client, ``UnsupportedMessageError`` for any
    other input, ``ValueError`` for ``stop_sequences`` (the Responses API has none), for
    settings naming ``model``, ``input``, ``instructions`` or ``stream`` and for a
    ``tool_choice`` naming no offered function, and ``ProviderAPIError`` subclasses (SDK error
    as ``__cause__``) when the API call fails, before or during a stream.
    """

    provider: ClassVar[str] = PROVIDER
    """The provider tag of the wire API this agent calls."""
    _label: ClassVar[str] = "OpenAIResponsesAgent"
    _takes: ClassVar[str] = "ResponseInputItemParam"
    _reply_type: ClassVar[type[Any]] = Response
    _reply_what: ClassVar[str] = "an OpenAI response"

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        *,
        name: str,
        model: str,
        system_message: str | None = None,
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        functions: Iterable[FunctionContract] | None = None,
        store: bool = False,
        **create_kwargs: Any,
    ) -> None:
        self._set_up(client, name, model, system_message, functions)
        self.store = store
        base: dict[str, Any] = {"model": model, "store": store}
        _layer(base, create_kwargs)
        _with_encrypted_reasoning(base)
        set_if(base, "instructions", system_message)
        set_if(base, "temperature", temperature)
        set_if(base, "max_output_tokens", max_output_tokens)
        self._base_arguments = base

    def _items(self, messages: Sequence[Message]) -> list[ResponseInputItemParam]:
        items: list[ResponseInputItemParam] = self._dicts(messages)
        return items

    def create_arguments(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> dict[str, Any]:
        """Return the keyword arguments of the ``responses.create()`` call.

        Raises ``UnsupportedMessageError`` for input that is not an envelope of an item dict,
        and ``ValueError`` before anything is sent for ``stop_sequences``, for a
        ``tool_choice`` naming no offered function (or ``"required"`` with none offered) and
        for ``options.output_schema`` beside a ``text`` format setting; ``"auto"`` and
        ``"none"`` without functions are left out. ``output_schema`` becomes the flat strict
        ``text.format`` (``{"type": "json_schema", "name", "schema", "strict": true}``); the
        transform's ``"repaired"`` notes go to the ``llmbridge`` logger, each once per agent.
        """
        arguments = dict(self._base_arguments)
        arguments["input"] = self._items(messages)
        per_call = options.functions if options is not None else None
        tools = responses_tools(self.functions, per_call)
        if tools:
            arguments["tools"] = tools
        if options is None:
            return arguments
        if options.stop_sequences is not None:
            raise ValueError(
                "the OpenAI Responses API has no stop sequences; drop stop_sequences (or use "
                "OpenAIChatAgent, whose Chat Completions API takes them)"
            )
        _layer(arguments, options.extra)
        if options.extra and "include" in options.extra:
            _with_encrypted_reasoning(arguments)
        set_if(arguments, "temperature", options.temperature)
        set_if(arguments, "max_output_tokens", options.max_tokens)
        tool_choice = checked_tool_choice(options.tool_choice, [tool["name"] for tool in tools])
        if tool_choice is not None:
            arguments["tool_choice"] = responses_tool_choice(tool_choice)
        if options.output_schema is not None:
            arguments["text"] = self._text(arguments.get("text"), options.output_schema)
        return arguments

    def _text(self, text: object, schema: OutputSchema) -> dict[str, Any]:
        """The ``text`` argument with ``schema`` as its format (other keys, verbosity, kept)."""
        if text is not None and (not isinstance(text, Mapping) or "format" in text):
            raise ValueError(
                "output_schema and a text format setting both ask for a reply format; pass only one"
            )
        format_, notes = text_format(schema)
        self._schema_log.log(notes, ())
        return {**(text or {}), "format": format_}

    def _create(self, arguments: dict[str, Any]) -> Awaitable[object]:
        return self.client.responses.create(**arguments)
