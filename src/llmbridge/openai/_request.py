"""Neutral messages -> an OpenAI Chat Completions request (API.md 4.1 and 4.5).

A pure function over data: ``to_openai`` runs the request-level tool-pairing step around the
message-by-message conversion of ``_convert`` and returns the messages with the notes of what
changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openai.types.chat import ChatCompletionMessageParam

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import Message
from llmbridge._notes import ConversionNote
from llmbridge._pairing import repair_tool_pairing, validate_tool_pairing
from llmbridge.openai._convert import ENVELOPE_ROLES, Converter, convert_messages

__all__ = ["MAX_IMAGE_BYTES", "MAX_TOOL_CALL_ID_LENGTH", "OpenAIRequest", "to_openai"]

MAX_TOOL_CALL_ID_LENGTH: Final = 40
"""Longest tool-call id OpenAI accepts in history (longer ones have been rejected with a 400)."""

MAX_IMAGE_BYTES: Final = 20 * 1024 * 1024
"""Default ``max_image_bytes``: the base64 text of one image (OpenAI's per-image cap, 20 MB)."""


@dataclass(frozen=True, slots=True)
class OpenAIRequest:
    """The converted conversation: ``messages`` for the SDK, the ``notes`` of what changed.

    ``indices[i]`` is the index of the neutral message that produced ``messages[i]`` (a message
    may produce several, or none).
    """

    messages: list[ChatCompletionMessageParam]
    notes: tuple[ConversionNote, ...]
    indices: tuple[int, ...]


def to_openai(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
) -> OpenAIRequest:
    """Convert neutral messages to OpenAI Chat Completions request messages.

    Rules: the From/Role table of the OpenAI page, message by message (``agent_name`` is "self"). Unless ``check_pairing`` is
    false, the tool-pairing step of 4.5 runs around the conversion: safe repairs first (a
    message interrupting a call and its results moved after them, ids made unique and at most 40
    characters), then every message is converted, then the pairing is checked. Notes name the
    index of the original neutral message. Never mutates ``messages``. Function names of
    history calls outside ``^[a-zA-Z0-9_-]{1,64}$`` are sanitized (a ``"renamed"`` note).
    Images given as bytes must be png, jpeg, gif or webp, and their base64 text at most
    ``max_image_bytes`` long (``None``: no limit); URLs are never downloaded, and ``gs://`` ones
    are not supported. Envelopes of request dicts pass through when their role is one of
    ``system``, ``developer``, ``user``, ``assistant``, ``tool``, ``function`` (else they are not
    supported). A call of a reply cut off at the token limit whose arguments are no JSON object
    is sent with ``"{}"``, its cut text after the result answering it (a ``"repaired"`` note).

    Raises ``InvalidMessageError`` for a message that breaks a rule (both modes; an image over
    the limit names field ``data``), for a lossy change in strict mode, for a pairing violation
    and for a request left with no message (then ``.index`` is ``None``);
    ``UnsupportedMessageError`` for an unsupported type in strict mode.
    """
    conv = Converter(agent_name, strict_mode, max_image_bytes)
    if not check_pairing:
        convert_messages(conv, messages, range(len(messages)))
        return OpenAIRequest(conv.messages, tuple(conv.recorder.notes), tuple(conv.indices))
    repaired = repair_tool_pairing(
        messages,
        agent_name=agent_name,
        max_id_length=MAX_TOOL_CALL_ID_LENGTH,
        envelope_roles=ENVELOPE_ROLES,
    )
    convert_messages(conv, repaired.messages, repaired.indices)
    validate_tool_pairing(repaired)
    if not conv.messages:
        raise InvalidMessageError("the conversation has no message left to send to OpenAI")
    notes = [*repaired.notes, *conv.recorder.notes]
    if repaired.notes and conv.recorder.notes:
        notes.sort(key=_note_order)
    return OpenAIRequest(conv.messages, tuple(notes), tuple(conv.indices))


def _note_order(note: ConversionNote) -> int:
    return -1 if note.index is None else note.index
