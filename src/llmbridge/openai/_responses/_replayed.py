"""Output items as the SDK returns them, read as the form ``to_openai_responses`` writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from llmbridge.openai._responses._hosted import HOSTED_ITEMS

__all__ = ["replayed_form"]

_INPUT_ROLES: Final = ("system", "user", "developer")


def _output_parts(content: Any) -> Any:
    """Output message parts without their ``logprobs`` (read-only metadata of a reply)."""
    if not isinstance(content, list) or not any(
        isinstance(part, Mapping) and "logprobs" in part for part in content
    ):
        return content
    return [
        {key: value for key, value in part.items() if key != "logprobs"}
        if isinstance(part, Mapping)
        else part
        for part in content
    ]


def replayed_form(item: Any) -> Any:
    """``item`` without what the SDK returns beside the form ``to_openai_responses`` writes.

    Histories often hold output items as the SDK dumps them (``model_dump``): null optional
    fields, an item ``status``, ``logprobs`` on output text, ``type: "message"`` on input
    messages. The API accepts them back, and none of them carries anything a neutral message
    keeps, so they are read as the minimal form (the input is not changed). Hosted tool items
    are kept whole: ``provider_data`` holds them exactly.
    """
    if not isinstance(item, Mapping):
        return item
    kind, role = item.get("type"), item.get("role")
    if isinstance(kind, str) and kind in HOSTED_ITEMS:
        return item  # replayed exactly as the API sent it, nulls and status included
    drop = {key for key, value in item.items() if value is None}
    if kind in ("function_call", "reasoning") and isinstance(item.get("status"), str):
        drop.add("status")
    if kind == "message" and role in _INPUT_ROLES:
        drop.add("type")
    content = item.get("content")
    parts = _output_parts(content) if role == "assistant" else content
    if not drop and parts is content:
        return item
    readable = {key: value for key, value in item.items() if key not in drop}
    if parts is not content:
        readable["content"] = parts
    return readable
