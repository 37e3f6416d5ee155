"""A function call streamed in pieces (Gemini 3 on Vertex AI): ``will_continue`` and
``partial_args`` joined back into the whole call the non-streaming reply carries.

The first piece names the call (``name``, maybe ``id`` and the part's ``thought_signature``)
and says ``will_continue``; each later piece adds ``partial_args`` (a JSON path and one value;
a string value whose ``will_continue`` is set continues in the next piece for that path) until
a piece without ``will_continue`` ends the call. A piece that continues no call, names another
function, or sets a value no path can hold raises ``ProviderResponseError``: a call is never
guessed.
"""

from __future__ import annotations

import re
from typing import Any, Final

from google.genai import types

from llmbridge import ProviderResponseError

__all__ = ["PartialCall", "is_piece"]

# One step of a JSON path (RFC 9535, the forms Gemini writes): .name, [index], ['name'].
_STEP: Final = re.compile(r"\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]")
_MAX_INDEX: Final = 10_000  # a list index past this is not a real argument (bounded memory)


def is_piece(call: types.FunctionCall) -> bool:
    """Whether ``call`` is a piece of a streamed call (not a whole call); a call without a
    name can only be one (the last piece is an empty ``function_call``)."""
    return bool(call.will_continue) or call.partial_args is not None or not call.name


def _malformed(reason: str) -> ProviderResponseError:
    return ProviderResponseError(f"a streamed Gemini function call is malformed: {reason}")


def _steps(path: str | None) -> list[str | int]:
    if not path or not path.startswith("$"):
        raise _malformed(f"json_path {path!r} is not a JSON path")
    steps: list[str | int] = []
    position = 1
    while position < len(path):
        match = _STEP.match(path, position)
        if match is None:
            raise _malformed(f"json_path {path!r} is not a JSON path")
        name, index, quoted = match.groups()
        if index is not None:
            if int(index) > _MAX_INDEX:
                raise _malformed(f"json_path {path!r} has an index past {_MAX_INDEX}")
            steps.append(int(index))
        else:
            steps.append(name if name is not None else re.sub(r"\\(.)", r"\1", quoted))
        position = match.end()
    if not steps:
        raise _malformed("a partial argument sets the whole args (json_path '$')")
    return steps


def _value(arg: types.PartialArg) -> Any:
    values: list[Any] = [
        value for value in (arg.string_value, arg.number_value, arg.bool_value) if value is not None
    ]
    if arg.null_value is not None:
        values.append(None)
    if len(values) != 1:
        raise _malformed(f"partial argument {arg.json_path!r} holds {len(values)} values")
    value = values[0]
    # JSON has one number type; the API sends whole numbers as doubles (50 -> 50.0).
    return int(value) if isinstance(value, float) and value.is_integer() else value


class PartialCall:
    """One call being joined from its pieces; ``add`` takes each later piece."""

    __slots__ = ("_continued", "_more", "args", "id", "name", "part")

    def __init__(self, part: types.Part, call: types.FunctionCall) -> None:
        if not call.name:
            raise _malformed("a piece continues no call (it has no name and none is open)")
        self.part = part  # the first piece's part: its signature signs the call
        self.name = call.name
        self.id = call.id
        self.args: dict[str, Any] = dict(call.args or {})
        self._continued: set[tuple[str | int, ...]] = set()  # string paths still open
        self._more = True
        self._apply(call)

    def add(self, call: types.FunctionCall) -> None:
        """Take a later piece of the call."""
        if call.name and call.name != self.name:
            raise _malformed(f"a piece of {self.name!r} names {call.name!r}")
        if call.id and self.id and call.id != self.id:
            raise _malformed(f"a piece of call {self.id!r} has the id {call.id!r}")
        self.id = self.id or call.id
        if call.args:
            self.args.update(call.args)
        self._apply(call)

    @property
    def open(self) -> bool:
        """Whether more pieces of this call are to come."""
        return self._more

    def _apply(self, call: types.FunctionCall) -> None:
        self._more = bool(call.will_continue)
        for arg in call.partial_args or ():
            steps = tuple(_steps(arg.json_path))
            value = _value(arg)
            if steps in self._continued and isinstance(value, str):
                value = self._get(steps) + value
            self._set(list(steps), value)
            if arg.will_continue and isinstance(value, str):
                self._continued.add(steps)
            else:
                self._continued.discard(steps)

    def _get(self, steps: tuple[str | int, ...]) -> str:
        node: Any = self.args
        for step in steps:
            node = node[step]
        return str(node)

    def _set(self, steps: list[str | int], value: Any) -> None:
        node: Any = self.args
        for step, after in zip(steps, [*steps[1:], None], strict=True):
            empty: Any = None if after is None else ([] if isinstance(after, int) else {})
            if isinstance(step, int):
                if not isinstance(node, list):
                    raise _malformed(f"an index {step} into {type(node).__name__}")
                node.extend([None] * (step + 1 - len(node)))
                if after is None:
                    node[step] = value
                elif node[step] is None:
                    node[step] = empty
                node = node[step]
            else:
                if not isinstance(node, dict):
                    raise _malformed(f"a key {step!r} into {type(node).__name__}")
                if after is None:
                    node[step] = value
                else:
                    node.setdefault(step, empty)
                node = node[step]

    def whole(self) -> types.Part:
        """The call as one part, as the non-streaming reply carries it."""
        call = types.FunctionCall(name=self.name, id=self.id, args=self.args)
        return self.part.model_copy(update={"function_call": call})
