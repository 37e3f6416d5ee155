"""A Gemini candidate's ``grounding_metadata`` and ``citation_metadata`` -> ``Citation``s
(API.md 19.4, 19.7).

Each grounding support names a segment of one part (``part_index``, absent: 0) by UTF-8 byte
offsets within that part's text, and the grounding chunks that support it: one ``Citation`` per
chunk index, its offsets converted to ``str`` offsets in the reply's ``content`` (the text parts
joined), ``url`` / ``title`` from the chunk (web, retrieved context, maps, image), and the exact
support and chunk in ``provider_data[tag]``. Each ``citation_metadata`` source is a citation
too, its byte offsets read within ``content``. Citations are never sent back: a Gemini request
has no field for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from google.genai import types

from llmbridge import Citation, UnsupportedMessageError
from llmbridge.kit import NoteRecorder

__all__ = ["reply_citations"]

# The kinds of grounding chunk, in the order read, and the field that holds the source URL.
_CHUNK_KINDS: Final = (
    ("web", "uri"),
    ("retrieved_context", "uri"),
    ("maps", "uri"),
    ("image", "source_uri"),
)


def _drop(recorder: NoteRecorder, what: str) -> None:
    recorder.record(
        None,
        "dropped",
        f"{what}: no citation (the reply's raw keeps it)",
        error=UnsupportedMessageError,
    )


def _text_parts(parts: Sequence[types.Part]) -> list[tuple[int, str] | None]:
    """For each part, where its text starts in ``content`` and the text, or ``None`` for a part
    that adds no text to ``content`` (a thought, a call, a code part); the rule of
    ``_response._gather``."""
    located: list[tuple[int, str] | None] = []
    start = 0
    for part in parts:
        text = part.text
        if (
            text is None
            or part.thought
            or part.function_call is not None
            or part.executable_code is not None
            or part.code_execution_result is not None
        ):
            located.append(None)
            continue
        located.append((start, text))
        start += len(text)
    return located


def _span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The ``str`` span of the UTF-8 byte span ``[start:end]`` of ``text``, or ``None`` when the
    span is not inside it (a byte offset inside a character counts the whole character out)."""
    if text.isascii():  # one byte per character: the offsets are the same
        return (start, end) if 0 <= start <= end <= len(text) else None
    encoded = text.encode("utf-8")
    if not 0 <= start <= end <= len(encoded):
        return None
    begin = len(encoded[:start].decode("utf-8", errors="ignore"))
    return begin, len(encoded[:end].decode("utf-8", errors="ignore"))


def _source(chunk: types.GroundingChunk) -> tuple[str | None, str | None]:
    for kind, url_field in _CHUNK_KINDS:
        source = getattr(chunk, kind)
        if source is not None:
            return getattr(source, url_field), source.title
    return None, None


def _dump(value: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = value.model_dump(mode="json", exclude_none=True)
    return dumped


def _grounding(
    metadata: types.GroundingMetadata,
    parts: Sequence[types.Part],
    provider: str,
    recorder: NoteRecorder,
) -> list[Citation]:
    citations: list[Citation] = []
    chunks = metadata.grounding_chunks or []
    located = _text_parts(parts)
    for position, support in enumerate(metadata.grounding_supports or ()):
        indices = support.grounding_chunk_indices or ()
        if not indices:
            continue  # a support that names no source cites nothing
        segment = support.segment or types.Segment()
        part_index = segment.part_index or 0
        found = located[part_index] if 0 <= part_index < len(located) else None
        span = None
        if found is not None:
            span = _span(found[1], segment.start_index or 0, segment.end_index or 0)
        if found is None or span is None:
            _drop(recorder, f"grounding support {position} names no span of the reply text")
            continue
        start, end = found[0] + span[0], found[0] + span[1]
        data = _dump(support)
        for chunk_index in indices:
            if not 0 <= chunk_index < len(chunks):
                _drop(recorder, f"grounding support {position} names no chunk {chunk_index}")
                continue
            chunk = chunks[chunk_index]
            url, title = _source(chunk)
            entry = {"support": data, "chunk_index": chunk_index, "chunk": _dump(chunk)}
            citations.append(
                Citation(
                    start,
                    end,
                    url=url,
                    title=title,
                    provider=provider,
                    provider_data={provider: entry},
                )
            )
    return citations


def _cited(
    metadata: types.CitationMetadata, content: str, provider: str, recorder: NoteRecorder
) -> list[Citation]:
    citations: list[Citation] = []
    for position, source in enumerate(metadata.citations or ()):
        span = _span(content, source.start_index or 0, source.end_index or 0)
        if span is None:
            _drop(recorder, f"citation source {position} names no span of the reply text")
            continue
        citations.append(
            Citation(
                *span,
                url=source.uri,
                title=source.title,
                provider=provider,
                provider_data={provider: {"citation": _dump(source)}},
            )
        )
    return citations


def reply_citations(
    candidate: types.Candidate, content: str, provider: str, recorder: NoteRecorder
) -> tuple[Citation, ...]:
    """The citations of one candidate whose text parts joined are ``content``: its grounding
    supports (one per chunk index named), then its ``citation_metadata`` sources.

    A support or source whose span is not in the reply text, or that names a chunk the
    metadata does not have, gives no citation: dropped with a note (strict mode:
    ``UnsupportedMessageError``)."""
    grounding, cited = candidate.grounding_metadata, candidate.citation_metadata
    citations: list[Citation] = []
    if grounding is not None and grounding.grounding_supports:
        parts = candidate.content.parts if candidate.content is not None else None
        citations.extend(_grounding(grounding, parts or (), provider, recorder))
    if cited is not None and cited.citations:
        citations.extend(_cited(cited, content, provider, recorder))
    return tuple(citations)
