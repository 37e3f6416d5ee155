"""Tool-call arguments <-> the ``input`` object of an Anthropic ``tool_use`` block."""

from __future__ import annotations

import json
import re
from typing import Any, Final

from llmbridge import InvalidMessageError, ToolCall
from llmbridge.kit import check_text

__all__ = ["arguments_json", "parse_arguments"]

_DECODER: Final = json.JSONDecoder()
_DECODE: Final = _DECODER.decode  # json.loads minus its per-call argument checks
# Arguments are an object with nothing around it, as models write them: ``raw_decode`` reads
# that without ``decode``'s two whitespace scans (to_anthropic a fifth faster on the benchmark
# conversation).
_RAW_DECODE: Final = _DECODER.raw_decode
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def arguments_json(tool_input: object) -> str:
    """The JSON text of a block's ``input`` (one form for replies, streams and imports)."""
    return json.dumps(tool_input, ensure_ascii=False)


def parse_arguments(call: ToolCall, position: int, index: int) -> dict[str, Any]:
    """The arguments of ``call`` as a JSON object (``""`` is ``{}``).

    Raises ``InvalidMessageError`` naming message ``index`` and field
    ``tool_calls[position].function_arguments`` for text that is not JSON, JSON nested too
    deeply to parse, JSON that is not an object, or an escape that decodes to a lone surrogate.
    """
    arguments = call.function_arguments
    if arguments == "":
        return {}
    if not arguments.isascii():
        check_text(arguments, index=index, field=_field(position))
    try:
        if arguments[0] == "{":
            value, end = _RAW_DECODE(arguments)
            if end != len(arguments):  # whitespace after it, or more data: decode says which
                value = _DECODE(arguments)
        else:
            value = _DECODE(arguments)
    except ValueError:
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are not valid JSON; Anthropic "
            "needs a JSON object",
            index=index,
            field=_field(position),
        ) from None
    except RecursionError:
        # Valid JSON nested deeper than a recursive parser goes (the SDK could not send it).
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are nested too deeply to parse; "
            "Anthropic needs a JSON object",
            index=index,
            field=_field(position),
        ) from None
    if not isinstance(value, dict):
        raise InvalidMessageError(
            f"the arguments of tool call {call.function_name!r} are JSON but not an object "
            f"({type(value).__name__}); Anthropic needs a JSON object",
            index=index,
            field=_field(position),
        )
    if "\\u" in arguments and _SURROGATE_ESCAPE.search(arguments):
        # A JSON escape such as "\ud800" parses to a lone surrogate, which cannot be sent.
        check_text(json.dumps(value, ensure_ascii=False), index=index, field=_field(position))
    return value


def _field(position: int) -> str:
    # Worded only for an error: most arguments are fine.
    return f"tool_calls[{position}].function_arguments"
