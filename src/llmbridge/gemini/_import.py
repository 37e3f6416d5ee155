"""Gemini request history (``contents`` and ``system_instruction``) -> neutral messages.

The inverse of ``to_gemini`` for every payload it produces: converting the imported messages
again gives the same ``contents``. Consecutive ``model`` contents are merged first (recorded
traffic sends ``model(call A), model(call B), user(responses A, B)``), as ``to_gemini`` merges
them; then each content becomes the neutral messages whose parts ``to_gemini`` merges back into
it. Pure functions over the request dicts; the input is not mutated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from llmbridge import (
    InvalidMessageError,
    Message,
    MessageEnvelope,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.gemini._hosted import HOSTED_FIELDS, SIGNED_TEXT, HostedCalls
from llmbridge.gemini._import_parts import (
    ROLE_KINDS,
    Part,
    merged_model_contents,
    part_problem,
    result_parts,
    snake_part,
    user_content,
)
from llmbridge.gemini._model_turn import TEXT_AFTER_CALLS
from llmbridge.kit import TurnImporter, Unmapped

__all__ = ["from_gemini_contents"]

_RESPONSE_FIELDS: Final = frozenset({"name", "id", "response", "parts"})


def _is_empty_text(part: Part) -> bool:
    return part.get("text") == "" and not part.get("thought")


def _is_thought_text(part: Part) -> bool:
    return bool(part.get("thought")) and "text" in part


def _is_text(part: Part) -> bool:
    return "text" in part and not part.get("thought")


class _Turn:
    """Where the import of one model turn is: the next part, and the calls and hosted calls
    read so far (ids of calls without one count them)."""

    __slots__ = ("calls", "hosted", "position")

    def __init__(self) -> None:
        self.position = 0
        self.calls = 0
        self.hosted = 0

    def take_hosted(self, parts: Sequence[Part], hosted: HostedCalls, offset: int) -> None:
        """Take the code parts from ``position`` on into ``hosted``, at ``offset``."""
        while self.position < len(parts) and HOSTED_FIELDS.intersection(parts[self.position]):
            hosted.add(parts[self.position], offset)
            self.position += 1


def _answer(answer: Any, parts: Any) -> tuple[Any, bool] | Unmapped:
    """A ``function_response.response`` as ``(result, is_error)``: ``{"output": text}`` a text
    (or, with media ``parts``, a parts) result, ``{"error": text}`` an error one, any other
    object a structured result (API.md 19.3)."""
    if not isinstance(answer, Mapping):
        return Unmapped("function_response.response", "response must be an object")
    if len(answer) == 1:
        ((key, text),) = answer.items()
        if key in ("output", "error") and isinstance(text, str):
            result = result_parts(text, parts)
            return result if isinstance(result, Unmapped) else (result, key == "error")
    if parts is not None:
        return Unmapped("function_response.parts", "media parts come with {'output': text}")
    return answer, False


class _Importer(TurnImporter):
    """The state of one import: the output, the calls seen so far by id, and the calls of the
    latest call turn not answered yet (an answer without an id takes the first of its name)."""

    __slots__ = ("agent_name", "calls", "open", "out", "provider", "strict_mode")
    turn_name: ClassVar[str] = "Gemini content"

    def __init__(self, agent_name: str, strict_mode: bool, provider: str) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self.provider = provider
        self.out: list[Message] = []
        self.calls: dict[str, ToolCall] = {}
        self.open: list[ToolCall] = []

    def _signed(self, part: Part) -> dict[str, Any]:
        signature = part.get("thought_signature")
        return {} if signature is None else {self.provider: {"thought_signature": signature}}

    def _answered(self, response: Mapping[Any, Any], open_calls: list[ToolCall]) -> ToolCall | None:
        """The call ``response`` answers: by id, else (no id: Gemini 2.5 answers by name) the
        first open call of its name; taken out of ``open_calls``."""
        call_id, name = response.get("id"), response.get("name")
        if call_id is None:
            call = next((c for c in open_calls if c.function_name == name), None)
        else:
            call = self.calls.get(call_id) if isinstance(call_id, str) else None
        if call is None or call.function_name != name:
            return None
        taken = next((i for i, item in enumerate(open_calls) if item is call), None)
        if taken is not None:
            del open_calls[taken]
        return call

    def _results(self, parts: Sequence[Part]) -> ToolCallResultMessage | Unmapped:
        results: list[ToolCall] = []
        open_calls = list(self.open)
        for part in parts:
            response = part["function_response"]
            if not isinstance(response, Mapping) or not _RESPONSE_FIELDS.issuperset(response):
                return Unmapped("function_response", "unknown function_response fields")
            call = self._answered(response, open_calls)
            if call is None:
                return Unmapped("function_response", "a response must answer an earlier call")
            answer = _answer(response.get("response"), response.get("parts"))
            if isinstance(answer, Unmapped):
                return answer
            try:
                result = ToolCall(
                    call.function_name,
                    call.function_arguments,
                    tool_call_id=call.tool_call_id,
                    result=answer[0],
                    is_error=answer[1],
                )
            except InvalidMessageError as error:  # an object that is not JSON (a NaN)
                return Unmapped("function_response.response", error.reason)
            results.append(result)
        self.open = open_calls
        return ToolCallResultMessage(results)

    def _user(self, parts: Sequence[Part]) -> list[Message] | Unmapped:
        # to_gemini puts function responses first in a user content.
        split = next((i for i, p in enumerate(parts) if "function_response" not in p), len(parts))
        if any("function_response" in p for p in parts[split:]):
            return Unmapped("parts", "function responses after other parts")
        out: list[Message] = []
        for group, convert in ((parts[:split], self._results), (parts[split:], user_content)):
            if group:
                message = convert(group)
                if isinstance(message, Unmapped):
                    return message
                out.append(message)
        return out

    def _call(self, part: Part, position: int) -> ToolCall | Unmapped:
        """A ``function_call`` part; a call without an id gets ``f"{name}_{position}"``
        (``position`` among the turn's calls), as ``from_gemini`` gives a reply's call."""
        call = part["function_call"]
        if not isinstance(call, Mapping) or not {"name", "args", "id"}.issuperset(call):
            return Unmapped("function_call", "unknown function_call fields")
        name, args, call_id = call.get("name"), call.get("args", {}), call.get("id")
        if not (isinstance(name, str) and isinstance(args, Mapping)):
            return Unmapped("function_call", "a call needs a name and an args object")
        if not isinstance(call_id, str | None):
            return Unmapped("function_call.id", "an id is text")
        try:
            arguments = json.dumps(args, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError):
            return Unmapped("function_call.args", "args must be a JSON object")
        tool_call = ToolCall(
            name,
            arguments,
            tool_call_id=f"{name}_{position}" if call_id is None else call_id,
            provider_data=self._signed(part),
        )
        self.calls[tool_call.tool_call_id or ""] = tool_call
        self.open.append(tool_call)
        return tool_call

    def _model(self, parts: Sequence[Part]) -> list[Message] | Unmapped:
        """One message per segment of the turn (``_segment``)."""
        out: list[Message] = []
        turn = _Turn()
        while turn.position < len(parts):
            message = self._segment(parts, turn)
            if isinstance(message, Unmapped):
                return message
            out.append(message)
        return out

    def _segment(self, parts: Sequence[Part], turn: _Turn) -> Message | Unmapped:
        """Thought parts, code parts, at most one text part, code parts, then calls, from
        ``turn.position``: one message, its code parts its ``hosted_tools`` (offset 0 before the
        text, the text's length after it); an empty text part that ends the turn after calls
        goes with them (``TEXT_AFTER_CALLS``)."""
        reasoning: list[Reasoning] = []
        while turn.position < len(parts) and _is_thought_text(parts[turn.position]):
            part = parts[turn.position]
            signature = part.get("thought_signature")
            reasoning.append(Reasoning(part["text"], signature=signature, provider=self.provider))
            turn.position += 1
        hosted = HostedCalls(self.provider, first=turn.hosted)
        turn.take_hosted(parts, hosted, 0)
        before = hosted.started  # the text is the piece after these calls (SIGNED_TEXT)
        text: Part | None = None
        if turn.position < len(parts) and _is_text(parts[turn.position]):
            text = parts[turn.position]
            turn.position += 1
            turn.take_hosted(parts, hosted, len(text["text"]))
        calls: list[ToolCall] = []
        while turn.position < len(parts) and "function_call" in parts[turn.position]:
            if turn.calls == 0:
                self.open = []  # a new call turn: earlier calls are no longer answered
            call = self._call(parts[turn.position], turn.calls)
            if isinstance(call, Unmapped):
                return call
            calls.append(call)
            turn.position += 1
            turn.calls += 1
        try:
            hosted_tools = hosted.calls()
        except InvalidMessageError as error:  # a code record that is not JSON (a NaN)
            return Unmapped("parts", error.reason)
        turn.hosted += len(hosted_tools)
        data = self._signed(text) if text is not None else {}
        if data and before != len(hosted_tools):
            data = {self.provider: {**data[self.provider], SIGNED_TEXT: before}}
        content = text["text"] if text is not None else None
        if not calls:
            return TextMessage(
                Role.ASSISTANT,
                content or "",
                self.agent_name,
                reasoning=reasoning,
                provider_data=data,
                hosted_tools=hosted_tools,
            )
        if turn.position == len(parts) - 1 and _is_empty_text(parts[turn.position]):
            after = self._signed(parts[turn.position]).get(self.provider, {})
            data = {self.provider: {**data.get(self.provider, {}), TEXT_AFTER_CALLS: after}}
            turn.position += 1
        return ToolCallMessage(
            calls,
            self.agent_name,
            content=content,
            reasoning=reasoning,
            provider_data=data,
            hosted_tools=hosted_tools,
        )

    def read(self, content: Any) -> list[Message] | Unmapped:
        role = content.get("role") if isinstance(content, Mapping) else None
        if not isinstance(role, str) or role not in ROLE_KINDS:
            return Unmapped("role", f"unknown role {role!r}")
        if not {"role", "parts"}.issuperset(content):
            unknown = sorted(map(str, set(content) - {"role", "parts"}))
            return Unmapped("role", f"unknown content fields {unknown}")
        raw_parts = content.get("parts")
        if not isinstance(raw_parts, list) or not raw_parts:
            return Unmapped("parts", "parts must be a non-empty list")
        parts: list[Part] = []
        for position, raw in enumerate(raw_parts):
            part = snake_part(raw, f"parts[{position}]")
            if isinstance(part, Unmapped):
                return part
            problem = part_problem(role, part, position)
            if problem is not None:
                return problem
            parts.append(part)
        return self._user(parts) if role == "user" else self._model(parts)

    def add_system(self, system: str | Mapping[str, Any] | Sequence[Any]) -> None:
        if isinstance(system, str):
            parts: Sequence[Any] = [{"text": system}]
        elif isinstance(system, Mapping):
            parts = system.get("parts") or ()
        else:
            parts = system
        if not isinstance(parts, list | tuple):
            parts = [parts]  # not a list of parts: one part that is not text
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
    (arguments as JSON text, ids kept, a call without an id given ``f"{name}_{i}"``, ``i`` its
    position among the turn's calls, as ``from_gemini`` does; each call's signature in its
    ``provider_data``); an empty text part that ends a turn after its calls is kept in the
    message's ``provider_data[provider]["text_after_calls"]``, so ``to_gemini`` sends it back.
    ``executable_code`` / ``code_execution_result`` parts (``thought: true`` ones too) are the
    ``hosted_tools`` of the message whose text they precede or follow, their
    parts and offset in its ``provider_data``, as ``from_gemini`` reads a reply's.
    User ``function_response`` parts become a ``ToolCallResultMessage`` with the names and
    arguments of the calls they answer (by id; a response without an id answers the first
    unanswered call of its name in the latest call turn): ``{"output": text}`` a text result,
    ``{"error": text}`` an ``is_error`` one, any other object a structured result. Other user
    parts become a ``TextMessage``, an ``ImageMessage`` / ``DocumentMessage`` / ``AudioMessage`` /
    ``VideoMessage`` (inline bytes in either base64 alphabet, or a ``file_data`` URI: video by
    the URLs ``to_gemini`` sends for one, audio as a Gemini file reference) or a
    ``MultiModalMessage``. camelCase field names (``functionCall``, ``inlineData``,
    ``thoughtSignature``, ``mimeType``...) read as the snake_case ones. A content that cannot
    be mapped (a malformed or unknown part or key, a response answering no earlier call, media
    the neutral model refuses) becomes ``MessageEnvelope(content)``; with ``strict_mode`` it
    raises ``InvalidMessageError`` naming its index (``None`` and field
    ``system_instruction[i]`` for a system part). The input is not mutated.
    """
    importer = _Importer(agent_name, strict_mode, provider)
    if system_instruction is not None:
        importer.add_system(system_instruction)
    for content, index in merged_model_contents(contents):
        importer.add(content, index)
    return importer.out
