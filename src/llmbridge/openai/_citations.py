"""OpenAI Chat Completions annotations -> neutral ``Citation``s (API.md 19.4).

A reply's ``message.annotations`` and a stream's ``delta.annotations`` (which the SDK does not
declare: they arrive in the delta's ``model_extra``) hold ``url_citation`` annotations whose
``start_index`` / ``end_index`` count code points of the whole message ``content`` in both
cases (API.md 19.7: the stream's count like the reply's), so both paths gather the same list
and read it here, once the text is complete. Chat requests carry no annotations: citations
are never sent back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from openai import BaseModel

from llmbridge import Citation, Message, TextMessage, ToolCallMessage, UnsupportedMessageError
from llmbridge.kit import NoteRecorder
from llmbridge.openai._errors import PROVIDER

__all__ = ["annotation_dicts", "cited_reply", "read_citations"]

_URL_CITATION: Final = "url_citation"


def annotation_dicts(annotations: Iterable[Any]) -> list[Any]:
    """The annotations as the JSON the API sent: SDK models dumped (only the keys that came,
    server extras included), anything else as it is (checked by ``read_citations``)."""
    # The SDK does not validate replies: a stray value (a text offset) is dumped as it came,
    # without pydantic's serializer warning, and read_citations drops it.
    return [
        item.to_dict(warnings=False) if isinstance(item, BaseModel) else item
        for item in annotations
    ]


def _span(citation: Mapping[str, Any], length: int) -> tuple[int, int] | None:
    start, end = citation.get("start_index"), citation.get("end_index")
    if type(start) is int and type(end) is int and 0 <= start <= end <= length:
        return start, end
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _citation(annotation: Mapping[str, Any], span: tuple[int, int]) -> Citation:
    body = annotation[_URL_CITATION]
    return Citation(
        span[0],
        span[1],
        url=_text(body.get("url")),
        title=_text(body.get("title")),
        provider=PROVIDER,
        provider_data={PROVIDER: annotation},
    )


def _no_span(where: str, body: object, length: int) -> str:
    if not isinstance(body, Mapping):
        return f"{where} has no url_citation object; it cannot become a citation"
    return (
        f"{where}: start_index {body.get('start_index')!r} and end_index "
        f"{body.get('end_index')!r} are not a span within the {length}-character reply text"
    )


def read_citations(
    annotations: Iterable[Any], content: str | None, recorder: NoteRecorder | None
) -> tuple[Citation, ...]:
    """The ``Citation``s of a reply's annotations (JSON, see ``annotation_dicts``), in order.

    A ``url_citation`` gives ``Citation(start_index, end_index, url=, title=,
    provider="openai", provider_data={"openai": <the annotation>})``; ``cited_text`` stays
    ``None`` (Chat gives none; a server's extra keys, such as OpenRouter's page excerpt
    ``content``, stay in ``provider_data``). An annotation of another type, or one whose span
    is not within ``content``, is dropped with a note in ``recorder`` (strict:
    ``UnsupportedMessageError`` / ``InvalidMessageError``); ``recorder=None`` skips it
    silently (a stream's ``partial``, whose text may not have reached the span yet).
    """
    length = len(content or "")
    citations: list[Citation] = []
    for position, annotation in enumerate(annotations):
        where = f"annotations[{position}]"
        kind = annotation.get("type") if isinstance(annotation, Mapping) else None
        if kind != _URL_CITATION:
            if recorder is not None:
                recorder.record(
                    None,
                    "dropped",
                    f"{where} is a {kind!r} annotation; only url_citation annotations become "
                    "citations",
                    error=UnsupportedMessageError,
                )
            continue
        body = annotation.get(_URL_CITATION)
        span = _span(body, length) if isinstance(body, Mapping) else None
        if span is None:
            if recorder is not None:
                recorder.record(None, "dropped", _no_span(where, body, length), field=where)
            continue
        citations.append(_citation(annotation, span))
    return tuple(citations)


def cited_reply(
    reply: Message, annotations: Sequence[Any], recorder: NoteRecorder | None
) -> Message:
    """``reply`` carrying the citations of ``annotations`` (``read_citations``); ``reply``
    itself when there are none, or when it is no text or tool-call message.

    The kit's ``ReplyParts`` has no citations field, so they go on the message built from it.
    """
    if not annotations or not isinstance(reply, TextMessage | ToolCallMessage):
        return reply
    citations = read_citations(annotations, reply.content, recorder)
    return dataclasses.replace(reply, citations=citations) if citations else reply
