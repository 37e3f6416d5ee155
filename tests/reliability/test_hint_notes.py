"""Hints a target has no field for are omitted with a note, never silently and never raising.

A result's ``is_error`` for OpenAI Chat Completions (the result text carries the error), an
image's ``detail`` for Anthropic (only a hint): API.md 0, notes of kind ``"omitted"``, in both
modes alike.
"""

from __future__ import annotations

import pytest

from llmbridge import (
    ImageMessage,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from tests.corpus import AGENT, PNG
from tests.reliability.helpers import PROVIDERS, Provider, Sends, convert, expect, note_kinds

QUESTION = TextMessage(Role.USER, "Weather?")


def _results(*, errors: int, ok: int = 1) -> ToolCallResultMessage:
    calls = [
        ToolCall("f", "{}", tool_call_id=f"c{n}", result="boom", is_error=True)
        for n in range(errors)
    ]
    calls += [ToolCall("f", "{}", tool_call_id=f"c{errors + n}", result="fine") for n in range(ok)]
    return ToolCallResultMessage(calls)


def _round(results: ToolCallResultMessage) -> list[Message]:
    calls = [
        ToolCall(call.function_name, "{}", tool_call_id=call.tool_call_id)
        for call in results.tool_calls
    ]
    return [QUESTION, ToolCallMessage(calls, AGENT), results]


WITH_DETAIL = ImageMessage(Role.USER, "https://example.com/cat.png", detail="high")
Notes = list[tuple[int | None, str]]
# id -> (messages, the provider that has no field for the hint, its notes); the other sends it.
HINTS: dict[str, tuple[list[Message], Provider, Notes]] = {
    "two-error-results-one-note-for-their-message": (
        _round(_results(errors=2)),
        "openai",
        [(2, "omitted")],
    ),
    "no-error-result-no-note": (_round(_results(errors=0, ok=2)), "openai", []),
    "error-result-in-an-aggregate": (
        [
            QUESTION,
            ToolCallAggregateMessage(
                ToolCallMessage([ToolCall("f", "{}", tool_call_id="c0")], AGENT),
                _results(errors=1, ok=0),
                AGENT,
            ),
        ],
        "openai",
        [(1, "omitted")],
    ),
    "image-with-detail": ([WITH_DETAIL], "anthropic", [(0, "omitted")]),
    "image-bytes-with-low-detail": (
        [ImageMessage(Role.USER, data=PNG, detail="low")],
        "anthropic",
        [(0, "omitted")],
    ),
    "image-without-detail": ([ImageMessage(Role.USER, data=PNG)], "anthropic", []),
    "multimodal-one-note-per-image-with-detail": (
        [
            MultiModalMessage(
                Role.USER,
                [QUESTION, WITH_DETAIL, ImageMessage(Role.USER, data=PNG), WITH_DETAIL],
            )
        ],
        "anthropic",
        [(0, "omitted"), (0, "omitted")],
    ),
}


@pytest.mark.parametrize(("messages", "target", "notes"), HINTS.values(), ids=HINTS.keys())
@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_hint_is_noted_where_it_is_not_sent(
    provider: Provider, messages: list[Message], target: Provider, notes: Notes
) -> None:
    expected = notes if provider == target else []
    expect(provider, messages, Sends(lambda _: None, None, notes=expected))


def test_the_is_error_note_says_where_the_error_went() -> None:
    (note,) = convert("openai", _round(_results(errors=1))).notes
    assert note.detail == (
        "is_error is not sent to OpenAI Chat Completions; the result text carries the error"
    )


def test_the_detail_note_names_the_part() -> None:
    request = convert("anthropic", [MultiModalMessage(Role.USER, [QUESTION, WITH_DETAIL])])
    assert note_kinds(request) == [(0, "omitted")]
    assert "detail 'high'" in request.notes[0].detail
    assert "(content[1])" in request.notes[0].detail
