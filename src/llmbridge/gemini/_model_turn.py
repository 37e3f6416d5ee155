"""The parts of a model content other than its calls: thought parts, the text with its own
signature, and the hosted tool calls replayed where they were (API.md 15, 19.5).

``ModelTurn`` is the converter's base for these pieces (``_convert.Converter`` holds the
``provider`` and the ``recorder``); it also gives every text part its check
(``_text_part``). Only the state of ``provider`` is sent back: its reasoning, signatures and
hosted calls; another provider's reasoning and hosted calls are omitted with a note.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import Reasoning, TextMessage, ToolCallMessage
from llmbridge.gemini._arguments import checked_signature
from llmbridge.gemini._contents import Part
from llmbridge.gemini._hosted import SIGNED_TEXT, checked_position, replay_parts
from llmbridge.kit import NoteRecorder, check_text, own_hosted_tools

__all__ = ["SKIP_THOUGHT_SIGNATURE", "TEXT_AFTER_CALLS", "ModelTurn"]

SKIP_THOUGHT_SIGNATURE: Final = "skip_thought_signature_validator"
"""Google's documented bypass value for a function call without a signature of its own.

It reaches the wire literally (the SDK sends a ``str`` in a bytes field unchanged), never as
base64 of the string, which the API rejects as a corrupted signature."""
TEXT_AFTER_CALLS: Final = "text_after_calls"
"""The ``provider_data[tag]`` key of a ``ToolCallMessage`` whose model turn ended in an empty
text part after its calls: the part's fields but its text (``{}`` or its signature)."""


class ModelTurn:
    """Builds the thought, text and hosted-call parts of a model content (a base of the
    converter, which sets ``provider`` and ``recorder``)."""

    __slots__ = ()
    provider: str
    recorder: NoteRecorder

    def _text_part(self, text: str, index: int, field: str) -> Part | None:
        if not text.isascii():  # check_text's own first test, inline: one call less per text
            check_text(text, index=index, field=field)
        if text and not text.isspace():
            return {"text": text}
        self.recorder.record(index, "dropped", "empty or whitespace-only text", field=field)
        return None

    @staticmethod
    def _signature(entry: Any, index: int, field: str) -> str | None:
        """The ``thought_signature`` in ``entry`` (``provider_data[provider]``), checked."""
        signature = entry.get("thought_signature") if isinstance(entry, Mapping) else None
        if signature is None or signature == SKIP_THOUGHT_SIGNATURE:
            return signature
        return checked_signature(signature, index, field)

    def _thoughts(self, reasoning: Sequence[Reasoning], index: int) -> list[Part]:
        parts: list[Part] = []
        omitted: list[str] = []
        for position, item in enumerate(reasoning):
            if item.provider != self.provider:
                omitted.append(repr(item.provider))
                continue
            field = f"reasoning[{position}]"
            check_text(item.text, index=index, field=f"{field}.text")
            if not item.text and not item.signature:
                omitted.append("empty")
                continue
            part: Part = {"text": item.text, "thought": True}
            if item.signature:
                part["thought_signature"] = checked_signature(
                    item.signature, index, f"{field}.signature"
                )
            parts.append(part)
        if omitted:
            self.recorder.record(
                index, "omitted", f"reasoning not sent to Gemini ({', '.join(omitted)})"
            )
        return parts

    def _model_text(self, text: str, entry: Any, index: int) -> Part | None:
        """A model text part with the signature in ``entry`` (``provider_data[provider]``, or
        ``None``); an empty text is kept only when signed."""
        signature = None
        if entry is not None:
            signature = self._signature(entry, index, f"provider_data[{self.provider!r}]")
        if signature is None:
            return self._text_part(text, index, "content")
        check_text(text, index=index, field="content")
        return {"text": text, "thought_signature": signature}

    def _text_after_calls(self, after: Mapping[str, Any], index: int) -> Part:
        """The empty text part that followed the calls of an imported turn (the SDK's ``Chat``
        records a streamed turn so), with its signature."""
        field = f"provider_data[{self.provider!r}][{TEXT_AFTER_CALLS!r}]"
        signature = self._signature(after, index, field)
        return {"text": ""} if signature is None else {"text": "", "thought_signature": signature}

    def _hosted_body(
        self, message: TextMessage | ToolCallMessage, text: str, entry: Any, index: int
    ) -> list[Part] | None:
        """The text parts of a model message with hosted calls, its calls of this provider in
        place (another provider's: one ``"omitted"`` note); ``None`` when none is sent, so the
        caller sends the text as it sends text without hosted calls. ``text`` is cut at each
        call's offset; the signature in ``entry`` goes on the piece ``SIGNED_TEXT`` names
        (default the last); empty pieces are not sent unless signed."""
        groups = self._hosted(message, len(text), index)
        if not groups:
            return None
        check_text(text, index=index, field="content")
        signature, signed = self._signed_text(entry, len(groups), index)
        parts: list[Part] = []
        start = 0
        for segment, (offset, hosted) in enumerate(groups):
            _add_text(parts, text[start:offset], signature if segment == signed else None)
            parts.extend(hosted)
            start = offset
        _add_text(parts, text[start:], signature if signed == len(groups) else None)
        return parts

    def _hosted(
        self, message: TextMessage | ToolCallMessage, length: int, index: int
    ) -> list[tuple[int, list[Part]]]:
        """The offset and parts of each of this provider's hosted calls, by offset."""
        provider = self.provider
        own_hosted_tools(
            message, index, provider=provider, provider_title="Gemini", recorder=self.recorder
        )
        groups: list[tuple[int, list[Part]]] = []
        nothing: list[str] = []
        for position, call in enumerate(message.hosted_tools):
            if call.provider != provider:
                continue  # noted by own_hosted_tools
            replayed = replay_parts(call, provider, index, position, length)
            if replayed is None:
                nothing.append(call.name)
            else:
                groups.append(replayed)
        if nothing:
            self.recorder.record(
                index,
                "omitted",
                f"hosted tool calls without recorded parts ({', '.join(nothing)}) are not sent",
            )
        groups.sort(key=lambda group: group[0])  # stable: calls at one offset keep their order
        return groups

    def _signed_text(self, entry: Any, last: int, index: int) -> tuple[str | None, int]:
        """The message's text signature and the text part it signs (``SIGNED_TEXT``, default
        the last of the ``last + 1`` parts)."""
        field = f"provider_data[{self.provider!r}]"
        signature = None if entry is None else self._signature(entry, index, field)
        if signature is None:
            return None, last
        rule = f"{field}[{SIGNED_TEXT!r}] must be the index of a text part (0 to {last})"
        return signature, checked_position(entry.get(SIGNED_TEXT, last), last, index, field, rule)


def _add_text(parts: list[Part], text: str, signature: str | None) -> None:
    """Append one text piece between hosted calls: an empty piece only to carry a signature."""
    if signature is not None:
        parts.append({"text": text, "thought_signature": signature})
    elif text:
        parts.append({"text": text})
