"""The registry of provider wings: the one list the command line and the demo read.

A wing is described by a ``ProviderInfo`` (its tag, title, package and pip extra, and the
settings of a live demo) and implemented by its package, which defines ``request_payload`` (a
request body for ``llmbridge convert``), ``sdk_client``, ``default_http_client`` and
``connected_agent``. Nothing is imported
until a wing is used, so listing the providers loads no SDK.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, Protocol

from llmbridge._messages import Message
from llmbridge.kit._notes import ConversionNote

__all__ = [
    "BUILTIN_PROVIDERS",
    "ProviderInfo",
    "ProviderWing",
    "load_provider",
    "provider_info",
    "provider_tags",
    "register_provider",
]


@dataclass(frozen=True, slots=True)
class ProviderInfo:
    """What the command line and the demo know of one provider wing before importing it.

    ``tag`` is its provider tag, ``package`` the import path of its package (a ``ProviderWing``),
    ``extra`` the pip extra that installs its SDK; ``default_model``, ``model_variable`` and
    ``key_variable`` are the settings of ``llmbridge demo --live``.
    """

    tag: str
    title: str
    package: str
    extra: str
    default_model: str
    model_variable: str
    key_variable: str


class ProviderWing(Protocol):
    """The module-level functions a provider package offers the command line and the demo."""

    def request_payload(
        self, messages: Sequence[Message], *, agent_name: str, strict_mode: bool, name_policy: str
    ) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
        """The request body (without settings) for ``messages``, and the notes."""
        ...

    def sdk_client(self, *, api_key: str | None, http_client: Any, max_retries: int) -> Any:
        """The SDK's async client over ``http_client`` (``None`` key: from the environment)."""
        ...

    def default_http_client(self, **kwargs: Any) -> Any:
        """The SDK's own default async HTTP client with ``kwargs`` (hooks, transport)."""
        ...

    def connected_agent(self, client: Any, *, name: str, model: str) -> Any:
        """The provider agent for ``client`` with its default connector."""
        ...


BUILTIN_PROVIDERS: Final = (
    ProviderInfo(
        "openai",
        "OpenAI Chat Completions",
        "llmbridge.openai",
        "openai",
        "gpt-4o-mini",
        "LLMBRIDGE_OPENAI_MODEL",
        "OPENAI_API_KEY",
    ),
    ProviderInfo(
        "anthropic",
        "Anthropic Messages",
        "llmbridge.anthropic",
        "anthropic",
        "claude-haiku-4-5",
        "LLMBRIDGE_ANTHROPIC_MODEL",
        "ANTHROPIC_API_KEY",
    ),
    ProviderInfo(
        "gemini",
        "Google Gemini",
        "llmbridge.gemini",
        "gemini",
        "gemini-2.5-flash",
        "LLMBRIDGE_GEMINI_MODEL",
        "GEMINI_API_KEY",
    ),
)
"""The built-in wings, in the order the demo runs them: one line registers a wing."""

# The explicit registry: built-ins, then wings registered at run time.
_REGISTRY: Final[dict[str, ProviderInfo]] = {info.tag: info for info in BUILTIN_PROVIDERS}


def register_provider(info: ProviderInfo) -> None:
    """Add (or replace) a wing in the registry the command line and the demo read."""
    _REGISTRY[info.tag] = info


def provider_tags() -> tuple[str, ...]:
    """The registered provider tags, built-ins first."""
    return tuple(_REGISTRY)


def provider_info(tag: str) -> ProviderInfo:
    """The ``ProviderInfo`` of ``tag``; ``KeyError`` naming the known tags otherwise."""
    try:
        return _REGISTRY[tag]
    except KeyError:
        raise KeyError(f"no provider {tag!r}; known: {', '.join(_REGISTRY)}") from None


def load_provider(tag: str) -> ProviderWing:
    """Import the package of ``tag`` (its SDK too); ``ImportError`` names the extra to install."""
    module: ModuleType = importlib.import_module(provider_info(tag).package)
    wing: ProviderWing = module
    return wing
