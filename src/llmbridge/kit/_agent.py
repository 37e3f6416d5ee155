"""Parts of a provider agent that every wing's agent repeats around its SDK call.

An agent takes envelopes of its SDK's request dicts (system ones lifted out where the API has a
top-level system field), layers reply options over its constructor settings, and raises its
``map_error``'s error for an SDK failure. These do that once; the SDK call stays in the wing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, NoReturn

from llmbridge._agents import GenerateReplyOptions, check_reserved
from llmbridge._errors import InvalidMessageError, UnsupportedMessageError
from llmbridge._messages import Message, MessageEnvelope

__all__ = ["raise_mapped", "reply_settings", "split_system_envelopes"]


def split_system_envelopes(
    messages: Sequence[Message],
    *,
    turn_roles: Collection[str],
    system_parts: Callable[[Mapping[str, Any]], Iterable[Any]],
    agent: str,
    takes: str,
    empty: str,
) -> tuple[list[Any], list[Any]]:
    """Split envelopes of request dicts into the system parts and the turns, both in order.

    A dict whose ``role`` is ``"system"`` gives ``system_parts(payload)``; one whose ``role`` is
    in ``turn_roles`` is a turn, kept as it is. Raises ``UnsupportedMessageError`` with the
    message's index for anything else (the message names ``agent`` and the dicts it ``takes``),
    and ``InvalidMessageError`` with the text ``empty`` when no turn is left.
    """
    system: list[Any] = []
    turns: list[Any] = []
    for index, message in enumerate(messages):
        payload = message.content if isinstance(message, MessageEnvelope) else None
        role = payload.get("role") if isinstance(payload, dict) else None
        if isinstance(payload, dict) and role == "system":
            system.extend(system_parts(payload))
        elif role in turn_roles:
            turns.append(payload)
        else:
            raise UnsupportedMessageError(
                f"{agent} takes MessageEnvelopes of {takes}, got {type(message).__name__}; "
                "register a connector with agent.register_message_connector() to send "
                "neutral messages",
                index=index,
            )
    if not turns:
        raise InvalidMessageError(empty)
    return system, turns


def reply_settings(
    settings: Mapping[str, Any],
    options: GenerateReplyOptions,
    *,
    reserved: Collection[str],
    agent: str,
    temperature: float | None = None,
) -> dict[str, Any]:
    """The settings of one reply: the agent's ``settings``, ``options.extra`` laid over them.

    Then ``temperature`` (``options.temperature``, else the agent's ``temperature``) and
    ``stop_sequences`` (as a list) are set when given. Returns a new dict; neither input is
    changed. Raises ``ValueError`` (``check_reserved``) when ``options.extra`` names a
    ``reserved`` key.
    """
    check_reserved(options.extra, reserved, agent)
    layered: dict[str, Any] = dict(settings)
    layered.update(options.extra or {})
    chosen = options.temperature if options.temperature is not None else temperature
    if chosen is not None:
        layered["temperature"] = chosen
    if options.stop_sequences is not None:
        layered["stop_sequences"] = list(options.stop_sequences)
    return layered


def raise_mapped(exc: Exception, mapped: BaseException | None) -> NoReturn:
    """Raise ``mapped`` (a ``map_error`` result) from ``exc``, or ``exc`` itself when ``None``.

    ``None`` means the failure is not the provider's (a bug, a cancelled task): it passes by
    unchanged.
    """
    if mapped is None:
        raise exc
    raise mapped from exc
