"""The items of one assistant turn: its reasoning placed before the item it preceded.

A turn (a text or tool-call message from the agent itself) becomes output-message and
``function_call`` items; its recorded reasoning items go back immediately before the item
named by their ``"before"`` id. The API refuses a reasoning item that is not followed by the
item it produced, sent with that item's own id, and an item replayed without its reasoning, so
``place_reasoning`` keeps a reasoning item only where both hold and says what it left out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from llmbridge import Reasoning
from llmbridge.kit import NoteRecorder
from llmbridge.openai._errors import RESPONSES_PROVIDER

__all__ = [
    "CALL_CONTEXT",
    "PROVIDER",
    "Entry",
    "ItemIds",
    "own_data",
    "place_reasoning",
    "reasoning_item",
    "valid_item_id",
]

PROVIDER: Final = RESPONSES_PROVIDER
"""The provider tag of the Responses wing (``provider_data`` key, ``Reasoning.provider``)."""

CALL_CONTEXT: Final = ("namespace", "caller", "async")
"""The keys of a ``function_call`` item that say where its function lives and who called it:
kept verbatim in the call's ``provider_data`` and sent back with it (the API answers a call
replayed without its ``namespace`` with 400 "Missing namespace for function_call")."""

_ITEM_ID: Final = re.compile(r"[A-Za-z0-9_-]+")
_NO_DATA: Final[Mapping[str, Any]] = {}


def own_data(provider_data: Mapping[str, Any]) -> Mapping[str, Any]:
    """This wing's entry of a ``provider_data`` mapping (empty when there is none)."""
    entry = provider_data.get(PROVIDER)
    # Most messages carry no entry: skip the (abstract-class) isinstance check for them.
    if entry is None:
        return _NO_DATA
    return entry if isinstance(entry, Mapping) else _NO_DATA


def valid_item_id(value: object, prefix: str) -> str | None:
    """``value`` when it is an item id the API takes for ``prefix`` (``"msg_"``, ``"fc_"``,
    ``"rs_"``), else ``None`` (an id of another prefix or with other characters is a 400)."""
    if (
        isinstance(value, str)
        and len(value) > len(prefix)
        and value.startswith(prefix)
        and _ITEM_ID.fullmatch(value)
    ):
        return value
    return None


@dataclass(slots=True)
class Entry:
    """One item of a turn: ``item`` the payload, ``item_id`` its own id as sent (``None``:
    sent without one), ``reasoning`` whether it is a reasoning item."""

    item: dict[str, Any]
    item_id: str | None
    reasoning: bool = False


def reasoning_item(reasoning: Reasoning) -> tuple[dict[str, Any] | None, str | None]:
    """The ``reasoning`` item of a recorded reasoning, or ``None`` with why it cannot be sent;
    the second value is the ``"before"`` id recorded for it."""
    data = own_data(reasoning.provider_data)
    before = data.get("before")
    before_id = before if isinstance(before, str) else None
    if reasoning.provider != PROVIDER:
        return None, None
    item_id = valid_item_id(data.get("id"), "rs_")
    if item_id is None:
        return None, before_id
    if not reasoning.signature:
        return None, before_id
    summary = data.get("summary")
    if isinstance(summary, Sequence) and not isinstance(summary, str):
        texts = [text for text in summary if isinstance(text, str)]
    else:
        texts = [reasoning.text] if reasoning.text else []
    item: dict[str, Any] = {
        "type": "reasoning",
        "id": item_id,
        "summary": [{"type": "summary_text", "text": text} for text in texts],
        "encrypted_content": reasoning.signature,
    }
    return item, before_id


def _target(entries: Sequence[Entry], before: str | None) -> int:
    if before is not None:
        for position, entry in enumerate(entries):
            if entry.item_id == before:
                return position
    return 0


def place_reasoning(
    entries: list[Entry], reasoning: Sequence[Reasoning]
) -> tuple[list[dict[str, Any]], list[str]]:
    """The turn's items in order with its reasoning placed, and why reasoning was left out.

    Each own reasoning item goes right before the item its ``"before"`` names (else before the
    first item). It stays only when the item right after it is an output message or call sent
    with its own id; otherwise it is left out. The item an own reasoning preceded loses its id
    when that reasoning cannot be sent (the API refuses an item replayed without its
    reasoning). ``entries`` (the turn's content items) is changed in place.
    """
    omitted: list[str] = []
    placed: list[tuple[int, Entry]] = []
    for position, item in enumerate(reasoning):
        payload, before = reasoning_item(item)
        target = _target(entries, before)
        if payload is None:
            if item.provider != PROVIDER:
                omitted.append(f"reasoning {position} of {item.provider!r}")
                continue
            why = f"reasoning {position} (no rs_ id or no encrypted_content)"
            if entries and _strip_id(entries[target]):
                why += "; the item it preceded is sent without its id"
            omitted.append(why)
            continue
        placed.append((target, Entry(payload, payload["id"], reasoning=True)))
    ordered: list[Entry] = []
    for position, entry in enumerate(entries):
        ordered.extend(item for target, item in placed if target == position)
        ordered.append(entry)
    if not entries:
        ordered.extend(item for _, item in placed)
    # Right to left: a reasoning item stays only when the next item kept carries its own id.
    kept: list[dict[str, Any]] = []
    following: Entry | None = None
    for entry in reversed(ordered):
        if entry.reasoning and (following is None or following.reasoning or not following.item_id):
            omitted.append(f"reasoning {entry.item_id} (no item with its own id follows it)")
            continue
        kept.append(entry.item)
        following = entry
    kept.reverse()
    return kept, omitted


def _strip_id(entry: Entry) -> bool:
    if entry.item_id is None:
        return False
    entry.item.pop("id", None)
    if entry.item.get("type") == "message":
        # Without its id an output message is replayed in the plain form.
        text = "".join(part["text"] for part in entry.item["content"])
        phase = entry.item.get("phase")
        entry.item.clear()
        entry.item.update({"role": "assistant", "content": text})
        if phase is not None:
            entry.item["phase"] = phase
    entry.item_id = None
    return True


class ItemIds:
    """The item ids of one conversion: each sent at most once (an id twice in one input is a
    400), only with its kind's prefix; builds the assistant message items that carry them."""

    __slots__ = ("recorder", "sent")

    def __init__(self, recorder: NoteRecorder) -> None:
        self.recorder = recorder
        self.sent: set[str] = set()

    def take(self, data: Mapping[str, Any], prefix: str, index: int) -> str | None:
        """The recorded id of an item, when it can be sent: its prefix, and not sent before."""
        recorded = data.get("id")
        if recorded is None:
            return None
        item_id = valid_item_id(recorded, prefix)
        if item_id is None:
            self.recorder.record(
                index, "omitted", f"item id {recorded!r} is not a {prefix} id: not sent"
            )
        elif item_id in self.sent:
            self.recorder.record(
                index, "omitted", f"item id {item_id!r} was sent earlier in this input: not sent"
            )
            return None
        return item_id

    def assistant_entries(
        self, text: str | None, data: Mapping[str, Any], index: int
    ) -> list[Entry]:
        """The output-message items of an assistant text: one per recorded message item when
        their texts make up ``text``, else one (with the recorded id, when there is one)."""
        if text is None:
            return []
        phase = data.get("phase")
        recorded = data.get("messages")
        if isinstance(recorded, Sequence) and recorded and not isinstance(recorded, str):
            parts = [item for item in recorded if isinstance(item, Mapping)]
            if "".join(str(part.get("text", "")) for part in parts) == text:
                return self._message_entries(parts, index)
        return [self._message_entry(text, data, phase, index)]

    def _message_entries(self, parts: Sequence[Mapping[str, Any]], index: int) -> list[Entry]:
        """One entry per recorded message item; empty or whitespace-only items are not
        replayed (as a whitespace-only text is not sent), with a note when whitespace is."""
        entries: list[Entry] = []
        for part in parts:
            text = str(part.get("text", ""))
            if text and not text.isspace():
                entries.append(self._message_entry(text, part, part.get("phase"), index))
            elif text:
                self.recorder.record(
                    index, "omitted", "a whitespace-only message item is not replayed"
                )
        return entries

    def _message_entry(
        self, text: str, data: Mapping[str, Any], phase: object, index: int
    ) -> Entry:
        item_id = self.take(data, "msg_", index)
        item: dict[str, Any]
        if item_id is None:
            item = {"role": "assistant", "content": text}
        else:
            self.sent.add(item_id)
            content = [{"type": "output_text", "text": text, "annotations": []}]
            item = {"type": "message", "role": "assistant", "id": item_id, "status": "completed"}
            item["content"] = content
        if isinstance(phase, str):
            item["phase"] = phase
        return Entry(item, item_id)
