"""Function contracts and ``tool_choice`` -> Gemini ``tools`` and ``tool_config``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from google.genai import types

from llmbridge import FunctionContract

__all__ = ["function_tool", "tool_config"]

# Gemini's function names: a letter or underscore first (a FunctionContract may start with a
# digit or "-", which Gemini refuses).
_GEMINI_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
_NO_ARGUMENTS: Final[dict[str, Any]] = {"type": "object", "properties": {}}
_MODES: Final[dict[str, types.FunctionCallingConfigMode]] = {
    "auto": types.FunctionCallingConfigMode.AUTO,
    "none": types.FunctionCallingConfigMode.NONE,
    "required": types.FunctionCallingConfigMode.ANY,
}


def function_tool(contracts: Sequence[FunctionContract]) -> types.Tool:
    """One ``Tool`` of ``function_declarations``: ``name``, ``description`` when set, and the
    JSON schema as ``parameters_json_schema`` (a contract without parameters takes none).

    Raises ``ValueError`` for a name Gemini refuses (it must start with a letter or ``_``).
    """
    for contract in contracts:
        if not _GEMINI_NAME.fullmatch(contract.name):
            raise ValueError(
                f"function name {contract.name!r} cannot be sent to Gemini: it must start with a "
                "letter or '_' ([A-Za-z_][A-Za-z0-9_.:-]{0,127})"
            )
    declarations = [
        types.FunctionDeclaration(
            name=contract.name,
            description=contract.description or None,
            parameters_json_schema=(
                dict(contract.parameters)
                if contract.parameters is not None
                else dict(_NO_ARGUMENTS)
            ),
        )
        for contract in contracts
    ]
    return types.Tool(function_declarations=declarations)


def tool_config(tool_choice: str) -> types.ToolConfig:
    """``"auto"`` -> AUTO, ``"none"`` -> NONE, ``"required"`` -> ANY, a function name -> ANY
    with ``allowed_function_names`` of that name."""
    mode = _MODES.get(tool_choice)
    if mode is not None:
        calling = types.FunctionCallingConfig(mode=mode)
    else:
        calling = types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[tool_choice]
        )
    return types.ToolConfig(function_calling_config=calling)
