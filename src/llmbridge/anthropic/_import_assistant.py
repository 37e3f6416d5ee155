"""An Anthropic assistant turn of a request history -> the neutral messages ``to_anthropic``
merges back into it (the assistant half of ``from_anthropic_messages``).

Thinking opens the turn and goes on its first message. The rest is read as messages of the form
``to_anthropic`` writes for one reply: text blocks (with ``citations``), server and MCP tool
blocks (``hosted_tools``, a result right after its use block one call) in any order, then
``tool_use`` blocks; a new message starts after ``tool_use`` blocks and between two text blocks
without citations (one message's text becomes one block between two cut points). Citations and
hosted blocks are kept exactly (``provider_data``), so the round trip is exact (API.md 16, 19.7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from llmbridge import (
    Citation,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
)
from llmbridge.anthropic._citations import neutral_citation, replayable_citation
from llmbridge.anthropic._errors import PROVIDER
from llmbridge.anthropic._hosted import RESULT_NAMES, USE_TYPES, HostedBlocks
from llmbridge.kit import Unmapped

__all__ = ["THINKING", "assistant_messages", "reply_block_problem"]

THINKING: Final = frozenset({"thinking", "redacted_thinking"})
Block = Mapping[str, Any]


def _named(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def reply_block_problem(block: Block, where: str) -> Unmapped | None:
    """Why a hosted block, or the ``citations`` of a text block, at field ``where`` is not as
    ``to_anthropic`` writes it; ``None`` when it is (or when ``block`` is neither)."""
    kind = block.get("type")
    if kind == "text" and "citations" in block:
        citations = block["citations"]
        if not isinstance(citations, list) or not citations:
            return Unmapped(f"{where}.citations", "citations must be a non-empty list")
        for position, citation in enumerate(citations):
            if not replayable_citation(citation):
                return Unmapped(
                    f"{where}.citations[{position}]",
                    "a citation needs exactly the keys of its type, each of its type",
                )
    elif kind in USE_TYPES:
        if not (_named(block.get("id")) and _named(block.get("name"))):
            return Unmapped(where, f"a {kind} block needs a non-empty 'id' and 'name'")
        if not isinstance(block.get("input"), Mapping):
            return Unmapped(f"{where}.input", f"a {kind} block needs 'input' as an object")
    elif kind in RESULT_NAMES and (not _named(block.get("tool_use_id")) or "content" not in block):
        return Unmapped(where, f"a {kind} block needs its 'tool_use_id' and 'content'")
    return None


def _reasoning(block: Block) -> Reasoning:
    if block["type"] == "redacted_thinking":
        return Reasoning("", redacted_data=block["data"], provider=PROVIDER)
    return Reasoning(block["thinking"], signature=block["signature"], provider=PROVIDER)


def _uncited_text(block: Block) -> bool:
    return block["type"] == "text" and "citations" not in block


def _pairs(blocks: Sequence[Block], position: int) -> bool:
    """Whether ``blocks[position]`` is a use block right followed by its result."""
    use, after = blocks[position], position + 1
    return (
        use["type"] in USE_TYPES
        and after < len(blocks)
        and blocks[after]["type"] in RESULT_NAMES
        and blocks[after]["tool_use_id"] == use["id"]
    )


def _reply(
    blocks: Sequence[Block],
    calls: list[ToolCall],
    reasoning: list[Reasoning],
    agent_name: str,
) -> Message:
    """One message of text and hosted blocks (reply order) and the calls after them."""
    texts: list[str] = []
    length = 0
    citations: list[Citation] = []
    hosted = HostedBlocks()
    position = 0
    while position < len(blocks):
        block = blocks[position]
        if block["type"] == "text":
            start = length
            texts.append(block["text"])
            length += len(block["text"])
            citations.extend(neutral_citation(c, start, length) for c in block.get("citations", ()))
        elif _pairs(blocks, position):
            hosted.add_entry([block, blocks[position + 1]], length)
            position += 1
        else:
            hosted.add_entry([block], length)
        position += 1
    content = "".join(texts)
    extra: dict[str, Any] = {"reasoning": reasoning, "citations": citations}
    extra["hosted_tools"] = hosted.calls()
    if calls:
        return ToolCallMessage(calls, agent_name, content=content or None, **extra)
    return TextMessage(Role.ASSISTANT, content, from_=agent_name, **extra)


def assistant_messages(
    blocks: Sequence[Block],
    agent_name: str,
    calls_of: Callable[[Sequence[Block]], list[ToolCall]],
) -> list[Message] | Unmapped:
    """The messages of an assistant turn's ``blocks`` (each already checked); ``calls_of``
    makes the ``ToolCall``s of ``tool_use`` blocks (and remembers them for their results)."""
    split = next((i for i, b in enumerate(blocks) if b["type"] not in THINKING), len(blocks))
    rest = blocks[split:]
    if not rest or any(b["type"] in THINKING for b in rest):
        return Unmapped("content", "thinking blocks must open a turn that has more")
    reasoning = [_reasoning(b) for b in blocks[:split]]
    out: list[Message] = []
    position = 0
    while position < len(rest):
        end = position
        while end < len(rest) and rest[end]["type"] != "tool_use":
            if end > position and _uncited_text(rest[end]) and _uncited_text(rest[end - 1]):
                break  # two text blocks of one message would be sent as one
            end += 1
        calls_end = end
        while calls_end < len(rest) and rest[calls_end]["type"] == "tool_use":
            calls_end += 1
        calls = calls_of(rest[end:calls_end]) if calls_end > end else []
        out.append(_reply(rest[position:end], calls, reasoning, agent_name))
        reasoning = []
        position = calls_end
    return out
