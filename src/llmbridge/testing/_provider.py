"""``ScriptedProvider``: offline OpenAI (Chat, Responses), Anthropic and Gemini APIs, one script.

The script is a list of the model's replies written as neutral messages (``TextMessage``,
``ToolCallMessage``, a plain ``str``) or as a ready ``httpx.Response`` (to script an error). Each
request, to any of the APIs, takes the next reply and gets it in that API's own wire format: a
completion, ``Response`` or ``Message`` body, or, when the request asks to stream, an SSE stream
with text in word-sized deltas, tool-call arguments in fragments and usage where the API sends
it. Every request body is recorded. The real SDK clients reach it through ``RespxTransport``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

import httpx
import respx

from llmbridge._messages import Role, TextMessage, ToolCall, ToolCallMessage
from llmbridge.testing._provider_anthropic import (
    ANTHROPIC_PATH,
    anthropic_body,
    anthropic_frames,
)
from llmbridge.testing._provider_gemini import (
    GEMINI_PATH,
    gemini_body,
    gemini_frames,
    gemini_prompt_text,
    gemini_script_error,
    is_gemini_stream,
)
from llmbridge.testing._provider_openai import OPENAI_PATH, openai_chat_body, openai_chat_frames
from llmbridge.testing._scripted_responses import scripted_response, scripted_response_sse
from llmbridge.testing._transport import anthropic_client, gemini_client, openai_client

if TYPE_CHECKING:
    import anthropic
    import openai
    from google import genai

__all__ = ["ProviderRequest", "ScriptedProvider", "ScriptedReply", "ScriptedRequest"]

ScriptedReply: TypeAlias = TextMessage | ToolCallMessage | str | httpx.Response
"""One scripted model reply: text, tool calls (with text beside them), or a raw response."""

ProviderName: TypeAlias = Literal["openai", "openai-responses", "anthropic", "gemini"]

# Matched on the path only, so clients with another base URL (a proxy, a gateway) work too.
_RESPONSES_PATH: Final = r"/responses$"

_ID_PREFIXES: Final[dict[ProviderName, str]] = {
    "openai": "call_",
    "openai-responses": "call_",
    "anthropic": "toolu_01",
}


@dataclass(frozen=True, slots=True)
class ScriptedRequest:
    """One request the scripted provider received: which API, the URL and the parsed JSON body."""

    provider: ProviderName
    url: str
    body: dict[str, Any]

    @property
    def stream(self) -> bool:
        """Whether the request asked for an SSE stream (Gemini: by its method, in the URL)."""
        return bool(self.body.get("stream")) or is_gemini_stream(self.url)


ProviderRequest = ScriptedRequest
"""The 0.1 name of ``ScriptedRequest`` (``llmbridge.kit.ProviderRequest`` is another thing)."""


@dataclass(frozen=True, slots=True)
class _Reply:
    """A scripted reply, normalized: what both wire formats are rendered from."""

    text: str
    reasoning: str
    calls: tuple[ToolCall, ...]
    finish_reason: str
    output_tokens: int | None
    input_tokens: int | None


def _normalize(item: ScriptedReply, position: int) -> _Reply | httpx.Response:
    match item:
        case httpx.Response():
            return item
        case str():
            return _normalize(TextMessage(Role.ASSISTANT, item), position)
        case TextMessage(content=text) | ToolCallMessage(content=text):
            calls = item.tool_calls if isinstance(item, ToolCallMessage) else ()
            reason = item.finish_reason or ("tool_calls" if calls else "stop")
            usage = item.usage
            return _Reply(
                text or "",
                "".join(part.text for part in item.reasoning),
                tuple(calls),
                reason,
                usage.output_tokens if usage is not None else None,
                usage.input_tokens if usage is not None else None,
            )
        case _:
            raise TypeError(
                f"script item {position}: expected a TextMessage, ToolCallMessage, str or "
                f"httpx.Response, got {type(item).__name__}"
            )


def _tokens(text: str) -> int:
    """A rough, deterministic token count (about four characters a token)."""
    return max(1, len(text) // 4)


def _call_id(provider: ProviderName, turn: int, position: int, call: ToolCall) -> str:
    if call.tool_call_id:
        return call.tool_call_id
    digest = hashlib.sha256(f"{turn}:{position}:{call.function_name}".encode()).hexdigest()
    return f"{_ID_PREFIXES[provider]}{digest[:24]}"


def _sse_response(frames: Sequence[bytes], delay: float) -> httpx.Response:
    async def body() -> AsyncIterator[bytes]:
        for frame in frames:
            if delay:
                await asyncio.sleep(delay)
            yield frame

    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())


def _script_error(provider: ProviderName, message: str) -> httpx.Response:
    """An error response in the provider's own shape, so the SDK raises a readable 400."""
    detail = f"llmbridge.testing.ScriptedProvider: {message}"
    if provider == "gemini":
        return gemini_script_error(detail)
    if provider != "anthropic":
        error = {"message": detail, "type": "invalid_request_error", "param": None, "code": None}
        return httpx.Response(400, json={"error": error})
    error = {"type": "invalid_request_error", "message": detail}
    return httpx.Response(400, json={"type": "error", "error": error})


class ScriptedProvider:
    """An offline stand-in for the OpenAI Chat Completions and Responses, Anthropic Messages and
    Gemini APIs.

    ``script`` lists the model's replies in order; each request (to any of them) takes the next
    one. A ``TextMessage`` or ``str`` becomes a text reply, a ``ToolCallMessage`` a tool-call
    reply (its ``content`` as text before the calls; calls without an id get a deterministic
    provider-style id), an ``httpx.Response`` is sent as it is (to script errors). Reasoning is
    sent as ``reasoning_content`` (OpenAI Chat), a reasoning item with a summary and encrypted
    content (Responses, whose items get ids ``rs_<n>``, ``msg_<n>`` and ``fc_<call id>``, ``n``
    the request's number), a signed thinking block (Anthropic) or a signed thought part (Gemini,
    whose calls come without ids, the first one signed); ``finish_reason`` and ``usage`` are used
    when set, otherwise derived (tokens estimated from the text; a Responses ``"length"`` or
    ``"content_filter"`` ends the response ``incomplete``). A request with ``"stream": true``
    (Gemini: ``streamGenerateContent``) gets an SSE stream (OpenAI Chat's usage chunk only when
    ``stream_options.include_usage`` asks for it; Responses events with word deltas and usage on
    the terminal event), with ``chunk_delay`` seconds before each frame. The model name is echoed
    from the request.

    ``requests`` records every request in order (``provider`` ``"openai"``,
    ``"openai-responses"``, ``"anthropic"`` or ``"gemini"``). A request after the script has run
    out, or a tool call whose arguments are not a JSON object for Anthropic or Gemini, gets a 400
    error naming the problem. Raises ``TypeError`` at construction for a script item of another
    type.
    """

    def __init__(self, script: Iterable[ScriptedReply], *, chunk_delay: float = 0.0) -> None:
        self.script: tuple[_Reply | httpx.Response, ...] = tuple(
            _normalize(item, position) for position, item in enumerate(script)
        )
        self.chunk_delay = chunk_delay
        self.requests: list[ScriptedRequest] = []
        self.router = respx.Router(assert_all_called=False)
        self.router.post(path__regex=OPENAI_PATH).mock(side_effect=self._answer_openai)
        self.router.post(path__regex=_RESPONSES_PATH).mock(side_effect=self._answer_responses)
        self.router.post(path__regex=ANTHROPIC_PATH).mock(side_effect=self._answer_anthropic)
        self.router.post(path__regex=GEMINI_PATH).mock(side_effect=self._answer_gemini)

    def __repr__(self) -> str:
        return f"ScriptedProvider(replies={len(self.script)}, answered={len(self.requests)})"

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been used yet."""
        return max(0, len(self.script) - len(self.requests))

    def bodies(self, provider: ProviderName | None = None) -> list[dict[str, Any]]:
        """The JSON bodies received, in order; only those sent to ``provider`` when given."""
        return [r.body for r in self.requests if provider is None or r.provider == provider]

    def openai_client(self, **kwargs: Any) -> openai.AsyncOpenAI:
        """A real ``openai.AsyncOpenAI`` answered by this provider (``llmbridge.testing``'s)."""
        return openai_client(self.router, **kwargs)

    def anthropic_client(self, **kwargs: Any) -> anthropic.AsyncAnthropic:
        """A real ``anthropic.AsyncAnthropic`` answered by this provider."""
        return anthropic_client(self.router, **kwargs)

    def gemini_client(self, **kwargs: Any) -> genai.Client:
        """A real ``google.genai.Client`` answered by this provider (keep it in a variable: a
        collected client closes its HTTP clients)."""
        return gemini_client(self.router, **kwargs)

    def _next(self, provider: ProviderName, request: httpx.Request) -> _Reply | httpx.Response:
        body = json.loads(request.content)
        turn = len(self.requests)
        self.requests.append(ScriptedRequest(provider, str(request.url), body))
        if turn >= len(self.script):
            return _script_error(
                provider,
                f"no scripted reply left for request {turn + 1} (the script has "
                f"{len(self.script)})",
            )
        return self.script[turn]

    def _answer_openai(self, request: httpx.Request) -> httpx.Response:
        reply = self._next("openai", request)
        if isinstance(reply, httpx.Response):
            return reply
        last = self.requests[-1]
        usage = self._usage(reply, last.body)
        calls = self._with_ids("openai", reply.calls)
        model = last.body.get("model", "gpt-4o-mini")
        if not last.stream:
            body = openai_chat_body(
                text=reply.text,
                reasoning=reply.reasoning,
                calls=calls,
                finish_reason=reply.finish_reason,
                usage=usage,
                model=model,
            )
            return httpx.Response(200, json=body)
        wants_usage = bool((last.body.get("stream_options") or {}).get("include_usage"))
        frames = openai_chat_frames(
            text=reply.text,
            reasoning=reply.reasoning,
            calls=calls,
            finish_reason=reply.finish_reason,
            usage=usage if wants_usage else None,
            model=model,
        )
        return _sse_response(frames, self.chunk_delay)

    def _answer_responses(self, request: httpx.Request) -> httpx.Response:
        reply = self._next("openai-responses", request)
        if isinstance(reply, httpx.Response):
            return reply
        last = self.requests[-1]
        response = scripted_response(
            text=reply.text,
            reasoning=reply.reasoning,
            calls=self._with_ids("openai-responses", reply.calls),
            finish_reason=reply.finish_reason,
            usage=self._usage(reply, last.body),
            turn=len(self.requests),
            model=last.body.get("model", "gpt-5-mini"),
        )
        if not last.stream:
            return httpx.Response(200, json=response)
        return _sse_response(scripted_response_sse(response), self.chunk_delay)

    def _answer_anthropic(self, request: httpx.Request) -> httpx.Response:
        reply = self._next("anthropic", request)
        if isinstance(reply, httpx.Response):
            return reply
        last = self.requests[-1]
        message = anthropic_body(
            text=reply.text,
            reasoning=reply.reasoning,
            calls=self._with_ids("anthropic", reply.calls),
            finish_reason=reply.finish_reason,
            usage=self._usage(reply, last.body),
            turn=len(self.requests),
            model=last.body.get("model", "claude-test"),
        )
        if isinstance(message, str):
            return _script_error("anthropic", message)
        if not last.stream:
            return httpx.Response(200, json=message)
        return _sse_response(anthropic_frames(message), self.chunk_delay)

    def _answer_gemini(self, request: httpx.Request) -> httpx.Response:
        reply = self._next("gemini", request)
        if isinstance(reply, httpx.Response):
            return reply
        last = self.requests[-1]
        produced = reply.text + reply.reasoning
        body = gemini_body(
            text=reply.text,
            reasoning=reply.reasoning,
            calls=reply.calls,
            finish_reason=reply.finish_reason,
            input_tokens=(
                reply.input_tokens
                if reply.input_tokens is not None
                else _tokens(gemini_prompt_text(last.body))
            ),
            output_tokens=self._usage(reply, {})[1],
            turn=len(self.requests) - 1,
            model=request.url.path.rsplit("/", 1)[-1].split(":")[0],
        )
        if isinstance(body, str):
            return _script_error("gemini", body)
        if not last.stream:
            return httpx.Response(200, json=body)
        return _sse_response(gemini_frames(body, produced), self.chunk_delay)

    def _with_ids(self, provider: ProviderName, calls: Sequence[ToolCall]) -> list[ToolCall]:
        turn = len(self.requests) - 1
        return [
            ToolCall(
                call.function_name,
                call.function_arguments,
                tool_call_id=_call_id(provider, turn, position, call),
            )
            for position, call in enumerate(calls)
        ]

    @staticmethod
    def _usage(reply: _Reply, body: dict[str, Any]) -> tuple[int, int]:
        produced = (
            reply.text
            + reply.reasoning
            + "".join(call.function_name + call.function_arguments for call in reply.calls)
        )
        input_tokens = reply.input_tokens
        if input_tokens is None:
            # Chat and Anthropic send "messages" (Anthropic also "system"), Responses "input"
            # and "instructions".
            sent = body.get("messages", body.get("input", []))
            system = body.get("system", body.get("instructions"))
            input_tokens = _tokens(json.dumps(sent) + str(system))
        output_tokens = (
            reply.output_tokens if reply.output_tokens is not None else _tokens(produced)
        )
        return input_tokens, output_tokens
