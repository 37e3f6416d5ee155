"""``GeminiChatAgent``: an agent that speaks google-genai's own content types.

This is the one module of the package that calls the SDK client. It takes envelopes of
content dicts (and of ``{"role": "system", "parts": [...]}``), builds the ``generate_content``
arguments from its settings and the reply options (always with the SDK's automatic function
calling and automatic continuation off), and maps SDK errors to the llmbridge tree.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Final, NoReturn

from google import genai
from google.genai import types

from llmbridge import (
    FunctionContract,
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
)
from llmbridge.gemini._errors import PROVIDER, VERTEX_PROVIDER, map_error
from llmbridge.gemini._output import output_settings
from llmbridge.gemini._tools import function_tool, tool_config
from llmbridge.kit import (
    AgentMethods,
    check_reserved,
    checked_tool_choice,
    combine_functions,
    raise_mapped,
    reply_settings,
    split_system_envelopes,
)

__all__ = ["GeminiChatAgent"]

_TURN_ROLES: Final = frozenset({"user", "model"})
# Set by the agent itself: from its constructor and options, the conversation, and the two
# SDK features it keeps off (the SDK must never run a function or send a request by itself).
_RESERVED: Final = frozenset(
    {
        "model",
        "contents",
        "config",
        "system_instruction",
        "automatic_function_calling",
        "automatic_continuation",
    }
)
_NO_AUTOMATIC_CALLS: Final = types.AutomaticFunctionCallingConfig(disable=True)


def _check_response_schema(settings: dict[str, Any]) -> None:
    """Raise ``ValueError`` for a response schema Gemini refuses (an HTTP 400 otherwise)."""
    schemas = [key for key in ("response_schema", "response_json_schema") if settings.get(key)]
    if len(schemas) == 2:
        raise ValueError("response_schema and response_json_schema cannot be used together")
    if schemas and not settings.get("response_mime_type"):
        raise ValueError(f"{schemas[0]} needs response_mime_type (e.g. 'application/json')")


class GeminiChatAgent(AgentMethods):
    """An agent backed by ``google.genai.Client().aio.models.generate_content()``.

    Accepts only ``MessageEnvelope``s of content dicts (``{"role": "user" | "model", "parts":
    [...]}``) and of ``{"role": "system", "parts": [...]}`` (its text parts go into the
    ``system_instruction``, after ``system_message``); register a connector
    (``.register_message_connector()``) to speak neutral messages. Returns
    ``MessageEnvelope[GenerateContentResponse]``; streams them (one per chunk). Every request's
    ``GenerateContentConfig`` disables automatic function calling and automatic continuation.
    Options: ``max_tokens`` -> ``max_output_tokens``, ``stop_sequences``, ``temperature``,
    ``functions`` -> one ``Tool`` of ``function_declarations`` with ``parameters_json_schema``
    (constructor first, first of a name wins; after any ``tools`` given in the settings),
    ``tool_choice`` -> ``tool_config`` (auto AUTO, none NONE, required ANY, a name ANY with
    ``allowed_function_names``), ``output_schema`` -> ``response_mime_type`` JSON and
    ``response_json_schema``; ``**config_kwargs`` and ``options.extra`` are
    ``GenerateContentConfig`` fields (per-call values win). ``provider`` is ``"vertex"`` for a
    Vertex AI client, else ``"gemini"``. Raises ``TypeError`` at construction for an object
    that is not a ``google.genai.Client``, ``ValueError`` for a reserved setting (``model``,
    ``contents``, ``config``, ``system_instruction``, ``automatic_function_calling``,
    ``automatic_continuation``), a ``tool_choice`` naming no offered function, a function
    name Gemini refuses, or both response schemas (or one without ``response_mime_type``),
    ``UnsupportedMessageError`` for other inputs, ``InvalidMessageError`` when no content is
    left, and ``ProviderAPIError`` subclasses for SDK errors (``StreamInterruptedError`` once
    a stream has started).
    """

    def __init__(
        self,
        client: genai.Client,
        *,
        name: str,
        model: str,
        system_message: str | None = None,
        max_output_tokens: int | None = None,
        temperature: float | None = None,
        functions: Sequence[FunctionContract] | None = None,
        **config_kwargs: Any,
    ) -> None:
        if not isinstance(getattr(client, "aio", None), genai.client.AsyncClient):
            raise TypeError(
                f"GeminiChatAgent needs a google.genai.Client, got {type(client).__name__} "
                "(it calls client.aio, the async side of the client)"
            )
        check_reserved(config_kwargs, _RESERVED, "GeminiChatAgent")
        self.client = client
        self.name = name
        self.model = model
        self.system_message = system_message
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature
        self.functions: tuple[FunctionContract, ...] = tuple(functions or ())
        self.config_kwargs: dict[str, Any] = dict(config_kwargs)
        self.provider: str = VERTEX_PROVIDER if client.vertexai else PROVIDER

    def __repr__(self) -> str:
        return f"GeminiChatAgent(name={self.name!r}, model={self.model!r})"

    def _split_messages(self, messages: Sequence[Message]) -> tuple[list[Any], list[Any]]:
        system: list[Any] = [{"text": self.system_message}] if self.system_message else []
        lifted, contents = split_system_envelopes(
            messages,
            turn_roles=_TURN_ROLES,
            system_parts=lambda payload: payload.get("parts") or (),
            agent="GeminiChatAgent",
            takes="Gemini content dicts",
            empty="no user or model content to send",
        )
        return [*system, *lifted], contents

    def request_arguments(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> dict[str, Any]:
        """The keyword arguments this agent passes to ``generate_content`` (``model``,
        ``contents``, ``config``).

        Raises ``ValueError`` before anything is sent for a reserved setting in
        ``options.extra``, for a ``tool_choice`` naming no offered function (or
        ``"required"`` with none offered; ``"auto"`` and ``"none"`` without functions are left
        out), for ``options.output_schema`` beside a response schema setting or a MIME type
        other than JSON; pydantic's ``ValidationError`` (a ``ValueError``) for a setting that
        is no ``GenerateContentConfig`` field. ``output_schema`` becomes
        ``response_mime_type="application/json"`` and ``response_json_schema``.
        """
        options = options or GenerateReplyOptions()
        system, contents = self._split_messages(messages)
        settings = reply_settings(
            self.config_kwargs,
            options,
            reserved=_RESERVED,
            agent="GeminiChatAgent",
            temperature=self.temperature,
        )
        max_tokens = options.max_tokens
        if max_tokens is None:
            max_tokens = self.max_output_tokens
        if max_tokens is not None:
            settings["max_output_tokens"] = max_tokens
        functions = combine_functions(self.functions, options.functions)
        if functions:
            settings["tools"] = [*(settings.get("tools") or ()), function_tool(functions)]
        tool_choice = checked_tool_choice(options.tool_choice, [f.name for f in functions])
        if tool_choice is not None:
            settings["tool_config"] = tool_config(tool_choice)
        if options.output_schema is not None:
            settings.update(output_settings(options.output_schema, settings))
        if system:
            settings["system_instruction"] = {"parts": system}
        _check_response_schema(settings)
        config = types.GenerateContentConfig(
            **settings,
            automatic_function_calling=_NO_AUTOMATIC_CALLS,
            automatic_continuation=False,
        )
        return {"model": self.model, "contents": contents, "config": config}

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> MessageEnvelope[types.GenerateContentResponse]:
        """Send the request and return the SDK response in an envelope from this agent."""
        arguments = self.request_arguments(messages, options)
        try:
            reply = await self.client.aio.models.generate_content(**arguments)
        except Exception as exc:  # mapped, or raised as it is: see _raise
            self._raise(exc)
        return MessageEnvelope(reply, self.name)

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[MessageEnvelope[types.GenerateContentResponse]]:
        """Stream the SDK's chunks, each in an envelope from this agent.

        A failure before the first chunk raises as ``generate_reply`` does (an error chunk in
        an accepted stream is ``StreamInterruptedError``); after it, an error chunk or a dropped
        connection raises ``StreamInterruptedError`` (its ``partial`` is ``None`` here; the
        connector fills it in).
        """
        arguments = self.request_arguments(messages, options)
        try:
            stream = await self.client.aio.models.generate_content_stream(**arguments)
        except Exception as exc:
            self._raise(exc)
        started = False
        try:
            while True:
                # Only the SDK's own iteration is guarded: errors thrown in at `yield` pass by.
                try:
                    chunk = await stream.__anext__()
                except StopAsyncIteration:
                    return
                except Exception as exc:
                    self._raise(exc, accepted_stream=started)
                started = True
                yield MessageEnvelope(chunk, self.name)
        finally:
            close = getattr(stream, "aclose", None)
            if close is not None:
                await close()

    def _raise(self, exc: Exception, *, accepted_stream: bool = False) -> NoReturn:
        """Raise ``map_error``'s error for an SDK or transport failure, else ``exc`` itself."""
        secrets = (getattr(self.client._api_client, "api_key", None),)
        mapped = map_error(
            exc, provider=self.provider, secrets=secrets, accepted_stream=accepted_stream
        )
        raise_mapped(exc, mapped)
