"""Which input items ``from_openai_responses_input`` reads: the exact forms
``to_openai_responses`` writes (``problem``), with the reason any other item is kept as it is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from llmbridge.kit import Unmapped
from llmbridge.openai._responses._hosted import HOSTED_ITEMS
from llmbridge.openai._responses._items import CALL_CONTEXT

__all__ = ["TEXT_ROLES", "problem"]

TEXT_ROLES: Final = ("system", "user")
# The keys of each item form to_openai_responses writes (anything else is kept as it is).
_PLAIN_ASSISTANT: Final = frozenset({"role", "content", "phase"})
_OUTPUT_MESSAGE: Final = frozenset({"type", "role", "id", "status", "content", "phase"})
_FUNCTION_CALL: Final = frozenset({"type", "id", "call_id", "name", "arguments", *CALL_CONTEXT})
_OUTPUT: Final = frozenset({"type", "call_id", "output"})
_REASONING: Final = frozenset({"type", "id", "summary", "encrypted_content"})


def _extra_key(item: Mapping[str, Any], keys: frozenset[str], what: str) -> Unmapped | None:
    extra = sorted(str(key) for key in set(item) - keys)
    if extra:
        return Unmapped(extra[0], f"a {what} with key {extra[0]!r} is not one llmbridge writes")
    return None


def _not_text(
    item: Mapping[str, Any], *keys: str, optional: tuple[str, ...] = ()
) -> Unmapped | None:
    for key in (*keys, *optional):
        if (key in keys or key in item) and not isinstance(item.get(key), str):
            return Unmapped(key, f"{key} must be a string")
    return None


def _is_text_part(part: object, kind: str) -> bool:
    return (
        isinstance(part, Mapping)
        and set(part) == {"type", "text"}
        and part["type"] == kind
        and isinstance(part["text"], str)
    )


# The part forms to_openai_responses writes, by type: the keys each may have.
_FILE_FORMS: Final = (
    frozenset({"type", "filename", "file_data"}),
    frozenset({"type", "file_url"}),
    frozenset({"type", "file_id"}),
)


def _media_problem(part: Mapping[str, Any], *, in_output: bool) -> bool:
    """Whether an image or file part is not in a form llmbridge writes (in tool outputs files
    carry ``detail: "auto"``)."""
    kind, keys = part.get("type"), set(part)
    if kind == "input_image":
        source = keys & {"image_url", "file_id"}
        return (
            bool(keys - {"type", "image_url", "file_id", "detail"})
            or len(source) != 1
            or not all(isinstance(part[key], str) for key in source)
        )
    if kind != "input_file":
        return True
    if in_output:
        # llmbridge writes "detail": "auto" on files in tool outputs; other clients omit it.
        if part.get("detail", "auto") != "auto":
            return True
        keys.discard("detail")
    return keys not in _FILE_FORMS or not all(
        isinstance(part[key], str) for key in keys if key != "type"
    )


def _parts_problem(content: object, field: str, *, in_output: bool) -> Unmapped | None:
    if not isinstance(content, list) or not content:
        return Unmapped(field, f"{field} is a string or a non-empty list of parts")
    for position, part in enumerate(content):
        if _is_text_part(part, "input_text"):
            continue
        if not isinstance(part, Mapping) or _media_problem(part, in_output=in_output):
            kind = part.get("type") if isinstance(part, Mapping) else None
            return Unmapped(f"{field}[{position}]", f"unknown part {kind!r}")
    return None


def _user_problem(content: object) -> Unmapped | None:
    return _parts_problem(content, "content", in_output=False)


def _annotation_problem(annotation: object) -> bool:
    """Whether ``annotation`` is not one to keep as a ``Citation``: an object with a ``type``
    (kept exactly; offsets that are not integers within the text give a citation within it)."""
    return not isinstance(annotation, Mapping) or not isinstance(annotation.get("type"), str)


def _output_message_problem(item: Mapping[str, Any]) -> Unmapped | None:
    content = item.get("content")
    part = content[0] if isinstance(content, list) and len(content) == 1 else None
    if (
        item.get("status") != "completed"
        or not isinstance(part, Mapping)
        or set(part) != {"type", "text", "annotations"}
        or part["type"] != "output_text"
        or not isinstance(part["text"], str)
        or not isinstance(part["annotations"], list)
    ):
        return Unmapped("content", "an output message is one output_text part, completed")
    if any(_annotation_problem(each) for each in part["annotations"]):
        return Unmapped("content", "an annotation is an object with a type")
    return _not_text(item, "id", optional=("phase",))


def _hosted_problem(item: Mapping[str, Any]) -> Unmapped | None:
    item_id = item.get("id")
    if not isinstance(item_id, str) or not item_id:
        return Unmapped("id", "a hosted tool item needs its id")
    return None


def _reasoning_problem(item: Mapping[str, Any]) -> Unmapped | None:
    summary = item.get("summary")
    if not isinstance(summary, list) or not all(
        _is_text_part(part, "summary_text") for part in summary
    ):
        return Unmapped("summary", "a reasoning summary is a list of summary_text parts")
    return _not_text(item, "id", optional=("encrypted_content",))


def _call_context_problem(item: Mapping[str, Any]) -> Unmapped | None:
    caller = item.get("caller")
    if caller is not None and not (
        isinstance(caller, Mapping) and all(isinstance(value, str) for value in caller.values())
    ):
        return Unmapped("caller", "a caller is an object of text fields")
    if "async" in item and not isinstance(item["async"], bool):
        return Unmapped("async", "async must be true or false")
    return None


def problem(item: Any) -> Unmapped | None:
    """Why ``item`` is not in a form ``to_openai_responses`` writes, or ``None``."""
    if not isinstance(item, Mapping):
        return Unmapped("type", "an input item must be a dict")
    kind, role = item.get("type"), item.get("role")
    for key, value in (("type", kind), ("role", role)):
        if value is not None and not isinstance(value, str):
            return Unmapped(key, f"{key} must be a string, got {type(value).__name__}")
    if role == "assistant":
        if isinstance(item.get("content"), str):
            return _extra_key(item, _PLAIN_ASSISTANT, "assistant message") or _not_text(
                item, "content", optional=("phase",)
            )
        return _extra_key(item, _OUTPUT_MESSAGE, "output message") or _output_message_problem(item)
    if kind == "reasoning":
        return _extra_key(item, _REASONING, "reasoning item") or _reasoning_problem(item)
    if kind in HOSTED_ITEMS:
        return _hosted_problem(item)
    if kind == "function_call":
        return (
            _extra_key(item, _FUNCTION_CALL, "function_call item")
            or _not_text(item, "call_id", "name", "arguments", optional=("id", "namespace"))
            or _call_context_problem(item)
        )
    if kind == "function_call_output":
        output = item.get("output")
        return (
            _extra_key(item, _OUTPUT, "function_call_output item")
            or _not_text(item, "call_id")
            or (
                None
                if isinstance(output, str)
                else _parts_problem(output, "output", in_output=True)
            )
        )
    if kind is not None or role not in TEXT_ROLES or set(item) != {"role", "content"}:
        return Unmapped("type", f"an item of type {kind!r} and role {role!r} is not imported")
    content = item["content"]
    if isinstance(content, str):
        return None
    if role != "user":
        return Unmapped("content", f"{role} content must be a string")
    return _user_problem(content)
