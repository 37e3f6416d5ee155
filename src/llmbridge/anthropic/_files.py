"""The Files API beta: which requests need its header, and adding it to ``create()`` arguments.

An ``image`` or ``document`` block whose source is ``{"type": "file", "file_id": ...}`` names a
file uploaded through Anthropic's Files API, which is still a beta: the API takes such a
request only with the header ``anthropic-beta: files-api-2025-04-14`` (the one Files beta name
in the SDK's ``anthropic.types.AnthropicBetaParam``). Pure functions over the request dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = ["BETA_HEADER", "FILES_API_BETA", "uses_files", "with_beta"]

FILES_API_BETA: Final = "files-api-2025-04-14"
"""The ``anthropic-beta`` value a request with ``file`` sources needs."""
BETA_HEADER: Final = "anthropic-beta"
_MEDIA_BLOCKS: Final = frozenset({"image", "document"})


def _has_file_source(blocks: Any) -> bool:
    """Whether a content list holds an image or document block with a ``file`` source, itself
    or inside a ``tool_result``'s content."""
    # Inline loops: this runs over every block of every request (a call per block made it a
    # quarter of a to_anthropic of the benchmark conversation).
    for block in blocks:
        kind = block.get("type") if type(block) is dict or isinstance(block, Mapping) else None
        if kind in _MEDIA_BLOCKS:
            source = block.get("source")
            if type(source) is dict and source.get("type") == "file":
                return True
        elif kind == "tool_result":
            content = block.get("content")
            if type(content) is list and _has_file_source(content):
                return True
    return False


def uses_files(turns: Iterable[Any]) -> bool:
    """Whether any user turn holds an image or document block with a ``file`` source, in its
    own content or inside a ``tool_result``'s content (only user turns hold either)."""
    for turn in turns:
        if not isinstance(turn, Mapping) or turn.get("role") != "user":
            continue
        content = turn.get("content")
        if type(content) is list and _has_file_source(content):
            return True
    return False


def with_beta(arguments: dict[str, Any], beta: str) -> None:
    """Add ``beta`` to the ``anthropic-beta`` header of ``create()`` ``arguments``.

    Betas the caller already asks for (in ``extra_headers``, the header name in any case) are
    kept, ``beta`` is appended once; ``arguments["extra_headers"]`` is replaced, never mutated.
    """
    headers = dict(arguments.get("extra_headers") or {})
    name = next((key for key in headers if key.lower() == BETA_HEADER), BETA_HEADER)
    given = headers.get(name)
    betas = [item.strip() for item in given.split(",")] if isinstance(given, str) else []
    if beta not in betas:
        betas.append(beta)
    headers[name] = ",".join(item for item in betas if item)
    arguments["extra_headers"] = headers
