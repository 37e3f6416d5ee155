"""``HostedToolCall``: a tool the provider ran itself (API.md 19.5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from llmbridge._errors import InvalidMessageError
from llmbridge._messages._provider_data import (
    NO_PROVIDER_DATA,
    ProviderData,
    freeze_provider_data,
)
from llmbridge._messages._values import as_json_text, set_field, typed_tuple

__all__ = ["HostedToolCall", "hosted_tool_tuple"]


@dataclass(frozen=True, slots=True)
class HostedToolCall:
    """A tool the provider ran itself on a reply: web search, web fetch, code execution, file
    search, image generation, a remote MCP tool, tool search.

    ``name`` is the tool (``web_search``, ``code_execution``, an MCP tool's name...),
    ``arguments`` the JSON text of its input (a mapping is JSON-serialized), ``result`` the text
    the provider gives of its outcome (``None`` when it gives none) and ``is_error`` whether it
    failed; ``id`` is the provider's id of the call and ``provider`` the tag of the wing that
    read it. ``provider_data`` (provider tag -> JSON-compatible mapping, frozen) holds the exact
    blocks or items and their place in the reply, so that wing replays them in place; every
    other wing omits them with a note. Raises ``InvalidMessageError`` for an empty ``name``,
    ``id`` or ``provider``, a ``result`` that is not text, and ``provider_data`` that is not
    JSON-compatible.
    """

    name: str
    arguments: str
    id: str = field(kw_only=True)
    result: str | None = field(default=None, kw_only=True)
    is_error: bool = field(default=False, kw_only=True)
    provider: str = field(kw_only=True)
    provider_data: ProviderData = field(default=NO_PROVIDER_DATA, kw_only=True)

    def __post_init__(self) -> None:
        for name in ("name", "id", "provider"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise InvalidMessageError(f"{name} must be a non-empty str", field=name)
        if type(self.arguments) is not str:
            set_field(self, "arguments", as_json_text(self.arguments, "arguments"))
        if self.result is not None and not isinstance(self.result, str):
            raise InvalidMessageError(
                f"result must be a str or None, got {type(self.result).__name__}", field="result"
            )
        if type(self.is_error) is not bool:
            raise InvalidMessageError("is_error must be a bool", field="is_error")
        if self.provider_data is not NO_PROVIDER_DATA:
            set_field(self, "provider_data", freeze_provider_data(self.provider_data))


def hosted_tool_tuple(hosted_tools: Sequence[HostedToolCall]) -> tuple[HostedToolCall, ...]:
    """``hosted_tools`` as a tuple; ``InvalidMessageError`` (field ``hosted_tools[i]``) for an
    item that is not a ``HostedToolCall``."""
    return typed_tuple(hosted_tools, HostedToolCall, "hosted_tools")
