"""Anthropic Messages request history -> neutral messages (payload import).

The inverse of ``to_anthropic`` for every payload it produces: converting the imported
messages again gives the same ``messages`` and ``system``. Each turn becomes the neutral
messages whose blocks ``to_anthropic`` merges back into that turn. Pure functions over the
request dicts; the input is not mutated.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from llmbridge import (
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallResultMessage,
)
from llmbridge.anthropic._hosted import HOSTED_TYPES
from llmbridge.anthropic._import_assistant import assistant_messages, reply_block_problem
from llmbridge.kit import ToolResult, ToolResultPart, TurnImporter, Unmapped

__all__ = ["from_anthropic_messages"]

_PROVIDER: Final = "anthropic"
# The keys of each block kind to_anthropic writes; a block with any other key (cache_control)
# has no neutral form and keeps its message as an envelope. An assistant text block may have
# citations too, and hosted tool blocks are kept as they are (_import_assistant).
_KEYS: Final[Mapping[str, frozenset[str]]] = {
    "text": frozenset({"type", "text"}),
    "image": frozenset({"type", "source"}),
    "document": frozenset({"type", "source", "title"}),
    "tool_use": frozenset({"type", "id", "name", "input"}),
    "tool_result": frozenset({"type", "tool_use_id", "content", "is_error"}),
    "thinking": frozenset({"type", "thinking", "signature"}),
    "redacted_thinking": frozenset({"type", "data"}),
}
_TURN_KINDS: Final[Mapping[str, frozenset[str]]] = {
    "user": frozenset({"text", "image", "document", "tool_result"}),
    "assistant": frozenset({"text", "tool_use", "thinking", "redacted_thinking", *HOSTED_TYPES}),
}
# The keys each block kind must have, with the JSON type of each value (what the API requires
# and to_anthropic writes), and the optional keys whose type is checked: a block missing one or
# holding another type has no neutral form (it never gets as far as a KeyError).
_REQUIRED: Final[Mapping[str, Mapping[str, tuple[type, str]]]] = {
    "text": {"text": (str, "a string")},
    "image": {"source": (object, "an object")},
    "document": {"source": (object, "an object")},
    "tool_use": {
        "id": (str, "a string"),
        "name": (str, "a string"),
        "input": (Mapping, "an object"),
    },
    "tool_result": {"tool_use_id": (str, "a string")},
    "thinking": {"thinking": (str, "a string"), "signature": (str, "a string")},
    "redacted_thinking": {"data": (str, "a string")},
}
_OPTIONAL: Final[Mapping[str, Mapping[str, tuple[type, str]]]] = {
    "tool_result": {"is_error": (bool, "a boolean")},
}
_RESULT_KINDS: Final = frozenset({"text", "image", "document"})
_TEXT: Final = frozenset({"text"})
_FILE_SOURCE_KEYS: Final = frozenset({"type", "file_id"})


Block = Mapping[str, Any]


def _block_problem(kinds: frozenset[str], block: Any, where: str, owner: str) -> Unmapped | None:
    """Why ``block`` (at field ``where``) is not a block of one of ``kinds`` as the API takes it:
    an unknown type or key, a required key missing, a value of the wrong JSON type."""
    kind = block.get("type") if isinstance(block, Mapping) else None
    if not isinstance(kind, str):
        return Unmapped(where, f"unknown {owner} block {kind!r}")
    if owner == "assistant" and (kind in HOSTED_TYPES or (kind == "text" and "citations" in block)):
        problem = reply_block_problem(block, where)
        if problem is not None or kind in HOSTED_TYPES:
            return problem
        block = {key: value for key, value in block.items() if key != "citations"}
    keys = _KEYS.get(kind)
    if keys is None or kind not in kinds or not keys.issuperset(block):
        return Unmapped(where, f"unknown {owner} block {kind!r}")
    for key, (expected, wanted) in _REQUIRED[kind].items():
        if key not in block or not isinstance(block[key], expected):
            return Unmapped(f"{where}.{key}", f"a {kind} block needs {key!r} as {wanted}")
    for key, (expected, wanted) in _OPTIONAL.get(kind, {}).items():
        if key in block and not isinstance(block[key], expected):
            return Unmapped(f"{where}.{key}", f"a {kind} block's {key!r} must be {wanted}")
    return None


def _file_id(source: Any) -> str | None:
    """The ``file_id`` of a ``{"type": "file", "file_id": ...}`` source (nothing else in it)."""
    if isinstance(source, Mapping) and source.keys() == _FILE_SOURCE_KEYS:
        file_id = source["file_id"]
        return file_id if isinstance(file_id, str) else None
    return None


def _image(block: Block) -> ImageMessage | Unmapped:
    source = block["source"]
    kind = source.get("type") if isinstance(source, Mapping) else None
    file_id = _file_id(source) if kind == "file" else None
    if file_id is not None:
        return ImageMessage(Role.USER, file_id=file_id, file_provider=_PROVIDER)
    if kind == "url" and isinstance(source.get("url"), str):
        return ImageMessage(Role.USER, source["url"])
    if kind == "base64" and isinstance(source.get("data"), str):
        url = f"data:{source.get('media_type')};base64,{source['data']}"
        return ImageMessage(Role.USER, url)
    return Unmapped("source", f"unknown image source {kind!r}")


def _document(block: Block) -> DocumentMessage | Unmapped:
    source = block["source"]
    kind = source.get("type") if isinstance(source, Mapping) else None
    data = source.get("data") if isinstance(source, Mapping) else None
    title = block.get("title")
    filename = title if isinstance(title, str) and title.strip() else None
    if title is not None and filename is None:
        return Unmapped("title", "a document title must be a non-empty string")
    file_id = _file_id(source) if kind == "file" else None
    if file_id is not None:
        return DocumentMessage(
            Role.USER, file_id=file_id, file_provider=_PROVIDER, filename=filename
        )
    if kind == "url" and isinstance(source.get("url"), str):
        return DocumentMessage(Role.USER, source["url"], filename=filename)
    if kind == "base64" and isinstance(data, str) and source.get("media_type") == "application/pdf":
        try:
            pdf = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            return Unmapped("source", "undecodable base64 document data")
        if pdf:
            return DocumentMessage(
                Role.USER, data=pdf, media_type="application/pdf", filename=filename
            )
    if (
        kind == "text"
        and isinstance(data, str)
        and data
        and source.get("media_type") == "text/plain"
    ):
        text = data.encode("utf-8", "surrogatepass")
        return DocumentMessage(Role.USER, data=text, media_type="text/plain", filename=filename)
    return Unmapped("source", f"unknown document source {kind!r}")


def _media(block: Block) -> ImageMessage | DocumentMessage | Unmapped:
    try:
        return _document(block) if block["type"] == "document" else _image(block)
    except InvalidMessageError as error:  # e.g. a URL no provider takes, undecodable base64
        return Unmapped("source", error.reason)


def _user_content(blocks: Sequence[Block]) -> Message | Unmapped:
    items: list[TextMessage | ImageMessage | DocumentMessage] = []
    for block in blocks:
        if block["type"] == "text":
            items.append(TextMessage(Role.USER, block["text"]))
            continue
        media = _media(block)
        if isinstance(media, Unmapped):
            return media
        items.append(media)
    if len(items) == 1:
        return items[0]
    return MultiModalMessage(Role.USER, items)


def _result(content: Any, where: str) -> ToolResult | Unmapped:
    """A ``tool_result``'s content (field ``where``) as a result: its text, or parts for a list
    of blocks."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list) or not content:
        return Unmapped(where, "tool_result content must be text or a list of blocks")
    parts: list[ToolResultPart] = []
    for position, block in enumerate(content):
        problem = _block_problem(_RESULT_KINDS, block, f"{where}[{position}]", "tool_result")
        if problem is not None:
            return problem
        kind = block["type"]
        part = TextMessage(Role.TOOL, block["text"]) if kind == "text" else _media(block)
        if isinstance(part, Unmapped):
            return part
        parts.append(part)
    return tuple(parts)


class _Importer(TurnImporter):
    """The state of one import: the output and the calls seen so far, by id."""

    __slots__ = ("agent_name", "calls", "out", "strict_mode")
    turn_name: ClassVar[str] = "Anthropic request message"

    def __init__(self, agent_name: str, strict_mode: bool) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self.out: list[Message] = []
        self.calls: dict[str, ToolCall] = {}

    def _results(self, blocks: Sequence[Block]) -> ToolCallResultMessage | Unmapped:
        results: list[ToolCall] = []
        # The results open the turn: positions in ``blocks`` are those of its content.
        for position, block in enumerate(blocks):
            call = self.calls.get(block["tool_use_id"])
            if call is None:
                return Unmapped("tool_use_id", "a tool_result must answer an earlier tool_use")
            content = _result(block.get("content", ""), f"content[{position}].content")
            if isinstance(content, Unmapped):
                return content
            results.append(
                ToolCall(
                    call.function_name,
                    call.function_arguments,
                    tool_call_id=call.tool_call_id,
                    result=content,
                    is_error=bool(block.get("is_error", False)),
                )
            )
        return ToolCallResultMessage(results)

    def _user(self, blocks: Sequence[Block]) -> list[Message] | Unmapped:
        # to_anthropic puts tool results first in a user turn.
        split = next((i for i, b in enumerate(blocks) if b["type"] != "tool_result"), len(blocks))
        if any(b["type"] == "tool_result" for b in blocks[split:]):
            return Unmapped("content", "tool_result blocks after other blocks")
        out: list[Message] = []
        for group, convert in ((blocks[:split], self._results), (blocks[split:], _user_content)):
            if group:
                message = convert(group)
                if isinstance(message, Unmapped):
                    return message
                out.append(message)
        return out

    def _calls(self, blocks: Sequence[Block]) -> list[ToolCall]:
        calls = [
            ToolCall(b["name"], json.dumps(b["input"], ensure_ascii=False), tool_call_id=b["id"])
            for b in blocks
        ]
        self.calls.update((b["id"], call) for b, call in zip(blocks, calls, strict=True))
        return calls

    def read(self, message: Any) -> list[Message] | Unmapped:
        role = message.get("role") if isinstance(message, Mapping) else None
        if not isinstance(role, str) or role not in _TURN_KINDS:
            return Unmapped("role", f"unknown role {role!r}")
        content = message.get("content")
        if isinstance(content, str):
            turn_role = Role.USER if role == "user" else Role.ASSISTANT
            from_ = None if role == "user" else self.agent_name
            return [TextMessage(turn_role, content, from_=from_)]
        if not isinstance(content, list) or not content:
            return Unmapped("content", "content must be text or a non-empty list of blocks")
        for position, block in enumerate(content):
            problem = _block_problem(_TURN_KINDS[role], block, f"content[{position}]", role)
            if problem is not None:
                return problem
        try:
            if role == "user":
                return self._user(content)
            return assistant_messages(content, self.agent_name, self._calls)
        except InvalidMessageError as error:  # a value no neutral message takes
            return Unmapped(error.field or "content", error.reason)

    def add_system(self, system: Any) -> None:
        if isinstance(system, str):
            blocks: Any = [{"type": "text", "text": system}]
        elif isinstance(system, list | tuple):
            blocks = system
        else:  # not a system prompt at all: no envelope would send (to_anthropic lists it)
            raise InvalidMessageError(
                f"Anthropic system must be text or a list of text blocks, got "
                f"{type(system).__name__}",
                field="system",
            )
        for position, block in enumerate(blocks):
            problem = _block_problem(_TEXT, block, f"system[{position}]", "system")
            if problem is None:
                self.out.append(TextMessage(Role.SYSTEM, block["text"]))
            elif self.strict_mode:
                raise InvalidMessageError(
                    "Anthropic system block cannot be imported: only text blocks have a "
                    f"neutral form ({problem.reason})",
                    field=problem.field,
                )
            else:  # to_anthropic lifts a system envelope's blocks back into system
                self.out.append(MessageEnvelope({"role": "system", "content": [block]}))


def from_anthropic_messages(
    messages: Sequence[Any],
    *,
    agent_name: str,
    system: str | Sequence[Any] | None = None,
    strict_mode: bool = False,
) -> list[Message]:
    """Neutral messages for an Anthropic Messages request history and its ``system``.

    ``system`` (text or text blocks) becomes ``TextMessage(Role.SYSTEM, ...)`` messages first;
    assistant turns are ``from_=agent_name`` (thinking kept with its signature as
    ``Reasoning(provider="anthropic")``; text followed by ``tool_use`` blocks is one
    ``ToolCallMessage``); user ``tool_result`` blocks become a ``ToolCallResultMessage`` with
    the names and arguments of the calls they answer (content blocks as a parts result); other
    user blocks become a ``TextMessage``, an ``ImageMessage`` (base64 sources as bytes), a
    ``DocumentMessage`` (``title`` as its ``filename``; a text source as ``text/plain``
    bytes) or a ``MultiModalMessage``; a ``file`` source (in a user turn or a tool result) is
    a file reference, ``file_provider="anthropic"``.
    A message that cannot be mapped (an unknown block type or key, a result answering no
    earlier call) becomes ``MessageEnvelope(message)``; with ``strict_mode`` it raises
    ``InvalidMessageError`` naming its index (``None`` and field ``system[i]`` for a system
    block). A block missing a key the API requires (a ``tool_use`` without ``input``), or holding
    a value of the wrong JSON type, is such a message too; strict mode names it as field
    ``content[i].<key>``. ``messages`` that are not a list (or tuple) raise
    ``InvalidMessageError`` (field ``messages``) in both modes, and so does a ``system`` that
    is neither text nor a list (field ``system``). The input is not mutated.
    """
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise InvalidMessageError(
            f"messages must be a list of request messages, got {type(messages).__name__}",
            field="messages",
        )
    importer = _Importer(agent_name, strict_mode)
    if system is not None:
        importer.add_system(system)
    for index, message in enumerate(messages):
        importer.add(message, index)
    return importer.out
