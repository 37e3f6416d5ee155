"""Function contracts and ``tool_choice`` -> Anthropic ``tools`` and ``tool_choice``."""

from __future__ import annotations

from typing import Any, Final

from llmbridge import FunctionContract

__all__ = ["tool_choice_param", "tool_param"]

_NO_ARGUMENTS: Final[dict[str, Any]] = {"type": "object", "properties": {}}
_TOOL_CHOICES: Final[dict[str, dict[str, str]]] = {
    "auto": {"type": "auto"},
    "none": {"type": "none"},
    "required": {"type": "any"},
}


def tool_param(contract: FunctionContract) -> dict[str, Any]:
    """One custom tool: ``name``, ``description`` when set, and ``input_schema``.

    A contract without ``parameters`` takes no arguments (an empty object schema).
    """
    tool: dict[str, Any] = {"name": contract.name}
    if contract.description:
        tool["description"] = contract.description
    tool["input_schema"] = (
        dict(contract.parameters) if contract.parameters is not None else dict(_NO_ARGUMENTS)
    )
    return tool


def tool_choice_param(tool_choice: str) -> dict[str, str]:
    """``"auto"`` -> auto, ``"none"`` -> none, ``"required"`` -> any, a name -> that tool."""
    choice = _TOOL_CHOICES.get(tool_choice)
    return dict(choice) if choice is not None else {"type": "tool", "name": tool_choice}
