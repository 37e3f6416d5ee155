"""Function calls and their outputs: ``function_call`` and ``function_call_output`` items.

``CallBuilder`` is the part of the ``Converter`` (``_convert``) that turns the calls of a
tool-call message into ``function_call`` items (``fc_`` ids only from this wing's
``provider_data``; a valid name is checked once per conversion) and the answered calls of a
result message into ``function_call_output`` items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import ToolCall, ToolCallResultMessage
from llmbridge.kit import (
    NAME_PATTERN,
    check_text,
    sanitize_identifier,
    text_or_parts,
    tool_call_id_or_fallback,
)
from llmbridge.openai._responses._items import CALL_CONTEXT, PROVIDER, ItemIds, own_data
from llmbridge.openai._responses._parts import PartBuilder

__all__ = ["CallBuilder"]

_IS_ERROR_OMITTED: Final = (
    "is_error is not sent to OpenAI Responses; the result text carries the error"
)


class CallBuilder(PartBuilder):
    """Builds call and output items; the subclass provides the item lists, ids and names."""

    __slots__ = ()

    items: list[dict[str, Any]]
    indices: list[int]
    ids: ItemIds
    names: set[str]

    def _call_items(self, calls: Sequence[ToolCall], index: int) -> list[dict[str, Any]]:
        """One ``function_call`` item per call."""
        items: list[dict[str, Any]] = []
        names = self.names
        for position, call in enumerate(calls):
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            if not (call_id.isascii() and call.function_arguments.isascii()):
                check_text(call_id, index=index, field=f"tool_calls[{position}].tool_call_id")
                check_text(
                    call.function_arguments,
                    index=index,
                    field=f"tool_calls[{position}].function_arguments",
                )
            item_id = None
            context: dict[str, Any] = {}
            if call.provider_data.get(PROVIDER) is not None:
                data = own_data(call.provider_data)
                item_id = self.ids.take(data, "fc_", index)
                # A caller is one flat object ({"type", "caller_id"}): its frozen form as a dict.
                context = {
                    key: dict(data[key]) if isinstance(data[key], Mapping) else data[key]
                    for key in CALL_CONTEXT
                    if key in data
                }
            name = call.function_name
            if name not in names:
                name = self._function_name(name, index, position)
            item: dict[str, Any] = {
                "type": "function_call",
                "call_id": call_id,
                "name": name,
                "arguments": call.function_arguments,
                **context,
            }
            if item_id is not None:
                self.ids.sent.add(item_id)
                # The id goes right after the type, where the API's own items have it.
                item = {"type": "function_call", "id": item_id, **item}
            items.append(item)
        return items

    def _function_name(self, name: str, index: int, position: int) -> str:
        # A valid name is checked once per conversion (``names``), an invalid one every time:
        # each call renamed gets its own note.
        if NAME_PATTERN.match(name):
            self.names.add(name)
            return name
        field = f"tool_calls[{position}].function_name"
        check_text(name, index=index, field=field)
        cleaned = sanitize_identifier(name)
        self.recorder.record(
            index,
            "renamed",
            f"function name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$: renamed {cleaned!r}",
            field=field,
        )
        return cleaned

    def results(self, message: ToolCallResultMessage, index: int) -> None:
        """One ``function_call_output`` per call whose ``result`` is not ``None``: its text, or
        for a parts result a list of ``input_text`` / ``input_image`` / ``input_file`` parts."""
        error_noted = False
        for position, call in enumerate(message.tool_calls):
            result = call.result
            if result is None:
                continue
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            if not call_id.isascii():
                check_text(call_id, index=index, field=f"tool_calls[{position}].tool_call_id")
            output: str | list[dict[str, Any]]
            result = text_or_parts(result)  # a structured result: its JSON text
            if isinstance(result, str):
                if not result.isascii():
                    check_text(result, index=index, field=f"tool_calls[{position}].result")
                output = result
            else:
                # Every part dropped (each noted): the empty text, never an empty list.
                output = self._output_parts(result, index, f"tool_calls[{position}].result") or ""
            if call.is_error and not error_noted:
                self.recorder.record(index, "omitted", _IS_ERROR_OMITTED)
                error_noted = True
            self.items.append(
                {"type": "function_call_output", "call_id": call_id, "output": output}
            )
            self.indices.append(index)
