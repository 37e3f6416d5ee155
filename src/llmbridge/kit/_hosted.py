"""What a wing sends of a reply's hosted tool calls: its own, in place; the others, a note."""

from __future__ import annotations

from llmbridge._messages import HostedToolCall, TextMessage, ToolCallMessage
from llmbridge.kit._notes import NoteRecorder

__all__ = ["own_hosted_tools"]


def own_hosted_tools(
    message: TextMessage | ToolCallMessage,
    index: int,
    *,
    provider: str,
    provider_title: str,
    recorder: NoteRecorder,
) -> tuple[HostedToolCall, ...]:
    """The hosted tool calls of ``message`` that ``provider`` ran, to replay in place; those of
    any other provider are not sent: one ``"omitted"`` note for the message (never raising, as
    for reasoning: the visible text is unchanged)."""
    hosted = message.hosted_tools
    if not hosted:
        return ()
    own = tuple(call for call in hosted if call.provider == provider)
    if len(own) < len(hosted):
        foreign = sorted({call.provider for call in hosted if call.provider != provider})
        names = ", ".join(call.name for call in hosted if call.provider != provider)
        recorder.record(
            index,
            "omitted",
            f"hosted tool calls of {' and '.join(foreign)} ({names}) are not sent to "
            f"{provider_title}: only the provider that ran them takes them back",
        )
    return own
