"""A strict validator of OpenAI Chat Completions request payloads, read off the SDK's TypedDicts.

The SDK validates nothing on the client side (its params are TypedDicts), so this is the check
the API would make: every key must be declared by the SDK's TypedDict for that shape (unknown
keys rejected), required keys present, values of the declared types (no tuples for lists, no
bools for ints), unions of TypedDicts chosen by their ``role`` / ``type`` literal. On top come
the API's observed rules (wire-rules.md 1.3-1.5): name and function-name patterns, non-empty
``tool_calls``, tool-call ids non-empty, at most 40 characters and unique, assistant content
null only beside tool calls, tool messages exactly answering the closest preceding
assistant ``tool_calls`` message, and media parts (``image_url``, ``file``, ``input_audio``)
only in user messages: a ``file`` part with a ``filename`` and a base64 PDF data URL, an
``input_audio`` part with base64 data (wire-rules.md; wave2.md 3.3, 3.5).

``check_message`` checks one message's shape (fragments converted message by message);
``check_messages`` a whole conversation; ``check_request_body`` the JSON body the SDK sent.
"""

from __future__ import annotations

import collections.abc
import re
import types
import typing
from collections.abc import Iterable
from functools import cache
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from openai._types import SequenceNotStr
from openai.types.chat import ChatCompletionMessageParam, completion_create_params
from typing_extensions import is_typeddict

from tests.urls import only_google_reads

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_ID_LENGTH = 40


class WireError(AssertionError):
    """A payload the OpenAI API would reject."""


def _fail(path: str, problem: str) -> typing.NoReturn:
    raise WireError(f"{path}: {problem}")


def _own_totality(td: type) -> dict[str, bool]:
    # The SDK's `Required[...]` is a string under `from __future__ import annotations`, so
    # __required_keys__ is wrong; each key's totality comes from the class that declares it.
    totality: dict[str, bool] = {}
    for base in getattr(td, "__orig_bases__", ()):
        if is_typeddict(base):
            totality.update(_own_totality(base))
    for key in td.__annotations__:
        totality.setdefault(key, td.__total__)  # type: ignore[attr-defined]
    return totality


@cache
def typed_dict_fields(td: type) -> dict[str, tuple[Any, bool]]:
    """Each key of TypedDict ``td``: its type and whether it is required."""
    totality = _own_totality(td)
    fields: dict[str, tuple[Any, bool]] = {}
    for key, hint in get_type_hints(td, include_extras=True).items():
        required = totality[key]
        while get_origin(hint) in (Required, NotRequired, Annotated):
            if get_origin(hint) is Required:
                required = True
            elif get_origin(hint) is NotRequired:
                required = False
            hint = get_args(hint)[0]
        fields[key] = (hint, required)
    return fields


def _check_typed_dict(value: Any, td: type, path: str) -> None:
    if not isinstance(value, dict):
        _fail(path, f"expected an object ({td.__name__}), got {type(value).__name__}")
    fields = typed_dict_fields(td)
    for key in value:
        if key not in fields:
            _fail(path, f"unknown key {key!r} for {td.__name__}")
    for key, (hint, required) in fields.items():
        if key in value:
            check_type(value[key], hint, f"{path}.{key}")
        elif required:
            _fail(path, f"missing required key {key!r} of {td.__name__}")


def _discriminator(members: tuple[Any, ...]) -> str | None:
    for key in ("role", "type"):
        if all(
            is_typeddict(m) and get_origin(typed_dict_fields(m).get(key, (None,))[0]) is Literal
            for m in members
        ):
            return key
    return None


def _check_union(value: Any, members: tuple[Any, ...], path: str) -> None:
    typed = tuple(m for m in members if is_typeddict(m))
    key = _discriminator(typed) if isinstance(value, dict) and typed else None
    if key is not None:
        for member in typed:
            if value.get(key) in get_args(typed_dict_fields(member)[key][0]):
                _check_typed_dict(value, member, path)
                return
        _fail(path, f"{key} {value.get(key)!r} is none of the allowed shapes")
    problems = []
    for member in members:
        try:
            check_type(value, member, path)
        except WireError as error:
            problems.append(str(error))
        else:
            return
    _fail(path, "matches no allowed type: " + " | ".join(problems))


_SEQUENCES = (collections.abc.Iterable, collections.abc.Sequence, list, SequenceNotStr)


def check_type(value: Any, hint: Any, path: str) -> None:
    """Raise ``WireError`` unless the JSON ``value`` is of the SDK type ``hint``."""
    origin = get_origin(hint)
    if hint is Any or hint is object:
        return
    if hint is type(None):
        if value is not None:
            _fail(path, f"expected null, got {type(value).__name__}")
    elif is_typeddict(hint):
        _check_typed_dict(value, hint, path)
    elif origin in (Union, types.UnionType):
        _check_union(value, get_args(hint), path)
    elif origin is Literal:
        if value not in get_args(hint) or isinstance(value, bool) != any(
            isinstance(a, bool) for a in get_args(hint)
        ):
            _fail(path, f"{value!r} is not one of {get_args(hint)}")
    elif hint in (str, bool):
        if type(value) is not hint:
            _fail(path, f"expected {hint.__name__}, got {type(value).__name__}")
    elif hint in (int, float):
        allowed = (int,) if hint is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, allowed):
            _fail(path, f"expected {hint.__name__}, got {type(value).__name__}")
    elif origin in _SEQUENCES:
        if not isinstance(value, list):
            _fail(path, f"expected a JSON array (list), got {type(value).__name__}")
        (item,) = get_args(hint)
        for position, element in enumerate(value):
            check_type(element, item, f"{path}[{position}]")
    elif origin in (dict, collections.abc.Mapping):
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            _fail(path, f"expected an object with string keys, got {type(value).__name__}")
        for key, element in value.items():
            check_type(element, get_args(hint)[1], f"{path}.{key}")
    else:
        raise TypeError(f"{path}: the validator does not know the SDK type {hint!r}")


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
