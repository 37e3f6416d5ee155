"""Neutral checks run before a request is sent: text, image and document payloads, the URLs a
provider can fetch, the tool choice.

Both providers call these, so a bad image, a text no encoder can send or a ``tool_choice``
naming no offered tool fails the same way, early, with an error naming what to fix, instead of
as a provider's HTTP 400 or an SDK's ``UnicodeEncodeError``.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    MediaPart,
    MessageEnvelope,
    VideoMessage,
)
from llmbridge._messages._media import url_scheme

__all__ = [
    "GOOGLE_FILE_URI",
    "SUPPORTED_IMAGE_TYPES",
    "TEXT_DOCUMENT_TYPES",
    "TOOL_CHOICE_MODES",
    "WEB_URL_SCHEMES",
    "base64_size",
    "check_document",
    "check_image",
    "check_text",
    "checked_tool_choice",
    "document_text",
    "fetchable_url",
    "omitted_detail",
    "unsupported_envelope",
    "unsupported_media_url",
]

WEB_URL_SCHEMES: Final = frozenset({"http", "https"})
"""The URL schemes of media a provider fetches from the web (``gs://`` is Google Cloud's)."""

GOOGLE_FILE_URI: Final = re.compile(
    r"^(?i:https?://generativelanguage\.googleapis\.com)/v1(beta)?/files/[^/]+$"
)
"""The file URIs of Google's Files API (``https://generativelanguage.googleapis.com/v1beta/files/
<name>``): https URLs that only that API reads (with the key of the project that uploaded the
file), so no other provider can fetch them."""

SUPPORTED_IMAGE_TYPES: Final = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
"""The media types both providers accept for images sent as bytes."""

TEXT_DOCUMENT_TYPES: Final = frozenset({"text/plain", "text/markdown", "text/csv"})
"""The text document types every provider is mapped for (as text, or a text source)."""

TOOL_CHOICE_MODES: Final = frozenset({"auto", "none", "required"})
"""The ``tool_choice`` values that are modes; any other value names a function."""

# Without tools, these modes mean what no tool_choice means: they are left out of the request.
_HARMLESS_WITHOUT_TOOLS: Final = frozenset({"auto", "none"})

# A Python str may hold surrogate code points; UTF-8 (and so JSON on the wire) cannot.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def check_text(text: str, *, index: int | None, field: str) -> None:
    """Raise ``InvalidMessageError`` when ``text`` holds a lone surrogate (``"a\\ud800b"``).

    Such a string is not valid Unicode text: every SDK fails to encode it as UTF-8. ``index``
    and ``field`` locate the text (the error names them). ASCII text costs one ``isascii``.
    """
    if text.isascii():
        return
    found = _SURROGATE.search(text)
    if found is not None:
        raise InvalidMessageError(
            f"{field} is not valid Unicode text (lone surrogate at position {found.start()})",
            index=index,
            field=field,
        )


def base64_size(byte_count: int) -> int:
    """The length of the base64 text of ``byte_count`` bytes (padding included)."""
    return 4 * ((byte_count + 2) // 3)


def check_image(
    image: ImageMessage,
    *,
    max_bytes: int | None,
    provider: str,
    index: int,
    field_prefix: str = "",
) -> None:
    """Raise ``InvalidMessageError`` when an image given as bytes cannot be sent to ``provider``.

    URL images are not checked (they are never downloaded). Bytes must be png, jpeg, gif or
    webp (else the error names field ``media_type``) and their base64 text at most
    ``max_bytes`` long (else field ``data``; ``None`` means no limit). ``field_prefix`` locates
    an image inside a message, e.g. ``"content[1]."``; ``index`` is the message's index.
    """
    data = image.data
    if data is None:
        return
    if image.media_type not in SUPPORTED_IMAGE_TYPES:
        raise InvalidMessageError(
            f"{provider} accepts image/jpeg, image/png, image/gif or image/webp, got "
            f"{image.media_type!r}",
            index=index,
            field=f"{field_prefix}media_type",
        )
    if max_bytes is not None:
        size = base64_size(len(data))
        if size > max_bytes:
            raise InvalidMessageError(
                f"the image is {size} bytes of base64, over the {max_bytes}-byte limit for "
                f"{provider} (max_image_bytes); send a smaller image or a URL",
                index=index,
                field=f"{field_prefix}data",
            )


def check_document(
    document: DocumentMessage,
    *,
    max_bytes: int | None,
    provider: str,
    index: int,
    field_prefix: str = "",
) -> None:
    """Raise ``InvalidMessageError`` (field ``data``) when a document given as bytes is over the
    limit of ``provider``: its base64 text longer than ``max_bytes`` (``None``: no limit).

    URL documents are not checked (they are never downloaded). ``field_prefix`` and ``index``
    locate the document as for ``check_image``.
    """
    data = document.data
    if data is None or max_bytes is None:
        return
    size = base64_size(len(data))
    if size > max_bytes:
        raise InvalidMessageError(
            f"the document is {size} bytes of base64, over the {max_bytes}-byte limit for "
            f"{provider} (max_document_bytes); send a smaller document or split it",
            index=index,
            field=f"{field_prefix}data",
        )


def document_text(document: DocumentMessage, *, index: int, field_prefix: str = "") -> str:
    """The text of a text document's bytes (UTF-8, a byte-order mark skipped).

    Raises ``InvalidMessageError`` (field ``data``) for bytes that are not UTF-8 and for text
    that ``check_text`` refuses. ``document`` must hold bytes.
    """
    assert document.data is not None
    try:
        text = document.data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidMessageError(
            f"a {document.media_type} document must be UTF-8 text ({exc.reason} at byte "
            f"{exc.start})",
            index=index,
            field=f"{field_prefix}data",
        ) from None
    check_text(text, index=index, field=f"{field_prefix}data")
    return text


def fetchable_url(url: str, schemes: Collection[str] = WEB_URL_SCHEMES) -> bool:
    """Whether a provider that fetches URLs of ``schemes`` can read ``url``.

    The one rule every wing that sends media by URL applies: the scheme (any case) must be one
    of ``schemes``, and the URL must not be a file URI of Google's Files API
    (``GOOGLE_FILE_URI``), which is https but which only Google's API can read. So ``gs://``
    URLs and Files API URIs, as a Gemini history carries them, are not fetchable for OpenAI or
    Anthropic.
    """
    return url_scheme(url) in schemes and GOOGLE_FILE_URI.match(url) is None


_MEDIA_KINDS: Final = (
    ("image", ImageMessage),
    ("document", DocumentMessage),
    ("audio", AudioMessage),
    ("video", VideoMessage),
)


def unsupported_media_url(
    item: MediaPart,
    *,
    schemes: Collection[str] = WEB_URL_SCHEMES,
    provider: str,
    field_prefix: str = "",
    file_providers: Collection[str] = (),
) -> str | None:
    """Why the URL or file reference of ``item`` cannot be sent to ``provider``, or ``None``.

    A URL cannot when ``fetchable_url(url, schemes)`` is false (a ``gs://`` URL or a Files
    API URI for OpenAI or Anthropic); a provider file reference (``file_id``) cannot unless
    its ``file_provider`` is one of ``file_providers`` (the tags whose files the wing sends).
    The caller drops such an item as unsupported (strict mode: ``UnsupportedMessageError``).
    Media given as bytes always can. ``field_prefix`` locates the item inside its message.
    """
    kind = media_kind(item)
    if item.file_id is not None:
        if item.file_provider in file_providers:
            return None
        return (
            f"{item.file_provider} file references cannot be sent to {provider}"
            f"{_where(field_prefix)}: a file id names a file of that provider's Files API only"
        )
    url = item.url
    if url is None or fetchable_url(url, schemes):
        return None
    taken = f"it takes {' and '.join(sorted(schemes))} URLs or {kind} bytes"
    if GOOGLE_FILE_URI.match(url) is not None:
        return (
            f"Google Files API {kind} URIs cannot be sent to {provider}{_where(field_prefix)}: "
            f"only Gemini reads them ({taken})"
        )
    return (
        f"{url_scheme(url)}:// {kind} URLs cannot be sent to {provider}{_where(field_prefix)}; "
        f"{taken}"
    )


def media_kind(item: MediaPart) -> str:
    """The medium of a media message as the notes name it: ``"image"``, ``"document"``,
    ``"audio"`` or ``"video"``."""
    for kind, cls in _MEDIA_KINDS:
        if isinstance(item, cls):
            return kind
    raise TypeError(f"not a media message: {type(item).__name__}")


def unsupported_medium(item: MediaPart, *, provider: str, field_prefix: str = "") -> str:
    """The ``"dropped"`` note of a medium ``provider`` takes in no form (video on every wing but
    Gemini, audio on Anthropic and Responses); the caller records it as unsupported (strict
    mode: ``UnsupportedMessageError``)."""
    return f"{media_kind(item)} cannot be sent to {provider}{_where(field_prefix)}"


def omitted_detail(image: ImageMessage, *, provider: str, field_prefix: str = "") -> str | None:
    """The ``"omitted"`` note of an image ``detail`` that ``provider`` has no field for, or
    ``None`` when the image has no ``detail``."""
    if image.detail is None:
        return None
    return (
        f"image detail {image.detail!r} is not sent to {provider} (it has no such field; detail "
        f"is only a hint){_where(field_prefix)}"
    )


def _where(field_prefix: str) -> str:
    return f" ({field_prefix.rstrip('.')})" if field_prefix else ""


def unsupported_envelope(
    envelope: MessageEnvelope[Any], *, roles: Collection[str], target: str, expected: str
) -> str | None:
    """Why ``envelope`` cannot be passed through to ``target``, or ``None`` when it can.

    It can when it holds a dict whose ``role`` is one of ``roles``; another provider's message
    (an OpenAI ``"tool"`` dict for Anthropic, a Gemini ``"model"`` content) would only fail at
    the API. The caller drops it as unsupported. ``expected`` names the dict type wanted.
    """
    payload = envelope.content
    if not isinstance(payload, dict):
        return (
            f"a MessageEnvelope of {type(payload).__name__} is not {target} (expected {expected})"
        )
    role = payload.get("role")
    if isinstance(role, str) and role in roles:
        return None
    taken = ", ".join(sorted(roles))
    return f"a MessageEnvelope of a {role!r} message is not {target} (roles: {taken})"


def checked_tool_choice(tool_choice: str | None, tool_names: Collection[str]) -> str | None:
    """Return the ``tool_choice`` to send, or ``None`` when none should be sent.

    Without tools, ``"auto"`` and ``"none"`` mean what no tool choice means and are left out.
    Raises ``ValueError`` for ``"required"`` without tools and for a function name that is not
    one of ``tool_names`` (the providers reject both with an HTTP 400).
    """
    if tool_choice is None:
        return None
    if not tool_names:
        if tool_choice in _HARMLESS_WITHOUT_TOOLS:
            return None
        raise ValueError(
            f"tool_choice {tool_choice!r} needs tools, but no function is offered; pass "
            "functions (in the agent or in the options) or drop tool_choice"
        )
    if tool_choice not in TOOL_CHOICE_MODES and tool_choice not in tool_names:
        raise ValueError(
            f"tool_choice {tool_choice!r} names no offered function (offered: "
            f"{', '.join(sorted(tool_names))})"
        )
    return tool_choice
