"""OpenAI Chat Completions replies -> neutral messages.

``from_openai`` (a whole completion) and the stream aggregator (chunks) both gather the same
``reply_parts`` and build the message with the kit's ``build_reply``, so a streamed reply equals
the non-streamed one and the outbound rules are coded once for every provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from openai.types import CompletionUsage
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessageCustomToolCall,
    ChatCompletionMessageFunctionToolCall,
)
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message import ChatCompletionMessage
from openai.types.chat.chat_completion_message_function_tool_call import Function
from openai.types.completion_usage import CompletionTokensDetails, PromptTokensDetails

from llmbridge import (
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    ToolCall,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, log_notes
from llmbridge.openai._citations import annotation_dicts, cited_reply
from llmbridge.openai._errors import PROVIDER

__all__ = [
    "REASONING_FIELDS",
    "describe_reply",
    "from_openai",
    "reasoning_text",
    "reply_parts",
    "usage_from_openai",
]

REASONING_FIELDS: Final = ("reasoning_content", "reasoning")
"""Fields OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter) use for reasoning text on a
message or a delta; OpenAI itself sends none. The first one holding a string is used."""


def reasoning_text(model: Any) -> str | None:
    """The reasoning text an OpenAI-compatible server put on a message or delta, if any."""
    extra = model.model_extra
    if not extra:
        return None
    for key in REASONING_FIELDS:
        value = extra.get(key)
        if isinstance(value, str):
            return value
    return None


def usage_from_openai(usage: CompletionUsage | None) -> Usage | None:
    """Map OpenAI usage to ``Usage``: ``prompt_tokens`` counts cached tokens too.

    ``cache_read_tokens`` is ``prompt_tokens_details.cached_tokens``, ``cache_write_tokens`` its
    ``cache_write_tokens``, ``reasoning_tokens`` ``completion_tokens_details.reasoning_tokens``.
    """
    if usage is None:
        return None
    prompt = usage.prompt_tokens_details
    completion = usage.completion_tokens_details
    return Usage(
        usage.prompt_tokens,
        usage.completion_tokens,
        cache_read_tokens=prompt.cached_tokens if prompt else None,
        cache_write_tokens=prompt.cache_write_tokens if prompt else None,
        reasoning_tokens=completion.reasoning_tokens if completion else None,
    )


def reply_parts(
    *,
    text: str | None,
    refusal: str | None,
    tool_calls: Sequence[ToolCall],
    reasoning: str | None,
    usage: Usage | None,
    finish_reason: str | None,
) -> ReplyParts:
    """The neutral parts of one OpenAI choice, the same for a completion and a stream.

    OpenAI's finish reasons (``stop``, ``length``, ``tool_calls``, ``content_filter``) are the
    neutral ones; anything else (the deprecated ``function_call``) stays the raw string. An empty
    refusal is no refusal (servers send ``"refusal": ""`` on ordinary replies).
    """
    return ReplyParts(
        text=text,
        reasoning=(Reasoning(reasoning, provider=PROVIDER),) if reasoning else (),
        tool_calls=tuple(tool_calls),
        finish_reason=finish_reason,
        usage=usage,
        refusal=refusal or None,
    )


_TEXT_OR_NONE: Final = (str, type(None))
_COUNT_OR_NONE: Final = (int, type(None))


def _expect(value: object, expected: type | tuple[type, ...], where: str, completion: Any) -> None:
    """Raise ``ProviderResponseError`` unless ``value`` (the field ``where``) is ``expected``.

    The SDK builds a response without validating it, so an HTTP 200 body that is no chat
    completion (a proxy's error page, a wrong endpoint) arrives as a ``ChatCompletion`` of
    ``None``s and stray types; only the fields read here can tell.
    """
    if not isinstance(value, expected):
        found = "null" if value is None else f"of type {type(value).__name__}"
        raise ProviderResponseError(
            f"the reply is not an OpenAI chat completion: {where} is {found}",
            response=completion,
        )


def _only_choice(completion: ChatCompletion) -> Choice:
    """The completion's one choice, its shape checked (see ``_expect``)."""
    choices = completion.choices
    _expect(choices, list, "choices", completion)
    if len(choices) != 1:
        raise ProviderResponseError(
            f"expected exactly one choice, got {len(choices)} (n > 1 is not supported)",
            response=completion,
        )
    choice = choices[0]
    _expect(choice, Choice, "choices[0]", completion)
    _expect(choice.finish_reason, _TEXT_OR_NONE, "choices[0].finish_reason", completion)
    message = choice.message
    _expect(message, ChatCompletionMessage, "choices[0].message", completion)
    _expect(message.content, _TEXT_OR_NONE, "choices[0].message.content", completion)
    _expect(message.refusal, _TEXT_OR_NONE, "choices[0].message.refusal", completion)
    _expect(message.tool_calls, (list, type(None)), "choices[0].message.tool_calls", completion)
    _expect(message.annotations, (list, type(None)), "choices[0].message.annotations", completion)
    return choice


def _checked_usage(completion: ChatCompletion) -> CompletionUsage | None:
    usage = completion.usage
    if usage is None:
        return None
    _expect(usage, CompletionUsage, "usage", completion)
    _expect(usage.prompt_tokens, int, "usage.prompt_tokens", completion)
    _expect(usage.completion_tokens, int, "usage.completion_tokens", completion)
    prompt, output = usage.prompt_tokens_details, usage.completion_tokens_details
    _expect(prompt, (PromptTokensDetails, type(None)), "usage.prompt_tokens_details", completion)
    _expect(
        output, (CompletionTokensDetails, type(None)), "usage.completion_tokens_details", completion
    )
    if prompt is not None:
        _expect(prompt.cached_tokens, _COUNT_OR_NONE, "usage.cached_tokens", completion)
        _expect(prompt.cache_write_tokens, _COUNT_OR_NONE, "usage.cache_write_tokens", completion)
    if output is not None:
        _expect(output.reasoning_tokens, _COUNT_OR_NONE, "usage.reasoning_tokens", completion)
    return usage


def _tool_calls(message: ChatCompletionMessage, completion: ChatCompletion) -> list[ToolCall]:
    calls: list[ToolCall] = []
    for position, call in enumerate(message.tool_calls or ()):
        where = f"choices[0].message.tool_calls[{position}]"
        _expect(
            call,
            (ChatCompletionMessageFunctionToolCall, ChatCompletionMessageCustomToolCall),
            where,
            completion,
        )
        if call.type != "function":
            raise ProviderResponseError(
                f"the completion holds a {call.type!r} tool call; only function tool calls "
                "convert to neutral messages",
                response=completion,
            )
        function = call.function
        _expect(function, Function, f"{where}.function", completion)
        _expect(function.name, str, f"{where}.function.name", completion)
        _expect(call.id, _TEXT_OR_NONE, f"{where}.id", completion)
        calls.append(ToolCall(function.name, function.arguments, tool_call_id=call.id))
    return calls


def from_openai(
    completion: ChatCompletion | Message, *, agent_name: str, strict_mode: bool = False
) -> Message:
    """Convert an OpenAI ``ChatCompletion`` (or an envelope of one) to a neutral reply.

    Rules: a content filter, a refusal, more than one choice or an empty reply raise; tool calls
    become a ``ToolCallMessage``, text a ``TextMessage``. The reply's ``from_`` is ``agent_name``;
    it carries usage, finish reason, reasoning (from OpenAI-compatible servers), the citations
    of ``message.annotations`` (``url_citation``; another type or a span outside the text is
    dropped with a logged note, strict: raised, see ``read_citations``) and the completion as
    ``raw``. Anything that is not a completion comes back unchanged (lenient) or raises
    ``UnsupportedMessageError`` (strict). Raises ``ProviderResponseError`` for more or fewer than
    one choice, for non-function tool calls and for a completion whose fields are not what a
    chat completion holds (the SDK does not validate bodies: ``{"choices": null}`` arrives as a
    ``ChatCompletion``), ``ContentFilteredError``, ``RefusalError`` and ``EmptyResponseError``
    as the table says.
    """
    inner = completion.content if isinstance(completion, MessageEnvelope) else completion
    if not isinstance(inner, ChatCompletion):
        detail = f"expected an OpenAI ChatCompletion reply, got {describe_reply(completion)}"
        if strict_mode:
            raise UnsupportedMessageError(f"{detail} (strict mode)")
        if not isinstance(completion, Message):
            # Lenient mode returns replies unchanged, but only a Message can be a reply.
            raise UnsupportedMessageError(detail)
        return completion
    choice = _only_choice(inner)
    message = choice.message
    parts = reply_parts(
        text=message.content,
        refusal=message.refusal,
        tool_calls=_tool_calls(message, inner),
        reasoning=reasoning_text(message),
        usage=usage_from_openai(_checked_usage(inner)),
        finish_reason=choice.finish_reason,
    )
    reply = build_reply(parts, agent_name=agent_name, raw=inner)
    if not message.annotations:
        return reply
    recorder = NoteRecorder(strict_mode=strict_mode)
    reply = cited_reply(reply, annotation_dicts(message.annotations), recorder)
    log_notes(recorder.notes, source="from_openai")
    return reply


def describe_reply(value: object) -> str:
    """How an error names a reply of the wrong type (an envelope by what it holds)."""
    if isinstance(value, MessageEnvelope):
        return f"a MessageEnvelope of {type(value.content).__name__}"
    return type(value).__name__
