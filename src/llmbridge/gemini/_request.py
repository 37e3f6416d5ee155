"""Neutral messages -> a Gemini ``generateContent`` request (``system_instruction``, ``contents``).

``to_gemini`` runs the kit's ``prepare_conversation`` (the pairing step; Gemini takes ids as
they are), converts message by message (``_convert.Converter``), merges the result into
contents (``_contents.ContentSink``), gives the foreign calls of the current turn the bypass
signature, then checks the pairing and the turn order; ``convert_each`` converts message by
message without merging (a connector's fragments).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from llmbridge import ConversionNote, InvalidMessageError, Message
from llmbridge.gemini._contents import ContentSink, Part, PayloadSink
from llmbridge.gemini._convert import ENVELOPE_ROLES, Converter
from llmbridge.gemini._model_turn import SKIP_THOUGHT_SIGNATURE
from llmbridge.kit import (
    NamePolicy,
    NoteRecorder,
    ProviderRequest,
    RawTurn,
    ScanCache,
    check_name_policy,
    check_text,
    prepare_conversation,
)

__all__ = [
    "GeminiRequest",
    "NamePolicy",
    "check_name_policy",
    "convert_each",
    "raw_turn",
    "to_gemini",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class GeminiRequest(ProviderRequest):
    """The parts of a ``generateContent`` request built by ``to_gemini``.

    ``system_instruction`` is the list of system text parts (empty when there is none),
    ``contents`` (also ``messages``) the ``user`` / ``model`` content dicts in the SDK's
    snake_case names (``indices``: the neutral index of each content's first message),
    ``notes`` what the conversion changed, ``tool_ids`` the ids the target rule changed (none:
    Gemini takes ids as they are).
    """

    system_instruction: list[Part]

    @property
    def contents(self) -> list[dict[str, Any]]:
        """The contents, in order (the same list as ``messages``)."""
        return cast("list[dict[str, Any]]", self.messages)

    def agent_input(self) -> Iterator[tuple[Any, int | None]]:
        """The system parts first, as a ``{"role": "system"}`` content the agent lifts."""
        if self.system_instruction:
            yield {"role": "system", "parts": self.system_instruction}, None
        yield from zip(self.messages, self.indices, strict=True)


def raw_turn(payload: Any) -> RawTurn:
    """How a Gemini content given as-is takes part in tool pairing.

    A model content is an assistant turn; a user content without ``function_response`` parts
    and a system content may be moved after the results they interrupt; a user content with
    responses, and roles Gemini does not take, are left alone.
    """
    role = payload.get("role") if isinstance(payload, dict) else None
    if not isinstance(role, str) or role not in ENVELOPE_ROLES:
        return "opaque"
    if role == "model":
        return "assistant"
    parts = payload.get("parts")
    if isinstance(parts, list) and any(
        isinstance(part, dict) and ("function_response" in part or "functionResponse" in part)
        for part in parts
    ):
        return "opaque"
    return "movable"


def _system_parts(system: str | None, recorder: NoteRecorder) -> list[Part]:
    if system is None or system == "":
        return []
    check_text(system, index=None, field="system")
    if system.isspace():
        recorder.record(None, "dropped", "whitespace-only system message", field="system")
        return []
    return [{"text": system}]


def _sorted(notes: Sequence[ConversionNote]) -> tuple[ConversionNote, ...]:
    return tuple(sorted(notes, key=lambda note: -1 if note.index is None else note.index))


def _is_user_input(content: Any) -> bool:
    """Whether a content is a user turn with text or media (not only function responses)."""
    parts = content.get("parts") if isinstance(content, dict) else None
    return (
        isinstance(content, dict)
        and content.get("role") == "user"
        and isinstance(parts, list)
        and any(not (isinstance(p, dict) and "function_response" in p) for p in parts)
    )


def _bypass_foreign_calls(sink: ContentSink, recorder: NoteRecorder) -> None:
    """Give the first call of each model content of the current turn the bypass signature.

    The current turn starts at the last user content with text or media; a first call without
    a signature there (foreign or hand-written history) would be refused by Gemini 3.
    """
    contents = sink.contents
    # Searched from the end: the current turn is short, the history long.
    last = len(contents) - 1
    start = next((i for i in range(last, -1, -1) if _is_user_input(contents[i])), 0)
    for position in range(start, len(contents)):
        content = contents[position]
        parts = content.get("parts")
        if content.get("role") != "model" or not isinstance(parts, list):
            continue
        found = next(
            ((i, p) for i, p in enumerate(parts) if isinstance(p, dict) and "function_call" in p),
            None,
        )
        if found is None or "thought_signature" in found[1]:
            continue
        at, part = found
        # New dicts: built parts and the caller's content dicts are never changed in place.
        new_parts = [*parts[:at], {**part, "thought_signature": SKIP_THOUGHT_SIGNATURE}]
        new_parts.extend(parts[at + 1 :])
        contents[position] = {**content, "parts": new_parts}
        name = part["function_call"].get("name")
        recorder.record(
            sink.call_indices.get(position, sink.first_indices[position]),
            "repaired",
            f"call {name!r} has no Gemini thought signature: sent with {SKIP_THOUGHT_SIGNATURE!r}",
        )


def _check_turn_order(sink: ContentSink) -> None:
    contents = sink.contents
    if not contents:
        raise InvalidMessageError(
            "no user or model content is left to send (Gemini needs at least one)"
        )
    if contents[0].get("role") == "model":
        raise InvalidMessageError(
            "the conversation starts with a model turn; Gemini needs a user turn first (a "
            "function call turn must follow a user turn)",
            index=sink.first_indices[0],
        )
    if contents[-1].get("role") == "model":
        raise InvalidMessageError(
            "the conversation ends with a model turn; Gemini needs a user turn last",
            index=sink.first_indices[-1],
        )


def to_gemini(
    messages: Sequence[Message],
    *,
    agent_name: str,
    system: str | None = None,
    strict_mode: bool = False,
    name_policy: NamePolicy = "drop",
    check_pairing: bool = True,
    provider: str = "gemini",
    scans: ScanCache | None = None,
) -> GeminiRequest:
    """Convert a neutral conversation into a Gemini ``generateContent`` request.

    ``agent_name`` names the provider agent ("self": its messages, and messages without sender of
    role ASSISTANT, become ``model`` contents; everything else ``user``); ``system`` is the agent's
    own system message, put before the SYSTEM messages' text in ``system_instruction``. Rules:
    consecutive same-role contents merge (a ``"merged"`` note; parts are never combined, so a signed
    part stays whole); function responses go in call order in one user content, named after their
    call, ``response`` ``{"output": text}`` (``{"error": text}`` for ``is_error``); ``args`` are the
    parsed arguments; signatures come back from ``provider_data[provider]["thought_signature"]``
    (calls and texts) and ``Reasoning.signature`` (thought parts, only reasoning of ``provider``;
    other reasoning is ``"omitted"``); hosted tool calls of ``provider`` (code execution) go back
    as their recorded parts where they were in the text, another provider's are ``"omitted"``;
    citations are not sent (a request has no field for them); in the current turn, a model
    content whose first call has no such signature gets ``SKIP_THOUGHT_SIGNATURE`` on it
    (``"repaired"``). Images: png, jpeg and
    webp bytes inline (20 MB per request), ``gs://`` and Files API URIs as ``file_data``; GIF and
    other URLs are not supported (dropped with a note; strict: ``UnsupportedMessageError``). Video:
    bytes inline, ``gs://``, Files API and YouTube watch URLs as ``file_data``; Gemini files
    (``file_provider="gemini"``, a bare ``files/<name>`` expanded) as ``file_data``; audio and
    video in a tool result are not supported (its parts take images, PDFs and text). Empty
    text is dropped (strict raises). ``name_policy``: other agents' names dropped (a lossy note) or
    carried as a ``"[name] "`` text part first. With ``check_pairing`` the tool-pairing step runs
    and the request must start and end with a user content. ``scans`` (a ``kit.ScanCache``; a
    connector passes its own) keeps the pairing scan, so the same history sent again with more after
    it is scanned only past what was scanned before. Raises ``InvalidMessageError`` for a message
    that breaks a rule (both modes), a pairing violation, a request starting or ending with a model
    content, or an empty request; ``ValueError`` for an unknown ``name_policy``.
    """
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode)
    sink = ContentSink(recorder, _system_parts(system, recorder))
    converter = Converter(agent_name, recorder, name_policy, sink, provider)
    prepared = prepare_conversation(
        messages,
        agent_name=agent_name,
        check_pairing=check_pairing,
        raw_turn=raw_turn,
        scans=scans,
    )
    recorder.notes.extend(prepared.notes)
    for message, index in zip(prepared.messages, prepared.indices, strict=True):
        converter.convert(message, index)
    if check_pairing:
        prepared.raise_violation()
        _check_turn_order(sink)
    _bypass_foreign_calls(sink, recorder)
    return GeminiRequest(
        system_instruction=sink.system,
        messages=sink.contents,
        indices=tuple(sink.first_indices),
        notes=_sorted(recorder.notes),
        tool_ids=prepared.tool_ids,
    )


def convert_each(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    name_policy: str = "drop",
    provider: str = "gemini",
) -> ProviderRequest:
    """Convert message by message (no merge, no pairing step, no bypass; ids still assigned).

    Each neutral message gives at most one payload (``indices`` names it): a content dict,
    ``{"role": "system", "parts": [text parts]}`` for SYSTEM text (``GeminiChatAgent`` lifts it
    into the ``system_instruction``), or the dict of an envelope passed through unchanged.
    Raises as ``to_gemini`` does for single messages.
    """
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode)
    sink = PayloadSink()
    converter = Converter(agent_name, recorder, name_policy, sink, provider)
    prepared = prepare_conversation(messages, agent_name=agent_name, check_pairing=False)
    recorder.notes.extend(prepared.notes)
    for message, index in zip(prepared.messages, prepared.indices, strict=True):
        converter.convert(message, index)
    return ProviderRequest(
        messages=sink.payloads,
        indices=tuple(sink.indices),
        notes=_sorted(recorder.notes),
        tool_ids=prepared.tool_ids,
    )
