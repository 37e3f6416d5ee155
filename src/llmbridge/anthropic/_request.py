"""Neutral messages -> an Anthropic Messages request (API.md sections 4.2 and 4.5).

``to_anthropic`` runs the request-level pairing step, converts message by message
(``_convert.Converter``), merges the result into alternating turns (``_merge.TurnSink``),
then checks the pairing; ``convert_each`` converts message by message without merging.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import Message
from llmbridge._notes import ConversionNote, NoteRecorder
from llmbridge._pairing import repair_tool_pairing, validate_tool_pairing
from llmbridge._request_checks import check_text
from llmbridge.anthropic._convert import ENVELOPE_ROLES, MAX_IMAGE_BYTES, Converter
from llmbridge.anthropic._merge import Block, EnvelopeSink, TurnSink

if TYPE_CHECKING:
    from anthropic.types import MessageParam, TextBlockParam

__all__ = [
    "AnthropicRequest",
    "NamePolicy",
    "build_request",
    "check_name_policy",
    "convert_each",
    "to_anthropic",
]

NamePolicy = Literal["drop", "prefix"]


@dataclass(frozen=True, slots=True)
class AnthropicRequest:
    """The parts of a Messages request built by ``to_anthropic``.

    ``system`` is the list of top-level system text blocks (empty when there is none),
    ``messages`` the alternating ``MessageParam`` turns, ``notes`` what the conversion changed.
    """

    system: list[TextBlockParam]
    messages: list[MessageParam]
    notes: tuple[ConversionNote, ...]


def check_name_policy(name_policy: str) -> None:
    """Raise ``ValueError`` unless ``name_policy`` is ``"drop"`` or ``"prefix"``."""
    if name_policy not in ("drop", "prefix"):
        raise ValueError(f"name_policy must be 'drop' or 'prefix', got {name_policy!r}")


def _system_blocks(system: str | None, recorder: NoteRecorder) -> list[Block]:
    if system is None or system == "":
        return []
    check_text(system, index=None, field="system")
    if not system.strip():
        recorder.note(None, "dropped", "whitespace-only system message", field="system")
        return []
    return [{"type": "text", "text": system}]


def build_request(
    messages: Sequence[Message],
    *,
    agent_name: str,
    system: str | None = None,
    strict_mode: bool = False,
    name_policy: str = "drop",
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
) -> tuple[AnthropicRequest, list[int]]:
    """``to_anthropic``, also returning the neutral index of each turn's first message."""
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode=strict_mode)
    sink = TurnSink(recorder, _system_blocks(system, recorder))
    converter = Converter(agent_name, recorder, name_policy, sink, max_image_bytes)
    if check_pairing:
        repaired = repair_tool_pairing(
            messages, agent_name=agent_name, envelope_roles=ENVELOPE_ROLES
        )
        recorder.notes.extend(repaired.notes)
        for message, index in zip(repaired.messages, repaired.indices, strict=True):
            converter.convert(message, index)
        validate_tool_pairing(repaired)
        if not sink.messages:
            raise InvalidMessageError(
                "no user or assistant message is left to send (Anthropic needs at least one)"
            )
    else:
        for index, message in enumerate(messages):
            converter.convert(message, index)
    trimmed = sink.trim_prefill()
    if trimmed is not None:
        recorder.note(
            trimmed, "repaired", "trailing whitespace removed from the final assistant text"
        )
    notes = sorted(recorder.notes, key=lambda note: -1 if note.index is None else note.index)
    request = AnthropicRequest(
        cast("list[TextBlockParam]", sink.system),
        cast("list[MessageParam]", sink.messages),
        tuple(notes),
    )
    return request, sink.first_indices


def to_anthropic(
    messages: Sequence[Message],
    *,
    agent_name: str,
    system: str | None = None,
    strict_mode: bool = False,
    name_policy: NamePolicy = "drop",
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
) -> AnthropicRequest:
    """Convert a neutral conversation into an Anthropic Messages request.

    ``agent_name`` names the provider agent ("self": its messages become assistant turns);
    ``system`` is the agent's own system message, put before the SYSTEM messages' text.
    Rules: consecutive same-role turns are merged with tool results (user) and
    thinking (assistant) first; empty text is dropped; system text after a turn moves to the
    top-level ``system`` (a ``"repaired"`` note), and so does trailing whitespace of a final
    assistant text (a prefill); images are base64 (png, jpeg, gif or webp, base64 text at most
    ``max_image_bytes`` long, ``None``: no limit) or URL sources (never downloaded); tool-call
    arguments become ``input`` objects; real ids are kept and ids outside ``[a-zA-Z0-9_-]``
    rewritten in call and result; function names of history calls outside
    ``^[a-zA-Z0-9_-]{1,128}$`` are sanitized (``"renamed"``); only Anthropic reasoning is sent
    back. ``gs://`` image URLs and envelopes of a role other than ``user``, ``assistant`` and
    ``system`` are not supported; user and assistant envelopes merge with neighbouring turns of
    their role. A call of a reply cut off at the token limit whose arguments are no JSON object
    is sent with ``input`` ``{}``, its cut text after the result answering it (``"repaired"``).
    ``name_policy`` says what happens to other agents' names: ``"drop"`` (a lossy note) or
    ``"prefix"`` (a ``"[name] "`` text block first). With ``check_pairing`` the tool-pairing step
    runs (calls answered by the results that follow them; safe repairs first). Raises
    ``InvalidMessageError`` for a message that breaks a rule (both modes), a pairing violation, or
    an empty request; in strict mode also for lossy changes (``UnsupportedMessageError`` for types
    Anthropic cannot carry). ``ValueError`` for an unknown ``name_policy``.
    """
    request, _ = build_request(
        messages,
        agent_name=agent_name,
        system=system,
        strict_mode=strict_mode,
        name_policy=name_policy,
        check_pairing=check_pairing,
        max_image_bytes=max_image_bytes,
    )
    return request


def convert_each(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    name_policy: str = "drop",
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
) -> tuple[list[Message], tuple[ConversionNote, ...]]:
    """Convert message by message (no merge, no pairing step) into ``MessageEnvelope``s.

    Each envelope keeps its source message's ``from_``; SYSTEM text becomes an envelope of
    ``{"role": "system", "content": [text blocks]}``; an envelope of a dict passes unchanged.
    Raises as ``to_anthropic`` does for single messages.
    """
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode=strict_mode)
    sink = EnvelopeSink(messages)
    converter = Converter(agent_name, recorder, name_policy, sink, max_image_bytes)
    for index, message in enumerate(messages):
        converter.convert(message, index)
    return sink.envelopes, tuple(recorder.notes)
