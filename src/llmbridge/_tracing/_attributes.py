"""The GenAI semantic conventions as llmbridge records them: names, the provider table, and
the attributes of a request, a reply and an error.

Every attribute and metric name comes from ``opentelemetry-semantic-conventions`` (the GenAI
conventions of its ``_incubating`` modules, the stable ``error``, ``http`` and ``server`` ones);
only the tool-call event and the cancellation error type, which the conventions do not define,
are llmbridge's own. Values are read from neutral messages (``Usage``, ``finish_reason``,
``tool_calls``, ``ProviderAPIError``) and, for the response model and id, from the reply's
``raw`` object by attribute name: nothing here knows one provider's types.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as genai
from opentelemetry.semconv._incubating.attributes.openai_attributes import (
    OPENAI_API_TYPE,
    OpenaiApiTypeValues,
)
from opentelemetry.semconv.attributes.error_attributes import ERROR_TYPE
from opentelemetry.semconv.attributes.http_attributes import HTTP_RESPONSE_STATUS_CODE

from llmbridge._errors import LLMBridgeError, ProviderAPIError, ProviderResponseError
from llmbridge._messages import TextMessage, ToolCallAggregateMessage, ToolCallMessage, Usage

if TYPE_CHECKING:
    from llmbridge._agents._protocols import GenerateReplyOptions
    from llmbridge._messages import Message, ToolCall

__all__ = [
    "CANCELLED",
    "OPERATION",
    "PROVIDER_NAMES",
    "STOPPED",
    "TOOL_CALL_EVENT",
    "Attributes",
    "RequestDefaults",
    "error_attributes",
    "error_description",
    "error_type",
    "options_attributes",
    "provider_attributes",
    "reply_attributes",
    "reply_message",
    "tool_call_attributes",
    "usage_attributes",
]

Attributes: TypeAlias = dict[str, Any]

OPERATION: Final = genai.GenAiOperationNameValues.CHAT.value
"""``gen_ai.operation.name`` of every span: llmbridge connects chat APIs."""

_PROVIDER = genai.GenAiProviderNameValues
PROVIDER_NAMES: Final[Mapping[str, str]] = {
    "openai": _PROVIDER.OPENAI.value,
    "openai-responses": _PROVIDER.OPENAI.value,
    "anthropic": _PROVIDER.ANTHROPIC.value,
    "gemini": _PROVIDER.GCP_GEMINI.value,
    "vertex": _PROVIDER.GCP_VERTEX_AI.value,
}
"""Provider tag -> ``gen_ai.provider.name``; a tag not listed is recorded as it is."""

_PROVIDER_EXTRAS: Final[Mapping[str, Mapping[str, str]]] = {
    "openai": {OPENAI_API_TYPE: OpenaiApiTypeValues.CHAT_COMPLETIONS.value},
    "openai-responses": {OPENAI_API_TYPE: OpenaiApiTypeValues.RESPONSES.value},
}
"""Provider tag -> the provider-specific attributes the conventions define for it."""

TOOL_CALL_EVENT: Final = "llmbridge.tool_call"
"""The span event recorded per tool call of a reply (the conventions define none)."""

CANCELLED: Final = "cancelled"
"""``error.type`` of a call the consumer stopped (``aclose``) or cancelled before its end."""
STOPPED: Final = (GeneratorExit, asyncio.CancelledError)
"""What a call ends with when its consumer closes the stream or its task is cancelled."""

# GenerateReplyOptions field -> attribute; the innermost agent's attribute of the same name is
# the default (AnthropicChatAgent keeps max_tokens and temperature; OpenAIChatAgent neither).
_OPTION_ATTRIBUTES: Final = (
    ("temperature", genai.GEN_AI_REQUEST_TEMPERATURE),
    ("max_tokens", genai.GEN_AI_REQUEST_MAX_TOKENS),
)
# options.extra keys, as the SDKs' create() names them -> attribute.
_EXTRA_ATTRIBUTES: Final[Mapping[str, str]] = {
    "top_p": genai.GEN_AI_REQUEST_TOP_P,
    "top_k": genai.GEN_AI_REQUEST_TOP_K,
    "seed": genai.GEN_AI_REQUEST_SEED,
    "frequency_penalty": genai.GEN_AI_REQUEST_FREQUENCY_PENALTY,
    "presence_penalty": genai.GEN_AI_REQUEST_PRESENCE_PENALTY,
    "max_completion_tokens": genai.GEN_AI_REQUEST_MAX_TOKENS,
    "max_output_tokens": genai.GEN_AI_REQUEST_MAX_TOKENS,
}
# Usage field -> attribute (the input count includes the cached tokens, as the conventions ask).
_USAGE_ATTRIBUTES: Final = (
    ("input_tokens", genai.GEN_AI_USAGE_INPUT_TOKENS),
    ("output_tokens", genai.GEN_AI_USAGE_OUTPUT_TOKENS),
    ("cache_read_tokens", genai.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS),
    ("cache_write_tokens", genai.GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS),
    ("reasoning_tokens", genai.GEN_AI_USAGE_REASONING_OUTPUT_TOKENS),
)
# Where a provider response object keeps the model that answered and the response id.
_RESPONSE_FIELDS: Final = (
    (genai.GEN_AI_RESPONSE_MODEL, ("model", "model_version")),
    (genai.GEN_AI_RESPONSE_ID, ("id", "response_id")),
)
_TOOL_TYPE: Final = "function"


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def provider_attributes(tag: str) -> Attributes:
    """The provider attributes of ``tag``: ``gen_ai.provider.name`` and any specific ones."""
    return {
        genai.GEN_AI_PROVIDER_NAME: PROVIDER_NAMES.get(tag, tag),
        **_PROVIDER_EXTRAS.get(tag, {}),
    }


@dataclass(frozen=True, slots=True)
class RequestDefaults:
    """The request settings an agent applies when the call's options leave them unset."""

    settings: Mapping[str, Any]

    @classmethod
    def of(cls, agent: object) -> RequestDefaults:
        """Read the defaults from the innermost agent's attributes (numbers only)."""
        found = {
            attribute: value
            for field_name, attribute in _OPTION_ATTRIBUTES
            if _number(value := getattr(agent, field_name, None))
        }
        return cls(found)


def options_attributes(
    options: GenerateReplyOptions | None, defaults: RequestDefaults
) -> Attributes:
    """The request settings of one call: ``options`` first, then the agent's defaults."""
    attributes: Attributes = dict(defaults.settings)
    if options is None:
        return attributes
    for field_name, attribute in _OPTION_ATTRIBUTES:
        value = getattr(options, field_name)
        if _number(value):
            attributes[attribute] = value
    if options.stop_sequences is not None:
        attributes[genai.GEN_AI_REQUEST_STOP_SEQUENCES] = [str(s) for s in options.stop_sequences]
    for key, value in (options.extra or {}).items():
        extra_attribute = _EXTRA_ATTRIBUTES.get(key)
        if extra_attribute is not None and _number(value):
            attributes[extra_attribute] = value
    return attributes


def reply_message(reply: Message) -> TextMessage | ToolCallMessage | None:
    """The model's own message in ``reply`` (an aggregate's tool-call message), else ``None``."""
    if isinstance(reply, ToolCallAggregateMessage):
        return reply.tool_call_message
    if isinstance(reply, TextMessage | ToolCallMessage):
        return reply
    return None


def _response_object(reply: Message) -> object:
    """The provider object a reply came from: its ``raw`` (a stream's first chunk when ``raw``
    holds the chunks), or the content of an envelope (when tracing sits inside the connector)."""
    model = reply_message(reply)
    raw: object = model.raw if model is not None else getattr(reply, "content", None)
    if isinstance(raw, Sequence) and not isinstance(raw, str | bytes):
        return raw[0] if raw else None
    return raw


def reply_attributes(reply: Message) -> Attributes:
    """Finish reason, token usage, response model and id of a reply, where it carries them."""
    attributes: Attributes = {}
    response = _response_object(reply)
    for attribute, names in _RESPONSE_FIELDS:
        for name in names:
            value = getattr(response, name, None)
            if isinstance(value, str) and value:
                attributes[attribute] = value
                break
    model = reply_message(reply)
    if model is None:
        return attributes
    if model.finish_reason is not None:
        attributes[genai.GEN_AI_RESPONSE_FINISH_REASONS] = [model.finish_reason]
    if model.usage is not None:
        attributes.update(usage_attributes(model.usage))
    return attributes


def usage_attributes(usage: Usage) -> Attributes:
    """The ``gen_ai.usage.*`` attributes of ``usage`` (the counts it has)."""
    return {
        attribute: value
        for field_name, attribute in _USAGE_ATTRIBUTES
        if (value := getattr(usage, field_name)) is not None
    }


def tool_call_attributes(call: ToolCall, *, capture_content: bool) -> Attributes:
    """The attributes of one tool-call event; the arguments only with ``capture_content``."""
    attributes: Attributes = {
        genai.GEN_AI_TOOL_NAME: call.function_name,
        genai.GEN_AI_TOOL_TYPE: _TOOL_TYPE,
    }
    if call.tool_call_id is not None:
        attributes[genai.GEN_AI_TOOL_CALL_ID] = call.tool_call_id
    if capture_content:
        attributes[genai.GEN_AI_TOOL_CALL_ARGUMENTS] = call.function_arguments
    return attributes


def error_type(error: BaseException) -> str:
    """``error.type`` of a failure: the exception's class name, or ``"cancelled"``."""
    if isinstance(error, STOPPED):
        return CANCELLED
    return type(error).__qualname__


def error_attributes(error: BaseException) -> Attributes:
    """``error.type``, and the HTTP status a ``ProviderAPIError`` received."""
    attributes: Attributes = {ERROR_TYPE: error_type(error)}
    if isinstance(error, ProviderAPIError) and error.status_code is not None:
        attributes[HTTP_RESPONSE_STATUS_CODE] = error.status_code
    return attributes


def error_description(error: BaseException, *, capture_content: bool) -> str | None:
    """The span status description of a failure, or ``None`` when its text is not safe.

    llmbridge errors never hold credentials (API.md 9), so their message is used; a
    ``ProviderResponseError`` may quote the model's output (a refusal's text), so it is used
    only with ``capture_content``. Other exceptions' text is not under that rule: left out.
    """
    if isinstance(error, STOPPED):
        return "the consumer stopped the call before its end"
    if not isinstance(error, LLMBridgeError):
        return None
    if isinstance(error, ProviderResponseError) and not capture_content:
        return None
    return str(error)
