"""Neutral messages -> an OpenAI Chat Completions request.

A pure function over data: ``to_openai`` runs the kit's ``prepare_conversation`` (the pairing
step and the 40-character id rule) around the message-by-message conversion of ``_convert`` and
returns the messages with the notes of what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from openai.types.chat import ChatCompletionMessageParam

from llmbridge import ConversionNote, InvalidMessageError, Message
from llmbridge.kit import ProviderRequest, RawTurn, ScanCache, ToolIdRule, prepare_conversation
from llmbridge.openai._convert import convert_messages
from llmbridge.openai._converter import Converter
from llmbridge.openai._media import MAX_DOCUMENT_BYTES

__all__ = [
    "ID_RULE",
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE_BYTES",
    "MAX_TOOL_CALL_ID_LENGTH",
    "OpenAIRequest",
    "raw_turn",
    "to_openai",
]

MAX_TOOL_CALL_ID_LENGTH: Final = 40
"""Longest tool-call id OpenAI accepts in history (longer ones have been rejected with a 400)."""

MAX_IMAGE_BYTES: Final = 20 * 1024 * 1024
"""Default ``max_image_bytes``: the base64 text of one image (OpenAI's per-image cap, 20 MB)."""


ID_RULE: Final = ToolIdRule(max_length=MAX_TOOL_CALL_ID_LENGTH)
"""The tool-call ids Chat Completions takes in history."""

_MOVABLE_ROLES: Final = frozenset({"user", "system", "developer"})


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenAIRequest(ProviderRequest):
    """The converted conversation: ``messages`` for the SDK, the ``notes`` of what changed.

    ``indices[i]`` is the index of the neutral message that produced ``messages[i]`` (a message
    may produce several, or none); ``tool_ids`` the ids the 40-character rule shortened.
    """

    messages: list[ChatCompletionMessageParam]


def raw_turn(payload: Any) -> RawTurn:
    """How a Chat Completions message given as-is takes part in tool pairing.

    An assistant message is an assistant turn; a user, system or developer message may be moved
    after the results it interrupts (results are ``tool`` messages, never inside a user
    message); anything else (tool results, roles Chat Completions does not take) is left alone.
    """
    role = payload.get("role") if isinstance(payload, dict) else None
    if not isinstance(role, str):
        return "opaque"
    if role == "assistant":
        return "assistant"
    return "movable" if role in _MOVABLE_ROLES else "opaque"


def to_openai(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
    max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    scans: ScanCache | None = None,
) -> OpenAIRequest:
    """Convert neutral messages to OpenAI Chat Completions request messages.

    Rules: the From/Role table, message by message (``agent_name`` is "self"). Unless
    ``check_pairing`` is false, the tool-pairing step runs around the conversion: safe repairs
    first (a message interrupting a call and its results moved after them, ids made unique),
    then every message is converted, then the pairing is checked. Ids over 40 characters are
    shortened deterministically in both modes (``tool_ids`` maps them). Notes name the
    index of the original neutral message. Never mutates ``messages``. Function names of
    history calls outside ``^[a-zA-Z0-9_-]{1,64}$`` are sanitized (a ``"renamed"`` note).
    Images given as bytes must be png, jpeg, gif or webp, and their base64 text at most
    ``max_image_bytes`` long (``None``: no limit); URLs are never downloaded, and ``gs://`` ones
    are not supported. Documents and audio: PDF bytes become a ``file``
    part (their base64 text at most ``max_document_bytes`` long), text documents a text part
    (a ``"repaired"`` note), wav and mp3 audio an ``input_audio`` part, PDF URLs and other types
    not supported; the media of tool results go in one user message after the batch's last
    tool message, each after a text ``"[result of <id>]"`` (a ``"repaired"`` note). Envelopes of
    request dicts pass through when their role is one of
    ``system``, ``developer``, ``user``, ``assistant``, ``tool``, ``function`` (else they are not
    supported). A call of a reply cut off at the token limit whose arguments are no JSON object
    is sent with ``"{}"``, its cut text after the result answering it (a ``"repaired"`` note).
    A reply's citations are never sent (Chat messages have no annotations; no note) and nor
    are its hosted tool calls, of any provider (an ``"omitted"`` note, never raising).
    ``scans`` (a ``kit.ScanCache``; a connector passes its own) keeps the pairing scan, so the
    same history sent again with more after it is scanned only past what was scanned before.

    Raises ``InvalidMessageError`` for a message that breaks a rule (both modes; an image over
    the limit names field ``data``), for a lossy change in strict mode, for a pairing violation
    and for a request left with no message (then ``.index`` is ``None``);
    ``UnsupportedMessageError`` for an unsupported type in strict mode.
    """
    conv = Converter(agent_name, strict_mode, max_image_bytes, max_document_bytes)
    prepared = prepare_conversation(
        messages,
        agent_name=agent_name,
        check_pairing=check_pairing,
        tool_id_rule=ID_RULE,
        raw_turn=raw_turn,
        scans=scans,
    )
    convert_messages(conv, prepared.messages, prepared.indices)
    if check_pairing:
        prepared.raise_violation()
        if not conv.messages:
            raise InvalidMessageError("the conversation has no message left to send to OpenAI")
    notes = [*prepared.notes, *conv.recorder.notes]
    if prepared.notes and conv.recorder.notes:
        notes.sort(key=_note_order)
    return OpenAIRequest(
        messages=conv.messages,
        indices=tuple(conv.indices),
        notes=tuple(notes),
        tool_ids=prepared.tool_ids,
    )


def _note_order(note: ConversionNote) -> int:
    return -1 if note.index is None else note.index
