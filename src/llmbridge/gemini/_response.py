"""A Gemini ``GenerateContentResponse`` -> one neutral reply.

``from_gemini`` and the stream aggregator share ``join_parts`` (text pieces of one part joined)
and ``reply_parts``, and build the message with the kit's ``build_reply``, so a stream and the
equivalent non-streaming response give equal neutral messages.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any, Final

from google.genai import types

from llmbridge import (
    Message,
    MessageEnvelope,
    ProviderResponseError,
    Reasoning,
    ToolCall,
    UnsupportedMessageError,
    Usage,
)
from llmbridge.gemini._errors import PROVIDER
from llmbridge.gemini._partial_args import PartialCall, is_piece
from llmbridge.kit import NoteRecorder, ReplyParts, build_reply, log_notes

__all__ = [
    "CONTENT_FILTER_REASONS",
    "FINISH_REASONS",
    "PartJoiner",
    "arguments_json",
    "fallback_call_id",
    "from_gemini",
    "join_parts",
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
_KNOWN_FIELDS: Final = frozenset({"text", "thought", "thought_signature", "function_call"})


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


class PartJoiner:
    """Joins text pieces that belong to one part, a part at a time (see ``join_parts``).

    ``add`` takes the part with the fields the caller has read already (a stream reads them for
    its updates; attribute access on SDK models is what a stream pays most for), so each field
    is read once. ``parts()`` is what has been joined so far; it never changes a part given.
    """

    __slots__ = ("_call", "_joined", "_open", "_pieces")

    def __init__(self) -> None:
        self._joined: list[types.Part] = []
        self._pieces: list[str] = []  # the text pieces of the last part joined so far
        # Whether the last part is thought text (True) or text (False) that a later text piece
        # of the same kind continues; None when none may (a call, a signed part, no part).
        self._open: bool | None = None
        self._call: PartialCall | None = None  # a call streamed in pieces, not ended yet

    def add(
        self,
        part: types.Part,
        text: str | None,
        call: types.FunctionCall | None,
        thought: bool | None,
    ) -> types.FunctionCall | None:
        """Take ``part``, whose ``text``, ``function_call`` and ``thought`` are given; return
        the call it completes (a whole call, or the last piece of one), if any.

        Raises ``ProviderResponseError`` for a malformed call piece (``_partial_args``) and
        for another part inside a call's pieces."""
        if self._call is not None or (call is not None and is_piece(call)):
            return self._add_piece(part, call)
        self._add(part, text, call, thought)
        return call

    def _add_piece(
        self, part: types.Part, call: types.FunctionCall | None
    ) -> types.FunctionCall | None:
        if call is None:
            raise ProviderResponseError(
                "a streamed Gemini function call is malformed: another part came between its pieces"
            )
        if self._call is None:
            self._call = PartialCall(part, call)
        else:
            self._call.add(call)
        if self._call.open:
            return None
        whole = self._call.whole()
        self._call = None
        self._add(whole, None, whole.function_call, None)
        return whole.function_call

    def _add(self, part: types.Part, text: str | None, call: object, thought: bool | None) -> None:
        signature = None
        is_text = text is not None and call is None
        if is_text:
            signature = part.thought_signature
            if self._open == bool(thought):
                self._pieces.append(text or "")
                if signature is not None:
                    # A signature ends its part; a later piece's moves onto the joined part.
                    last = self._joined[-1]
                    self._joined[-1] = last.model_copy(update={"thought_signature": signature})
                    self._open = None
                return
        if len(self._pieces) > 1:
            self._joined[-1] = _with_text(self._joined[-1], self._pieces)
        self._pieces = [text or ""] if is_text else []
        self._joined.append(part)
        self._open = bool(thought) if is_text and signature is None else None

    def parts(self, *, complete: bool = True) -> list[types.Part]:
        """The parts so far, text pieces of one part joined (a new list each time).

        A call whose pieces have not ended is left out; with ``complete`` (the whole reply is
        in) it raises ``ProviderResponseError`` instead."""
        if complete and self._call is not None:
            raise ProviderResponseError(
                f"a streamed Gemini function call ({self._call.name!r}) is malformed: the reply "
                "ended before its last piece"
            )
        joined = list(self._joined)
        if len(self._pieces) > 1:
            joined[-1] = _with_text(joined[-1], self._pieces)
        return joined


def join_parts(parts: Sequence[types.Part]) -> list[types.Part]:
    """Join text pieces that belong to one part, as a stream delivers them.

    A text part continues the previous one when both are text of the same kind (thought or not)
    and the previous one carries no signature yet (a signature ends its part; a later piece's
    signature moves onto the joined part). Other parts stay as they are. Never mutates ``parts``.
    """
    joiner = PartJoiner()
    for part in parts:
        joiner.add(part, part.text, part.function_call, part.thought)
    return joiner.parts()


def _with_text(part: types.Part, pieces: list[str]) -> types.Part:
    return part.model_copy(update={"text": "".join(pieces)})


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

    __slots__ = ("calls", "reasoning", "signature", "texts")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.reasoning: list[Reasoning] = []
        self.calls: list[ToolCall] = []
        self.signature: str | None = None


def _gather(parts: Sequence[types.Part], provider: str, recorder: NoteRecorder) -> _Gathered:
    gathered = _Gathered()
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
        elif part.thought and (part.text is not None or signature is not None):
            reasoning = Reasoning(part.text or "", signature=signature, provider=provider)
            gathered.reasoning.append(reasoning)
        elif part.text is not None or (signature is not None and not extra):
            # A signed empty text part (or a bare signature) signs the reply's text.
            gathered.texts.append(part.text or "")
            if signature is not None and gathered.signature is None:
                gathered.signature = signature
            elif signature is not None:
                _drop(recorder, "the thought signatures of a second signed text part")
        if extra:
            _drop(recorder, f"parts with {', '.join(extra)}")
    return gathered


def reply_parts(
    response: types.GenerateContentResponse, *, provider: str, recorder: NoteRecorder
) -> ReplyParts:
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
        return ReplyParts(usage=usage, content_filtered=blocked)
    candidate = candidates[0]
    reason = None if candidate.finish_reason is None else str(candidate.finish_reason.value)
    content = candidate.content
    gathered = _gather(join_parts((content.parts or []) if content else []), provider, recorder)
    finish_reason = None if reason is None else FINISH_REASONS.get(reason, reason)
    if gathered.calls and reason == "STOP":
        finish_reason = "tool_calls"
    data = None
    if gathered.signature is not None:
        data = {provider: {"thought_signature": gathered.signature}}
    return ReplyParts(
        text="".join(gathered.texts),
        reasoning=tuple(gathered.reasoning),
        tool_calls=tuple(gathered.calls),
        finish_reason=finish_reason,
        usage=usage,
        content_filtered=reason in CONTENT_FILTER_REASONS,
        provider_data=data,
    )


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
    part into the message's (base64 text). See ``reply_parts`` for finish reasons and usage.
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
    parts = reply_parts(response, provider=provider, recorder=recorder)
    log_notes(recorder.notes, source="from_gemini")
    return build_reply(parts, agent_name=agent_name, raw=response)
