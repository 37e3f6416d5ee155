"""Tool-call ids per target (API.md 16, the kit's ``ToolIdRule`` of each wing), as sent.

Each row: the ids a history's calls carry (``None``: no id), the ids the target's real SDK
client sends for those calls and for the results answering them (the same), and what
``.tool_ids`` reports. Every change has a ``"repaired"`` note on the call and on the result
message; the neutral history is never rewritten. A target may add notes of its own that no id
causes (``OTHER_NOTES``): those are listed per wing, so the id rule stays the same for all.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from llmbridge import (
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.kit import load_provider
from llmbridge.testing import ScriptedProvider
from tests.corpus import AGENT
from tests.handoff.wings import WINGS

LONG = "call_" + "x" * 45
LONG_Y = "call_" + "x" * 44 + "y"
LONG_SENT = "call_" + "x" * 26 + "_0c374dae"

# target, ids in the history, ids sent, .tool_ids
ROWS: dict[str, tuple[str, list[str | None], list[str], dict[str, str]]] = {
    "openai: an id over 40 characters keeps a prefix and gets a hash": (
        "openai",
        [LONG],
        [LONG_SENT],
        {LONG: LONG_SENT},
    ),
    "openai: an id of 40 characters is sent as it is": ("openai", ["c" * 40], ["c" * 40], {}),
    "openai: two long ids with one prefix stay apart": (
        "openai",
        [LONG, LONG_Y],
        [LONG_SENT, "call_" + "x" * 26 + "_0d2d9713"],
        {LONG: LONG_SENT, LONG_Y: "call_" + "x" * 26 + "_0d2d9713"},
    ),
    "openai: an id equal to another's mapping is made unique": (
        "openai",
        [LONG, LONG_SENT],
        [LONG_SENT, "call_" + "x" * 26 + "_b25c2cc1"],
        {LONG: LONG_SENT},
    ),
    "openai: ids with | and . are sent as they are": (
        "openai",
        ["a|b", "fn.a:1"],
        ["a|b", "fn.a:1"],
        {},
    ),
    "openai: calls without ids get the position fallback": (
        "openai",
        [None, None],
        ["f_0", "f_1"],
        {},
    ),
    "anthropic: | . and : become _ plus a hash, apart from each other": (
        "anthropic",
        ["a|b", "a.b", "a:b"],
        ["a_b_0eab8a0a", "a_b_2e7336dc", "a_b_6783a31e"],
        {"a|b": "a_b_0eab8a0a", "a.b": "a_b_2e7336dc", "a:b": "a_b_6783a31e"},
    ),
    "anthropic: an id equal to another's mapping is made unique": (
        "anthropic",
        ["a.b", "a_b_2e7336dc"],
        ["a_b_2e7336dc", "a_b_2e7336dc_1"],
        {"a.b": "a_b_2e7336dc"},
    ),
    "anthropic: an id over 40 characters is sent as it is": ("anthropic", [LONG], [LONG], {}),
    "anthropic: calls without ids get the position fallback": (
        "anthropic",
        [None, None],
        ["f_0", "f_1"],
        {},
    ),
    "openai-responses: long ids and ids with | and . are sent as they are": (
        "openai-responses",
        [LONG, "a|b", "fn.a:1"],
        [LONG, "a|b", "fn.a:1"],
        {},
    ),
    "openai-responses: calls without ids get the position fallback": (
        "openai-responses",
        [None, None],
        ["f_0", "f_1"],
        {},
    ),
    "gemini: an id over 40 characters is sent as it is": ("gemini", [LONG], [LONG], {}),
    "gemini: ids with | . and : are sent as they are": (
        "gemini",
        ["a|b", "a.b", "fn.a:1"],
        ["a|b", "a.b", "fn.a:1"],
        {},
    ),
    "gemini: an id equal to another's Anthropic mapping stays as it is": (
        "gemini",
        ["a.b", "a_b_2e7336dc"],
        ["a.b", "a_b_2e7336dc"],
        {},
    ),
    "gemini: calls without ids get the position fallback": (
        "gemini",
        [None, None],
        ["f_0", "f_1"],
        {},
    ),
}
# Notes a target adds to every row's history, whatever its ids: Gemini gives the first call of
# the current turn, which has no Gemini thought signature, SKIP_THOUGHT_SIGNATURE (API.md 15),
# with a "repaired" note on the call message (index 1).
OTHER_NOTES: dict[str, set[tuple[int, str]]] = {"gemini": {(1, "repaired")}}
# Rows of registered wings only, each named by its rule.
TARGETS = [pytest.param(*row, id=name) for name, row in ROWS.items() if row[0] in WINGS]


def history(ids: list[str | None]) -> list[Message]:
    calls = [ToolCall("f", "{}", tool_call_id=i) for i in ids]
    results = [ToolCall("f", "{}", tool_call_id=i, result="ok") for i in ids]
    return [
        TextMessage(Role.USER, "Go."),
        ToolCallMessage(calls, AGENT),
        ToolCallResultMessage(results),
    ]


@pytest.mark.parametrize(("target", "ids", "sent", "tool_ids"), TARGETS)
async def test_the_exact_ids_sent_by_the_real_sdk_client(
    target: str, ids: list[str | None], sent: list[str], tool_ids: dict[str, str]
) -> None:
    messages = history(ids)
    before = copy.deepcopy(messages)
    scripted = ScriptedProvider(["Done."])
    agent = load_provider(target).connected_agent(
        WINGS[target].client(scripted), name=AGENT, model="m"
    )

    await agent.send(chat_history=messages)

    (body,) = scripted.bodies()
    WINGS[target].check(body)
    assert WINGS[target].sent_ids(body) == (sent, sent)
    assert messages == before, "the neutral history was rewritten"


@pytest.mark.parametrize(("target", "ids", "sent", "tool_ids"), TARGETS)
def test_changes_are_reported_in_tool_ids_and_repaired_notes(
    target: str, ids: list[str | None], sent: list[str], tool_ids: dict[str, str]
) -> None:
    messages = history(ids)
    before = copy.deepcopy(messages)

    request = WINGS[target].convert(messages)

    assert dict(request.tool_ids) == tool_ids
    given = [i for i in ids if i is not None]
    changed = {(1, "repaired"), (2, "repaired")} if sent != given and given else set()
    expected = changed | OTHER_NOTES.get(target, set())
    assert {(note.index, note.kind) for note in request.notes} == expected
    assert messages == before, "the neutral history was rewritten"


# target, an id repeated in two rounds, the ids sent in the first and the second round
REPEATED: dict[str, tuple[str, str, list[str]]] = {
    "openai: a long id in two rounds: mapped, then made unique": (
        "openai",
        LONG,
        [LONG_SENT, "call_" + "x" * 26 + "_11deede3"],
    ),
    "anthropic: a dotted id in two rounds: mapped, then made unique": (
        "anthropic",
        "a.b",
        ["a_b_2e7336dc", "a_b_1_2f83c578"],
    ),
    "gemini: a dotted id in two rounds: sent, then made unique": (
        "gemini",
        "a.b",
        ["a.b", "a.b_1"],
    ),
}


@pytest.mark.parametrize(
    ("target", "tool_id", "sent"),
    [pytest.param(*row, id=name) for name, row in REPEATED.items() if row[0] in WINGS],
)
async def test_an_id_repeated_across_rounds_is_sent_once_per_round_with_its_results(
    target: str, tool_id: str, sent: list[str]
) -> None:
    first, second = history([tool_id]), history([tool_id])
    messages = [*first, *second]  # the second round starts with its own user turn
    before = copy.deepcopy(messages)
    scripted = ScriptedProvider(["Done."])
    agent = load_provider(target).connected_agent(
        WINGS[target].client(scripted), name=AGENT, model="m"
    )

    await agent.send(chat_history=messages)

    (body,) = scripted.bodies()
    WINGS[target].check(body)
    assert WINGS[target].sent_ids(body) == (sent, sent)
    assert messages == before, "the neutral history was rewritten"


@pytest.mark.skipif("gemini" not in WINGS, reason="the Gemini wing is not registered")
@pytest.mark.parametrize("stream", [False, True], ids=["send", "stream"])
async def test_gemini_calls_that_came_without_ids_go_back_with_the_fallback_ids(
    stream: bool,
) -> None:
    # The Gemini API sends calls without ids; the reply names them f"{name}_{i}" (API.md 15)
    # and the next request sends those on the calls and on the responses, with the signature.
    calls = [ToolCall("now", "{}"), ToolCall("now", '{"a": 1}'), ToolCall("f", "{}")]
    scripted = ScriptedProvider([ToolCallMessage(calls, AGENT), "Done."])
    client = WINGS["gemini"].client(scripted)
    agent = load_provider("gemini").connected_agent(client, name=AGENT, model="m")
    start: list[Message] = [TextMessage(Role.USER, "Go.")]
    if stream:
        replies = [message async for message in agent.stream(chat_history=start)]
        reply = replies[-1]
    else:
        reply = await agent.send(chat_history=start)
    assert isinstance(reply, ToolCallMessage)
    results = [replace(call, result="ok") for call in reply.tool_calls]

    await agent.send(chat_history=[*start, reply, ToolCallResultMessage(results)])

    _, second = scripted.bodies()
    WINGS["gemini"].check(second)
    sent = ["now_0", "now_1", "f_2"]
    assert [call.tool_call_id for call in reply.tool_calls] == sent
    assert WINGS["gemini"].sent_ids(second) == (sent, sent)
    signed = [p for c in second["contents"] for p in c["parts"] if "thoughtSignature" in p]
    assert [p["functionCall"]["id"] for p in signed] == ["now_0"]
