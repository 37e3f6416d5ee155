"""The middleware chain: order, short-circuit, identity, streaming, and the register_* helpers."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Sequence

import pytest

from llmbridge import (
    Agent,
    DelegateMiddleware,
    GenerateReplyOptions,
    ImageMessage,
    Message,
    MiddlewareAgent,
    MiddlewareContext,
    MiddlewareStreamingAgent,
    Role,
    StreamingAgent,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallMessage,
    register_middleware,
    register_post_process,
    register_pre_process,
    register_print_message,
    register_streaming_middleware,
    send,
    stream,
)
from llmbridge.testing import EchoAgent
from tests.strategies import PNG


class Recorder:
    """A streaming middleware that records when it runs and what agent name it sees."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    async def invoke(self, context: MiddlewareContext, agent: Agent) -> Message:
        self.log.append(f"{self.name}:{agent.name}")
        return await agent.generate_reply(context.messages, context.options)

    async def invoke_streaming(
        self, context: MiddlewareContext, agent: StreamingAgent
    ) -> AsyncIterator[Message]:
        self.log.append(f"{self.name}:stream:{agent.name}")
        async for message in agent.generate_streaming_reply(context.messages, context.options):
            yield message


class NonStreamingAgent:
    def __init__(self, name: str) -> None:
        self.name = name

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return TextMessage(Role.ASSISTANT, f"{len(messages)} messages", self.name)


async def collect(items: AsyncIterator[Message]) -> list[Message]:
    return [item async for item in items]


async def test_last_registered_runs_first() -> None:
    log: list[str] = []
    agent = EchoAgent("echo").register_middleware(Recorder("first", log))
    agent = agent.register_middleware(Recorder("second", log))
    await agent.send("hi")
    assert log == ["second:echo", "first:echo"]
    assert [m.name for m in agent.middlewares] == ["first", "second"]  # type: ignore[attr-defined]


async def test_registering_returns_new_agent_and_keeps_original() -> None:
    log: list[str] = []
    base = EchoAgent("echo").register_middleware(Recorder("a", log))
    extended = base.register_middleware(Recorder("b", log))
    assert extended is not base
    assert len(base.middlewares) == 1
    await base.send("hi")
    assert log == ["a:echo"]


async def test_short_circuit_skips_inner_agent() -> None:
    calls: list[str] = []

    async def answer(context: MiddlewareContext, agent: Agent) -> Message:
        return TextMessage(Role.ASSISTANT, "cached", "cache")

    class Counting(EchoAgent):
        async def generate_reply(
            self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
        ) -> Message:
            calls.append("inner")
            return await super().generate_reply(messages, options)

    agent = register_middleware(Counting("echo"), answer, name="cache")
    reply = await agent.send("hi")
    assert reply == TextMessage(Role.ASSISTANT, "cached", "cache")
    assert calls == []
    assert isinstance(agent.middlewares[0], DelegateMiddleware)
    assert agent.middlewares[0].name == "cache"


async def test_every_middleware_sees_innermost_name() -> None:
    log: list[str] = []
    agent = MiddlewareAgent(EchoAgent("inner"), [Recorder("a", log), Recorder("b", log)])
    wrapped = MiddlewareAgent(agent, [Recorder("c", log)])
    assert wrapped.name == "inner"
    await wrapped.send("x")
    assert log == ["c:inner", "b:inner", "a:inner"]


@pytest.mark.parametrize("path", ["send", "stream"])
async def test_renamed_chain_shows_every_middleware_the_innermost_name(path: str) -> None:
    log: list[str] = []
    inner = MiddlewareStreamingAgent(EchoAgent("inner"), [Recorder("a", log)], name="middle")
    agent = MiddlewareStreamingAgent(inner, [Recorder("b", log), Recorder("c", log)], name="outer")
    reply = await agent.send("x") if path == "send" else (await collect(agent.stream("x")))[-1]
    assert (agent.name, inner.name) == ("outer", "middle")
    prefix = "" if path == "send" else "stream:"
    assert log == [f"c:{prefix}inner", f"b:{prefix}inner", f"a:{prefix}inner"]
    assert reply.from_ == "inner"


async def test_streaming_through_middlewares() -> None:
    log: list[str] = []
    agent = register_streaming_middleware(EchoAgent("echo"), Recorder("a", log))
    agent = register_streaming_middleware(agent, Recorder("b", log))
    assert isinstance(agent, MiddlewareStreamingAgent)
    out = await collect(agent.stream("one", chat_history=[TextMessage(Role.USER, "zero")]))
    assert [m.get_content() for m in out] == ["zero", "one"]
    assert all(m.from_ == "echo" for m in out)
    assert log == ["b:stream:echo", "a:stream:echo"]


async def test_plain_middleware_on_streaming_agent_keeps_streaming() -> None:
    log: list[str] = []

    async def plain(context: MiddlewareContext, agent: Agent) -> Message:
        log.append("plain")
        return await agent.generate_reply(context.messages, context.options)

    agent = register_middleware(EchoAgent("echo"), plain)
    assert isinstance(agent, MiddlewareStreamingAgent)
    out = await collect(stream(agent, "hi"))
    assert [m.get_content() for m in out] == ["hi"]
    assert log == []  # passed by on the streaming path
    await send(agent, "hi")
    assert log == ["plain"]


async def test_non_streaming_agent_stays_non_streaming() -> None:
    agent = register_middleware(NonStreamingAgent("bot"), Recorder("a", []))
    assert type(agent) is MiddlewareAgent
    assert not isinstance(agent, StreamingAgent)
    with pytest.raises(TypeError, match="does not stream"):
        agent.stream("hi")
    with pytest.raises(TypeError, match="does not stream"):
        register_streaming_middleware(NonStreamingAgent("bot"), Recorder("a", []))  # type: ignore[arg-type]


def test_streaming_middleware_needs_invoke_streaming() -> None:
    async def plain(context: MiddlewareContext, agent: Agent) -> Message:
        return await agent.generate_reply(context.messages)

    with pytest.raises(TypeError, match="invoke_streaming"):
        register_streaming_middleware(EchoAgent("e"), DelegateMiddleware(plain))  # type: ignore[arg-type]


def test_register_rejects_non_callable() -> None:
    with pytest.raises(TypeError, match="expected a middleware"):
        register_middleware(EchoAgent("e"), 42)  # type: ignore[arg-type]


async def test_options_reach_the_agent() -> None:
    seen: list[GenerateReplyOptions | None] = []

    async def spy(context: MiddlewareContext, agent: Agent) -> Message:
        seen.append(context.options)
        return await agent.generate_reply(context.messages, context.options)

    options = GenerateReplyOptions(temperature=0.1)
    await register_middleware(EchoAgent("e"), spy).send("x", options=options)
    assert seen == [options]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync-fn", "async-fn"])
async def test_pre_process(is_async: bool) -> None:
    def upper(messages: Sequence[Message]) -> list[Message]:
        return [TextMessage(Role.USER, (m.get_content() or "").upper()) for m in messages]

    async def upper_async(messages: Sequence[Message]) -> list[Message]:
        return upper(messages)

    agent = register_pre_process(EchoAgent("e"), upper_async if is_async else upper)
    assert (await agent.send("hi")).get_content() == "HI"
    assert [m.get_content() for m in await collect(agent.stream("yo"))] == ["YO"]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync-fn", "async-fn"])
async def test_post_process(is_async: bool) -> None:
    def tag(messages: Sequence[Message], reply: Message) -> Message:
        return TextMessage(Role.ASSISTANT, f"[{len(messages)}] {reply.get_content()}", reply.from_)

    async def tag_async(messages: Sequence[Message], reply: Message) -> Message:
        return tag(messages, reply)

    agent = register_post_process(EchoAgent("e"), tag_async if is_async else tag)
    assert (await agent.send("hi")).get_content() == "[1] hi"
    streamed = await collect(
        agent.generate_streaming_reply(
            [TextMessageUpdate(Role.ASSISTANT, "delta"), TextMessage(Role.USER, "done")]
        )
    )
    assert streamed[0] == TextMessageUpdate(Role.ASSISTANT, "delta", "e")
    assert streamed[1].get_content() == "[2] done"


async def test_print_message_non_streaming() -> None:
    out = io.StringIO()
    agent = register_print_message(EchoAgent("echo"), file=out)
    reply = await agent.send("hello")
    assert reply == TextMessage(Role.USER, "hello", "echo")
    assert out.getvalue().splitlines() == [
        "TextMessage from echo",
        "-" * 40,
        "hello",
        "-" * 40,
    ]


async def test_print_message_streaming_prints_updates_then_final_once() -> None:
    out = io.StringIO()
    agent = EchoAgent("echo").register_print_message(file=out)
    history = [
        TextMessageUpdate(Role.ASSISTANT, "Hel"),
        TextMessageUpdate(Role.ASSISTANT, "lo"),
        TextMessage(Role.ASSISTANT, "Hello"),
        ToolCallMessage([ToolCall("f", '{"a": 1}', tool_call_id="c1")]),
    ]
    streamed = await collect(agent.stream(chat_history=history))
    assert len(streamed) == 4
    assert out.getvalue() == (
        "Hello\n"
        f"TextMessage from echo\n{'-' * 40}\nHello\n{'-' * 40}\n"
        f'ToolCallMessage from echo\n{"-" * 40}\n- f({{"a": 1}}) [c1]\n{"-" * 40}\n'
    )


async def test_send_builds_history_and_wraps_strings() -> None:
    history = [TextMessage(Role.SYSTEM, "sys")]
    reply = await send(EchoAgent("e"), "question", chat_history=history)
    assert reply == TextMessage(Role.USER, "question", "e")
    assert await send(EchoAgent("e"), chat_history=history) == TextMessage(Role.SYSTEM, "sys", "e")


async def test_echo_agent_echoes_images() -> None:
    image = ImageMessage(Role.USER, data=PNG, detail="low")
    assert image.base64_data  # the cache filled, as after a conversion
    reply = await EchoAgent("e").send(image)
    assert reply == ImageMessage(Role.USER, data=PNG, from_="e", detail="low")
    streamed = await collect(EchoAgent("e").stream(image))
    assert streamed == [reply]


async def test_echo_agent_requires_a_message() -> None:
    with pytest.raises(ValueError, match="no message"):
        await EchoAgent("e").send()


def test_options_merge() -> None:
    base = GenerateReplyOptions(temperature=0.5, max_tokens=10, stop_sequences=["x"])
    merged = base.merge(GenerateReplyOptions(max_tokens=20, tool_choice="auto"))
    assert merged == GenerateReplyOptions(
        temperature=0.5, max_tokens=20, stop_sequences=["x"], tool_choice="auto"
    )
    assert base.merge(None) is base
    assert base.max_tokens == 10
