"""Values that go into Gemini parts: a call's ``args`` object and a thought signature."""

from __future__ import annotations

import binascii
import json
from base64 import b64decode
from typing import Any, Final

from llmbridge import InvalidMessageError, ToolCall
from llmbridge.kit import check_text

__all__ = ["checked_signature", "parse_arguments"]

_DECODE: Final = json.JSONDecoder().decode


def parse_arguments(call: ToolCall, position: int, index: int) -> dict[str, Any]:
    """The arguments of ``call`` as the ``args`` object (``""`` is ``{}``).

    Raises ``InvalidMessageError`` naming message ``index`` and field
    ``tool_calls[position].function_arguments`` for text that is not JSON, JSON nested too
    deeply to parse, or JSON that is not an object.
    """
    arguments = call.function_arguments
    if arguments == "":
        return {}
    if not arguments.isascii():  # check_text's own first test: the field is named only then
        check_text(arguments, index=index, field=_field(position))
    try:
        value = _DECODE(arguments)
    except (ValueError, RecursionError):
        problem = "are not valid JSON (or nested too deeply to parse)"
    else:
        if isinstance(value, dict):
            return value
        problem = f"are JSON but not an object ({type(value).__name__})"
    raise InvalidMessageError(
        f"the arguments of tool call {call.function_name!r} {problem}; Gemini needs a JSON object",
        index=index,
        field=_field(position),
    )


def _field(position: int) -> str:
    return f"tool_calls[{position}].function_arguments"


def checked_signature(signature: Any, index: int, field: str) -> str:
    """Return ``signature`` when it is base64 text (standard or URL-safe).

    Raises ``InvalidMessageError`` naming ``index`` and ``field`` otherwise (the API refuses a
    signature it cannot decode).
    """
    if isinstance(signature, str) and signature:
        # Standard or URL-safe base64: the SDK sends either as URL-safe.
        standard = signature.replace("-", "+").replace("_", "/")
        try:
            b64decode(standard, validate=True)
        except (binascii.Error, ValueError):
            pass
        else:
            return signature
    raise InvalidMessageError(
        f"{field} must be a thought signature as base64 text, got {signature!r}",
        index=index,
        field=field,
    )
