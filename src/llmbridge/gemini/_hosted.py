"""Gemini code execution parts <-> ``HostedToolCall`` (API.md 19.5, 19.7).

A reply's (or an imported model turn's) ``executable_code`` part and the
``code_execution_result`` that answers it are one ``HostedToolCall``: ``name``
``"code_execution"``, ``arguments`` the JSON of ``{"language", "code"}``, ``result`` the output,
``is_error`` for an outcome other than ``OUTCOME_OK``. Its ``provider_data[tag]`` keeps the
exact parts (``"parts"``: snake_case part dicts, ``thought`` and ``thought_signature`` included)
and their place (``"offset"``: how many characters of the message's ``content`` come before
them), so ``to_gemini`` sends them back where they were.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from google.genai import types

from llmbridge import HostedToolCall, InvalidMessageError
from llmbridge.gemini._arguments import checked_signature
from llmbridge.gemini._contents import Part

__all__ = [
    "CODE_EXECUTION",
    "HOSTED_FIELDS",
    "SIGNED_TEXT",
    "HostedCalls",
    "checked_position",
    "replay_parts",
    "reply_hosted_part",
]

CODE_EXECUTION: Final = "code_execution"
"""The ``HostedToolCall.name`` of Gemini's code execution tool."""
HOSTED_FIELDS: Final = frozenset({"executable_code", "code_execution_result"})
"""The part fields of a hosted tool call (a part holds one of them)."""
SIGNED_TEXT: Final = "signed_text"
"""The ``provider_data[tag]`` key of a message whose hosted calls split its text into parts and
whose text signature signs one of them other than the last: that part's index (the text is cut
at each hosted call's offset, so ``n`` calls make ``n + 1`` parts, empty ones not sent)."""
_MODIFIERS: Final = frozenset({"thought", "thought_signature"})
_OK: Final = "OUTCOME_OK"


def reply_hosted_part(part: types.Part, signature: str | None) -> Part:
    """A reply's code part as the snake_case dict ``to_gemini`` sends back (``signature``: the
    part's thought signature as base64 text)."""
    code, result = part.executable_code, part.code_execution_result
    out: Part = (
        {"executable_code": code.model_dump(mode="json", exclude_none=True)}
        if code is not None
        else {"code_execution_result": _dump(result)}
    )
    if part.thought:
        out["thought"] = True
    if signature is not None:
        out["thought_signature"] = signature
    return out


def _dump(record: types.CodeExecutionResult | None) -> dict[str, Any]:
    return {} if record is None else record.model_dump(mode="json", exclude_none=True)


class HostedCalls:
    """The hosted calls of one message, from its code parts in order.

    ``add(part, offset)`` takes a snake_case part dict; a result answers the open
    ``executable_code`` of its id (a result without an id, the first open one), and one that
    answers none is a call of its own. ``calls()`` builds the ``HostedToolCall``s; a call
    without an id is ``f"code_execution_{i}"``, ``i`` its position counted from ``first``.
    """

    __slots__ = ("_calls", "_open", "first", "provider")

    def __init__(self, provider: str, first: int = 0) -> None:
        self.provider = provider
        self.first = first
        self._calls: list[tuple[Mapping[str, Any] | None, Mapping[str, Any] | None, int]] = []
        self._open: list[int] = []  # positions of code parts not answered yet

    @property
    def started(self) -> int:
        """How many calls the parts so far opened (a text part after them is past them)."""
        return len(self._calls)

    def add(self, part: Mapping[str, Any], offset: int) -> None:
        """Take one ``executable_code`` or ``code_execution_result`` part at ``offset``."""
        if "executable_code" in part:
            self._open.append(len(self._calls))
            self._calls.append((part, None, offset))
            return
        answered = _record(part, "code_execution_result").get("id")
        if answered is None:
            found = self._open[0] if self._open else None
        else:
            found = next(
                (at for at in self._open if _code_id(self._calls[at][0]) == answered), None
            )
        if found is None:
            self._calls.append((None, part, offset))
            return
        self._open.remove(found)
        code, _, at = self._calls[found]
        self._calls[found] = (code, part, at)

    def calls(self) -> list[HostedToolCall]:
        """The hosted calls, in the order their first part came. Raises
        ``InvalidMessageError`` for a record that is not JSON (an imported one)."""
        return [
            _hosted_call(code, result, offset, self.first + position, self.provider)
            for position, (code, result, offset) in enumerate(self._calls)
        ]


def _record(part: Mapping[str, Any] | None, field: str) -> Mapping[str, Any]:
    record = None if part is None else part.get(field)
    return record if isinstance(record, Mapping) else {}


def _code_id(part: Mapping[str, Any] | None) -> Any:
    return _record(part, "executable_code").get("id")


def _hosted_call(
    code: Mapping[str, Any] | None,
    result: Mapping[str, Any] | None,
    offset: int,
    position: int,
    provider: str,
) -> HostedToolCall:
    source = _record(code, "executable_code")
    answer = _record(result, "code_execution_result")
    arguments = (
        json.dumps(
            {"language": source.get("language"), "code": source.get("code")}, ensure_ascii=False
        )
        if code is not None
        else "{}"
    )
    outcome = answer.get("outcome")
    parts = [part for part in (code, result) if part is not None]
    return HostedToolCall(
        CODE_EXECUTION,
        arguments,
        id=source.get("id") or answer.get("id") or f"{CODE_EXECUTION}_{position}",
        result=answer.get("output"),
        is_error=outcome is not None and outcome != _OK,
        provider=provider,
        provider_data={provider: {"parts": parts, "offset": offset}},
    )


def replay_parts(
    call: HostedToolCall, provider: str, index: int, position: int, length: int
) -> tuple[int, list[Part]] | None:
    """The offset and parts ``to_gemini`` sends for one hosted call of ``provider`` in a message
    whose content has ``length`` characters: its recorded parts and offset, or for a
    ``code_execution`` call recorded without them parts rebuilt from its fields (after the
    text); ``None`` when there is nothing to send.

    Raises ``InvalidMessageError`` naming message ``index`` and field
    ``hosted_tools[position].provider_data[provider]`` for recorded parts or an offset that
    are not what the Gemini wing writes.
    """
    field = f"hosted_tools[{position}].provider_data[{provider!r}]"
    entry = call.provider_data.get(provider)
    recorded = entry.get("parts") if isinstance(entry, Mapping) else None
    if recorded is None:
        rebuilt = _rebuilt(call)
        return None if rebuilt is None else (length, rebuilt)
    assert isinstance(entry, Mapping)
    offset = checked_position(
        entry.get("offset", length),
        length,
        index,
        field,
        f"{field}['offset'] must be an offset within the {length}-character content",
    )
    if not isinstance(recorded, Sequence) or isinstance(recorded, str) or not recorded:
        raise InvalidMessageError(
            f"{field}['parts'] must be a non-empty list of parts", index=index, field=field
        )
    return offset, [_checked(part, index, field, at) for at, part in enumerate(recorded)]


def checked_position(value: Any, high: int, index: int, field: str, rule: str) -> int:
    """``value`` when it is an ``int`` from 0 to ``high``; else ``InvalidMessageError`` naming
    message ``index`` and ``field``, saying ``rule``."""
    if type(value) is not int or not 0 <= value <= high:
        raise InvalidMessageError(f"{rule}, got {value!r}", index=index, field=field)
    return value


def _checked(part: Any, index: int, field: str, at: int) -> Part:
    """Recorded part ``at`` as a new plain dict, checked: one code field and its modifiers."""
    keys = set(part) if isinstance(part, Mapping) else set()
    data = keys & HOSTED_FIELDS
    record = part[next(iter(data))] if len(data) == 1 else None
    if (
        not isinstance(record, Mapping)
        or not keys <= HOSTED_FIELDS | _MODIFIERS
        or part.get("thought") not in (None, True)
    ):
        raise InvalidMessageError(
            f"{field}['parts'][{at}] must be one executable_code or code_execution_result "
            "object (with thought and thought_signature at most)",
            index=index,
            field=field,
        )
    (name,) = data
    out: Part = {name: _plain(record)}
    if part.get("thought"):
        out["thought"] = True
    signature = part.get("thought_signature")
    if signature is not None:
        out["thought_signature"] = checked_signature(signature, index, field)
    return out


def _plain(value: Any) -> Any:
    """A frozen ``provider_data`` value as plain dicts and lists (what the SDK and JSON take)."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _rebuilt(call: HostedToolCall) -> list[Part] | None:
    """Parts for a code execution call from its fields, or ``None`` (not code execution, or no
    code in its arguments)."""
    if call.name != CODE_EXECUTION:
        return None
    try:
        arguments = json.loads(call.arguments)
    except ValueError:
        return None
    code = arguments.get("code") if isinstance(arguments, dict) else None
    if not isinstance(code, str):
        return None
    language = arguments.get("language")
    parts: list[Part] = [
        {
            "executable_code": {
                "language": language if isinstance(language, str) else "PYTHON",
                "code": code,
            }
        }
    ]
    if call.result is not None or call.is_error:
        answer: dict[str, Any] = {"outcome": "OUTCOME_FAILED" if call.is_error else _OK}
        if call.result is not None:
            answer["output"] = call.result
        parts.append({"code_execution_result": answer})
    return parts
