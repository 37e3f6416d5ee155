"""``OpenAIChatAgent``: the provider agent that speaks OpenAI Chat Completions types.

The only module of ``llmbridge.openai`` that calls the SDK client. It takes envelopes of
``ChatCompletionMessageParam`` dicts, maps reply options to ``create()`` arguments and SDK
exceptions to ``ProviderAPIError`` subclasses. Neutral messages need the connector in front.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

import openai
from openai.resources.chat.completions import AsyncCompletions
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    Message,
    register_default_connector,
)
from llmbridge.kit import checked_tool_choice, create_keywords
from llmbridge.openai._calls import layer_settings, set_if
from llmbridge.openai._connector import OpenAIChatRequestMessageConnector
from llmbridge.openai._errors import PROVIDER
from llmbridge.openai._output import response_format
from llmbridge.openai._shell import OpenAIAgentShell
from llmbridge.openai._tools import openai_tool_choice, openai_tools

__all__ = ["OpenAIChatAgent"]

# Read once at import: the keywords this SDK's create() takes; other settings go in the body.
_CREATE_KEYWORDS: Final = create_keywords(AsyncCompletions.create)
MAX_STOP_SEQUENCES: Final = 4
"""Chat Completions takes at most four ``stop`` sequences."""
# Set by the agent itself: from its constructor, the conversation and the calling path.
_RESERVED: Final = frozenset({"model", "messages", "stream"})
_SYSTEM_ROLES: Final = frozenset({"system", "developer"})
_BOTH_FORMATS: Final = (
    "output_schema and a response_format setting both ask for a reply format; pass only one"
)


def _layer(arguments: dict[str, Any], settings: Mapping[str, Any] | None) -> None:
    layer_settings(
        arguments, settings, reserved=_RESERVED, keywords=_CREATE_KEYWORDS, agent="OpenAIChatAgent"
    )


class OpenAIChatAgent(OpenAIAgentShell[ChatCompletion, ChatCompletionChunk]):
    """An agent that answers through OpenAI Chat Completions, in the SDK's own types.

    Takes only ``MessageEnvelope``s of ``ChatCompletionMessageParam`` dicts (register a
    connector to speak neutral messages); prepends ``system_message`` unless the input has a
    system or developer message. Replies are ``MessageEnvelope[ChatCompletion]``; streams are
    ``MessageEnvelope[ChatCompletionChunk]`` with usage requested. Options map to ``create()``:
    ``temperature``, ``max_tokens`` -> ``max_completion_tokens``, ``stop_sequences`` -> ``stop``,
    ``functions`` -> ``tools`` (constructor functions first; the first of a name wins),
    ``tool_choice``, ``output_schema`` -> ``response_format`` (strict JSON schema); ``extra``
    and ``create_kwargs`` keys ``create()`` takes pass as keywords,
    the rest through ``extra_body``. Per-call options win over constructor settings.

    Raises ``TypeError`` at construction for a sync client (``openai.OpenAI``,
    ``openai.AzureOpenAI``), ``UnsupportedMessageError`` for any other input, ``ValueError`` for
    settings (``create_kwargs`` or ``options.extra``) naming ``model``, ``messages`` or
    ``stream``, more than four stop sequences or a ``tool_choice`` naming no offered function,
    and ``ProviderAPIError`` subclasses (SDK error as ``__cause__``) when the API call fails,
    before or during a stream.
    """

    provider: ClassVar[str] = PROVIDER
    """The provider tag of the wire API this agent calls."""
    _label: ClassVar[str] = "OpenAIChatAgent"
    _takes: ClassVar[str] = "ChatCompletionMessageParam"
    _reply_type: ClassVar[type[Any]] = ChatCompletion
    _reply_what: ClassVar[str] = "an OpenAI chat completion"

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        *,
        name: str,
        model: str,
        system_message: str | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        functions: Iterable[FunctionContract] | None = None,
        **create_kwargs: Any,
    ) -> None:
        self._set_up(client, name, model, system_message, functions)
        base: dict[str, Any] = {"model": model}
        _layer(base, create_kwargs)
        set_if(base, "temperature", temperature)
        set_if(base, "max_completion_tokens", max_tokens)
        set_if(base, "seed", seed)
        self._base_arguments = base

    def _payloads(self, messages: Sequence[Message]) -> list[ChatCompletionMessageParam]:
        payloads: list[ChatCompletionMessageParam] = self._dicts(messages)
        has_system = any(payload.get("role") in _SYSTEM_ROLES for payload in payloads)
        if self.system_message is not None and not has_system:
            payloads.insert(0, {"role": "system", "content": self.system_message})
        return payloads

    def create_arguments(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> dict[str, Any]:
        """Return the keyword arguments of the ``create()`` call for ``messages`` and ``options``.

        Raises ``UnsupportedMessageError`` for input that is not an envelope of a request dict,
        and ``ValueError`` before anything is sent for more than four stop sequences and for a
        ``tool_choice`` naming no offered function (or ``"required"`` with none offered),
        and for ``options.output_schema`` together with a ``response_format`` setting;
        ``"auto"`` and ``"none"`` without functions are left out. ``output_schema`` becomes a
        strict ``json_schema`` ``response_format``; the transform's ``"repaired"``
        notes go to the ``llmbridge`` logger, each once per agent.
        """
        arguments = dict(self._base_arguments)
        arguments["messages"] = self._payloads(messages)
        per_call = options.functions if options is not None else None
        tools = openai_tools(self.functions, per_call)
        if tools:
            arguments["tools"] = tools
        if options is None:
            return arguments
        _layer(arguments, options.extra)
        set_if(arguments, "temperature", options.temperature)
        set_if(arguments, "max_completion_tokens", options.max_tokens)
        if options.stop_sequences is not None:
            stop = list(options.stop_sequences)
            if len(stop) > MAX_STOP_SEQUENCES:
                raise ValueError(
                    f"OpenAI takes at most {MAX_STOP_SEQUENCES} stop sequences, got {len(stop)}"
                )
            arguments["stop"] = stop
        names = [tool["function"]["name"] for tool in tools]
        tool_choice = checked_tool_choice(options.tool_choice, names)
        if tool_choice is not None:
            arguments["tool_choice"] = openai_tool_choice(tool_choice)
        if options.output_schema is not None:
            if "response_format" in arguments:
                raise ValueError(_BOTH_FORMATS)
            arguments["response_format"], notes = response_format(options.output_schema)
            self._schema_log.log(notes, ())
        return arguments

    def _create(self, arguments: dict[str, Any]) -> Awaitable[object]:
        return self.client.chat.completions.create(**arguments)

    def _stream_arguments(self, arguments: dict[str, Any]) -> None:
        requested = arguments.get("stream_options") or {}
        arguments["stream_options"] = {**requested, "include_usage": True}


register_default_connector(OpenAIChatAgent, OpenAIChatRequestMessageConnector)
