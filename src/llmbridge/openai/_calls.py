"""What the two OpenAI agents (Chat Completions, Responses) do alike around their SDK call.

Both take envelopes of request dicts, lay settings over ``create()`` arguments with a few keys
of their own reserved, call one ``AsyncOpenAI`` resource, and map its exceptions the same way;
only the resource, the envelope type and the reply type differ, so these take them as values.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from typing import Any, Final, NoReturn, TypeVar

import httpx2
import openai

from llmbridge import Message, MessageEnvelope, ProviderResponseError, UnsupportedMessageError
from llmbridge.kit import check_reserved, layer_create_settings, raise_mapped
from llmbridge.openai._errors import malformed_stream_error, map_error

__all__ = [
    "TOO_DEEP",
    "create_reply",
    "envelope_dicts",
    "layer_settings",
    "raise_provider_error",
    "set_if",
    "stream_envelopes",
]

TOO_DEEP: Final = "the reply is nested too deeply for the SDK to parse it as JSON"

T = TypeVar("T")


def layer_settings(
    arguments: dict[str, Any],
    settings: Mapping[str, Any] | None,
    *,
    reserved: Collection[str],
    keywords: Collection[str],
    agent: str,
) -> None:
    """Lay ``settings`` over ``arguments``: create() keywords as keywords, the rest in the body.

    Raises ``ValueError`` (from ``check_reserved``) for a setting naming a ``reserved`` key.
    """
    if not settings:
        return
    check_reserved(settings, reserved, agent)
    layer_create_settings(arguments, settings, keywords)


def set_if(arguments: dict[str, Any], key: str, value: object) -> None:
    """Set ``arguments[key]`` to ``value`` unless it is ``None`` (then the key is left as is)."""
    if value is not None:
        arguments[key] = value


def envelope_dicts(messages: Sequence[Message], *, agent: str, takes: str) -> list[Any]:
    """The dict payloads of ``messages``, each an envelope of a request dict, in order.

    Raises ``UnsupportedMessageError`` with the message's index for anything else; the message
    names ``agent`` and the envelope type it ``takes``.
    """
    payloads: list[Any] = []
    for index, message in enumerate(messages):
        content = message.content if isinstance(message, MessageEnvelope) else None
        if not isinstance(content, dict):
            raise UnsupportedMessageError(
                f"{agent} takes only MessageEnvelope[{takes}], got {_describe(message)}; "
                "register a connector (agent.register_message_connector()) to send neutral "
                "messages",
                index=index,
            )
        payloads.append(content)
    return payloads


def _describe(message: Message) -> str:
    if isinstance(message, MessageEnvelope):
        return f"a MessageEnvelope of {type(message.content).__name__}"
    return type(message).__name__


def _secrets(client: openai.AsyncOpenAI) -> tuple[str | None, ...]:
    api_key = getattr(client, "api_key", None)
    return (api_key if isinstance(api_key, str) else None,)


def raise_provider_error(
    exc: Exception, client: openai.AsyncOpenAI, provider: str, *, accepted_stream: bool = False
) -> NoReturn:
    """Raise ``map_error``'s error for ``exc`` (from it, the key redacted), else ``exc`` itself."""
    mapped = map_error(
        exc, secrets=_secrets(client), accepted_stream=accepted_stream, provider=provider
    )
    raise_mapped(exc, mapped)


async def create_reply(
    call: Awaitable[object],
    client: openai.AsyncOpenAI,
    provider: str,
    *,
    reply_type: type[T],
    what: str,
) -> T:
    """Await the SDK ``call`` and return its reply, which must be a ``reply_type``.

    Raises the mapped ``ProviderAPIError`` when the call fails, and ``ProviderResponseError``
    when the body is nested too deeply to parse or (the SDK returns a JSON array or string as
    it is) is no ``reply_type``; ``what`` names the reply in that message.
    """
    try:
        reply = await call
    except openai.APIError as exc:
        raise_provider_error(exc, client, provider)
    except RecursionError:
        # The SDK's JSON parser gives up on a body nested thousands of levels deep.
        raise ProviderResponseError(TOO_DEEP) from None
    if not isinstance(reply, reply_type):
        raise ProviderResponseError(
            f"the reply is not {what}: the HTTP 200 body is of type "
            f"{type(reply).__name__}, not a JSON object",
            response=reply,
        )
    return reply


async def stream_envelopes(
    open_stream: Callable[[], Awaitable[openai.AsyncStream[T]]],
    client: openai.AsyncOpenAI,
    provider: str,
    *,
    name: str,
) -> AsyncIterator[MessageEnvelope[T]]:
    """Open the SDK stream on first iteration and yield its items, each in an envelope.

    ``open_stream`` builds the request and awaits the streaming call, so a bad request raises
    at the first ``__anext__`` as from an ``async def`` generator. A failure before or during
    the stream raises the mapped ``ProviderAPIError`` (a dropped connection mid-body as an
    accepted stream's); event data that is not JSON raises ``StreamInterruptedError`` (not
    retryable). The stream is closed however iteration ends.
    """
    try:
        stream = await open_stream()
    except openai.APIError as exc:
        raise_provider_error(exc, client, provider)
    iterator = stream.__aiter__()
    try:
        while True:
            # Only the SDK's own iteration is guarded: errors thrown in at `yield` pass by.
            try:
                item = await iterator.__anext__()
            except StopAsyncIteration:
                return
            except openai.APIError as exc:
                raise_provider_error(exc, client, provider)
            except httpx2.TransportError as exc:  # a dropped connection mid-body
                raise_provider_error(exc, client, provider, accepted_stream=True)
            except (ValueError, RecursionError) as exc:  # json.loads gave up on the data
                raise malformed_stream_error(exc, secrets=_secrets(client)) from exc
            yield MessageEnvelope(item, name)
    finally:
        await stream.close()
