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

from llmbridge import Citation, Reasoning
from llmbridge.kit import NoteRecorder
from llmbridge.openai._errors import RESPONSES_PROVIDER
from llmbridge.openai._responses._annotations import replayed_annotations

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
    sent without one), ``reasoning`` whether it is a reasoning item, ``hosted`` whether it is a
    hosted tool item (which cannot be sent without its id)."""

    item: dict[str, Any]
    item_id: str | None
    reasoning: bool = False
    hosted: bool = False


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


def _in_place(
    entries: list[Entry],
    hosted: Sequence[tuple[int | None, Entry]],
    groups: Sequence[list[Entry]],
) -> list[Entry]:
    """The turn in output order: each content entry after the reasoning placed before it, and
    each hosted item (with its reasoning) put back at its recorded output position."""
    ordered: list[Entry] = []
    for position, entry in enumerate(entries):
        ordered += groups[position]
        ordered.append(entry)
    for offset, (at, entry) in enumerate(hosted):
        group = [*groups[len(entries) + offset], entry]
        # ``at`` counts every output item, the reasoning before this one too.
        start = len(ordered) if at is None else min(max(at - len(group) + 1, 0), len(ordered))
        ordered[start:start] = group
    return ordered


def place_reasoning(
    entries: list[Entry],
    reasoning: Sequence[Reasoning],
    hosted: Sequence[tuple[int | None, Entry]] = (),
) -> tuple[list[dict[str, Any]], list[str]]:
    """The turn's items in order with its reasoning placed, and why reasoning was left out.

    Each own reasoning item goes right before the item its ``"before"`` names (else before the
    first item). It stays only when the item right after it is an output message, call or
    hosted tool item sent with its own id; otherwise it is left out. The item an own reasoning
    preceded loses its id when that reasoning cannot be sent (the API refuses an item replayed
    without its reasoning); a hosted item, which needs its id, is left out then. ``hosted``
    (position, entry) pairs go back at their recorded output positions. ``entries`` (the
    turn's content items) is changed in place.
    """
    omitted: list[str] = []
    hosted = sorted(hosted, key=lambda pair: (pair[0] is None, pair[0] or 0))
    targets = [*entries, *(entry for _, entry in hosted)]
    groups: list[list[Entry]] = [[] for _ in targets]
    for position, item in enumerate(reasoning):
        payload, before = reasoning_item(item)
        target = _target(targets, before)
        if payload is None:
            if item.provider != PROVIDER:
                omitted.append(f"reasoning {position} of {item.provider!r}")
                continue
            why = f"reasoning {position} (no rs_ id or no encrypted_content)"
            preceded = targets[target] if targets else None
            if preceded is not None and preceded.hosted and preceded.item_id is not None:
                why += f"; so is the hosted tool item {preceded.item_id} it preceded"
            if preceded is not None and _strip_id(preceded):
                why += "; the item it preceded is sent without its id"
            omitted.append(why)
            continue
        entry = Entry(payload, payload["id"], reasoning=True)
        if targets:
            groups[target].append(entry)
        else:
            groups.append([entry])
    ordered = _in_place(entries, hosted, groups)
    if not targets:  # reasoning alone: left out below, nothing follows it
        ordered = [entry for group in groups for entry in group]
    # Right to left: a reasoning item stays only when the next item kept carries its own id.
    kept: list[dict[str, Any]] = []
    following: Entry | None = None
    for entry in reversed(ordered):
        if entry.hosted and entry.item_id is None:
            continue  # its reasoning cannot be sent, and it cannot go without its id
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
    if entry.hosted:  # left out instead (``place_reasoning``)
        entry.item_id = None
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
        self,
        text: str | None,
        data: Mapping[str, Any],
        index: int,
        citations: Sequence[Citation] = (),
    ) -> list[Entry]:
        """The output-message items of an assistant text: one per recorded message item when
        their texts make up ``text``, else one (with the recorded id, when there is one). An
        item sent with its id carries the recorded annotations of its part (``citations``)."""
        if text is None:
            return []
        phase = data.get("phase")
        recorded = data.get("messages")
        if isinstance(recorded, Sequence) and recorded and not isinstance(recorded, str):
            parts = [item for item in recorded if isinstance(item, Mapping)]
            if "".join(str(part.get("text", "")) for part in parts) == text:
                return self._message_entries(parts, index, citations)
        annotations = replayed_annotations(citations, None, 0, len(text)) if citations else []
        return [self._message_entry(text, data, phase, index, annotations)]

    def _message_entries(
        self, parts: Sequence[Mapping[str, Any]], index: int, citations: Sequence[Citation]
    ) -> list[Entry]:
        """One entry per recorded message item; empty or whitespace-only items are not
        replayed (as a whitespace-only text is not sent), with a note when whitespace is."""
        entries: list[Entry] = []
        base = 0
        for position, part in enumerate(parts):
            text = str(part.get("text", ""))
            if text and not text.isspace():
                annotations = (
                    replayed_annotations(citations, position, base, len(text)) if citations else []
                )
                entries.append(
                    self._message_entry(text, part, part.get("phase"), index, annotations)
                )
            elif text:
                self.recorder.record(
                    index, "omitted", "a whitespace-only message item is not replayed"
                )
            base += len(text)
        return entries

    def _message_entry(
        self,
        text: str,
        data: Mapping[str, Any],
        phase: object,
        index: int,
        annotations: list[dict[str, Any]],
    ) -> Entry:
        item_id = self.take(data, "msg_", index)
        item: dict[str, Any]
        if item_id is None:
            # The plain form has no annotations: citations are reply metadata (no note).
            item = {"role": "assistant", "content": text}
        else:
            self.sent.add(item_id)
            content = [{"type": "output_text", "text": text, "annotations": annotations}]
            item = {"type": "message", "role": "assistant", "id": item_id, "status": "completed"}
            item["content"] = content
        if isinstance(phase, str):
            item["phase"] = phase
        return Entry(item, item_id)
