"""A toy provider built in this file from ``llmbridge.kit`` only inherits the template's behaviour.

The toy wire format is a list of ``{"speaker", "text"}`` turns; the toy "SDK" answers with
``ToyReply`` objects (a whole reply, or one stream chunk) and fails with ``ToyError``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from llmbridge import (
    GenerateReplyOptions,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    ProviderAPIError,
    ProviderUnavailableError,
    Role,
    StreamInterruptedError,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    UnsupportedMessageError,
    register_message_connector,
)
from llmbridge.kit import (
    AgentMethods,
    MessageConnector,
    NoteRecorder,
    ProviderRequest,
    ReplyParts,
    StreamAggregator,
    build_reply,
    partial_reply,
    prepare_conversation,
    speaker,
)

AGENT = "toy"


@dataclass
class ToyReply:
    text: str
    done: bool = True


class ToyError(Exception):
    """The toy SDK's own failure (an HTTP 503 inside an accepted stream, say)."""


def to_toy(
    messages: Sequence[Message], *, agent_name: str, strict_mode: bool, check_pairing: bool
) -> ProviderRequest:
    prepared = prepare_conversation(messages, agent_name=agent_name, check_pairing=check_pairing)
    recorder = NoteRecorder(strict_mode)
    turns: list[dict[str, str]] = []
    indices: list[int] = []
    for message, index in zip(prepared.messages, prepared.indices, strict=True):
        if isinstance(message, MessageEnvelope):
            turns.append(message.content)
        elif isinstance(message, TextMessage):
            role = "model" if speaker(message, agent_name) == "self" else "user"
            turns.append({"speaker": role, "text": message.content})
        else:
            name = type(message).__name__
            recorder.record(index, "dropped", f"{name} not sent", error=UnsupportedMessageError)
            continue
        indices.append(index)
    prepared.raise_violation()
    notes = (*prepared.notes, *recorder.notes)
    return ProviderRequest(messages=turns, indices=tuple(indices), notes=notes)


class ToyAggregator:
    def __init__(self, agent_name: str) -> None:
        self.agent_name = agent_name
        self.texts: list[str] = []
        self.done = False

    def add(self, item: Any) -> list[Message]:
        self.texts.append(item.text)
        self.done = item.done
        return [TextMessageUpdate(Role.ASSISTANT, item.text, self.agent_name)]

    @property
    def partial(self) -> Message | None:
        return partial_reply(ReplyParts(text="".join(self.texts)), agent_name=self.agent_name)

    def finish(self) -> Message:
        if not self.done:
            raise StreamInterruptedError("cut", provider="toy", partial=self.partial)
        parts = ReplyParts(text="".join(self.texts), finish_reason="stop")
        return build_reply(parts, agent_name=self.agent_name, raw=None)


class ToyConnector(MessageConnector):
    provider: ClassVar[str] = "toy"

    def convert_request(
        self, messages: Sequence[Message], *, agent_name: str, check_pairing: bool
    ) -> ProviderRequest:
        return to_toy(
            messages,
            agent_name=agent_name,
            strict_mode=self.strict_mode,
            check_pairing=check_pairing,
        )

    def convert_reply(self, reply: Message, *, agent_name: str) -> Message:
        assert isinstance(reply, MessageEnvelope)
        parts = ReplyParts(text=reply.content.text, finish_reason="stop")
        return build_reply(parts, agent_name=agent_name, raw=reply.content)

    def new_stream_aggregator(self, agent_name: str) -> StreamAggregator:
        return ToyAggregator(agent_name)

    def is_stream_item(self, item: object) -> bool:
        return isinstance(item, ToyReply)

    def map_error(self, exc: BaseException) -> ProviderAPIError | None:
        if isinstance(exc, ToyError):
            return ProviderUnavailableError(
                str(exc), provider="toy", status_code=503, retryable=True
            )
        return None


class ToyAgent(AgentMethods):
    """Answers with the chunks it was given; records what it received; can fail mid-stream."""

    def __init__(self, chunks: Sequence[ToyReply], *, fail_after: int | None = None) -> None:
        self.name = AGENT
        self.chunks = list(chunks)
        self.fail_after = fail_after
        self.received: list[Sequence[Message]] = []
        self.closed = False

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        self.received.append(messages)
        return MessageEnvelope(ToyReply("".join(c.text for c in self.chunks)), self.name)

    async def generate_streaming_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> AsyncIterator[Message]:
        self.received.append(messages)
        try:
            for position, chunk in enumerate(self.chunks):
                if position == self.fail_after:
                    raise ToyError("toy server overloaded")
                yield MessageEnvelope(chunk, self.name)
        finally:
            self.closed = True


CHUNKS = [ToyReply("Hello "), ToyReply("there", done=True)]
HISTORY: list[Message] = [
    TextMessage(Role.USER, "Hi", "alice"),
    TextMessage(Role.ASSISTANT, "Hi alice", AGENT),
    TextMessage(Role.USER, "How are you?"),
]


def connected(agent: ToyAgent) -> Any:
    return register_message_connector(agent, ToyConnector())


async def test_envelopes_keep_the_sender_of_the_message_they_came_from() -> None:
    agent = ToyAgent(CHUNKS)

    await connected(agent).send(chat_history=HISTORY)

    (received,) = agent.received
    assert [m.from_ for m in received] == ["alice", AGENT, None]
    assert [m.content for m in received] == [
        {"speaker": "user", "text": "Hi"},
        {"speaker": "model", "text": "Hi alice"},
        {"speaker": "user", "text": "How are you?"},
    ]


async def test_an_envelope_of_a_provider_message_is_passed_on_itself() -> None:
    raw = MessageEnvelope({"speaker": "user", "text": "raw"}, "bob")
    agent = ToyAgent(CHUNKS)

    await connected(agent).send(chat_history=[raw])

    assert agent.received[0][0] is raw


async def test_notes_are_logged_once_per_connector(caplog: pytest.LogCaptureFixture) -> None:
    history = [*HISTORY, ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")], "other")]
    agent = connected(ToyAgent(CHUNKS))
    caplog.set_level(logging.INFO, logger="llmbridge")

    await agent.send(chat_history=history)
    await agent.send(chat_history=history)

    dropped = [r for r in caplog.records if "not sent" in r.getMessage()]
    assert len(dropped) == 1
    assert dropped[0].levelno == logging.WARNING


async def test_a_stream_ends_with_one_message_equal_to_the_plain_reply() -> None:
    agent = connected(ToyAgent(CHUNKS))

    streamed = [m async for m in agent.stream(chat_history=HISTORY)]
    plain = await agent.send(chat_history=HISTORY)

    assert [type(m) for m in streamed] == [TextMessageUpdate, TextMessageUpdate, TextMessage]
    expected = TextMessage(Role.ASSISTANT, "Hello there", AGENT, finish_reason="stop")
    assert streamed[-1] == plain == expected


async def test_a_failure_inside_the_stream_is_interrupted_with_the_partial() -> None:
    agent = connected(ToyAgent(CHUNKS, fail_after=1))

    with pytest.raises(StreamInterruptedError) as caught:
        [m async for m in agent.stream(chat_history=HISTORY)]

    error = caught.value
    assert error.partial == TextMessage(Role.ASSISTANT, "Hello ", AGENT)
    assert (error.provider, error.status_code, error.retryable) == ("toy", 503, True)
    assert isinstance(error.__cause__, ToyError)


async def test_a_failure_before_the_first_item_is_the_mapped_error() -> None:
    agent = connected(ToyAgent(CHUNKS, fail_after=0))

    with pytest.raises(ProviderUnavailableError) as caught:
        [m async for m in agent.stream(chat_history=HISTORY)]

    assert not isinstance(caught.value, StreamInterruptedError)


async def test_a_stream_without_its_end_marker_is_interrupted() -> None:
    agent = connected(ToyAgent([ToyReply("Hello ", done=False)]))

    with pytest.raises(StreamInterruptedError) as caught:
        [m async for m in agent.stream(chat_history=HISTORY)]

    assert caught.value.partial == TextMessage(Role.ASSISTANT, "Hello ", AGENT)


async def test_early_exit_closes_the_inner_stream() -> None:
    inner = ToyAgent(CHUNKS)
    stream = connected(inner).stream(chat_history=HISTORY)

    await anext(stream)
    await stream.aclose()

    assert inner.closed


async def test_the_pairing_step_raises_before_any_call() -> None:
    inner = ToyAgent(CHUNKS)
    unanswered = ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")], AGENT)

    with pytest.raises(InvalidMessageError) as caught:
        await connected(inner).send(chat_history=[*HISTORY, unanswered])

    assert caught.value.index == 3
    assert inner.received == []


def test_fragments_convert_without_the_pairing_step() -> None:
    unanswered = ToolCallMessage([ToolCall("f", "{}", tool_call_id="c")], AGENT)

    converted = ToyConnector().process_incoming_messages(ToyAgent(CHUNKS), [*HISTORY, unanswered])

    assert len(converted) == 3
