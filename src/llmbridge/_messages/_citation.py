"""``Citation``: the source a span of a reply's text rests on (API.md 19.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
    freeze_provider_data,
)
from llmbridge._messages._values import set_field, typed_tuple

__all__ = ["Citation", "citation_tuple"]

_TEXT_FIELDS = ("url", "title", "cited_text", "file_id", "provider")


@dataclass(frozen=True, slots=True)
class Citation:
    """A source of the reply text ``content[start:end]`` (offsets in the neutral ``content``).

    ``url`` and ``title`` name a web source, ``document_index`` a document of the request (the
    ``DocumentMessage``s counted in order from 0), ``file_id`` a provider file, ``cited_text``
    the quoted source text; ``provider`` is the tag of the wing that read it and
    ``provider_data`` (provider tag -> JSON-compatible mapping, frozen) the exact annotation,
    which only that wing replays. Citations are reply metadata: never sent to another wing.
    Raises ``InvalidMessageError`` for offsets that are not integers with
    ``0 <= start <= end``, a negative ``document_index``, a text field that is not a ``str``,
    and ``provider_data`` that is not JSON-compatible.
    """

    start: int
    end: int
    url: str | None = field(default=None, kw_only=True)
    title: str | None = field(default=None, kw_only=True)
    cited_text: str | None = field(default=None, kw_only=True)
    document_index: int | None = field(default=None, kw_only=True)
    file_id: str | None = field(default=None, kw_only=True)
    provider: str | None = field(default=None, kw_only=True)
    provider_data: ProviderData = field(default=NO_PROVIDER_DATA, kw_only=True)

    def __post_init__(self) -> None:
        for name, value in (("start", self.start), ("end", self.end)):
            if type(value) is not int or value < 0:
                raise InvalidMessageError(
                    f"{name} must be an integer offset >= 0, got {value!r}", field=name
                )
        if self.end < self.start:
            raise InvalidMessageError(
                f"end ({self.end}) is before start ({self.start})", field="end"
            )
        index = self.document_index
        if index is not None and (type(index) is not int or index < 0):
            raise InvalidMessageError(
                f"document_index must be an integer >= 0 or None, got {index!r}",
                field="document_index",
            )
        for name in _TEXT_FIELDS:
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise InvalidMessageError(
                    f"{name} must be a str or None, got {type(value).__name__}", field=name
                )
        if self.provider_data is not NO_PROVIDER_DATA:
            set_field(self, "provider_data", freeze_provider_data(self.provider_data))


def citation_tuple(citations: Sequence[Citation], content: str | None) -> tuple[Citation, ...]:
    """``citations`` as a tuple, each a ``Citation`` within ``content``.

    Raises ``InvalidMessageError`` (field ``citations[i]``) for another item and for a span
    past the end of ``content`` (no content: no text to cite).
    """
    items = typed_tuple(citations, Citation, "citations")
    length = len(content or "")
    for position, item in enumerate(items):
        if item.end > length:
            raise InvalidMessageError(
                f"citation {position} ends at {item.end}, past the end of the {length}-character "
                "content",
                field=f"citations[{position}]",
            )
    return items
