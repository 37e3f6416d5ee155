"""OpenAI Responses input items -> neutral messages (payload import).

The inverse of ``to_openai_responses`` for every input it produces:
``to_openai_responses(from_openai_responses_input(p), agent_name=...).input == p``. A run of
assistant-side items (reasoning, assistant messages, function calls) becomes one neutral turn,
with the item ids, phases and reasoning placement in ``provider_data["openai-responses"]``.
Items are read only in the exact forms ``to_openai_responses`` writes; any other item is kept
as a ``MessageEnvelope`` (strict mode: ``InvalidMessageError``). The input is not mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

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
from llmbridge.kit import Unmapped
from llmbridge.openai._responses._input_parts import part_message, reasoning_of, user_parts
from llmbridge.openai._responses._items import CALL_CONTEXT, PROVIDER
from llmbridge.openai._responses._replayed import replayed_form

__all__ = ["from_openai_responses_input"]

_TEXT_ROLES: Final = {"system": Role.SYSTEM, "user": Role.USER}
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


def _output_message_problem(item: Mapping[str, Any]) -> Unmapped | None:
    content = item.get("content")
    part = content[0] if isinstance(content, list) and len(content) == 1 else None
    if (
        item.get("status") != "completed"
        or not isinstance(part, Mapping)
        or set(part) != {"type", "text", "annotations"}
        or part["type"] != "output_text"
        or part["annotations"] != []
        or not isinstance(part["text"], str)
    ):
        return Unmapped("content", "an output message is one output_text part, completed")
    return _not_text(item, "id", optional=("phase",))


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


def _problem(item: Any) -> Unmapped | None:
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
    if kind is not None or role not in _TEXT_ROLES or set(item) != {"role", "content"}:
        return Unmapped("type", f"an item of type {kind!r} and role {role!r} is not imported")
    content = item["content"]
    if isinstance(content, str):
        return None
    if role != "user":
        return Unmapped("content", f"{role} content must be a string")
    return _user_problem(content)


@dataclass(slots=True)
class _Turn:
    """The assistant-side items of one neutral turn, as they are read."""

    texts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    reasoning: list[Reasoning] = field(default_factory=list)
    identified: bool = False  # any item id or phase: the agent's own recorded reply

    def takes_text(self, has_id: bool) -> bool:
        """Whether a text item joins this turn (to_openai_responses writes texts before calls,
        and several texts only as the recorded message items of one reply)."""
        if self.calls:
            return False
        return not self.texts or (has_id and all("id" in data for _, data in self.texts))


def _assistant_text(item: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The text of an assistant message item and what ``provider_data`` keeps of it."""
    data: dict[str, Any] = {}
    content = item["content"]
    if isinstance(content, str):
        text = content
    else:
        text = content[0]["text"]
        data["id"] = item["id"]
    if "phase" in item:
        data["phase"] = item["phase"]
    return text, data


class _Importer:
    """The state of one import: the output, the open turn, the calls seen so far by id."""

    __slots__ = ("agent_name", "calls", "out", "pending", "strict_mode", "turn")

    def __init__(self, agent_name: str, strict_mode: bool) -> None:
        self.agent_name = agent_name
        self.strict_mode = strict_mode
        self.out: list[Message] = []
        self.calls: dict[str, ToolCall] = {}
        self.turn = _Turn()
        # Reasoning items wait for the item they precede, which names their turn.
        self.pending: list[tuple[int, Mapping[str, Any]]] = []

    def _close_turn(self) -> None:
        turn = self.turn
        if not (turn.texts or turn.calls):
            return
        self.turn = _Turn()
        text = "".join(text for text, _ in turn.texts) if turn.texts else None
        if len(turn.texts) > 1:
            recorded = [{**data, "text": part} for part, data in turn.texts]
            data: dict[str, Any] = {"messages": recorded}
        else:
            data = turn.texts[0][1] if turn.texts else {}
        provider_data = {PROVIDER: data} if data else {}
        reasoning = tuple(turn.reasoning)
        if turn.calls:
            self.out.append(
                ToolCallMessage(
                    turn.calls,
                    self.agent_name,
                    content=text,
                    reasoning=reasoning,
                    provider_data=provider_data,
                )
            )
            return
        assert text is not None  # a turn without calls has texts
        # A plain assistant text is what Chat's import makes of one: no sender.
        sender = self.agent_name if turn.identified or reasoning else None
        self.out.append(
            TextMessage(
                Role.ASSISTANT, text, sender, reasoning=reasoning, provider_data=provider_data
            )
        )

    def _take_pending(self, before: str | None) -> None:
        self.turn.reasoning.extend(reasoning_of(item, before) for _, item in self.pending)
        self.pending.clear()

    def _assistant(self, item: Mapping[str, Any]) -> None:
        text, data = _assistant_text(item)
        if not self.turn.takes_text("id" in data):
            self._close_turn()
        self._take_pending(data.get("id"))
        self.turn.texts.append((text, data))
        self.turn.identified = self.turn.identified or bool(data)

    def _call(self, item: Mapping[str, Any]) -> None:
        call_id = item["call_id"]
        item_id = item.get("id")
        entry = {key: item[key] for key in ("id", *CALL_CONTEXT) if key in item}
        data = {PROVIDER: entry} if entry else {}
        call = ToolCall(item["name"], item["arguments"], tool_call_id=call_id, provider_data=data)
        self._take_pending(item_id)
        self.turn.calls.append(call)
        self.calls[call_id] = call

    def _result(self, item: Mapping[str, Any], index: int) -> None:
        call_id = item["call_id"]
        call = self.calls.get(call_id)
        if call is None:
            unknown = Unmapped("call_id", "a function_call_output must answer an earlier call")
            self._unknown(item, index, unknown)
            return
        output = item["output"]
        parts = output if isinstance(output, str) else tuple(part_message(part) for part in output)
        result = ToolCall(
            call.function_name, call.function_arguments, tool_call_id=call_id, result=parts
        )
        last = self.out[-1] if self.out else None
        # Consecutive outputs answer one turn's calls: one result message.
        if isinstance(last, ToolCallResultMessage):
            self.out[-1] = ToolCallResultMessage((*last.tool_calls, result))
        else:
            self.out.append(ToolCallResultMessage((result,)))

    def _unknown(self, item: Any, index: int, unknown: Unmapped) -> None:
        if self.strict_mode:
            raise InvalidMessageError(
                f"OpenAI Responses input item {index} cannot be imported: {unknown.reason}",
                index=index,
                field=unknown.field,
            )
        self.out.append(MessageEnvelope(item))

    def _flush_reasoning(self) -> None:
        """Reasoning not followed by an item of its turn: kept as it is."""
        self._close_turn()
        pending, self.pending = self.pending, []
        for index, item in pending:
            self._unknown(item, index, Unmapped("type", "a reasoning item needs a following item"))

    def add(self, item: Any, index: int) -> None:
        """Read input item ``index`` (an SDK dump of an output item as its minimal form)."""
        readable = replayed_form(item)
        unknown = _problem(readable)
        if unknown is not None:
            self._flush_reasoning()
            self._unknown(item, index, unknown)
            return
        try:
            self._read(readable, index)
        except InvalidMessageError as error:  # a value a neutral message refuses (a bad image)
            if self.strict_mode:
                raise error.at(index) from error
            self.out.append(MessageEnvelope(item))

    def _read(self, item: Mapping[str, Any], index: int) -> None:
        kind = item.get("type")
        if kind == "reasoning":
            self.pending.append((index, item))
        elif item.get("role") == "assistant":
            self._assistant(item)
        elif kind == "function_call":
            self._call(item)
        else:
            self._flush_reasoning()
            if kind == "function_call_output":
                self._result(item, index)
            elif isinstance(item["content"], str):
                self.out.append(TextMessage(_TEXT_ROLES[item["role"]], item["content"]))
            else:
                self.out.append(user_parts(item["content"]))

    def finish(self) -> list[Message]:
        self._flush_reasoning()
        return self.out


def from_openai_responses_input(
    items: str | Sequence[Any], *, agent_name: str, strict_mode: bool = False
) -> list[Message]:
    """Neutral messages for the ``input`` items of an OpenAI Responses request.

    A bare string (the API's shorthand ``input``) is one user message: ``[TextMessage(Role.USER,
    text)]``.

    System and user message items become ``TextMessage`` / ``ImageMessage`` /
    ``MultiModalMessage``; a run of reasoning, assistant message and ``function_call`` items
    becomes one ``ToolCallMessage`` (when it has calls) or ``TextMessage`` of ``agent_name``
    (a lone plain assistant text without phase: ``TextMessage(Role.ASSISTANT, text)``, no
    sender), with item ids, phases and each reasoning item's ``id``, ``summary`` and the id of
    the item it preceded (``"before"``) in ``provider_data["openai-responses"]``; consecutive
    ``function_call_output`` items become one ``ToolCallResultMessage`` with the names and
    arguments of the calls they answer. An item that cannot be mapped (a form
    ``to_openai_responses`` does not write, an output answering no earlier call) becomes
    ``MessageEnvelope(item)``; with ``strict_mode`` it raises ``InvalidMessageError`` naming
    its index. ``to_openai_responses(from_openai_responses_input(p), agent_name=...).input ==
    p`` for every input ``to_openai_responses`` produces. The input is not mutated.
    """
    if isinstance(items, str):  # iterating a string would make one envelope per character
        items = [{"role": "user", "content": items}]
    importer = _Importer(agent_name, strict_mode)
    for index, item in enumerate(items):
        importer.add(item, index)
    return importer.finish()
