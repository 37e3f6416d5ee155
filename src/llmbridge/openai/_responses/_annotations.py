"""``output_text`` annotations <-> neutral ``Citation``s (API.md 19.4, 19.7).

A reply's ``content`` is the text of its ``output_text`` parts joined with ``""``, over every
message item, so an annotation of a part that starts at ``base`` in ``content`` covers
``content[base + start_index:base + end_index]``; an index-only annotation (``file_citation``,
``file_path``) is the point ``base + index``. Each ``Citation`` keeps the exact annotation in
``provider_data["openai-responses"]["annotation"]`` (with ``"message"``, the position of its
message item among the reply's message items, when there are several, and ``"offset"``, where
its part starts in the item's text, when it is not the first part), from which
``to_openai_responses`` writes it back on the ``output_text`` part it came from (a message
item is replayed as one part: the annotations of later parts move by their ``"offset"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import Citation
from llmbridge.openai._errors import RESPONSES_PROVIDER as PROVIDER

__all__ = ["CITATION_PROVIDER", "Annotated", "citation", "plain", "replayed_annotations"]

CITATION_PROVIDER: Final = "openai"
"""``Citation.provider`` and ``HostedToolCall.provider`` of this wing's replies: the vendor, as
``file_provider="openai"`` (the wing is named by the ``provider_data`` tag)."""

# (annotation key of the span's start, of its end): index-only annotations have one point.
_SPANS: Final = (("start_index", "end_index"), ("index", "index"))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _offset(annotation: Mapping[str, Any], key: str, length: int) -> int | None:
    value = annotation.get(key)
    if type(value) is not int:
        return None
    # An offset past the text (or before it) is the provider's slip: kept inside the part, so
    # the span stays a valid slice of the content; the exact value stays in provider_data.
    return min(max(value, 0), length)


def _span(annotation: Mapping[str, Any], length: int) -> tuple[int, int]:
    for start_key, end_key in _SPANS:
        start = _offset(annotation, start_key, length)
        if start is not None:
            end = _offset(annotation, end_key, length)
            return start, start if end is None or end < start else end
    return 0, 0


def citation(
    annotation: Mapping[str, Any],
    base: int,
    length: int,
    message: int | None,
    offset: int = 0,
) -> Citation:
    """The ``Citation`` of ``annotation`` (a plain dict, as the API sent it) of an
    ``output_text`` part of ``length`` characters starting at ``base`` in the content.

    ``url`` and ``title`` from a ``url_citation``; ``file_id`` and ``title`` (the file name)
    from the file citations. Kept with the annotation: ``message``, the message item's position
    (``None`` when the reply has one message item), and ``offset``, where the part starts in
    its message item's text (``0``, the first part, is not kept).
    """
    start, end = _span(annotation, length)
    state: dict[str, Any] = {"annotation": annotation}
    if message is not None:
        state["message"] = message
    if offset:
        state["offset"] = offset
    return Citation(
        base + start,
        base + end,
        url=_text(annotation.get("url")),
        title=_text(annotation.get("title")) or _text(annotation.get("filename")),
        file_id=_text(annotation.get("file_id")),
        provider=CITATION_PROVIDER,
        provider_data={PROVIDER: state},
    )


class Annotated:
    """The citations of one reply, gathered per ``output_text`` part and built at the end
    (whether ``"message"`` is kept depends on how many message items the reply has)."""

    __slots__ = ("found", "length", "message", "offset")

    def __init__(self) -> None:
        self.length = 0  # characters of content so far
        self.message = -1  # the message item of the last part
        self.offset = 0  # characters of that message item so far
        # (annotation dict, base of its part, the part's length, its message, its offset)
        self.found: list[tuple[dict[str, Any], int, int, int, int]] = []

    def part(self, annotations: Sequence[Any] | None, text: str, message: int) -> None:
        """Record one ``output_text`` part of message item ``message`` (``annotations``: SDK
        models or dicts)."""
        if message != self.message:
            self.message, self.offset = message, 0
        for annotation in annotations or ():
            if annotation is not None:
                plain = annotation if isinstance(annotation, dict) else annotation.to_dict()
                self.found.append((plain, self.length, len(text), message, self.offset))
        self.length += len(text)
        self.offset += len(text)

    def citations(self, messages: int) -> tuple[Citation, ...]:
        """The ``Citation``s, for a reply of ``messages`` message items."""
        several = messages > 1
        return tuple(
            citation(annotation, base, length, message if several else None, offset)
            for annotation, base, length, message, offset in self.found
        )


def plain(value: Any) -> Any:
    """A frozen ``provider_data`` value as the dicts and lists the wire takes."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    return value


def _rebased(annotation: dict[str, Any], offset: object) -> dict[str, Any]:
    """``annotation`` with its offsets moved by ``offset``: its part's start in the text of its
    message item, now that the item is sent as one part (``0``: unchanged, as it came)."""
    if type(offset) is int and offset:
        for key in ("start_index", "end_index", "index"):
            value = annotation.get(key)
            if type(value) is int:
                annotation[key] = value + offset
    return annotation


def replayed_annotations(
    citations: Sequence[Citation], message: int | None, base: int, length: int
) -> list[dict[str, Any]]:
    """The annotations to send on the ``output_text`` part of ``length`` characters at
    ``base`` in the content: those of this wing's citations recorded for message item
    ``message`` (``None``: the text is sent as one item, every citation is its own), exactly
    as they came (moved by their part's offset when parts were joined).

    Citations without a recorded annotation (another wing's, or built by hand) and those not
    within this text are not sent: citations are reply metadata (no note).
    """
    found: list[dict[str, Any]] = []
    for cited in citations:
        state = cited.provider_data.get(PROVIDER)
        if not isinstance(state, Mapping) or not isinstance(state.get("annotation"), Mapping):
            continue
        if message is not None and state.get("message", 0) != message:
            continue
        if base <= cited.start <= cited.end <= base + length:
            found.append(_rebased(plain(state["annotation"]), state.get("offset")))
    return found
