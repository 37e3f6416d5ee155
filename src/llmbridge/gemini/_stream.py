"""Gemini stream chunks -> live neutral updates and one final message.

State only, no I/O: feed each streamed ``GenerateContentResponse`` to ``add`` and get the
updates it produces; ``finish`` joins the chunks into one response and converts it with
``from_gemini``, so the final message equals the non-streaming result of the same reply.
"""

from __future__ import annotations

from typing import Any, Final

from google.genai import types

from llmbridge import (
    Message,
    ReasoningMessageUpdate,
    Role,
    StreamInterruptedError,
    TextMessageUpdate,
    ToolCallMessageUpdate,
)
from llmbridge.gemini._errors import PROVIDER
from llmbridge.gemini._joiner import PartJoiner
from llmbridge.gemini._response import (
    arguments_json,
    fallback_call_id,
    from_gemini,
    reply_parts,
)
from llmbridge.kit import NoteRecorder, partial_reply

__all__ = ["GeminiStreamAggregator"]

_FOLD_AFTER: Final = 64


class GeminiStreamAggregator:
    """Turns one Gemini ``streamGenerateContent`` stream into neutral updates and a final message.

    ``add(chunk)`` returns the updates a chunk carries, live: ``TextMessageUpdate`` per text
    piece, ``ReasoningMessageUpdate`` per thought piece, and one ``ToolCallMessageUpdate`` per
    function call, which Gemini sends whole: the full arguments, ``index`` counting the calls
    (0, 1, ...), the id the call came with or ``f"{name}_{index}"``. Usage is cumulative in a
    stream: the last value of each field wins (a field missing from a later chunk keeps its
    value). Code execution parts arrive whole and give no update; the final message holds them
    as hosted tool calls. The last chunk that says something of the candidate's
    ``grounding_metadata`` / ``citation_metadata`` is the reply's (a grounding stream sends
    ``{}`` until its last chunk, whose offsets count the whole streamed text), so the final
    message has the citations of the non-streaming reply. ``finish()`` joins the chunks (text
    pieces of one part concatenated, see ``join_parts``) into one response, the final
    message's ``raw``, and returns
    ``from_gemini`` of it, raising what ``from_gemini`` raises; it raises
    ``StreamInterruptedError`` (retryable, ``.partial`` set) when no chunk carried a finish
    reason (a blocked prompt, which has none, is content filtered instead). ``partial`` is what
    has arrived so far, or ``None``. ``provider`` is the tag (``"gemini"`` or ``"vertex"``).
    """

    def __init__(
        self, agent_name: str, *, provider: str = PROVIDER, strict_mode: bool = False
    ) -> None:
        self.agent_name = agent_name
        self.provider = provider
        self._strict_mode = strict_mode
        self._parts = PartJoiner()
        self._calls = 0
        self._candidates: set[int] = set()
        self._first: int | None = None  # the lowest candidate index seen, the one shown
        self._finish_reason: types.FinishReason | None = None
        self._usage: dict[str, Any] = {}
        # Usage objects not folded into _usage yet: folding reads each one's fields, so it
        # is done once per _FOLD_AFTER chunks (and at the end), newest first.
        self._usages: list[types.GenerateContentResponseUsageMetadata] = []
        self._feedback: types.GenerateContentResponsePromptFeedback | None = None
        # The shown candidate's last metadata that says something (a grounding stream sends
        # {} in every chunk but the last, whose offsets count the whole streamed text).
        self._grounding: types.GroundingMetadata | None = None
        self._cited: types.CitationMetadata | None = None
        self._last: types.GenerateContentResponse | None = None

    def add(self, chunk: types.GenerateContentResponse) -> list[Message]:
        """Record one chunk; return the neutral updates it carries (possibly none)."""
        self._last = chunk
        feedback = chunk.prompt_feedback
        if feedback is not None:
            self._feedback = feedback
        usage = chunk.usage_metadata
        if usage is not None:
            self._usages.append(usage)
            if len(self._usages) >= _FOLD_AFTER:
                self._fold_usage()
        updates: list[Message] = []
        for candidate in chunk.candidates or ():
            index = candidate.index or 0
            if index != self._first and not self._shows(index):
                continue  # from_gemini refuses several candidates; only the first is shown
            reason = candidate.finish_reason
            if reason is not None:
                self._finish_reason = reason
            grounding, cited = candidate.grounding_metadata, candidate.citation_metadata
            if grounding is not None and grounding.model_fields_set:
                self._grounding = grounding
            if cited is not None and cited.model_fields_set:
                self._cited = cited
            content = candidate.content
            for part in (content.parts or ()) if content is not None else ():
                update = self._update(part)
                if update is not None:
                    updates.append(update)
        return updates

    def _shows(self, index: int) -> bool:
        """Note a candidate index other than the shown one; whether it is the new lowest."""
        self._candidates.add(index)
        if self._first is None or index < self._first:
            self._first = index
            return True
        return False

    def _fold_usage(self) -> None:
        """Fold the usage objects kept into ``_usage``: the last value of each field wins."""
        latest: dict[str, Any] = {}
        found: set[str] = set()  # the fields a newer usage gave a value
        for usage in reversed(self._usages):
            fields = usage.model_fields_set
            if fields <= found:
                continue
            for name in fields - found:
                value = getattr(usage, name)
                if value is not None:
                    latest[name] = value
                    found.add(name)
        self._usages.clear()
        self._usage = {**self._usage, **latest}

    def _update(self, part: types.Part) -> Message | None:
        # Each field of the part is read once, here (the joiner gets what was read).
        piece, text, thought = part.function_call, part.text, part.thought
        call = self._parts.add(part, text, piece, thought)  # a call streamed in pieces: at its end
        if call is not None:
            index = self._calls
            self._calls += 1
            return ToolCallMessageUpdate(
                call.name or "",
                arguments_json(call.args),
                self.agent_name,
                index=index,
                tool_call_id=fallback_call_id(call, index),
            )
        if not text or piece is not None:
            return None
        if thought:
            return ReasoningMessageUpdate(text, self.agent_name)
        return TextMessageUpdate(Role.ASSISTANT, text, self.agent_name)

    def joined(self, *, every_candidate: bool = True) -> types.GenerateContentResponse:
        """The chunks so far as one response (``finish``'s ``raw``).

        With ``every_candidate`` (the whole reply), each further candidate index seen adds an
        empty candidate, so the conversion refuses the reply as the non-streaming one would be
        refused, and a call whose pieces did not end raises ``ProviderResponseError``; without
        it (``partial``), such a call is left out.
        """
        candidates: list[types.Candidate] = []
        first = self._first
        if first is not None:
            content = types.Content(role="model", parts=self._parts.parts(complete=every_candidate))
            candidates.append(
                types.Candidate(
                    content=content,
                    finish_reason=self._finish_reason,
                    index=first,
                    grounding_metadata=self._grounding,
                    citation_metadata=self._cited,
                )
            )
            if every_candidate:
                others = sorted(self._candidates - {first})
                candidates.extend(types.Candidate(index=index) for index in others)
        last = self._last
        self._fold_usage()
        return types.GenerateContentResponse(
            candidates=candidates or None,
            prompt_feedback=self._feedback,
            usage_metadata=(
                types.GenerateContentResponseUsageMetadata(**self._usage) if self._usage else None
            ),
            model_version=None if last is None else last.model_version,
            response_id=None if last is None else last.response_id,
        )

    @property
    def partial(self) -> Message | None:
        """What has arrived so far as a neutral message (unchecked), or ``None``."""
        if self._last is None:
            return None
        recorder = NoteRecorder(strict_mode=False)
        reply = reply_parts(
            self.joined(every_candidate=False), provider=self.provider, recorder=recorder
        )
        partial = partial_reply(reply.parts, agent_name=self.agent_name)
        return reply.complete(partial, self.provider, recorder)

    def finish(self) -> Message:
        """Return the complete message; raise if the stream ended early (see the class)."""
        blocked = self._feedback is not None and self._feedback.block_reason is not None
        if self._finish_reason is None and not blocked:
            raise StreamInterruptedError(
                "the Gemini stream ended before the reply was complete (no finish reason)",
                provider=self.provider,
                retryable=True,
                partial=self.partial,
            )
        return from_gemini(
            self.joined(),
            agent_name=self.agent_name,
            strict_mode=self._strict_mode,
            provider=self.provider,
        )
