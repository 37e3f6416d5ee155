"""Responses input parts (``input_text``, ``input_image``, ``input_file``) and reasoning items as
neutral messages and ``Reasoning``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llmbridge import (
    DocumentMessage,
    ImageMessage,
    Message,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
)
from llmbridge.openai._responses._items import PROVIDER

__all__ = ["part_message", "reasoning_of", "user_parts"]


def part_message(part: Mapping[str, Any]) -> TextMessage | ImageMessage | DocumentMessage:
    kind = part["type"]
    if kind == "input_text":
        return TextMessage(Role.USER, part["text"])
    if kind == "input_image":
        if "file_id" in part:
            return ImageMessage(
                Role.USER,
                file_id=part["file_id"],
                file_provider="openai",
                detail=part.get("detail"),
            )
        return ImageMessage(Role.USER, part["image_url"], detail=part.get("detail"))
    if "file_id" in part:
        return DocumentMessage(Role.USER, file_id=part["file_id"], file_provider="openai")
    if "file_url" in part:
        return DocumentMessage(Role.USER, part["file_url"])
    return DocumentMessage(Role.USER, part["file_data"], filename=part["filename"])


def user_parts(parts: Sequence[Any]) -> Message:
    items = [part_message(part) for part in parts]
    if len(items) == 1 and isinstance(items[0], ImageMessage | DocumentMessage):
        return items[0]
    return MultiModalMessage(Role.USER, items)


def reasoning_of(item: Mapping[str, Any], before: str | None) -> Reasoning:
    texts = [part["text"] for part in item["summary"]]
    data: dict[str, Any] = {"id": item["id"], "summary": texts}
    if before is not None:
        data["before"] = before
    return Reasoning(
        "\n".join(texts),
        signature=item.get("encrypted_content"),
        provider=PROVIDER,
        provider_data={PROVIDER: data},
    )
