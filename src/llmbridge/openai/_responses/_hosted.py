"""Hosted (server-side) tool items <-> neutral ``HostedToolCall``s (API.md 19.5, 19.7).

The tools OpenAI runs itself answer in output items of their own: ``web_search_call``,
``file_search_call``, ``code_interpreter_call``, ``image_generation_call``, ``mcp_call``,
``mcp_list_tools`` and ``mcp_approval_request`` (an MCP call waiting for the user's approval).
Each becomes a ``HostedToolCall(provider="openai")`` whose
``provider_data["openai-responses"]`` holds the exact item (``"item"``, as the API sent it) and
its position among the output items (``"position"``); ``to_openai_responses`` sends the item
back unchanged, at that position, and ``from_openai_responses_input`` reads it back.

The SDK's ``ResponseInputItemParam`` takes every one of these items as input with the fields
of the output item: ``id`` is required on all of them, ``status`` is required on the web
search, file search, code interpreter and image generation calls and optional on ``mcp_call``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from llmbridge import HostedToolCall, TextMessage, ToolCallMessage
from llmbridge.kit import NoteRecorder, own_hosted_tools
from llmbridge.openai._responses._annotations import CITATION_PROVIDER, plain
from llmbridge.openai._responses._items import PROVIDER, Entry, ItemIds, own_data, valid_item_id

__all__ = ["HOSTED_ITEMS", "hosted_call", "hosted_entries"]

HOSTED_ITEMS: Final = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
    }
)
"""The output item types of the tools OpenAI runs itself."""

_TITLE: Final = "OpenAI Responses"
# The settings an image generation ran with: its arguments.
_IMAGE_SETTINGS: Final = ("action", "revised_prompt", "size", "quality", "background")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _texts(values: object) -> list[str]:
    return (
        [value for value in values if isinstance(value, str) and value]
        if isinstance(values, list)
        else []
    )


def _lines(entries: object, *keys: str) -> str | None:
    """One line per entry: its ``keys`` that are text, joined with a space (``None``: none)."""
    if not isinstance(entries, list):
        return None
    lines = [
        " ".join(_texts([entry.get(key) for key in keys]))
        for entry in entries
        if isinstance(entry, Mapping)
    ]
    return "\n".join(line for line in lines if line) or None


def _code_output(outputs: object) -> str | None:
    """The logs of a code interpreter call, joined (images are in the item only)."""
    if not isinstance(outputs, list):
        return None
    logs = [
        output.get("logs")
        for output in outputs
        if isinstance(output, Mapping) and output.get("type") == "logs"
    ]
    return "\n".join(_texts(logs)) or None


def _as_text(value: object) -> str:
    """``value`` when it is text (arguments, an error message), else its JSON."""
    return value if isinstance(value, str) else _json(value)


def _read(item: Mapping[str, Any]) -> tuple[str, str, str | None, bool]:
    """``(name, arguments, result, is_error)`` of a hosted item (API.md 19.7)."""
    kind = item["type"]
    failed = item.get("status") == "failed" or item.get("error") is not None
    match kind:
        case "web_search_call":
            action = item.get("action")
            sources = action.get("sources") if isinstance(action, Mapping) else None
            return "web_search", _json(action or {}), _lines(sources, "title", "url"), failed
        case "file_search_call":
            arguments = _json({"queries": item.get("queries")})
            return (
                "file_search",
                arguments,
                _lines(item.get("results"), "filename", "file_id"),
                failed,
            )
        case "code_interpreter_call":
            arguments = _json({"code": item.get("code")})
            return "code_interpreter", arguments, _code_output(item.get("outputs")), failed
        case "image_generation_call":
            settings = {key: item[key] for key in _IMAGE_SETTINGS if isinstance(item.get(key), str)}
            return "image_generation", _json(settings), None, failed
        case "mcp_list_tools":
            error = item.get("error")
            arguments = _json({"server_label": item.get("server_label")})
            if error is not None:
                return "mcp_list_tools", arguments, _as_text(error), True
            return "mcp_list_tools", arguments, _lines(item.get("tools"), "name"), failed
        case _:  # mcp_call, mcp_approval_request: a named tool of an MCP server
            output = item.get("output")
            name = item.get("name")
            return (
                name if isinstance(name, str) and name else kind,
                _as_text(item.get("arguments", "{}")),
                output if isinstance(output, str) else None,
                failed,
            )


def hosted_call(item: Mapping[str, Any], position: int) -> HostedToolCall:
    """The ``HostedToolCall`` of a hosted item (a plain dict, as the API sent it) at
    ``position`` among the output items.

    ``name``: the item type without ``_call`` (``web_search``, ``file_search``,
    ``code_interpreter``, ``image_generation``), the MCP tool's name for ``mcp_call`` and
    ``mcp_approval_request``, ``mcp_list_tools``. ``arguments``: the JSON of the ``action``, of
    ``{"queries"}``, of ``{"code"}``, the image settings, ``mcp_call.arguments``, of
    ``{"server_label"}``. ``result``: one ``"<title> <url>"`` line per web source, one
    ``"<filename> <file_id>"`` line per file search result, the code's logs,
    ``mcp_call.output``, the tools listed (one name a line) or the listing's error, else
    ``None``. ``is_error``: an ``error`` on the item or ``status`` ``failed``. Raises
    ``InvalidMessageError`` for an item without an id or with values that are not JSON.
    """
    name, arguments, result, is_error = _read(item)
    return HostedToolCall(
        name,
        arguments,
        id=item.get("id"),  # type: ignore[arg-type]  # HostedToolCall checks it is text
        result=result,
        is_error=is_error,
        provider=CITATION_PROVIDER,
        provider_data={PROVIDER: {"item": item, "position": position}},
    )


def hosted_entries(
    message: TextMessage | ToolCallMessage, ids: ItemIds, recorder: NoteRecorder, index: int
) -> list[tuple[int | None, Entry]]:
    """The recorded items of the message's own hosted tool calls, each with its recorded
    position (``None``: none recorded, it goes last).

    Another provider's hosted tools are not sent (one ``"omitted"`` note, never raising). An
    own call without a recorded item, or whose item id was sent earlier in this input or is
    not one the API takes, cannot be sent (an item id is required): omitted, with a note.
    """
    entries: list[tuple[int | None, Entry]] = []
    skipped: list[str] = []
    own = own_hosted_tools(
        message, index, provider=CITATION_PROVIDER, provider_title=_TITLE, recorder=recorder
    )
    for call in own:
        data = own_data(call.provider_data)
        item = data.get("item")
        if not isinstance(item, Mapping):
            item = {}
        item_id = valid_item_id(item.get("id"), "")
        if item_id is None or not isinstance(item.get("type"), str):
            skipped.append(f"{call.name} {call.id} (no item recorded)")
            continue
        if item_id in ids.sent:
            skipped.append(f"{call.name} {item_id} (sent earlier in this input)")
            continue
        ids.sent.add(item_id)
        position = data.get("position")
        entry = Entry(plain(item), item_id, hosted=True)
        entries.append((position if type(position) is int else None, entry))
    if skipped:
        recorder.record(
            index, "omitted", f"hosted tool items not sent to {_TITLE}: {'; '.join(skipped)}"
        )
    return entries
