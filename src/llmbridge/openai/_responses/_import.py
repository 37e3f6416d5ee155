"""OpenAI Responses input items -> neutral messages (payload import).

The inverse of ``to_openai_responses`` for every input it produces:
``to_openai_responses(from_openai_responses_input(p), agent_name=...).input == p``. A run of
assistant-side items (reasoning, assistant messages, function calls, hosted tool items)
becomes one neutral turn, with the item ids, phases and reasoning placement in
``provider_data["openai-responses"]``, the annotations of output messages as ``citations`` and
the hosted tool items (kept exactly, with their position in the turn) as ``hosted_tools``.
Items are read only in the exact forms ``to_openai_responses`` writes; any other item is kept
as a ``MessageEnvelope`` (strict mode: ``InvalidMessageError``). The input is not mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from llmbridge import (
    Citation,
    HostedToolCall,
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
from llmbridge.openai._responses._annotations import citation
from llmbridge.openai._responses._hosted import HOSTED_ITEMS, hosted_call
from llmbridge.openai._responses._import_checks import problem
from llmbridge.openai._responses._input_parts import part_message, reasoning_of, user_parts
from llmbridge.openai._responses._items import CALL_CONTEXT, PROVIDER
from llmbridge.openai._responses._replayed import replayed_form

__all__ = ["from_openai_responses_input"]

_TEXT_ROLES: Final = {"system": Role.SYSTEM, "user": Role.USER}


@dataclass(slots=True)
class _Turn:
    """The assistant-side items of one neutral turn, as they are read; ``items`` counts them
    (a hosted item's position in the turn)."""

    texts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    reasoning: list[Reasoning] = field(default_factory=list)
    hosted: list[HostedToolCall] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    items: int = 0
    identified: bool = False  # any item id or phase: the agent's own recorded reply

    def own_citations(self) -> list[Citation]:
        """The citations, each naming its message item only when the turn has several."""
        if len(self.texts) > 1:
            return self.citations
        return [
            replace(cited, provider_data={PROVIDER: {"annotation": _annotation(cited)}})
            for cited in self.citations
        ]

    def takes_text(self, has_id: bool) -> bool:
        """Whether a text item joins this turn (to_openai_responses writes texts before calls,
        and several texts only as the recorded message items of one reply)."""
        if self.calls:
            return False
        return not self.texts or (has_id and all("id" in data for _, data in self.texts))


def _annotation(cited: Citation) -> Any:
    return cited.provider_data[PROVIDER]["annotation"]


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
        if not (turn.texts or turn.calls or turn.hosted):
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
        citations = turn.own_citations()
        if turn.calls:
            self.out.append(
                ToolCallMessage(
                    turn.calls,
                    self.agent_name,
                    content=text,
                    reasoning=reasoning,
                    provider_data=provider_data,
                    citations=citations,
                    hosted_tools=turn.hosted,
                )
            )
            return
        # A plain assistant text is what Chat's import makes of one: no sender.
        sender = self.agent_name if turn.identified or reasoning else None
        self.out.append(
            TextMessage(
                Role.ASSISTANT,
                text or "",  # a turn of hosted tools only has no text
                sender,
                reasoning=reasoning,
                provider_data=provider_data,
                citations=citations,
                hosted_tools=turn.hosted,
            )
        )

    def _take_pending(self, before: str | None) -> None:
        self.turn.reasoning.extend(reasoning_of(item, before) for _, item in self.pending)
        self.turn.items += len(self.pending) + 1  # and the item that takes them
        self.pending.clear()

    def _assistant(self, item: Mapping[str, Any]) -> None:
        text, data = _assistant_text(item)
        if not self.turn.takes_text("id" in data):
            self._close_turn()
        turn = self.turn
        if "id" in data:  # an output message: its one output_text part's annotations
            base = sum(len(part) for part, _ in turn.texts)
            turn.citations += [
                citation(annotation, base, len(text), len(turn.texts))
                for annotation in item["content"][0]["annotations"]
            ]
        self._take_pending(data.get("id"))
        turn.texts.append((text, data))
        turn.identified = turn.identified or bool(data)

    def _hosted(self, item: Mapping[str, Any]) -> None:
        position = self.turn.items + len(self.pending)
        hosted = hosted_call(item, position)  # before the turn changes: it may raise
        self._take_pending(item["id"])
        self.turn.hosted.append(hosted)
        self.turn.identified = True

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
        unknown = problem(readable)
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
        elif kind in HOSTED_ITEMS:
            self._hosted(item)
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
    sender; hosted tool items alone: ``content ""``), with item ids, phases and each reasoning
    item's ``id``, ``summary`` and the id of the item it preceded (``"before"``) in
    ``provider_data["openai-responses"]``; output-message annotations become ``citations`` and
    hosted tool items (``web_search_call``, ``file_search_call``, ``code_interpreter_call``,
    ``image_generation_call``, ``mcp_call``, ``mcp_list_tools``, ``mcp_approval_request``, any
    fields, with an id) ``hosted_tools``, as ``from_openai_responses`` reads them; consecutive
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
