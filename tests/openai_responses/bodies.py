"""Valid Responses request bodies and items for the wire tests, and edits that break them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

PNG = "data:image/png;base64,iVBORw0KGgo="
PDF = "data:application/pdf;base64,JVBERi0xLjQ="
TOOL = {"type": "function", "name": "add", "description": "Add.", "parameters": {}, "strict": False}

ITEMS: dict[str, dict[str, Any]] = {
    "system_message": {"role": "system", "content": "Be brief."},
    "developer_message": {"type": "message", "role": "developer", "content": "Use tools."},
    "user_text": {"role": "user", "content": "Hi"},
    "user_parts": {
        "role": "user",
        "content": [
            {"type": "input_text", "text": "Look"},
            {"type": "input_image", "image_url": PNG, "detail": "auto"},
            {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "low"},
            {"type": "input_image", "file_id": "file_1", "detail": "high"},
            {"type": "input_file", "file_data": PDF, "filename": "a.pdf"},
            {"type": "input_file", "file_url": "https://x.test/a.pdf"},
            {"type": "input_file", "file_id": "file_2"},
        ],
    },
    "typed_input_message": {
        "type": "message",
        "role": "user",
        "status": "completed",
        "content": [{"type": "input_text", "text": "x"}],
    },
    "assistant_text": {"role": "assistant", "content": "Hello.", "phase": "final_answer"},
    "assistant_output_message": {
        "type": "message",
        "role": "assistant",
        "id": "msg_1",
        "status": "completed",
        "phase": "commentary",
        "content": [
            {"type": "output_text", "text": "Checking.", "annotations": []},
            {"type": "refusal", "refusal": "Not that."},
        ],
    },
    "reasoning": {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "Think."}],
        "encrypted_content": "enc",
    },
    "function_call": {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "add",
        "arguments": '{"a": 1}',
    },
    "function_call_without_id": {
        "type": "function_call",
        "call_id": "call_2",
        "name": "add",
        "arguments": "{}",
    },
    "function_call_output_text": {
        "type": "function_call_output",
        "call_id": "call_1",
        "output": "2",
    },
    "hosted_tool_item": {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "weather"},
    },
    "function_call_output_parts": {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": [
            {"type": "input_text", "text": "chart:"},
            {"type": "input_image", "image_url": PNG, "detail": "auto"},
            {"type": "input_file", "file_data": PDF, "filename": "document.pdf", "detail": "auto"},
        ],
    },
}
# A whole valid input with every item kind: the reasoning item right before the item it preceded.
ORDER = [
    "system_message",
    "developer_message",
    "user_text",
    "user_parts",
    "hosted_tool_item",
    "typed_input_message",
    "assistant_text",
    "reasoning",
    "assistant_output_message",
    "function_call",
    "function_call_without_id",
    "function_call_output_text",
    "function_call_output_parts",
]

# The kind the validator names each item by, where it differs from the item's name here.
ORDER_KINDS = {
    "system_message": "easy_message",
    "developer_message": "easy_message",
    "user_text": "easy_message",
    "user_parts": "easy_message",
    "hosted_tool_item": "web_search_call",
    "typed_input_message": "input_message",
    "assistant_text": "easy_message",
    "assistant_output_message": "output_message",
    "function_call_without_id": "function_call",
    "function_call_output_text": "function_call_output",
    "function_call_output_parts": "function_call_output",
}


def body(**changes: Any) -> dict[str, Any]:
    """A valid stateless request body with every item kind; ``changes`` replace top-level keys."""
    valid = {
        "model": "gpt-5-mini",
        "input": [copy.deepcopy(ITEMS[name]) for name in ORDER],
        "instructions": "You are helpful.",
        "tools": [TOOL],
        "tool_choice": {"type": "function", "name": "add"},
        "store": False,
        "include": ["reasoning.encrypted_content"],
        "max_output_tokens": 256,
        "stream": True,
    }
    return {**valid, **changes}


def edit_item(name: str, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """``body()`` with the item ``name`` changed in place by ``change``."""
    broken = body()
    change(broken["input"][ORDER.index(name)])
    return broken


def replace_input(*names: str, **changes: Any) -> dict[str, Any]:
    """``body(**changes)`` whose input is just the named items, in that order."""
    return body(input=[copy.deepcopy(ITEMS[name]) for name in names], **changes)


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], object]:
    """An edit setting ``item[key] = value``."""
    return lambda item: item.__setitem__(key, value)


def set_part(key: str, value: Any, part: int = 1) -> Callable[[dict[str, Any]], object]:
    """An edit setting ``key`` of the item's content part ``part``."""
    return lambda item: item["content"][part].__setitem__(key, value)


def drop_part_key(key: str, part: int) -> Callable[[dict[str, Any]], object]:
    """An edit removing ``key`` from the item's content part ``part``."""
    return lambda item: item["content"][part].pop(key)
