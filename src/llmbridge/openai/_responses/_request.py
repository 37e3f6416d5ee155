"""Neutral messages -> the ``input`` items of an OpenAI Responses request.

``to_openai_responses`` runs the kit's ``prepare_conversation`` (the pairing step; Responses
takes call ids as they are) around the message-by-message conversion of ``_convert`` and
returns the items with the notes of what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from llmbridge import ConversionNote, InvalidMessageError, Message
from llmbridge.kit import (
    NamePolicy,
    NoteRecorder,
    ProviderRequest,
    RawTurn,
    ScanCache,
    check_name_policy,
    prepare_conversation,
)
from llmbridge.openai._responses._convert import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES, Converter

if TYPE_CHECKING:
    from openai.types.responses import ResponseInputItemParam

__all__ = [
    "NamePolicy",
    "OpenAIResponsesRequest",
    "check_name_policy",
    "raw_turn",
    "to_openai_responses",
]

_MOVABLE_ROLES: Final = frozenset({"user", "system", "developer"})


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenAIResponsesRequest(ProviderRequest):
    """The converted conversation: the ``input`` items (also ``messages``) and the ``notes``.

    ``indices[i]`` is the index of the neutral message that produced ``input[i]`` (a message
    may produce several items, or none); ``tool_ids`` is always empty (Responses takes call ids
    as they are). There is no instructions field: ``OpenAIResponsesAgent`` sends its
    ``system_message`` as ``instructions``; SYSTEM messages stay in place as items.
    """

    messages: list[ResponseInputItemParam]

    @property
    def input(self) -> list[ResponseInputItemParam]:
        """The ``input`` items for ``client.responses.create`` (the same list as ``messages``)."""
        return self.messages


def raw_turn(payload: Any) -> RawTurn:
    """How a Responses input item given as-is takes part in tool pairing.

    An assistant message is an assistant turn; a user, system or developer message may be moved
    after the results it interrupts (results are ``function_call_output`` items, never inside
    a message); any other item (calls, outputs, reasoning, hosted tools) is left alone.
    """
    if not isinstance(payload, dict):
        return "opaque"
    kind = payload.get("type", "message")
    role = payload.get("role")
    if kind != "message" or not isinstance(role, str):
        return "opaque"
    if role == "assistant":
        return "assistant"
    return "movable" if role in _MOVABLE_ROLES else "opaque"


def to_openai_responses(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    name_policy: NamePolicy = "drop",
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
    max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    scans: ScanCache | None = None,
) -> OpenAIResponsesRequest:
    """Convert neutral messages to the ``input`` items of an OpenAI Responses request.

    Rules: SYSTEM text -> a system message item in place; user and other agents' text -> user items
    (string content), images and multimodal messages -> user items of ``input_text`` /
    ``input_image`` parts (``detail`` always set, ``"auto"`` by default; bytes as data URLs; https
    URLs only); text from self -> an assistant item, in the output-message form when this wing's
    ``provider_data`` holds its ``msg_`` id (with its ``phase``; several recorded message items are
    replayed each as its own item); a tool-call message -> its reasoning items, its text, then one
    ``function_call`` per call (``fc_`` ids only from ``provider_data``); results ->
    ``function_call_output`` items (``is_error`` is carried by the text: an ``"omitted"`` note).
    Reasoning of this wing with an ``rs_`` id and ``encrypted_content`` goes right before the item
    it preceded when that item is sent with its own id, else it is omitted (note); other providers'
    reasoning is omitted (note). This wing's citations go back as the ``annotations`` of the
    ``output_text`` they came from (output-message form only; others are not sent, no note); the
    hosted tool calls it read go back as their exact items at their output positions (with
    their ids; one whose reasoning cannot be sent, or whose id was sent already, is omitted with
    a note); another provider's hosted tools are omitted (one note, never raising). An item id
    is never sent twice, nor one of another prefix. Empty text is dropped (note).
    ``name_policy``: other agents' names are dropped (a lossy note) or carried as a
    ``"[name] "`` prefix. With ``check_pairing`` the tool-pairing step runs (safe
    repairs, then the check). Never mutates ``messages``. ``scans`` (a ``kit.ScanCache``; a
    connector passes its own) keeps the pairing scan, so the same history sent again with more after
    it is scanned only past what was scanned before.

    Raises ``InvalidMessageError`` for a message that breaks a rule (both modes), a pairing
    violation, an empty request (``.index`` ``None``) and, in strict mode, a lossy change;
    ``UnsupportedMessageError`` in strict mode for a type Responses cannot carry; ``ValueError``
    for an unknown ``name_policy``.
    """
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode)
    converter = Converter(agent_name, recorder, name_policy, max_image_bytes, max_document_bytes)
    prepared = prepare_conversation(
        messages,
        agent_name=agent_name,
        check_pairing=check_pairing,
        raw_turn=raw_turn,
        scans=scans,
    )
    converter.convert(prepared.messages, prepared.indices)
    if check_pairing:
        prepared.raise_violation()
        if not converter.items:
            raise InvalidMessageError(
                "the conversation has no item left to send to OpenAI Responses"
            )
    notes = [*prepared.notes, *recorder.notes]
    if prepared.notes and recorder.notes:
        notes.sort(key=_note_order)
    return OpenAIResponsesRequest(
        messages=converter.items,  # type: ignore[arg-type]  # built to the SDK's item shapes
        indices=tuple(converter.indices),
        notes=tuple(notes),
        tool_ids=prepared.tool_ids,
    )


def _note_order(note: ConversionNote) -> int:
    return -1 if note.index is None else note.index
