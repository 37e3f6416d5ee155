"""Neutral messages -> an Anthropic Messages request.

``to_anthropic`` runs the kit's ``prepare_conversation`` (the pairing step and Anthropic's id
rule), converts message by message (``_convert.Converter``), merges the result into alternating
turns (``_merge.TurnSink``), then checks the pairing; ``convert_each`` converts message by
message without merging (the connector's fragments).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from llmbridge import ConversionNote, InvalidMessageError, Message
from llmbridge.anthropic._convert import ENVELOPE_ROLES, Converter
from llmbridge.anthropic._media import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from llmbridge.anthropic._merge import Block, PayloadSink, TurnSink
from llmbridge.kit import (
    NamePolicy,
    NoteRecorder,
    ProviderRequest,
    RawTurn,
    ScanCache,
    ToolIdRule,
    check_name_policy,
    check_text,
    prepare_conversation,
)

if TYPE_CHECKING:
    from anthropic.types import MessageParam, TextBlockParam

__all__ = [
    "ID_RULE",
    "AnthropicRequest",
    "NamePolicy",
    "build_request",
    "check_name_policy",
    "convert_each",
    "raw_turn",
    "to_anthropic",
]

ID_RULE: Final = ToolIdRule(pattern=r"^[a-zA-Z0-9_-]+$")
"""The tool-call ids Anthropic takes (``tool_use.id`` and ``tool_result.tool_use_id``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AnthropicRequest(ProviderRequest):
    """The parts of a Messages request built by ``to_anthropic``.

    ``system`` is the list of top-level system text blocks (empty when there is none),
    ``messages`` the alternating ``MessageParam`` turns (``indices``: the neutral index of each
    turn's first message), ``notes`` what the conversion changed, ``tool_ids`` the ids rewritten
    to ``^[a-zA-Z0-9_-]+$``.
    """

    system: list[TextBlockParam]
    messages: list[MessageParam]

    def agent_input(self) -> Iterator[tuple[Any, int | None]]:
        """The system blocks first, as a ``{"role": "system"}`` message the agent lifts."""
        if self.system:
            yield {"role": "system", "content": self.system}, None
        yield from zip(self.messages, self.indices, strict=True)


def raw_turn(payload: Any) -> RawTurn:
    """How an Anthropic message given as-is takes part in tool pairing.

    An assistant message is an assistant turn; a user message without ``tool_result`` blocks and
    a system message may be moved after the results they interrupt; a user message with results,
    and roles Anthropic does not take, are left alone.
    """
    role = payload.get("role") if isinstance(payload, dict) else None
    if not isinstance(role, str) or role not in ENVELOPE_ROLES:
        return "opaque"
    if role == "assistant":
        return "assistant"
    content = payload.get("content")
    if isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_result" for block in content
    ):
        return "opaque"
    return "movable"


def _system_blocks(system: str | None, recorder: NoteRecorder) -> list[Block]:
    if system is None or system == "":
        return []
    check_text(system, index=None, field="system")
    if not system.strip():
        recorder.record(None, "dropped", "whitespace-only system message", field="system")
        return []
    return [{"type": "text", "text": system}]


def _sorted(notes: Sequence[ConversionNote]) -> tuple[ConversionNote, ...]:
    return tuple(sorted(notes, key=lambda note: -1 if note.index is None else note.index))


def build_request(
    messages: Sequence[Message],
    *,
    agent_name: str,
    system: str | None = None,
    strict_mode: bool = False,
    name_policy: str = "drop",
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
    max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    scans: ScanCache | None = None,
) -> AnthropicRequest:
    """The work of ``to_anthropic`` (kept apart so tests can watch every payload it builds)."""
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode)
    sink = TurnSink(recorder, _system_blocks(system, recorder))
    converter = Converter(
        agent_name, recorder, name_policy, sink, max_image_bytes, max_document_bytes
    )
    prepared = prepare_conversation(
        messages,
        agent_name=agent_name,
        check_pairing=check_pairing,
        tool_id_rule=ID_RULE,
        raw_turn=raw_turn,
        scans=scans,
    )
    recorder.notes.extend(prepared.notes)
    for message, index in zip(prepared.messages, prepared.indices, strict=True):
        converter.convert(message, index)
    if check_pairing:
        prepared.raise_violation()
        if not sink.messages:
            raise InvalidMessageError(
                "no user or assistant message is left to send (Anthropic needs at least one)"
            )
    trimmed = sink.trim_prefill()
    if trimmed is not None:
        recorder.record(
            trimmed, "repaired", "trailing whitespace removed from the final assistant text"
        )
    return AnthropicRequest(
        system=cast("list[TextBlockParam]", sink.system),
        messages=cast("list[MessageParam]", sink.messages),
        indices=tuple(sink.first_indices),
        notes=_sorted(recorder.notes),
        tool_ids=prepared.tool_ids,
    )


def to_anthropic(
    messages: Sequence[Message],
    *,
    agent_name: str,
    system: str | None = None,
    strict_mode: bool = False,
    name_policy: NamePolicy = "drop",
    check_pairing: bool = True,
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
    max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    scans: ScanCache | None = None,
) -> AnthropicRequest:
    """Convert a neutral conversation into an Anthropic Messages request.

    ``agent_name`` names the provider agent ("self": its messages become assistant turns);
    ``system`` is the agent's own system message, put before the SYSTEM messages' text. Rules:
    consecutive same-role turns are merged with tool results (user) and thinking (assistant) first;
    empty text is dropped; system text after a turn moves to the top-level ``system`` (a
    ``"repaired"`` note), and so does trailing whitespace of a final assistant text (a prefill);
    images are base64 (png, jpeg, gif or webp, base64 text at most ``max_image_bytes`` long,
    ``None``: no limit) or URL sources (never downloaded); PDFs are ``document`` blocks with a
    base64 source (base64 text at most ``max_document_bytes`` long) or an http(s) URL source, text,
    markdown and csv documents ``document`` blocks with a ``text/plain`` text source; images and
    documents with ``file_provider="anthropic"`` ``file`` sources (other providers' files are not
    supported); audio is not supported; a tool result of parts becomes ``tool_result`` content
    blocks (text, image, document); tool-call arguments become ``input`` objects; real ids are
    kept and ids outside ``[a-zA-Z0-9_-]`` rewritten in call and result; function names of
    history calls outside ``^[a-zA-Z0-9_-]{1,128}$`` are sanitized (``"renamed"``); only
    Anthropic reasoning is sent back. A reply's Anthropic citations and hosted tools go back in
    place (text blocks with their ``citations``, server and MCP tool blocks as recorded, a
    result right after its use; whitespace-only text between them left out, ``"repaired"``), so
    a ``pause_turn`` reply sent as the last message is continued by the API; another provider's
    hosted tools are not sent (one ``"omitted"`` note, never raising), nor its citations.
    ``gs://`` image URLs and envelopes of a role other than ``user``, ``assistant`` and ``system``
    are not supported; user and assistant envelopes merge with neighbouring turns of their role. A
    call of a reply cut off at the token limit whose arguments are no JSON object is sent with
    ``input`` ``{}``, its cut text after the result answering it (``"repaired"``). ``name_policy``
    says what happens to other agents' names: ``"drop"`` (a lossy note) or ``"prefix"`` (a ``"[name]
    "`` text block first). With ``check_pairing`` the tool-pairing step runs (calls answered by the
    results that follow them; safe repairs first). ``scans`` (a ``kit.ScanCache``; a connector
    passes its own) keeps the pairing scan, so the same history sent again with more after it is
    scanned only past what was scanned before. Raises ``InvalidMessageError`` for a message that
    breaks a rule (both modes), a pairing violation, or an empty request; in strict mode also for
    lossy changes (``UnsupportedMessageError`` for types Anthropic cannot carry). ``ValueError`` for
    an unknown ``name_policy``.
    """
    return build_request(
        messages,
        agent_name=agent_name,
        system=system,
        strict_mode=strict_mode,
        name_policy=name_policy,
        check_pairing=check_pairing,
        max_image_bytes=max_image_bytes,
        max_document_bytes=max_document_bytes,
        scans=scans,
    )


def convert_each(
    messages: Sequence[Message],
    *,
    agent_name: str,
    strict_mode: bool = False,
    name_policy: str = "drop",
    max_image_bytes: int | None = MAX_IMAGE_BYTES,
    max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
) -> ProviderRequest:
    """Convert message by message (no merge, no pairing step; ids still mapped).

    Each neutral message gives at most one payload (``indices`` names it): a ``MessageParam``,
    ``{"role": "system", "content": [text blocks]}`` for SYSTEM text (``AnthropicChatAgent``
    lifts it into ``system``), or the dict of an envelope passed through unchanged. Raises as
    ``to_anthropic`` does for single messages.
    """
    check_name_policy(name_policy)
    recorder = NoteRecorder(strict_mode)
    sink = PayloadSink()
    converter = Converter(
        agent_name, recorder, name_policy, sink, max_image_bytes, max_document_bytes
    )
    prepared = prepare_conversation(
        messages, agent_name=agent_name, check_pairing=False, tool_id_rule=ID_RULE
    )
    recorder.notes.extend(prepared.notes)
    for message, index in zip(prepared.messages, prepared.indices, strict=True):
        converter.convert(message, index)
    return ProviderRequest(
        messages=sink.payloads,
        indices=tuple(sink.indices),
        notes=_sorted(recorder.notes),
        tool_ids=prepared.tool_ids,
    )
