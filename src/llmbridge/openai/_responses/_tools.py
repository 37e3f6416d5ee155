"""``FunctionContract``s and ``tool_choice`` -> the flat Responses ``tools`` / ``tool_choice``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from llmbridge import FunctionContract
from llmbridge.kit import combine_functions

if TYPE_CHECKING:
    from openai.types.responses import FunctionToolParam, ToolChoiceFunctionParam
    from openai.types.responses.tool_choice_options import ToolChoiceOptions

__all__ = ["responses_tool_choice", "responses_tools"]

_TOOL_CHOICE_MODES: Final[dict[str, ToolChoiceOptions]] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
}
# `parameters` is a required key of a Responses function tool: a function without arguments.
_NO_PARAMETERS: Final = {"type": "object", "properties": {}}


def _tool(contract: FunctionContract) -> FunctionToolParam:
    parameters = contract.parameters
    # Flat, unlike Chat's {"type": "function", "function": {...}}: the nested form is a 400.
    # A plain dict: the SDK serializes parameters as given, and a Mapping may be read-only.
    # `strict` always explicit: true would make the API rewrite and enforce the schema.
    tool: FunctionToolParam = {
        "type": "function",
        "name": contract.name,
        "parameters": dict(_NO_PARAMETERS if parameters is None else parameters),
        "strict": False,
    }
    if contract.description:  # as for every provider: an empty description is none
        tool["description"] = contract.description
    return tool


def responses_tools(*groups: Iterable[FunctionContract] | None) -> list[FunctionToolParam]:
    """Return the flat ``tools`` argument for the contracts of ``groups``, in order.

    Each is ``{"type": "function", "name", "description"?, "parameters", "strict": False}``;
    a contract without ``parameters`` takes no arguments (an empty object schema). When two
    contracts share a name the first one wins (constructor functions come first).
    """
    return [_tool(contract) for contract in combine_functions(*groups)]


def responses_tool_choice(choice: str) -> ToolChoiceOptions | ToolChoiceFunctionParam:
    """Return ``"auto"``, ``"none"`` or ``"required"`` as is; another string names a function
    (the flat ``{"type": "function", "name": choice}``)."""
    mode = _TOOL_CHOICE_MODES.get(choice)
    if mode is not None:
        return mode
    return {"type": "function", "name": choice}
