"""The ``anthropic-beta`` betas a Messages request needs for what its body holds.

A ``file`` source (``file_image_source_param.py``, ``file_document_source_param.py``), in a user
turn or a tool result, is read from the Files API, which needs ``files-api-2025-04-14``; the MCP
connector's blocks exist only in the beta types and need one of its ``mcp-client-*`` betas (the
names: ``anthropic_beta_param.py``). The SDK sends ``betas`` as one comma-separated header.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

import httpx

from llmbridge.anthropic import AnthropicRequest
from tests.anthropic.wire_hosted import MCP_BLOCKS
from tests.sdk_shapes import WireError

__all__ = ["FILES_BETA", "MCP_BETAS", "assert_betas", "required_betas"]

FILES_BETA: Final = "files-api-2025-04-14"
# Any of the MCP connector's betas takes its blocks.
MCP_BETAS: Final = frozenset(
    {"mcp-client-2025-04-04", "mcp-client-2025-11-20", "mcp-client-2026-09-15"}
)


def _messages_of(request: AnthropicRequest | Mapping[str, Any]) -> Any:
    return request.messages if isinstance(request, AnthropicRequest) else request["messages"]


def _nested_blocks(blocks: Any) -> Iterator[Mapping[str, Any]]:
    """Every block of a content list, with those inside ``tool_result`` content."""
    if not isinstance(blocks, list):
        return
    for block in blocks:
        if isinstance(block, Mapping):
            yield block
            if block.get("type") == "tool_result":
                yield from _nested_blocks(block.get("content"))


def required_betas(request: AnthropicRequest | Mapping[str, Any]) -> list[frozenset[str]]:
    """The betas a request needs, each as the set of beta names any one of which will do.

    A ``file`` source anywhere (tool results included) needs ``FILES_BETA``; an MCP block, one
    of ``MCP_BETAS``.
    """
    needed: list[frozenset[str]] = []
    blocks = [b for m in _messages_of(request) for b in _nested_blocks(m["content"])]
    if any(
        b.get("type") in ("image", "document")
        and isinstance(b.get("source"), Mapping)
        and b["source"].get("type") == "file"
        for b in blocks
    ):
        needed.append(frozenset({FILES_BETA}))
    if any(b.get("type") in MCP_BLOCKS for b in blocks):
        needed.append(MCP_BETAS)
    return needed


def _sent_betas(headers: httpx.Headers | Mapping[str, str]) -> set[str]:
    values = (
        headers.get_list("anthropic-beta")
        if isinstance(headers, httpx.Headers)
        else [value for key, value in headers.items() if key.lower() == "anthropic-beta"]
    )
    return {name.strip() for value in values for name in value.split(",") if name.strip()}


def assert_betas(
    request: AnthropicRequest | Mapping[str, Any], headers: httpx.Headers | Mapping[str, str]
) -> None:
    """Raise ``WireError`` unless ``headers`` carry every beta ``request`` needs.

    ``headers``: the sent request's (``httpx.Headers``) or a plain mapping; the
    ``anthropic-beta`` header is a comma-separated list, as the SDK joins ``betas``.
    """
    sent = _sent_betas(headers)
    for choices in required_betas(request):
        if not choices & sent:
            raise WireError(
                "headers.anthropic-beta: the request needs the "
                f"{' or '.join(sorted(choices))} beta, sent {sorted(sent)}"
            )
