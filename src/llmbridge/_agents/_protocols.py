"""Agent protocols, reply options, and the ``send`` / ``stream`` helpers."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from llmbridge._messages import Message, Role, TextMessage
from llmbridge._output import OutputSchema, check_output_schema

if TYPE_CHECKING:
    from llmbridge._functions import FunctionContract

__all__ = [
    "Agent",
    "GenerateReplyOptions",
    "StreamingAgent",
    "build_messages",
    "check_async_client",
    "check_reserved",
    "create_keywords",
    "layer_create_settings",
    "send",
    "stream",
]


@runtime_checkable
class Agent(Protocol):
    """Anything with a ``name`` that turns a conversation into one reply."""

    name: str

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        """Return the reply to ``messages``."""
        ...


@runtime_checkable
class StreamingAgent(Agent, Protocol):
    """An agent that can also stream its reply as a sequence of messages."""

    def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        """Yield the reply to ``messages`` piece by piece."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerateReplyOptions:
    """Per-call settings for ``generate_reply``.

    ``tool_choice`` is ``"auto"``, ``"none"``, ``"required"`` or a function name; ``extra``
    holds provider settings passed to the SDK call (keywords the SDK's ``create()`` takes are
    passed as keywords, the rest in the request body). ``output_schema`` (a pydantic model
    class or a JSON schema dict of an object) asks for a JSON reply that fits it, through each
    provider's native structured output; ``parse_output`` reads the reply.

    Raises ``TypeError`` for an ``output_schema`` that is neither a model class nor a mapping,
    and ``ValueError`` for a mapping that is not an object schema.
    """

    temperature: float | None = None
    max_tokens: int | None = None
    stop_sequences: Sequence[str] | None = None
    functions: Sequence[FunctionContract] | None = None
    tool_choice: str | None = None
    extra: Mapping[str, Any] | None = field(default=None, hash=False)
    output_schema: OutputSchema | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        check_output_schema(self.output_schema)

    def merge(self, other: GenerateReplyOptions | None) -> GenerateReplyOptions:
        """Return these options with the fields ``other`` sets (not ``None``) taken from it."""
        if other is None:
            return self
        changes = {
            f.name: getattr(other, f.name)
            for f in fields(other)
            if getattr(other, f.name) is not None
        }
        return replace(self, **changes) if changes else self


def create_keywords(create: Callable[..., Any]) -> frozenset[str]:
    """The keyword arguments an SDK's ``create()`` takes (``self`` and ``**kwargs`` aside).

    Provider agents read it once at import, to route ``options.extra`` and constructor settings.
    """
    return frozenset(
        name
        for name, parameter in inspect.signature(create).parameters.items()
        if name != "self" and parameter.kind is not inspect.Parameter.VAR_KEYWORD
    )


def check_reserved(
    settings: Mapping[str, Any] | None, reserved: Collection[str], agent_type: str
) -> None:
    """Raise ``ValueError`` when ``settings`` name a key the agent sets itself.

    ``reserved`` are those keys (``model``, ``messages``, ``stream``, ...), ``agent_type`` the
    agent class's name; the first reserved key in sorted order is named, in the same words for
    every provider agent.
    """
    clashes = [key for key in settings or () if key in reserved]
    if clashes:
        raise ValueError(
            f"{min(clashes)!r} is set by {agent_type} and cannot be overridden (pass it to the "
            "constructor / use GenerateReplyOptions)"
        )


def layer_create_settings(
    arguments: dict[str, Any], settings: Mapping[str, Any], keywords: Collection[str]
) -> None:
    """Lay ``settings`` over ``create()`` ``arguments``: keys in ``keywords`` as keywords, the
    rest merged into ``extra_body`` so they reach the API unchanged.

    An explicit ``extra_body`` in ``settings`` is merged first, so a loose key wins over the same
    key inside it. ``arguments["extra_body"]`` is replaced, never mutated (callers copy their
    base arguments shallowly per call).
    """
    body = dict(arguments.get("extra_body") or {})
    body.update(settings.get("extra_body") or {})
    for key, value in settings.items():
        if key == "extra_body":
            continue
        if key in keywords:
            arguments[key] = value
        else:
            body[key] = value
    if body:
        arguments["extra_body"] = body


def check_async_client(
    client: object,
    sync_base: type | tuple[type, ...],
    sdk: ModuleType,
    *,
    agent: str,
    use: str,
) -> None:
    """Raise ``TypeError`` when ``client`` is one of the SDK's sync clients (a ``sync_base``).

    A sync client's ``create()`` would block the event loop and fail only after the request was
    sent, so the agent refuses it at construction. The message names the agent, the async
    classes to ``use`` and the public SDK class given (``openai.OpenAI``). Anything else, duck-
    typed test doubles included, is accepted.
    """
    if not isinstance(client, sync_base):
        return
    given = next(
        (cls.__name__ for cls in type(client).__mro__ if getattr(sdk, cls.__name__, None) is cls),
        type(client).__qualname__,
    )
    raise TypeError(f"{agent} needs an async client ({use}), got {sdk.__name__}.{given}")


def build_messages(message: Message | str | None, chat_history: Sequence[Message]) -> list[Message]:
    """Return ``[*chat_history, message]``; a ``str`` becomes a user ``TextMessage``."""
    messages = list(chat_history)
    if isinstance(message, str):
        messages.append(TextMessage(Role.USER, message))
    elif message is not None:
        messages.append(message)
    return messages


async def send(
    agent: Agent,
    message: Message | str | None = None,
    *,
    chat_history: Sequence[Message] = (),
    options: GenerateReplyOptions | None = None,
) -> Message:
    """Ask ``agent`` for a reply to ``[*chat_history, message]``."""
    return await agent.generate_reply(build_messages(message, chat_history), options)


def stream(
    agent: StreamingAgent,
    message: Message | str | None = None,
    *,
    chat_history: Sequence[Message] = (),
    options: GenerateReplyOptions | None = None,
) -> AsyncIterator[Message]:
    """Stream ``agent``'s reply to ``[*chat_history, message]``."""
    return agent.generate_streaming_reply(build_messages(message, chat_history), options)
