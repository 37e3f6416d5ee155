"""Anthropic text-block citations <-> neutral ``Citation`` (API.md 19.4, 19.7).

An Anthropic citation belongs to the whole text block that carries it (its offsets, where it has
any, point into the cited source), so each becomes a ``Citation`` over that block's span of the
reply's joined ``content``. ``provider_data["anthropic"]["citation"]`` keeps the citation in the
form a request takes it back (``TextCitationParam``): the replay sends exactly that. The keys of
each kind come from the SDK's request types, so a newer SDK brings its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, Required, get_args, get_origin, get_type_hints

from anthropic.types import (
    CitationCharLocationParam,
    CitationContentBlockLocationParam,
    CitationPageLocationParam,
    CitationSearchResultLocationParam,
    CitationWebSearchResultLocationParam,
)

from llmbridge import Citation
from llmbridge.anthropic._errors import PROVIDER

__all__ = ["neutral_citation", "replay_citation", "replayable_citation"]

Field = tuple[type, bool]
"""A citation key's JSON type and whether it may be ``null``."""
_DOCUMENT_KINDS: Final = frozenset({"char_location", "page_location", "content_block_location"})


def _field(hint: Any) -> Field:
    while get_origin(hint) is Required:
        hint = get_args(hint)[0]
    if get_origin(hint) is Literal:
        return str, False
    args = get_args(hint)
    if type(None) in args:  # Optional[X]
        (inner,) = (arg for arg in args if arg is not type(None))
        return inner, True
    return hint, False


def _fields(param: type) -> tuple[str, dict[str, Field]]:
    hints = get_type_hints(param, include_extras=True)
    (kind,) = get_args(get_args(hints["type"])[0])
    return kind, {key: _field(hint) for key, hint in hints.items()}


FIELDS: Final[Mapping[str, Mapping[str, Field]]] = dict(
    _fields(param)
    for param in (
        CitationCharLocationParam,
        CitationPageLocationParam,
        CitationContentBlockLocationParam,
        CitationWebSearchResultLocationParam,
        CitationSearchResultLocationParam,
    )
)
"""Citation type -> its keys in a request (``TextCitationParam``), each a ``Field``."""


def replay_citation(citation: Mapping[str, Any]) -> dict[str, Any]:
    """``citation`` (as a reply or stream gives it) in the form a request takes it back.

    A known type keeps the keys of its request type: the nullable ones always (``null`` when
    absent, as the request type requires them), the others when not ``null``; keys only a reply
    has (``file_id``) are left out. A type the SDK does not know keeps its non-null items.
    """
    fields = FIELDS.get(citation.get("type"))  # type: ignore[arg-type]
    if fields is None:
        return {key: value for key, value in citation.items() if value is not None}
    replay: dict[str, Any] = {}
    for key, (_, nullable) in fields.items():
        value = citation.get(key)
        if value is not None or nullable:
            replay[key] = value
    return replay


def replayable_citation(citation: Any) -> bool:
    """Whether ``citation`` is one ``to_anthropic`` writes: a known type with exactly the keys
    of its request type, each holding a value of its type (what the importer reads back)."""
    if not isinstance(citation, Mapping):
        return False
    fields = FIELDS.get(citation.get("type"))  # type: ignore[arg-type]
    if fields is None or citation.keys() != fields.keys():
        return False
    for key, (expected, nullable) in fields.items():
        value = citation[key]
        if value is None and nullable:
            continue
        if type(value) is not expected:  # not isinstance: a bool is no int here
            return False
    return True


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def neutral_citation(citation: Mapping[str, Any], start: int, end: int) -> Citation:
    """The ``Citation`` of ``citation`` on the reply text ``content[start:end]`` (its block).

    Document locations (``char_location``, ``page_location``, ``content_block_location``):
    ``document_index``, ``title`` (the document's title), ``file_id``; web search results:
    ``url``, ``title``; ``search_result_location``: ``url`` (its ``source``), ``title``, no
    ``document_index``; every kind ``cited_text``. Values of another type are left out.
    """
    kind = citation.get("type")
    index = citation.get("document_index")
    document = kind in _DOCUMENT_KINDS
    return Citation(
        start,
        end,
        url=_text(citation.get("source" if kind == "search_result_location" else "url")),
        title=_text(citation.get("document_title" if document else "title")),
        cited_text=_text(citation.get("cited_text")),
        document_index=index if document and type(index) is int and index >= 0 else None,
        file_id=_text(citation.get("file_id")) if document else None,
        provider=PROVIDER,
        provider_data={PROVIDER: {"citation": replay_citation(citation)}},
    )
