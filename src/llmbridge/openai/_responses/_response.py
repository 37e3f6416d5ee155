"""OpenAI Responses replies -> neutral messages.

``from_openai_responses`` (a whole ``Response``) and the stream aggregator (whose final message
comes from the terminal event's response, or from the ``output_item.done`` items when that
response's output is empty) both gather ``response_parts`` and build the message with the kit's
``build_reply``, so a streamed reply equals the non-streamed one by construction.

What a later request needs back goes into ``provider_data["openai-responses"]``: a call's item
id (``{"id": "fc_..."}``); on the message, the id and ``phase`` of its one output message
(``{"id": "msg_...", "phase": ...}``), or with several, ``{"messages": [{"id", "phase",
"text"}, ...]}``; on a ``Reasoning``, ``{"id": "rs_...", "summary": [texts], "before": <id of
the item that followed it>}``. ``phase`` and ``before`` are present only when known.
Citations (``_annotations``) and hosted tool calls (``_hosted``) keep their exact annotation or
item there too; they go on the built message (``with_metadata``), not through ``ReplyParts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from openai.types.responses import (
    Response,
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseReasoningItem,
    ResponseUsage,
)
from pydantic import BaseModel

from llmbridge import (
    Citation,
    HostedToolCall,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    ToolCall,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, log_notes
from llmbridge.openai._errors import RESPONSES_PROVIDER, responses_error
from llmbridge.openai._response import describe_reply
from llmbridge.openai._responses._annotations import Annotated
from llmbridge.openai._responses._hosted import HOSTED_ITEMS, hosted_call

__all__ = [
    "from_openai_responses",
    "reply_from_items",
    "response_parts",
    "usage_from_responses",
    "with_metadata",
]

# `incomplete_details.reason` values that have a neutral finish reason; others stay raw.
_INCOMPLETE_REASONS: Final[dict[str, str]] = {
    "max_output_tokens": "length",
    "content_filter": "content_filter",
}


def usage_from_responses(usage: ResponseUsage | None) -> Usage | None:
    """Map Responses usage to ``Usage``: ``input_tokens`` counts cached tokens too.

    ``cache_read_tokens`` is ``input_tokens_details.cached_tokens``, ``cache_write_tokens`` its
    ``cache_write_tokens``, ``reasoning_tokens`` ``output_tokens_details.reasoning_tokens``.
    """
    if usage is None:
        return None
    inputs = usage.input_tokens_details
    outputs = usage.output_tokens_details
    return Usage(
        usage.input_tokens,
        usage.output_tokens,
        cache_read_tokens=getattr(inputs, "cached_tokens", None),
        cache_write_tokens=getattr(inputs, "cache_write_tokens", None),
        reasoning_tokens=getattr(outputs, "reasoning_tokens", None),
    )


def _text(value: Any, where: str) -> str:
    """``value``, which must be text: a null or other value in a 200 body is the provider's
    mistake, reported as one (not a ``TypeError`` from joining it)."""
    if not isinstance(value, str):
        found = "null" if value is None else f"of type {type(value).__name__}"
        raise ProviderResponseError(f"the OpenAI response's {where} is {found}, not text")
    return value


def _present(value: Any, where: str) -> Any:
    if value is None:
        raise ProviderResponseError(f"the OpenAI response's {where} is null")
    return value


class _Items:
    """What the output items of one response hold, gathered in order."""

    __slots__ = ("annotated", "calls", "hosted", "messages", "reasoning", "refusals", "texts")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.refusals: list[str] = []
        self.reasoning: list[Reasoning] = []
        self.calls: list[ToolCall] = []
        self.messages: list[dict[str, Any]] = []
        self.hosted: list[HostedToolCall] = []
        self.annotated = Annotated()

    def message(self, item: ResponseOutputMessage, where: str) -> None:
        texts: list[str] = []
        for position, part in enumerate(item.content or ()):
            at = f"{where}.content[{position}]"
            _present(part, at)
            if part.type == "output_text":
                text = _text(part.text, f"{at}.text")
                texts.append(text)
                self.annotated.part(part.annotations, text, len(self.messages))
            elif part.type == "refusal":
                self.refusals.append(_text(part.refusal, f"{at}.refusal"))
        text = "".join(texts)
        self.texts.append(text)
        entry: dict[str, Any] = {"id": item.id}
        if item.phase is not None:
            entry["phase"] = item.phase
        entry["text"] = text
        self.messages.append(entry)

    def function_call(self, item: ResponseFunctionToolCall) -> None:
        entry: dict[str, Any] = {"id": item.id} if isinstance(item.id, str) else {}
        for key, value in (
            ("namespace", item.namespace),
            ("caller", item.caller),
            ("async", item.async_),
        ):
            if value is not None:
                entry[key] = (
                    value.model_dump(mode="json") if isinstance(value, BaseModel) else value
                )
        state = {RESPONSES_PROVIDER: entry} if entry else {}
        self.calls.append(
            ToolCall(item.name, item.arguments, tool_call_id=item.call_id, provider_data=state)
        )

    def reasoning_item(self, item: ResponseReasoningItem, following: Any, where: str) -> None:
        summary = [
            _text(_present(part, f"{where}.summary[{i}]").text, f"{where}.summary[{i}].text")
            for i, part in enumerate(item.summary or ())
        ]
        # Open-weight models behind Responses-compatible servers send raw reasoning_text
        # parts and no summary.
        text = "\n".join(summary) or "\n".join(
            _text(_present(part, f"{where}.content[{i}]").text, f"{where}.content[{i}].text")
            for i, part in enumerate(item.content or ())
        )
        state: dict[str, Any] = {"id": item.id, "summary": summary}
        before = getattr(following, "id", None)
        if isinstance(before, str):
            state["before"] = before
        self.reasoning.append(
            Reasoning(
                text,
                signature=item.encrypted_content,
                provider=RESPONSES_PROVIDER,
                provider_data={RESPONSES_PROVIDER: state},
            )
        )

    def provider_data(self) -> dict[str, Any] | None:
        if not self.messages:
            return None
        if len(self.messages) == 1:
            only = {key: value for key, value in self.messages[0].items() if key != "text"}
            return {RESPONSES_PROVIDER: only}
        return {RESPONSES_PROVIDER: {"messages": self.messages}}


def _gather(items: Sequence[Any], recorder: NoteRecorder) -> _Items:
    found = _Items()
    for position, item in enumerate(items):
        # Dispatch on the type tag: the SDK builds bodies without validation, so an item of a
        # type it has no model for arrives as some other class.
        where = f"output[{position}]"
        match _present(item, where).type:
            case "message":
                found.message(item, where)
            case "function_call":
                _text(item.name, f"{where}.name")
                _text(item.arguments, f"{where}.arguments")
                found.function_call(item)
            case "reasoning":
                following = items[position + 1] if position + 1 < len(items) else None
                found.reasoning_item(item, following, where)
            case str() as kind if kind in HOSTED_ITEMS:
                plain = item if isinstance(item, dict) else item.to_dict()
                found.hosted.append(hosted_call(plain, position))
            case other:
                recorder.record(
                    None,
                    "dropped",
                    f"output[{position}] is a {other!r} item, which has no neutral form "
                    "(the reply's raw keeps it)",
                    error=UnsupportedMessageError,
                )
    return found


def _finish_reason(response: Response, has_calls: bool) -> str | None:
    status = response.status
    if status == "completed":
        return "tool_calls" if has_calls else "stop"
    if status == "incomplete":
        details = response.incomplete_details
        reason = None if details is None else details.reason
        if reason is None:
            return status
        return _INCOMPLETE_REASONS.get(reason, reason)
    return status


def response_parts(
    response: Response, items: Sequence[Any], recorder: NoteRecorder
) -> tuple[ReplyParts, tuple[Citation, ...], tuple[HostedToolCall, ...]]:
    """The neutral parts of ``response`` whose output items are ``items`` (see the module), its
    citations and its hosted tool calls.

    ``items`` is ``response.output``, or for a stream whose terminal response has no output,
    the ``output_item.done`` items. Items with no neutral form (computer use, shell, custom
    tools...) go through ``recorder`` (``"dropped"``; strict: ``UnsupportedMessageError``).
    Raises the ``responses_error`` of a failed response (by its ``error.code``).
    """
    if response.status == "failed":
        error = response.error
        raise responses_error(
            None if error is None else error.code, None if error is None else error.message
        )
    found = _gather(items, recorder)
    parts = ReplyParts(
        text="".join(found.texts),
        reasoning=tuple(found.reasoning),
        tool_calls=tuple(found.calls),
        finish_reason=_finish_reason(response, bool(found.calls)),
        usage=usage_from_responses(response.usage),
        refusal="".join(found.refusals) if found.refusals else None,
        provider_data=found.provider_data(),
    )
    return parts, found.annotated.citations(len(found.messages)), tuple(found.hosted)


def with_metadata(
    message: Message, citations: tuple[Citation, ...], hosted: tuple[HostedToolCall, ...]
) -> Message:
    """``message`` (a reply: a text or tool-call message) with its citations and hosted tools;
    ``message`` itself when there are none (most replies)."""
    if not (citations or hosted):
        return message
    return replace(message, citations=citations, hosted_tools=hosted)  # type: ignore[type-var]


def reply_from_items(
    response: Response, items: Sequence[Any], *, agent_name: str, strict_mode: bool, source: str
) -> Message:
    """Build the neutral reply of ``response`` from ``items``; notes logged as ``source``."""
    recorder = NoteRecorder(strict_mode=strict_mode)
    parts, citations, hosted = response_parts(response, items, recorder)
    log_notes(recorder.notes, source=source)
    # The empty rule of 4.3 holds with hosted tools too (API.md 19.7): only text or calls make
    # a reply.
    return with_metadata(build_reply(parts, agent_name=agent_name, raw=response), citations, hosted)


def from_openai_responses(
    response: Response | Message, *, agent_name: str, strict_mode: bool = False
) -> Message:
    """Convert an OpenAI Responses ``Response`` (or an envelope of one) to a neutral reply.

    Output items in order: ``function_call`` items become calls (``tool_call_id`` = ``call_id``,
    the ``fc_`` item id in ``provider_data``), the ``output_text`` parts of every ``message``
    item are joined into the text, ``reasoning`` items become ``Reasoning(provider=
    "openai-responses")`` (summary texts joined with ``"\\n"``, else the ``reasoning_text``
    parts; ``signature`` = ``encrypted_content``); ``output_text`` annotations become
    ``citations`` (offsets in the joined text; index-only ones at their index) and the hosted
    tool items (web search, file search, code interpreter, image generation, MCP calls, tool
    lists and approval requests) ``hosted_tools``, each with the exact annotation or item
    (and its output position) in ``provider_data``. Finish reason: ``completed`` -> ``"stop"``
    or ``"tool_calls"``, ``incomplete`` at ``max_output_tokens`` -> ``"length"``, other statuses
    and reasons raw. Raises ``ContentFilteredError`` (incomplete by ``content_filter``),
    ``RefusalError`` (a ``refusal`` part), ``EmptyResponseError``, and for a ``failed``
    response ``RateLimitError`` / ``ProviderUnavailableError`` (retryable) or
    ``BadRequestError`` by ``error.code``; ``ProviderResponseError`` when ``output`` is not a
    list; ``EmptyResponseError`` for a reply of hosted tools without text or calls, too. Other
    items with no neutral form (computer use, shell, custom tools) are dropped
    with a logged note (strict: ``UnsupportedMessageError``). Anything that is not a
    ``Response`` comes back unchanged (strict mode, or not a ``Message``:
    ``UnsupportedMessageError``).
    """
    inner = response.content if isinstance(response, MessageEnvelope) else response
    if not isinstance(inner, Response):
        detail = f"expected an OpenAI Responses Response reply, got {describe_reply(response)}"
        if strict_mode or not isinstance(response, Message):
            raise UnsupportedMessageError(detail)
        return response
    output = inner.output
    if not isinstance(output, list) and inner.status != "failed":
        raise ProviderResponseError(
            "the reply is not an OpenAI response: output is "
            + ("null" if output is None else f"of type {type(output).__name__}"),
            response=inner,
        )
    return reply_from_items(
        inner,
        output or (),
        agent_name=agent_name,
        strict_mode=strict_mode,
        source="from_openai_responses",
    )
