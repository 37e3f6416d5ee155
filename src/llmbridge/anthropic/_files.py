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


def _is_file_block(block: Any) -> bool:
    if not isinstance(block, Mapping):
        return False
    kind = block.get("type")
    if kind in _MEDIA_BLOCKS:
        source = block.get("source")
        return isinstance(source, Mapping) and source.get("type") == "file"
    if kind == "tool_result":
        content = block.get("content")
        return isinstance(content, list) and any(_is_file_block(item) for item in content)
    return False


def uses_files(turns: Iterable[Any]) -> bool:
    """Whether any turn holds an image or document block with a ``file`` source, in its own
    content or inside a ``tool_result``'s content."""
    for turn in turns:
        content = turn.get("content") if isinstance(turn, Mapping) else None
        if isinstance(content, list) and any(_is_file_block(block) for block in content):
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
