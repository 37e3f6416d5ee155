"""``FunctionResult``: what a function returns to answer its call with an exact result
(API.md 19.3, amending section 7): an error result without raising, or provider data beside it."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import ToolCall, ToolResult
from llmbridge._messages._provider_data import ProviderData, freeze_provider_data
from llmbridge._messages._values import set_field

__all__ = ["FunctionResult"]


@dataclass(frozen=True, slots=True)
class FunctionResult:
    """The result a function run by ``FunctionCallMiddleware`` answers its call with, exactly.

    ``result`` is text, parts (a ``TextMessage`` / ``ImageMessage`` / ``DocumentMessage`` /
    ``AudioMessage`` / ``VideoMessage``, or a non-empty sequence of them) or a structured
    result (a mapping with ``str`` keys and JSON values), stored as ``ToolCall.result``
    stores it (another value, such as a number, as its JSON text); ``is_error`` marks an
    error result: this is how a function reports a failure without raising (a raised
    exception still becomes section 7's error result).
    ``provider_data`` (provider tag -> JSON-compatible mapping, frozen; ``None``: none) goes
    on the answered ``ToolCall``, its entries over the call's own of the same tag.

    Raises ``InvalidMessageError`` (naming the field) for a ``None`` result, a result
    ``ToolCall`` refuses (an empty sequence, one mixing parts with other values, a message
    that is no result part, a structured result with a non-``str`` key), an ``is_error`` that
    is not a ``bool``, and ``provider_data`` that is not JSON-compatible.
    """

    result: ToolResult
    is_error: bool = field(default=False, kw_only=True)
    provider_data: ProviderData | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.result is None:
            raise InvalidMessageError(
                "a FunctionResult needs a result: text, parts or a structured result",
                field="result",
            )
        # ToolCall's own rules store the result (parts as a tuple, a mapping frozen), so the
        # call is answered with exactly what the caller would get from ToolCall(result=...).
        stored = ToolCall("result", "", result=self.result).result
        set_field(self, "result", stored)
        if type(self.is_error) is not bool:
            raise InvalidMessageError("is_error must be a bool", field="is_error")
        if self.provider_data is not None:
            set_field(self, "provider_data", freeze_provider_data(self.provider_data))

    def answer(self, call: ToolCall) -> ToolCall:
        """``call`` answered with this result: ``result``, ``is_error`` and ``provider_data``
        (merged over the call's own by provider tag) set, id and arguments kept."""
        provider_data: Mapping[str, Mapping[str, Any]] = call.provider_data
        if self.provider_data:
            provider_data = {**call.provider_data, **self.provider_data}
        return dataclasses.replace(
            call, result=self.result, is_error=self.is_error, provider_data=provider_data
        )
