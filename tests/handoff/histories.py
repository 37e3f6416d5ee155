"""Generated histories whose replies a producer's connector wrote, for a given target.

A history is a hand-written start (``valid_conversations``, lenient targets only) followed by
rounds of: a user turn, the producer's reply (its ids, reasoning and ``provider_data``), and
for a reply with tool calls their results, separate or aggregated. With a ``detour``, rounds
of another producer's replies come between the producer's own. Replies also carry
``provider_data`` under tags foreign to the target, marked with ``FOREIGN`` so a test can tell
that none of it reached the wire.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st

from llmbridge import (
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from tests.corpus import AGENT
from tests.handoff.wings import PRODUCERS, WINGS, Producer, ReplySpec
from tests.strategies import odd_texts, valid_conversations

FOREIGN = "\u2063foreign"
"""A marker inside every foreign ``provider_data`` value; it must never reach a payload."""
FOREIGN_TAGS = ("openai", "anthropic", "gemini", "openai-responses", "x-custom")

reply_texts = st.sampled_from(["Sure.", "Checking.", "naïve — ☃", "[x] y", "Done: 24C."])
thinkings = st.one_of(st.none(), st.sampled_from(["Two tools.", "think ☃", "a\nb"]))
function_names = st.sampled_from(["get_weather", "now", "search-web"])
tool_inputs = st.sampled_from([{}, {"city": "Paris"}, {"q": "x", "n": [1, 2.5]}])


@dataclass(frozen=True)
class History:
    """A generated history, the indexes of the messages a connector wrote (``replies``) and
    the tag of the wing whose connector wrote each (``writers``)."""

    messages: list[Message]
    replies: tuple[int, ...]
    writers: tuple[str, ...]


@st.composite
def reply_specs(draw: st.DrawFn, producer: Producer, turn: int = 0) -> ReplySpec:
    """A model's answer: text and/or tool calls with ``producer``'s ids, maybe thinking
    (``turn``: its number in the history)."""
    ids: list[str | None]
    if producer.call_ids is None:
        ids = [None] * draw(st.integers(0, 3))
    else:
        ids = list(draw(st.lists(producer.call_ids, max_size=3, unique=True)))
    calls = tuple((i, draw(function_names), draw(tool_inputs)) for i in ids)
    text = draw(st.none() | reply_texts) if calls else draw(reply_texts)
    return ReplySpec(text, draw(thinkings), calls, turn)


@st.composite
def foreign_data(draw: st.DrawFn, target: str) -> dict[str, Any]:
    """``provider_data`` under tags other than ``target``, every value marked ``FOREIGN``."""
    tags = draw(st.lists(st.sampled_from([t for t in FOREIGN_TAGS if t != target]), max_size=2))
    return {tag: {"id": f"{FOREIGN}-{tag}", "phase": f"{FOREIGN}-final"} for tag in tags}


def _with_data(message: Message, data: dict[str, Any]) -> Message:
    """``message`` with ``data`` added to its (and its calls') ``provider_data``; the
    producer's own entries stay, unless ``data`` has one under the same tag."""
    if not data:
        return message
    if isinstance(message, ToolCallMessage):
        calls = tuple(
            replace(call, provider_data={**call.provider_data, **data})
            for call in message.tool_calls
        )
        return replace(message, tool_calls=calls, provider_data={**message.provider_data, **data})
    assert isinstance(message, TextMessage)
    return replace(message, provider_data={**message.provider_data, **data})


def _results(reply: ToolCallMessage, texts: Sequence[str]) -> ToolCallResultMessage:
    return ToolCallResultMessage(
        [
            ToolCall(c.function_name, c.function_arguments, tool_call_id=c.tool_call_id, result=t)
            for c, t in zip(reply.tool_calls, texts, strict=True)
        ]
    )


@st.composite
def histories(
    draw: st.DrawFn, producer: str, target: str, *, start: bool, detour: str | None = None
) -> History:
    """Rounds of the ``producer``'s replies for ``target``, after a generated hand-written
    start when ``start`` (lenient only: it may hold names strict mode refuses); with a
    ``detour``, one or two rounds of that producer's replies somewhere after the first."""
    messages: list[Message] = (
        draw(valid_conversations()) if start else [TextMessage(Role.USER, "Start.")]
    )
    rounds = [producer] * draw(st.integers(1, 3))
    if detour is not None:
        at = draw(st.integers(1, len(rounds)))
        rounds[at:at] = [detour] * draw(st.integers(1, 2))
    replies: list[int] = []
    writers: list[str] = []
    for turn, name in enumerate(rounds):
        spec = draw(reply_specs(PRODUCERS[name], turn))
        messages.append(TextMessage(Role.USER, draw(odd_texts.filter(str.strip))))
        writer = PRODUCERS[name].tag
        reply = _with_data(WINGS[writer].produce(spec), draw(foreign_data(target)))
        replies.append(len(messages))
        writers.append(writer)
        if not isinstance(reply, ToolCallMessage):
            messages.append(reply)
            continue
        results = _results(reply, [draw(odd_texts) for _ in reply.tool_calls])
        if draw(st.booleans()):  # what FunctionCallMiddleware returns
            messages.append(ToolCallAggregateMessage(reply, results, AGENT))
        else:
            messages += [reply, results]
    # The request of a real agent loop ends with the user's turn; Gemini refuses one ending
    # with a model turn, so every target gets this closing turn alike.
    messages.append(TextMessage(Role.USER, "Go on."))
    return History(messages, tuple(replies), tuple(writers))
