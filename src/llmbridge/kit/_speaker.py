"""``speaker``: who sent a message, as every provider's From rule sees it; and the name policy
for another agent's name, which a provider without a name field cannot carry."""

from __future__ import annotations

from typing import Literal

from llmbridge._messages import Message
from llmbridge.kit._checks import check_text
from llmbridge.kit._notes import NoteRecorder

__all__ = ["NamePolicy", "Speaker", "apply_name_policy", "check_name_policy", "speaker"]

Speaker = Literal["self", "other", "caller"]
"""Who sent a message, for the agent a conversion is for (see ``speaker``)."""

NamePolicy = Literal["drop", "prefix"]
"""What a provider without a name field does with another agent's name (``apply_name_policy``)."""


def speaker(message: Message, agent_name: str) -> Speaker:
    """``"self"`` when ``message.from_`` is ``agent_name``, ``"caller"`` when it is ``None``,
    else ``"other"`` (another agent of the conversation)."""
    sender = message.from_
    if sender is None:
        return "caller"
    return "self" if sender == agent_name else "other"


def check_name_policy(name_policy: str) -> None:
    """Raise ``ValueError`` unless ``name_policy`` is ``"drop"`` or ``"prefix"``."""
    if name_policy not in ("drop", "prefix"):
        raise ValueError(f"name_policy must be 'drop' or 'prefix', got {name_policy!r}")


def apply_name_policy(
    name: str, name_policy: str, *, recorder: NoteRecorder, index: int, target: str
) -> str | None:
    """Apply ``name_policy`` to ``name``, the sender of another agent's message ``index``.

    ``"prefix"``: checks ``name`` (``check_text``: ``InvalidMessageError`` for field
    ``from_``), records a ``"repaired"`` note and returns ``"[name] "``, which the provider puts
    before the message's content (as a text part of its own shape, or joined to the text).
    ``"drop"``: records a ``"dropped"`` note on ``from_`` saying the name cannot be sent to
    ``target`` (the provider's title; strict mode raises) and returns ``None``. Call it only for
    another agent's message: the agent's own and the caller's carry no name to apply it to.
    """
    if name_policy == "prefix":
        check_text(name, index=index, field="from_")
        recorder.record(index, "repaired", f"sender name carried as a '[{name}] ' prefix")
        return f"[{name}] "
    recorder.record(
        index, "dropped", f"sender name {name!r} cannot be sent to {target}", field="from_"
    )
    return None
