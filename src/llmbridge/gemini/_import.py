"""Gemini request history (``contents`` and ``system_instruction``) -> neutral messages.

The inverse of ``to_gemini`` for every payload it produces: converting the imported messages
again gives the same ``contents``. Consecutive ``model`` contents are merged first (recorded
traffic sends ``model(call A), model(call B), user(responses A, B)``), as ``to_gemini`` merges
them; then each content becomes the neutral messages whose parts ``to_gemini`` merges back into
it. Pure functions over the request dicts; the input is not mutated.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)

__all__ = ["from_gemini_contents"]

# The keys of each part kind to_gemini writes; a part with any other key (video_metadata, a
# server-side tool) has no neutral form and keeps its content as an envelope.
_PART_KEYS: Final[Mapping[str, frozenset[str]]] = {
    "text": frozenset({"text", "thought", "thought_signature"}),
    "function_call": frozenset({"function_call", "thought_signature"}),
    "function_response": frozenset({"function_response"}),
    "inline_data": frozenset({"inline_data"}),
    "file_data": frozenset({"file_data"}),
}
_ROLE_KINDS: Final[Mapping[str, frozenset[str]]] = {
    "user": frozenset({"text", "function_response", "inline_data", "file_data"}),
    "model": frozenset({"text", "function_call"}),
}

Part = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class _Unknown:
    """Why one content has no neutral mapping (it becomes an envelope, or raises)."""

    field: str
    reason: str


def _kind(part: Any) -> str | None:
    if not isinstance(part, Mapping):
        return None
    return next((kind for kind in _PART_KEYS if kind in part), None)


def _part_problem(role: str, part: Any, position: int) -> _Unknown | None:
    kind = _kind(part)
    if kind is None or kind not in _ROLE_KINDS[role] or not _PART_KEYS[kind].issuperset(part):
        return _Unknown(f"parts[{position}]", f"unknown {role} part {sorted(part or ())}")
    if kind == "text" and not isinstance(part["text"], str):
        return _Unknown(f"parts[{position}].text", "text must be a string")
    if (part.get("thought") and role != "model") or part.get("thought") not in (None, True):
        return _Unknown(f"parts[{position}].thought", "thought: true only on model text")
    return None


_DOCUMENT_TYPES: Final = frozenset({"application/pdf", "text/plain"})
Media = ImageMessage | DocumentMessage | AudioMessage


def _inline(blob: Any) -> Media | _Unknown:
    if not (isinstance(blob, Mapping) and set(blob) == {"mime_type", "data"}):
        return _Unknown("inline_data", "inline_data needs exactly mime_type and data")
    mime, data = blob["mime_type"], blob["data"]
    if not (isinstance(mime, str) and isinstance(data, str)):
        return _Unknown("inline_data", "mime_type and data must be text")
    if mime.startswith("image/"):
        return ImageMessage(Role.USER, f"data:{mime};base64,{data}")
    if mime in _DOCUMENT_TYPES:
        return DocumentMessage(Role.USER, f"data:{mime};base64,{data}")
    if mime.startswith("audio/"):
        try:
            raw = base64.b64decode(data.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            return _Unknown("inline_data", "data is not base64")
        return AudioMessage(Role.USER, data=raw, media_type=mime)
    return _Unknown("inline_data", f"no neutral form for inline {mime!r}")


def _media(part: Part) -> Media | _Unknown:
    """An ``inline_data`` or ``file_data`` part as an image, document or audio message."""
    if "inline_data" in part:
        return _inline(part["inline_data"])
    file_data = part["file_data"]
    if isinstance(file_data, Mapping) and set(file_data) <= {"file_uri", "mime_type"}:
        uri, mime = file_data.get("file_uri"), file_data.get("mime_type")
        if isinstance(uri, str) and (mime is None or str(mime).startswith("image/")):
            return ImageMessage(Role.USER, uri, media_type=mime)
        if isinstance(uri, str) and mime in _DOCUMENT_TYPES:
            return DocumentMessage(Role.USER, uri, media_type=mime)
    return _Unknown("file_data", "only image and document file_data have a neutral form")


ResultPart = TextMessage | ImageMessage | DocumentMessage


def _result(text: str, parts: Any) -> str | tuple[ResultPart, ...] | _Unknown:
    """A response's result: its text, or text and media parts (``function_response.parts``)."""
    if parts is None:
        return text
    if not isinstance(parts, list) or not parts:
        return _Unknown("function_response.parts", "parts must be a non-empty list")
    items: list[ResultPart] = [TextMessage(Role.TOOL, text)] if text else []
    for part in parts:
        kinds = set(part) if isinstance(part, Mapping) else set()
        if len(kinds) != 1 or not kinds <= {"inline_data", "file_data"}:
            return _Unknown("function_response.parts", "a part holds one inline_data or file_data")
        media = _media(part)
        if isinstance(media, _Unknown):
            return media
        if isinstance(media, AudioMessage):
            return _Unknown("function_response.parts", "a tool result holds no audio")
        items.append(media)
    return tuple(items)


def _user_content(parts: Sequence[Part]) -> Message | _Unknown:
    items: list[TextMessage | Media] = []
    for part in parts:
        if "text" in part:
            items.append(TextMessage(Role.USER, part["text"]))
            continue
        media = _media(part)
        if isinstance(media, _Unknown):
            return media
        items.append(media)
    return items[0] if len(items) == 1 else MultiModalMessage(Role.USER, items)


def _merged_model_contents(contents: Sequence[Any]) -> list[tuple[Any, int]]:
    """``contents`` with each run of consecutive ``model`` contents as one (new dict), each
    with the index of its first content."""
    out: list[tuple[Any, int]] = []
    for index, content in enumerate(contents):
        previous: Any = out[-1][0] if out else None
        if (
            _is_model(content)
            and _is_model(previous)
            and isinstance(content.get("parts"), list)
            and isinstance(previous.get("parts"), list)
        ):
            merged = {"role": "model", "parts": [*previous["parts"], *content["parts"]]}
            out[-1] = (merged, out[-1][1])
        else:
            out.append((content, index))
    return out


def _is_model(content: Any) -> bool:
    return isinstance(content, Mapping) and content.get("role") == "model"


class _Importer:
    """The state of one import: the output and the calls seen so far, by id."""

    __slots__ = ("agent_name", "calls", "out", "provider", "strict_mode")

    def __init__(self, agent_name: str, strict_mode: bool, provider: str) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self.provider = provider
        self.out: list[Message] = []
        self.calls: dict[str, ToolCall] = {}

    def _signed(self, part: Part) -> dict[str, Any]:
        signature = part.get("thought_signature")
        return {} if signature is None else {self.provider: {"thought_signature": signature}}

    def _results(self, parts: Sequence[Part]) -> ToolCallResultMessage | _Unknown:
        results: list[ToolCall] = []
        for part in parts:
            response = part["function_response"]
            answer = response.get("response") if isinstance(response, Mapping) else None
            if not isinstance(response, Mapping) or not set(response) <= {
                "name",
                "id",
                "response",
                "parts",
            }:
                return _Unknown("function_response", "unknown function_response fields")
            call = self.calls.get(response.get("id"))  # type: ignore[arg-type]
            if call is None or call.function_name != response.get("name"):
                return _Unknown("function_response", "a response must answer an earlier call")
            if not isinstance(answer, Mapping) or len(answer) != 1:
                return _Unknown("function_response.response", "expected {'output'|'error': text}")
            ((key, text),) = answer.items()
            if key not in ("output", "error") or not isinstance(text, str):
                return _Unknown("function_response.response", "expected {'output'|'error': text}")
            result = _result(text, response.get("parts"))
            if isinstance(result, _Unknown):
                return result
            results.append(
                ToolCall(
                    call.function_name,
                    call.function_arguments,
                    tool_call_id=call.tool_call_id,
                    result=result,
                    is_error=key == "error",
                )
            )
        return ToolCallResultMessage(results)

    def _user(self, parts: Sequence[Part]) -> list[Message] | _Unknown:
        # to_gemini puts function responses first in a user content.
        split = next((i for i, p in enumerate(parts) if "function_response" not in p), len(parts))
        if any("function_response" in p for p in parts[split:]):
            return _Unknown("parts", "function responses after other parts")
        out: list[Message] = []
        for group, convert in ((parts[:split], self._results), (parts[split:], _user_content)):
            if group:
                message = convert(group)
                if isinstance(message, _Unknown):
                    return message
                out.append(message)
        return out

    def _call(self, part: Part) -> ToolCall | _Unknown:
        call = part["function_call"]
        if not isinstance(call, Mapping) or not set(call) <= {"name", "args", "id"}:
            return _Unknown("function_call", "unknown function_call fields")
        name, args, call_id = call.get("name"), call.get("args", {}), call.get("id")
        if not isinstance(name, str) or not isinstance(args, Mapping):
            return _Unknown("function_call", "a call needs a name and an args object")
        tool_call = ToolCall(
            name,
            json.dumps(args, ensure_ascii=False),
            tool_call_id=call_id if isinstance(call_id, str) else None,
            provider_data=self._signed(part),
        )
        if tool_call.tool_call_id is not None:
            self.calls[tool_call.tool_call_id] = tool_call
        return tool_call

    def _model(self, parts: Sequence[Part]) -> list[Message] | _Unknown:
        """Segments of thought parts, at most one text part, then calls: one message each."""
        out: list[Message] = []
        position = 0
        while position < len(parts):
            reasoning: list[Reasoning] = []
            while position < len(parts) and parts[position].get("thought"):
                part = parts[position]
                signature = part.get("thought_signature")
                reasoning.append(
                    Reasoning(part["text"], signature=signature, provider=self.provider)
                )
                position += 1
            text: Part | None = None
            if position < len(parts) and "text" in parts[position]:
                text = parts[position]
                position += 1
            calls: list[ToolCall] = []
            while position < len(parts) and "function_call" in parts[position]:
                call = self._call(parts[position])
                if isinstance(call, _Unknown):
                    return call
                calls.append(call)
                position += 1
            data = self._signed(text) if text is not None else {}
            content = text["text"] if text is not None else None
            if calls:
                out.append(
                    ToolCallMessage(
                        calls,
                        self.agent_name,
                        content=content,
                        reasoning=reasoning,
                        provider_data=data,
                    )
                )
            else:
                out.append(
                    TextMessage(
                        Role.ASSISTANT,
                        content or "",
                        self.agent_name,
                        reasoning=reasoning,
                        provider_data=data,
                    )
                )
        return out

    def _content(self, content: Any) -> list[Message] | _Unknown:
        role = content.get("role") if isinstance(content, Mapping) else None
        if not isinstance(role, str) or role not in _ROLE_KINDS:
            return _Unknown("role", f"unknown role {role!r}")
        if not set(content) <= {"role", "parts"}:
            return _Unknown(
                "role", f"unknown content fields {sorted(set(content) - {'role', 'parts'})}"
            )
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts:
            return _Unknown("parts", "parts must be a non-empty list")
        for position, part in enumerate(parts):
            problem = _part_problem(role, part, position)
            if problem is not None:
                return problem
        return self._user(parts) if role == "user" else self._model(parts)

    def add(self, content: Any, index: int) -> None:
        try:
            messages = self._content(content)
        except InvalidMessageError as error:  # a bad image: the same error, naming the index
            raise error.at(index) from error
        if not isinstance(messages, _Unknown):
            self.out.extend(messages)
        elif self.strict_mode:
            raise InvalidMessageError(
                f"Gemini content cannot be imported: {messages.reason}",
                index=index,
                field=messages.field,
            )
        else:
            self.out.append(MessageEnvelope(content))

    def add_system(self, system: str | Mapping[str, Any] | Sequence[Any]) -> None:
        if isinstance(system, str):
            parts: Sequence[Any] = [{"text": system}]
        elif isinstance(system, Mapping):
            parts = system.get("parts") or ()
        else:
            parts = system
        for position, part in enumerate(parts):
            if (
                isinstance(part, Mapping)
                and set(part) == {"text"}
                and isinstance(part["text"], str)
            ):
                self.out.append(TextMessage(Role.SYSTEM, part["text"]))
            elif self.strict_mode:
                raise InvalidMessageError(
                    "Gemini system_instruction part cannot be imported: only text parts have a "
                    "neutral form",
                    field=f"system_instruction[{position}]",
                )
            else:  # to_gemini lifts a system envelope's parts back into system_instruction
                self.out.append(MessageEnvelope({"role": "system", "parts": [part]}))


def from_gemini_contents(
    contents: Sequence[Any],
    *,
    agent_name: str,
    system_instruction: str | Mapping[str, Any] | Sequence[Any] | None = None,
    strict_mode: bool = False,
    provider: str = "gemini",
) -> list[Message]:
    """Neutral messages for a Gemini request history (``contents``) and its system instruction.

    ``system_instruction`` (text, a ``{"parts": [...]}`` content or a list of text parts)
    becomes ``TextMessage(Role.SYSTEM, ...)`` messages first. Consecutive ``model`` contents
    are merged, then each model content becomes messages ``from_=agent_name``: thought parts
    ``Reasoning(provider=provider)`` with their signature, a text part (its signature in
    ``provider_data[provider]``) followed by ``function_call`` parts is one ``ToolCallMessage``
    (arguments as JSON text, ids kept, each call's signature in its ``provider_data``). User
    ``function_response`` parts become a ``ToolCallResultMessage`` with the names and
    arguments of the calls they answer (``output`` a result, ``error`` an ``is_error`` one);
    other user parts a ``TextMessage``, an ``ImageMessage`` (inline bytes, or a ``file_data``
    URI) or a ``MultiModalMessage``. A content that cannot be mapped (an unknown part or key, a
    response answering no earlier call by id and name, media other than images) becomes
    ``MessageEnvelope(content)``; with ``strict_mode`` it raises ``InvalidMessageError`` naming
    its index (``None`` and field ``system_instruction[i]`` for a system part). The input is not
    mutated.
    """
    importer = _Importer(agent_name, strict_mode, provider)
    if system_instruction is not None:
        importer.add_system(system_instruction)
    for content, index in _merged_model_contents(contents):
        importer.add(content, index)
    return importer.out
