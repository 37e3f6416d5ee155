"""A Gemini ``GenerateContentResponse`` -> one neutral reply.

``from_gemini`` and the stream aggregator share ``join_parts`` (text pieces of one part joined)
and ``reply_parts``, and build the message with the kit's ``build_reply``, so a stream and the
equivalent non-streaming response give equal neutral messages.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from google.genai import types

from llmbridge import (
    HostedToolCall,
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.gemini._citations import reply_citations
from llmbridge.gemini._errors import PROVIDER
from llmbridge.gemini._hosted import HOSTED_FIELDS, SIGNED_TEXT, HostedCalls, reply_hosted_part
from llmbridge.gemini._joiner import join_parts
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, log_notes

__all__ = [
    "CONTENT_FILTER_REASONS",
    "FINISH_REASONS",
    "GeminiReply",
    "arguments_json",
    "fallback_call_id",
    "from_gemini",
    "neutral_usage",
    "reply_parts",
    "signature_text",
]

FINISH_REASONS: Final[dict[str, str]] = {"STOP": "stop", "MAX_TOKENS": "length"}
"""Gemini ``finish_reason`` -> neutral ``finish_reason``; other values pass through raw."""

CONTENT_FILTER_REASONS: Final = frozenset(
    {
        "SAFETY",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "RECITATION",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "MODEL_ARMOR",
    }
)
"""Finish reasons that mean Google's filters stopped the reply (``ContentFilteredError``)."""

# The Part fields this module reads; any other data field has no neutral form.
_KNOWN_FIELDS: Final = frozenset(
    {"text", "thought", "thought_signature", "function_call", *HOSTED_FIELDS}
)


def signature_text(signature: bytes | None) -> str | None:
    """A part's thought signature as the base64 text kept in ``provider_data`` and ``Reasoning``."""
    return None if signature is None else base64.b64encode(signature).decode("ascii")


def arguments_json(args: dict[str, Any] | None) -> str:
    """The JSON string form of a ``function_call``'s ``args`` (``{}`` when absent)."""
    return json.dumps({} if args is None else args, ensure_ascii=False)


def fallback_call_id(call: types.FunctionCall, position: int) -> str:
    """The call's id, or ``f"{name}_{position}"`` (position among the reply's calls) without one.

    Deterministic on purpose: the Gemini API often sends no id, and snapshots must be stable.
    """
    return call.id or f"{call.name or ''}_{position}"


def neutral_usage(usage: types.GenerateContentResponseUsageMetadata | None) -> Usage | None:
    """Gemini usage -> ``Usage``: input = prompt + tool-use prompt, output = candidates + thoughts.

    ``reasoning_tokens`` are the thought tokens and ``cache_read_tokens`` the cached content
    tokens (already part of the prompt count), so ``total_tokens`` equals Gemini's total.
    """
    if usage is None:
        return None
    thoughts = usage.thoughts_token_count
    return Usage(
        (usage.prompt_token_count or 0) + (usage.tool_use_prompt_token_count or 0),
        (usage.candidates_token_count or 0) + (thoughts or 0),
        cache_read_tokens=usage.cached_content_token_count,
        reasoning_tokens=thoughts,
    )


def _drop(recorder: NoteRecorder, what: str) -> None:
    """The one lenient/strict decision for reply parts with no neutral form."""
    recorder.record(
        None,
        "dropped",
        f"{what} have no neutral form (the reply's raw keeps them)",
        error=UnsupportedMessageError,
    )


def _unknown_fields(part: types.Part) -> list[str]:
    # Only the fields the response set: reading every field of every part costs a stream dearly.
    return sorted(
        name
        for name in part.model_fields_set
        if name not in _KNOWN_FIELDS and getattr(part, name) is not None
    )


class _Gathered:
    """The neutral pieces of one reply's parts, in order."""

    __slots__ = ("calls", "hosted", "length", "reasoning", "signature", "signed_text", "texts")

    def __init__(self, provider: str) -> None:
        self.texts: list[str] = []
        self.length = 0  # the characters of the texts so far: where a hosted call sits
        self.reasoning: list[Reasoning] = []
        self.calls: list[ToolCall] = []
        self.hosted = HostedCalls(provider)
        self.signature: str | None = None
        self.signed_text = 0  # the text segment (text split at hosted calls) it signs

    def add_text(self, text: str, signature: str | None, recorder: NoteRecorder) -> None:
        self.texts.append(text)
        self.length += len(text)
        if signature is not None and self.signature is None:
            self.signature = signature
            self.signed_text = self.hosted.started
        elif signature is not None:
            _drop(recorder, "the thought signatures of a second signed text part")

    def provider_data(self, provider: str, hosted: int) -> dict[str, Any] | None:
        """The message's ``provider_data``: its text signature, with the segment it signs when
        that is not the last (the text ``to_gemini`` splits at the ``hosted`` calls)."""
        if self.signature is None:
            return None
        entry: dict[str, Any] = {"thought_signature": self.signature}
        if self.signed_text != hosted:
            entry[SIGNED_TEXT] = self.signed_text
        return {provider: entry}


def _gather(parts: Sequence[types.Part], provider: str, recorder: NoteRecorder) -> _Gathered:
    gathered = _Gathered(provider)
    for part in parts:
        extra = _unknown_fields(part)
        signature = signature_text(part.thought_signature)
        if part.function_call is not None:
            call = part.function_call
            data = {} if signature is None else {provider: {"thought_signature": signature}}
            gathered.calls.append(
                ToolCall(
                    call.name or "",
                    arguments_json(call.args),
                    tool_call_id=fallback_call_id(call, len(gathered.calls)),
                    provider_data=data,
                )
            )
        elif part.executable_code is not None or part.code_execution_result is not None:
            gathered.hosted.add(reply_hosted_part(part, signature), gathered.length)
        elif part.thought and (part.text is not None or signature is not None):
            reasoning = Reasoning(part.text or "", signature=signature, provider=provider)
            gathered.reasoning.append(reasoning)
        elif part.text is not None or (signature is not None and not extra):
            # A signed empty text part (or a bare signature) signs the reply's text.
            gathered.add_text(part.text or "", signature, recorder)
        if extra:
            _drop(recorder, f"parts with {', '.join(extra)}")
    return gathered


@dataclass(frozen=True, slots=True)
class GeminiReply:
    """What one Gemini reply gives: the kit's ``ReplyParts``, the hosted tool calls and the
    candidate (whose metadata holds the citations), read once for a response or a stream."""

    parts: ReplyParts
    hosted: tuple[HostedToolCall, ...] = ()
    candidate: types.Candidate | None = None

    def complete(
        self, message: Message | None, provider: str, recorder: NoteRecorder
    ) -> Message | None:
        """``message`` (built from ``parts``) with the reply's citations and hosted calls."""
        if not isinstance(message, TextMessage | ToolCallMessage) or self.candidate is None:
            return message
        citations = reply_citations(self.candidate, self.parts.text or "", provider, recorder)
        if not citations and not self.hosted:
            return message
        return replace(message, citations=citations, hosted_tools=self.hosted)


def reply_parts(
    response: types.GenerateContentResponse, *, provider: str, recorder: NoteRecorder
) -> GeminiReply:
    """The neutral parts of one Gemini reply, the same for a response and a joined stream.

    Raises ``ProviderResponseError`` for more than one candidate. A blocked prompt (no
    candidate, a ``block_reason``) and the filter finish reasons (``CONTENT_FILTER_REASONS``)
    are content filtered. Function calls make the reply's finish reason ``"tool_calls"`` when
    Gemini says STOP; STOP -> ``"stop"``, MAX_TOKENS -> ``"length"``, others stay raw.
    """
    candidates = response.candidates or []
    if len(candidates) > 1:
        raise ProviderResponseError(
            f"the response has {len(candidates)} candidates; llmbridge converts one "
            "(do not set candidate_count above 1)",
            response=response,
        )
    usage = neutral_usage(response.usage_metadata)
    feedback = response.prompt_feedback
    if not candidates:
        blocked = feedback is not None and feedback.block_reason is not None
        return GeminiReply(ReplyParts(usage=usage, content_filtered=blocked))
    candidate = candidates[0]
    reason = None if candidate.finish_reason is None else str(candidate.finish_reason.value)
    content = candidate.content
    gathered = _gather(join_parts((content.parts or []) if content else []), provider, recorder)
    finish_reason = None if reason is None else FINISH_REASONS.get(reason, reason)
    if gathered.calls and reason == "STOP":
        finish_reason = "tool_calls"
    hosted = tuple(gathered.hosted.calls())
    parts = ReplyParts(
        text="".join(gathered.texts),
        reasoning=tuple(gathered.reasoning),
        tool_calls=tuple(gathered.calls),
        finish_reason=finish_reason,
        usage=usage,
        content_filtered=reason in CONTENT_FILTER_REASONS,
        provider_data=gathered.provider_data(provider, len(hosted)),
    )
    return GeminiReply(parts, hosted, candidate)


def from_gemini(
    response: types.GenerateContentResponse | Message,
    *,
    agent_name: str,
    strict_mode: bool = False,
    provider: str = PROVIDER,
) -> Message:
    """Convert a ``GenerateContentResponse`` (or an envelope of one) into a neutral reply.

    Text parts are joined; ``function_call`` parts become calls (JSON arguments; a call without
    an id gets ``f"{name}_{i}"``, ``i`` its position among the reply's calls); thought parts
    become ``Reasoning(provider=provider)`` with their signature; the thought signature of a
    call part goes into that call's ``provider_data[provider]["thought_signature"]``, of a text
    part into the message's (base64 text). ``executable_code`` parts with the
    ``code_execution_result`` that answers each become ``hosted_tools`` (``_hosted``), and the
    candidate's ``grounding_metadata`` / ``citation_metadata`` the ``citations``
    (``_citations``). See ``reply_parts`` for finish reasons and usage.
    ``provider`` is ``"gemini"`` or ``"vertex"`` (signatures go back only to their transport).
    Raises ``ProviderResponseError`` for several candidates, ``ContentFilteredError`` for a
    blocked prompt or a filter finish reason, ``EmptyResponseError`` for a reply with neither
    text nor calls. Parts with no neutral form are dropped with a logged note (strict mode:
    ``UnsupportedMessageError``). Anything that is not a Gemini response is returned unchanged
    (strict mode: ``UnsupportedMessageError``).
    """
    if isinstance(response, MessageEnvelope) and isinstance(
        response.content, types.GenerateContentResponse
    ):
        response = response.content
    if not isinstance(response, types.GenerateContentResponse):
        if strict_mode or not isinstance(response, Message):
            raise UnsupportedMessageError(
                f"expected a Gemini GenerateContentResponse, got {type(response).__name__}"
            )
        return response
    recorder = NoteRecorder(strict_mode=strict_mode)
    reply = reply_parts(response, provider=provider, recorder=recorder)
    message = build_reply(reply.parts, agent_name=agent_name, raw=response)
    completed = reply.complete(message, provider, recorder)
    log_notes(recorder.notes, source="from_gemini")
    assert completed is not None  # a message in, a message out
    return completed
