"""What a traced agent calls: the provider tag, the model and the server, read once from the
innermost agent when tracing is registered (``register_tracing`` finds it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from llmbridge._agents._protocols import Agent

__all__ = ["UNKNOWN_PROVIDER", "Target", "provider_tag"]

UNKNOWN_PROVIDER: Final = "unknown"
# Module names that say nothing about a provider.
_ANONYMOUS_MODULES: Final = frozenset({"", "__main__", "builtins"})
_DEFAULT_PORTS: Final = {"https": 443, "http": 80}


def provider_tag(agent: object) -> str:
    """The provider tag of a provider agent: its class's ``provider``, else a module name.

    The module name is the package below ``llmbridge`` for llmbridge's own agents
    (``llmbridge.openai._agent`` -> ``"openai"``), else the top-level package of the agent's
    module; ``"unknown"`` when the module says nothing (``__main__``).
    """
    tag = getattr(type(agent), "provider", None)
    if isinstance(tag, str) and tag:
        return tag
    parts = type(agent).__module__.split(".")
    name = parts[1] if parts[0] == "llmbridge" and len(parts) > 1 else parts[0]
    return UNKNOWN_PROVIDER if name in _ANONYMOUS_MODULES else name


def _server(agent: object) -> tuple[str | None, int | None]:
    """The host and port of the agent's SDK client (its ``client.base_url``), when it has one."""
    base_url = getattr(getattr(agent, "client", None), "base_url", None)
    if base_url is None:
        return None, None
    parts = urlsplit(str(base_url))
    if not parts.hostname:
        return None, None
    return parts.hostname, parts.port or _DEFAULT_PORTS.get(parts.scheme)


@dataclass(frozen=True, slots=True)
class Target:
    """The provider agent behind a chain, as tracing sees it."""

    agent: object
    provider: str
    model: str | None
    server_address: str | None
    server_port: int | None

    @classmethod
    def of(cls, inner: Agent) -> Target:
        """Describe ``inner``, the innermost agent of a chain (its ``model`` is the model)."""
        model = getattr(inner, "model", None)
        address, port = _server(inner)
        model_name = model if isinstance(model, str) else None
        return cls(inner, provider_tag(inner), model_name, address, port)
