"""Functions a model may call: ``FunctionContract`` from Python functions, and
``FunctionCallMiddleware``, which offers them and runs the calls. Imports the neutral model and
the agents only."""

from __future__ import annotations

from llmbridge._functions._contracts import (
    ArgumentsError,
    FunctionContract,
    PythonFunction,
    combine_functions,
    function,
    validate_function_name,
)
from llmbridge._functions._middleware import FunctionCallMiddleware, RawFunction
from llmbridge._functions._result import FunctionResult

__all__ = [
    "ArgumentsError",
    "FunctionCallMiddleware",
    "FunctionContract",
    "FunctionResult",
    "PythonFunction",
    "RawFunction",
    "combine_functions",
    "function",
    "validate_function_name",
]
