"""A strict validator of OpenAI Chat Completions request payloads, read off the SDK's TypedDicts.

The SDK validates nothing on the client side (its params are TypedDicts), so this is the check
the API would make: every key must be declared by the SDK's TypedDict for that shape (unknown
keys rejected), required keys present, values of the declared types (no tuples for lists, no
bools for ints), unions of TypedDicts chosen by their ``role`` / ``type`` literal. On top come
the API's observed rules (wire-rules.md 1.3-1.5): name and function-name patterns, non-empty
``tool_calls``, tool-call ids non-empty, at most 40 characters and unique, assistant content
null only beside tool calls, tool messages exactly answering the closest preceding
assistant ``tool_calls`` message, and media parts (``image_url``, ``file``, ``input_audio``)
only in user messages: a ``file`` part with either a ``filename`` and a base64 PDF data URL or
an uploaded file's ``file_id`` (API.md 19.1), an ``input_audio`` part with base64 data
(wire-rules.md; wave2.md 3.3, 3.5).

``check_message`` checks one message's shape (fragments converted message by message);
``check_messages`` a whole conversation; ``check_request_body`` the JSON body the SDK sent.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import Any

from openai.types.chat import ChatCompletionMessageParam, completion_create_params

from tests.sdk_shapes import WireError, check_type
from tests.urls import only_google_reads

__all__ = [
    "WireError",
    "check_message",
    "check_messages",
    "check_request_body",
    "check_type",
]

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_ID_LENGTH = 40


def _fail(path: str, problem: str) -> typing.NoReturn:
    raise WireError(f"{path}: {problem}")


def _check_ids_and_names(message: dict[str, Any], path: str) -> None:
    name = message.get("name")
    if name is not None and not NAME.match(name):
        _fail(f"{path}.name", f"{name!r} does not match {NAME.pattern}")
    if "tool_calls" not in message:
        if message["role"] == "assistant" and message.get("content") is None:
            _fail(f"{path}.content", "null content needs tool_calls")
        return
    if not message["tool_calls"]:
        _fail(f"{path}.tool_calls", "empty array")
    for position, call in enumerate(message["tool_calls"]):
        where = f"{path}.tool_calls[{position}]"
        if not call["id"] or len(call["id"]) > MAX_ID_LENGTH:
            _fail(f"{where}.id", f"{call['id']!r} is empty or longer than {MAX_ID_LENGTH}")
        if call["type"] == "function" and not NAME.match(call["function"]["name"]):
            _fail(f"{where}.function.name", f"does not match {NAME.pattern}")


MEDIA_PARTS = frozenset({"image_url", "file", "input_audio"})
PDF_DATA_URL = re.compile(r"^data:application/pdf;base64,[A-Za-z0-9+/]+={0,2}$")
BASE64 = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")
# An uploaded file's id (``file-...``): not a URI, not another provider's file name.
FILE_ID = re.compile(r"^[A-Za-z0-9_-]+$")


def _check_media(message: Any, path: str) -> None:
    """Media parts only in user messages; file and audio parts as the API takes them."""
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    for position, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        where = f"{path}.content[{position}]"
        if kind in MEDIA_PARTS and message.get("role") != "user":
            _fail(
                where,
                f"a {kind!r} part is only allowed in user messages, not {message.get('role')!r}",
            )
        if kind == "image_url":
            url = (part.get("image_url") or {}).get("url")
            if isinstance(url, str) and only_google_reads(url):
                _fail(f"{where}.image_url.url", "OpenAI cannot fetch gs:// or Files API URIs")
        if kind == "file":
            file = part.get("file") or {}
            sources = sorted({"file_data", "file_id"} & set(file))
            if len(sources) != 1:
                _fail(f"{where}.file", f"needs exactly one of file_data, file_id, got {sources}")
            if "file_id" in file and not (
                isinstance(file["file_id"], str) and FILE_ID.match(file["file_id"])
            ):
                _fail(f"{where}.file.file_id", f"{file['file_id']!r} is not an OpenAI file id")
            if "file_data" in file:
                if not PDF_DATA_URL.match(file["file_data"]):
                    _fail(f"{where}.file.file_data", "must be a base64 data:application/pdf URL")
                if not file.get("filename"):
                    _fail(f"{where}.file.filename", "file_data needs a filename")
        if kind == "input_audio":
            data = (part.get("input_audio") or {}).get("data")
            if not isinstance(data, str) or not BASE64.match(data):
                _fail(f"{where}.input_audio.data", "must be non-empty base64 text")


def check_message(message: Any, path: str = "message") -> None:
    """Raise ``WireError`` unless ``message`` is a valid ``ChatCompletionMessageParam``."""
    _check_media(message, path)
    check_type(message, ChatCompletionMessageParam, path)
    _check_ids_and_names(message, path)


def _check_pairing(messages: list[dict[str, Any]]) -> None:
    pending: dict[str, int] = {}  # call id -> index of its assistant message
    answerable: set[str] = set()
    seen_ids: set[str] = set()
    for index, message in enumerate(messages):
        path = f"messages[{index}]"
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            if call_id not in answerable:
                _fail(path, "role 'tool' must answer a preceding message with 'tool_calls'")
            if call_id not in pending:
                _fail(path, f"duplicate tool message for tool_call_id {call_id!r}")
            del pending[call_id]
            continue
        if pending:
            _fail(
                f"messages[{min(pending.values())}]", f"tool_call_ids {sorted(pending)} unanswered"
            )
        answerable = set()
        for call in message.get("tool_calls") or ():
            if call["id"] in seen_ids:
                _fail(path, f"tool call id {call['id']!r} used twice in the request")
            seen_ids.add(call["id"])
            pending[call["id"]] = index
            answerable.add(call["id"])
    if pending:
        _fail(f"messages[{min(pending.values())}]", f"tool_call_ids {sorted(pending)} unanswered")


def check_messages(messages: Any) -> None:
    """Raise ``WireError`` unless ``messages`` is a whole, valid request conversation."""
    if not isinstance(messages, list) or not messages:
        _fail("messages", "must be a non-empty array")
    for index, message in enumerate(messages):
        check_message(message, f"messages[{index}]")
    _check_pairing(messages)


def check_request_body(body: Any, *, extra_keys: Iterable[str] = ()) -> None:
    """Raise ``WireError`` unless ``body`` is a valid ``create()`` request body, as sent.

    ``extra_keys`` are top-level keys a test sent on purpose through ``extra_body`` (settings
    the SDK does not declare); they are left out of the check.
    """
    if isinstance(body, dict) and extra_keys:
        body = {key: value for key, value in body.items() if key not in set(extra_keys)}
    params = (
        completion_create_params.CompletionCreateParamsStreaming
        if isinstance(body, dict) and body.get("stream") is True
        else completion_create_params.CompletionCreateParamsNonStreaming
    )
    check_type(body, params, "body")
    check_messages(body["messages"])
    for position, tool in enumerate(body.get("tools") or ()):
        if tool["type"] == "function" and not NAME.match(tool["function"]["name"]):
            _fail(f"body.tools[{position}].function.name", f"does not match {NAME.pattern}")
