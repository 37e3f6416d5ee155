"""Gemini's code execution parts in model contents, as a request replays them (API.md 19.5).

``executable_code`` is ``{language, code, id?}`` and ``code_execution_result`` is ``{outcome,
output?, id?}`` (google/genai/types.py ``ExecutableCode``, ``CodeExecutionResult``: language and
code, and outcome, are "Required"; the ``*_UNSPECIFIED`` values "should not be used"). The
model writes them, so they stand only in model contents, and each result comes after the code it
ran, in the same content: the one with its ``id`` when the code has one, else the latest code
not yet answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from tests.gemini.wire_fields import fail, read_fields

__all__ = ["CODE_PARTS", "check_code_order", "check_code_part"]

CODE_PARTS: Final = frozenset({"executable_code", "code_execution_result"})
LANGUAGES: Final = frozenset({"PYTHON"})
OUTCOMES: Final = frozenset({"OUTCOME_OK", "OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED"})
CODE_FIELDS: Final = frozenset({"language", "code", "id"})
RESULT_FIELDS: Final = frozenset({"outcome", "output", "id"})


def check_code_part(kind: str, value: Any, path: str, role: str) -> None:
    """Check one ``executable_code`` / ``code_execution_result`` value of a ``role`` part."""
    where = f"{path}.{kind}"
    if role != "model":
        fail(path, "code execution role", f"{kind} parts are model parts")
    if kind == "executable_code":
        code = read_fields(value, where, CODE_FIELDS, ("language", "code"))
        if code["language"] not in LANGUAGES:
            fail(where, "executable_code", f"language {code['language']!r} is not PYTHON")
        if not isinstance(code["code"], str) or not code["code"]:
            fail(where, "executable_code", "code must be non-empty text")
        return
    result = read_fields(value, where, RESULT_FIELDS, ("outcome",))
    if result["outcome"] not in OUTCOMES:
        fail(
            where,
            "code_execution_result",
            f"outcome {result['outcome']!r} is not one of {sorted(OUTCOMES)}",
        )
    if not isinstance(result.get("output", ""), str):
        fail(where, "code_execution_result", "output must be text")


def check_code_order(parts: Sequence[dict[str, Any]], path: str) -> None:
    """Each ``code_execution_result`` of one model content answers code before it, once."""
    pending: list[Any] = []  # the ids (or None) of code not yet answered, in order
    for index, part in enumerate(parts):
        if "executable_code" in part:
            pending.append(read_fields(part["executable_code"], path, CODE_FIELDS).get("id"))
        elif "code_execution_result" in part:
            result_id = read_fields(part["code_execution_result"], path, RESULT_FIELDS).get("id")
            if result_id is None and pending:
                pending.pop()
            elif result_id is not None and result_id in pending:
                pending.remove(result_id)
            else:
                fail(
                    f"{path}.parts[{index}]",
                    "code result order",
                    f"a code_execution_result (id {result_id!r}) answers no code before it",
                )
