"""``llmbridge demo``: one conversation, the same agent code, each provider in turn.

A system prompt, a user question with an image, the model calling two tools in parallel,
``FunctionCallMiddleware`` running them and the model answering. Offline, the embedded
``ScriptedProvider`` plays the model and answers the real SDK clients over HTTP mocks; live,
the real APIs answer. Either way the HTTP client prints the exact JSON each request carried.
Provider SDKs are imported inside functions: ``import llmbridge`` never loads them.
"""

from __future__ import annotations

import base64
import inspect
import json
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Final, TypeAlias

from llmbridge._agents import GenerateReplyOptions, MiddlewareStreamingAgent
from llmbridge._functions import FunctionCallMiddleware
from llmbridge._messages import (
    UPDATE_TYPES,
    ImageMessage,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
)
from llmbridge.cli._output import LivePrinter, describe, summary_lines, write_request
from llmbridge.kit._providers import load_provider, provider_info, provider_tags

if TYPE_CHECKING:
    import httpx2

    from llmbridge.testing import ScriptedProvider

__all__ = [
    "DEFAULT_MODELS",
    "KEY_VARIABLES",
    "MODEL_VARIABLES",
    "PROVIDERS",
    "DemoSettings",
    "build_agent",
    "conversation",
    "run_demo",
    "script",
]

Provider: TypeAlias = str
"""A provider tag of the registry (``llmbridge.kit``)."""
PROVIDERS: Final[tuple[Provider, ...]] = provider_tags()
DEFAULT_MODELS: Final[dict[Provider, str]] = {
    tag: provider_info(tag).default_model for tag in PROVIDERS
}
MODEL_VARIABLES: Final[dict[Provider, str]] = {
    tag: provider_info(tag).model_variable for tag in PROVIDERS
}
KEY_VARIABLES: Final[dict[Provider, str]] = {
    tag: provider_info(tag).key_variable for tag in PROVIDERS
}
_TITLES: Final[dict[Provider, str]] = {tag: provider_info(tag).title for tag in PROVIDERS}
_NEXT_STEPS: Final = (
    ("demo --no-stream", "the same with send() instead of stream()"),
    ("demo --live", f"the real APIs (needs {' / '.join(dict.fromkeys(KEY_VARIABLES.values()))})"),
    ("convert --to anthropic examples/conversation.json", "a neutral JSON file -> a payload"),
    ("--help", "every option"),
)
# What the printed requests show, side by side, for a reader comparing the two sections.
_WIRE_DIFFERENCES: Final = (
    ("", "OpenAI", "Anthropic"),
    ("system prompt", 'a "system" message', 'the top-level "system" field'),
    ("image bytes", 'an "image_url" part (data: URL)', 'an "image" block (base64 source)'),
    ("tool calls", '"tool_calls" on an assistant message', '"tool_use" blocks'),
    ("tool results", 'a "tool" message per result', 'one user turn of "tool_result" blocks'),
    ("max_tokens=400", '"max_completion_tokens"', '"max_tokens"'),
)
AGENT_NAME: Final = "assistant"
# A live model may ask for more tools than the script does; a few rounds are plenty.
MAX_ROUNDS: Final = 4
OPTIONS: Final = GenerateReplyOptions(max_tokens=400)
SYSTEM_PROMPT: Final = "You are a concise travel assistant. Use the tools for live data."
QUESTION: Final = (
    "Whose flag is this? What are the weather and the local time in its capital right now?"
)
# A 30x20 PNG: three vertical stripes, blue, white and red.
FLAG_PNG: Final = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAB4AAAAUCAIAAAAVyRqTAAAAJ0lEQVR42mNgCF2CB/3HC947muJBDKNGjxo9avSo0aNG"
    "jxo9FI0GAHrmL1WzEAFzAAAAAElFTkSuQmCC"
)


def get_weather(city: str) -> dict[str, object]:
    """Get the current weather in a city (demo data: always mild and sunny).

    Args:
        city: The city, for example "Paris".
    """
    return {"city": city, "temperature_c": 18, "sky": "sunny"}


def get_local_time(timezone: str) -> str:
    """Get the local time in a time zone (demo data: always 14:05).

    Args:
        timezone: An IANA time zone, for example "Europe/Paris".
    """
    return f"14:05 in {timezone}"


def conversation() -> list[Message]:
    """The neutral conversation the demo starts from: a system prompt and a question with a flag."""
    return [
        TextMessage(Role.SYSTEM, SYSTEM_PROMPT),
        MultiModalMessage(
            Role.USER,
            [TextMessage(Role.USER, QUESTION), ImageMessage(Role.USER, data=FLAG_PNG)],
        ),
    ]


def script() -> list[ToolCallMessage | str]:
    """What the offline model answers: two parallel tool calls, then the answer."""
    calls = [
        ToolCall("get_weather", '{"city": "Paris"}'),
        ToolCall("get_local_time", '{"timezone": "Europe/Paris"}'),
    ]
    return [
        ToolCallMessage(calls, content="That is the flag of France. Let me check Paris."),
        "In Paris it is 18°C and sunny, and the local time is 14:05.",
    ]


@dataclass(frozen=True, slots=True)
class DemoSettings:
    """What ``llmbridge demo`` was asked for.

    ``chunk_delay`` paces the offline streams; ``command`` is how the user ran ``llmbridge``,
    for the suggested next commands.
    """

    providers: tuple[Provider, ...]
    stream: bool
    live: bool
    models: Mapping[Provider, str]
    chunk_delay: float = 0.0
    command: str = "llmbridge"


RequestHook: TypeAlias = Callable[["httpx2.Request"], Awaitable[None]]


def _http_client(provider: Provider, hook: RequestHook, offline: ScriptedProvider | None) -> Any:
    """The SDK's own default HTTP client (its timeouts, limits), with a hook that sees requests."""
    transport: dict[str, Any] = {}
    if offline is not None:
        from llmbridge.testing import RespxTransport

        transport["transport"] = RespxTransport(offline.router)
    return load_provider(provider).default_http_client(event_hooks={"request": [hook]}, **transport)


def _sdk_client(provider: Provider, http_client: Any, live: bool) -> Any:
    # Live, the SDK reads its key from the environment; offline, nothing checks the key.
    api_key = None if live else "offline-demo"
    retries = 2 if live else 0
    return load_provider(provider).sdk_client(
        api_key=api_key, http_client=http_client, max_retries=retries
    )


async def _close(client: Any) -> None:
    """Close an SDK client: OpenAI's and Anthropic's ``close()`` is a coroutine; google-genai's
    client has a sync ``close()`` and closes its async side with ``client.aio.aclose()``."""
    aio: Any = getattr(client, "aio", None)
    closing = aio.aclose() if callable(getattr(aio, "aclose", None)) else client.close()
    if inspect.isawaitable(closing):
        await closing


def build_agent(provider: Provider, client: Any, model: str) -> MiddlewareStreamingAgent:
    """The one provider-specific step: the provider agent. The rest of the stack is shared."""
    connected: MiddlewareStreamingAgent = load_provider(provider).connected_agent(
        client, name=AGENT_NAME, model=model
    )
    tools = FunctionCallMiddleware([get_weather, get_local_time])
    return connected.register_streaming_middleware(tools)


async def _ask(
    agent: MiddlewareStreamingAgent, history: Sequence[Message], stream: bool, out: LivePrinter
) -> Message:
    """One round: the complete reply, its streamed updates printed as they arrive."""
    if not stream:
        return await agent.send(chat_history=history, options=OPTIONS)
    reply: Message | None = None
    async for message in agent.stream(chat_history=history, options=OPTIONS):
        if isinstance(message, UPDATE_TYPES):
            out.update(message)
        else:
            reply = message
    out.end_line()
    if reply is None:
        raise RuntimeError("the stream ended without a complete message")
    return reply


async def _converse(
    provider: Provider, settings: DemoSettings, file: IO[str], offline: ScriptedProvider | None
) -> list[Message]:
    """Run the conversation through ``provider``; return the neutral replies, in order."""
    out = LivePrinter(file)
    replies: list[Message] = []

    async def show_request(request: httpx2.Request) -> None:
        # Called by the HTTP client just before each request leaves (or reaches the mock).
        number = len(replies) + 1
        write_request(file, number, request.method, str(request.url), json.loads(request.content))
        file.write(f"-- reply {number}{', streamed as it arrives' if settings.stream else ''}\n")
        file.flush()

    client = _sdk_client(provider, _http_client(provider, show_request, offline), settings.live)
    agent = build_agent(provider, client, settings.models[provider])
    try:
        while len(replies) < MAX_ROUNDS:
            reply = await _ask(agent, [*conversation(), *replies], settings.stream, out)
            replies.append(reply)
            out.complete(reply)
            if not isinstance(reply, ToolCallAggregateMessage):
                return replies
        file.write(f"(stopped after {MAX_ROUNDS} rounds of tool calls)\n")
        return replies
    finally:
        await _close(client)


def _intro(live: bool) -> str:
    source = (
        "live: the real APIs answer"
        if live
        else "offline: llmbridge.testing.ScriptedProvider plays the model and answers the real\n"
        "openai and anthropic SDK clients through HTTP mocks; nothing leaves this machine"
    )
    return (
        f"llmbridge demo: one conversation, the same agent code, each provider\n({source}).\n"
        "For each provider: the JSON request it received, its reply as it arrives, and (=>)\n"
        "the neutral message your code gets back.\n"
    )


def _write_wire_differences(file: IO[str]) -> None:
    file.write("\n== The same neutral input on each wire (compare the requests above)\n")
    for what, openai_form, anthropic_form in _WIRE_DIFFERENCES:
        file.write(f"  {what:<15} {openai_form:<38} {anthropic_form}\n")


async def run_demo(settings: DemoSettings, file: IO[str]) -> None:
    """Print the conversation, then run it through each provider and compare the replies.

    Raises what the agents raise (``LLMBridgeError`` subclasses) when a provider fails.
    """
    file.write(_intro(settings.live))
    file.write("\n== The neutral conversation (what agent code writes)\n")
    for index, message in enumerate(conversation()):
        file.write(f"[{index}] {describe(message)}\n")
    results: dict[str, list[Message]] = {}
    for provider in settings.providers:
        mode = "streaming" if settings.stream else "not streaming"
        file.write(f"\n== {_TITLES[provider]} ({settings.models[provider]}, {mode})\n")
        offline = None
        if not settings.live:
            from llmbridge.testing import ScriptedProvider

            offline = ScriptedProvider(script(), chunk_delay=settings.chunk_delay)
        results[provider] = await _converse(provider, settings, file, offline)
    if len(settings.providers) > 1:
        _write_wire_differences(file)
    file.write("\n== The neutral replies, provider by provider\n")
    for line in summary_lines(results):
        file.write(f"{line}\n")
    file.write("\nNext:\n")
    for arguments, what in _NEXT_STEPS:
        file.write(f"  {settings.command} {arguments}\n      {what}\n")


def models_from(
    overrides: Mapping[Provider, str | None], environ: Mapping[str, str] = os.environ
) -> dict[Provider, str]:
    """Each provider's model: the flag, else the ``LLMBRIDGE_*_MODEL`` variable, else a default."""
    return {
        provider: overrides.get(provider)
        or environ.get(MODEL_VARIABLES[provider])
        or DEFAULT_MODELS[provider]
        for provider in PROVIDERS
    }
