"""``FunctionContract``s and ``tool_choice`` -> OpenAI ``tools`` / ``tool_choice`` arguments."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from openai.types.chat import ChatCompletionFunctionToolParam, ChatCompletionToolChoiceOptionParam
from openai.types.shared_params import FunctionDefinition

from llmbridge import FunctionContract
from llmbridge.kit import combine_functions

__all__ = ["openai_tool_choice", "openai_tools"]

_TOOL_CHOICE_MODES: Final[dict[str, ChatCompletionToolChoiceOptionParam]] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
}


def _tool(contract: FunctionContract) -> ChatCompletionFunctionToolParam:
    function: FunctionDefinition = {"name": contract.name}
    if contract.description:  # as for every provider: an empty description is none
        function["description"] = contract.description
    if contract.parameters is not None:
        # A plain dict: the SDK serializes parameters as given, and a Mapping may be read-only.
        function["parameters"] = dict(contract.parameters)
    return {"type": "function", "function": function}


def openai_tools(
    *groups: Iterable[FunctionContract] | None,
) -> list[ChatCompletionFunctionToolParam]:
    """Return the ``tools`` argument for the contracts of ``groups``, in order.

    When two contracts share a name the first one wins (constructor functions come before
    per-call ones). A contract without ``parameters`` becomes a function with no arguments.
    """
    return [_tool(contract) for contract in combine_functions(*groups)]


def openai_tool_choice(choice: str) -> ChatCompletionToolChoiceOptionParam:
    """Return ``"auto"``, ``"none"`` or ``"required"`` as is; another string names a function."""
    mode = _TOOL_CHOICE_MODES.get(choice)
    if mode is not None:
        return mode
    return {"type": "function", "function": {"name": choice}}
