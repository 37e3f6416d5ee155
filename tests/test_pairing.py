"""The request-level tool-pairing step (API.md 4.5): repairs and the check."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    check_tool_pairing,
)
from llmbridge.kit import PreparedConversation, ToolIdRule, prepare_conversation
from llmbridge.kit._names import shorten_identifier
from llmbridge.kit._repair import IdAssigner


def repair_tool_pairing(
    messages: list[Message], *, agent_name: str, max_id_length: int | None = None
) -> PreparedConversation:
    """The pairing step's repairs (and ids) for a target whose ids have at most that length."""
    rule = None if max_id_length is None else ToolIdRule(max_length=max_id_length)
    return prepare_conversation(messages, agent_name=agent_name, tool_id_rule=rule)


AGENT = "bot"


def call(name: str, call_id: str | None) -> ToolCall:
    return ToolCall(name, "{}", tool_call_id=call_id)


def result(name: str, call_id: str | None, text: str | None = "ok") -> ToolCall:
    return ToolCall(name, "{}", tool_call_id=call_id, result=text)


USER = TextMessage(Role.USER, "question")
CALL_AB = ToolCallMessage([call("a", "id_a"), call("b", "id_b")], AGENT)
RESULT_AB = ToolCallResultMessage([result("a", "id_a"), result("b", "id_b")])
ANSWER = TextMessage(Role.ASSISTANT, "answer", AGENT)

VALID: dict[str, list[Message]] = {
    "call-then-results": [USER, CALL_AB, RESULT_AB, ANSWER],
    "results-split-over-messages": [
        USER,
        CALL_AB,
        ToolCallResultMessage([result("b", "id_b")]),
        ToolCallResultMessage([result("a", "id_a")]),
    ],
    "aggregate-is-self-contained": [
        USER,
        ToolCallAggregateMessage(CALL_AB, RESULT_AB, AGENT),
        ANSWER,
    ],
    "fallback-ids-match-by-position": [
        ToolCallMessage([call("now", None), call("now", None)]),
        ToolCallResultMessage([result("now", None), result("now", None)]),
    ],
    "other-agents-aggregate-is-plain-text": [
        ToolCallAggregateMessage(
            ToolCallMessage([call("x", "id_x")], "other"),
            ToolCallResultMessage([result("x", "id_x")]),
            "other",
        ),
    ],
    "envelopes-are-left-alone": [CALL_AB, MessageEnvelope({"role": "user"}), RESULT_AB],
    "raw-tool-result-envelopes-are-left-alone": [
        CALL_AB,
        MessageEnvelope({"role": "tool", "tool_call_id": "id_x", "content": "x"}),
        MessageEnvelope({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "y"}]}),
        RESULT_AB,
    ],
    "result-without-text-is-not-sent": [
        CALL_AB,
        ToolCallResultMessage([result("a", "id_a"), result("b", "id_b"), result("zz", "zz", None)]),
    ],
}


@pytest.mark.parametrize("messages", VALID.values(), ids=VALID.keys())
def test_valid_conversations_pass(messages: list[Message]) -> None:
    assert check_tool_pairing(messages, agent_name=AGENT) is None


INVALID: dict[str, tuple[list[Message], int | None]] = {
    "empty-conversation": ([], None),
    "call-never-answered": ([USER, CALL_AB], 1),
    "call-half-answered": ([USER, CALL_AB, ToolCallResultMessage([result("a", "id_a")])], 1),
    "assistant-turn-before-results": ([USER, CALL_AB, ANSWER, RESULT_AB], 1),
    "another-call-before-results": (
        [CALL_AB, ToolCallMessage([call("c", "id_c")], AGENT), RESULT_AB],
        0,
    ),
    "orphan-result": ([USER, ToolCallResultMessage([result("a", "id_a")])], 1),
    "result-for-wrong-id": ([CALL_AB, RESULT_AB, ToolCallResultMessage([result("x", "id_x")])], 2),
    "result-after-assistant-text": ([CALL_AB, RESULT_AB, ANSWER, RESULT_AB], 3),
    "answered-only-by-none-result": (
        [CALL_AB, ToolCallResultMessage([result("a", "id_a"), result("b", "id_b", None)])],
        0,
    ),
    "unanswered-assistant-text-without-sender": (
        [CALL_AB, TextMessage(Role.ASSISTANT, "no sender"), RESULT_AB],
        0,
    ),
    "raw-assistant-envelope-before-results": (
        [CALL_AB, MessageEnvelope({"role": "assistant", "content": "raw"}), RESULT_AB],
        0,
    ),
    "second-result-for-an-answered-call": (
        [CALL_AB, RESULT_AB, ToolCallResultMessage([result("a", "id_a", "again")])],
        2,
    ),
    "second-result-for-an-aggregate-call": (
        [
            ToolCallAggregateMessage(CALL_AB, RESULT_AB, AGENT),
            ToolCallResultMessage([result("a", "id_a")]),
        ],
        1,
    ),
    "one-call-answered-twice-in-one-message": (
        [
            CALL_AB,
            ToolCallResultMessage([result("a", "id_a"), result("a", "id_a"), result("b", "id_b")]),
        ],
        1,
    ),
    "partial-aggregate": (
        [
            ToolCallAggregateMessage(CALL_AB, ToolCallResultMessage([result("a", "id_a")]), AGENT),
            ANSWER,
        ],
        0,
    ),
}


@pytest.mark.parametrize(("messages", "index"), INVALID.values(), ids=INVALID.keys())
def test_violations_raise_at_the_faulty_message(messages: list[Message], index: int | None) -> None:
    with pytest.raises(InvalidMessageError) as info:
        check_tool_pairing(messages, agent_name=AGENT)
    assert info.value.index == index


@pytest.mark.parametrize(
    ("messages", "reason"),
    [
        pytest.param(
            [USER, CALL_AB, RESULT_AB, ToolCallResultMessage([result("a", "id_a")])],
            "tool result 'id_a' answers a call that already has a result",
            id="second_result_for_an_answered_call",
        ),
        pytest.param(
            [USER, CALL_AB, ToolCallResultMessage([result("c", "id_c")])],
            "tool result 'id_c' answers no call of the closest preceding tool-call message",
            id="result_for_an_id_the_call_message_lacks",
        ),
        pytest.param(
            [USER, CALL_AB, RESULT_AB, ANSWER, ToolCallResultMessage([result("a", "id_a")])],
            "tool result 'id_a' answers no call of the closest preceding tool-call message",
            id="result_after_the_next_assistant_turn",
        ),
        pytest.param(
            [USER, CALL_AB, RESULT_AB, USER, ToolCallResultMessage([result("b", "id_b")])],
            "tool result 'id_b' answers no call of the closest preceding tool-call message",
            id="result_after_a_user_turn",
        ),
    ],
)
def test_bad_result_errors_say_whether_the_call_was_already_answered(
    messages: list[Message], reason: str
) -> None:
    with pytest.raises(InvalidMessageError) as info:
        check_tool_pairing(messages, agent_name=AGENT)
    assert info.value.reason == reason
    assert info.value.index == len(messages) - 1


@pytest.mark.parametrize(
    "interruption",
    [
        TextMessage(Role.USER, "hurry up"),
        ImageMessage(Role.USER, "https://x/a.png"),
        TextMessage(Role.ASSISTANT, "another agent speaks", "other"),
        TextMessage(Role.SYSTEM, "system note"),
        MessageEnvelope({"role": "user", "content": "raw"}),
    ],
    ids=["user-text", "image", "other-agent-text", "system-text", "raw-user-envelope"],
)
def test_interruption_moved_after_results(interruption: Message) -> None:
    messages = [USER, CALL_AB, interruption, RESULT_AB, ANSWER]
    repaired = repair_tool_pairing(messages, agent_name=AGENT)
    assert list(repaired.messages) == [USER, CALL_AB, RESULT_AB, interruption, ANSWER]
    assert repaired.indices == (0, 1, 3, 2, 4)
    assert [(n.index, n.kind) for n in repaired.notes] == [(2, "repaired")]
    check_tool_pairing(messages, agent_name=AGENT)


def test_interruption_between_split_results_moved_after_all() -> None:
    first = ToolCallResultMessage([result("a", "id_a")])
    second = ToolCallResultMessage([result("b", "id_b")])
    messages = [CALL_AB, first, USER, second]
    repaired = repair_tool_pairing(messages, agent_name=AGENT)
    assert list(repaired.messages) == [CALL_AB, first, second, USER]


def test_repeated_fallback_ids_get_suffixes_in_call_and_result() -> None:
    round_one = [ToolCallMessage([call("now", None)]), ToolCallResultMessage([result("now", None)])]
    messages = [USER, *round_one, *round_one]
    repaired = repair_tool_pairing(messages, agent_name=AGENT)
    second_call, second_result = repaired.messages[3], repaired.messages[4]
    assert isinstance(second_call, ToolCallMessage)
    assert isinstance(second_result, ToolCallResultMessage)
    assert second_call.tool_calls[0].tool_call_id == "now_0_1"
    assert second_result.tool_calls[0].tool_call_id == "now_0_1"
    assert [(n.index, n.kind) for n in repaired.notes] == [(3, "repaired")]
    assert "now_0 -> now_0_1" in repaired.notes[0].detail
    # the first round is sent with its fallback id, materialized, and no note
    assert repaired.messages[1] == ToolCallMessage([call("now", "now_0")])


def test_repeated_ids_in_aggregates() -> None:
    aggregate = ToolCallAggregateMessage(
        ToolCallMessage([call("a", "same")], AGENT),
        ToolCallResultMessage([result("a", "same")]),
        AGENT,
    )
    repaired = repair_tool_pairing([aggregate, aggregate], agent_name=AGENT)
    second = repaired.messages[1]
    assert isinstance(second, ToolCallAggregateMessage)
    assert second.tool_call_message.tool_calls[0].tool_call_id == "same_1"
    assert second.tool_call_result_message.tool_calls[0].tool_call_id == "same_1"


def test_long_ids_shortened_when_asked() -> None:
    long_id = "call_" + "x" * 60
    messages = [
        ToolCallMessage([call("a", long_id)], AGENT),
        ToolCallResultMessage([result("a", long_id)]),
    ]
    repaired = repair_tool_pairing(messages, agent_name=AGENT, max_id_length=40)
    new_call, new_result = repaired.messages
    assert isinstance(new_call, ToolCallMessage)
    assert isinstance(new_result, ToolCallResultMessage)
    new_id = new_call.tool_calls[0].tool_call_id
    assert new_id is not None
    assert len(new_id) <= 40
    assert new_result.tool_calls[0].tool_call_id == new_id
    assert repair_tool_pairing(messages, agent_name=AGENT).messages == tuple(messages)


def test_repairs_never_mutate_input() -> None:
    messages = [
        USER,
        ToolCallMessage([call("now", None)]),
        USER,
        ToolCallResultMessage([result("now", None)]),
    ]
    before = copy.deepcopy(messages)
    repair_tool_pairing(messages * 2, agent_name=AGENT, max_id_length=40)
    assert messages == before


def test_repair_does_not_move_when_results_never_come() -> None:
    messages = [CALL_AB, USER, ANSWER]
    repaired = repair_tool_pairing(messages, agent_name=AGENT)
    assert list(repaired.messages) == messages
    assert repaired.notes == ()


def test_repeated_id_in_one_call_message_waits_for_every_result() -> None:
    calls = ToolCallMessage([call("now", "dup"), call("now", "dup")], AGENT)
    results = [ToolCallResultMessage([result("now", "dup")]) for _ in range(2)]
    messages = [calls, results[0], USER, results[1]]
    repaired = repair_tool_pairing(messages, agent_name=AGENT)
    assert list(repaired.messages) == [
        ToolCallMessage([call("now", "dup"), call("now", "dup_1")], AGENT),
        results[0],
        ToolCallResultMessage([result("now", "dup_1")]),
        USER,
    ]
    check_tool_pairing(messages, agent_name=AGENT)


class _CountingSet(set[str]):
    """A set that counts membership probes."""

    probes = 0

    def __contains__(self, item: object) -> bool:
        self.probes += 1
        return super().__contains__(item)


def test_repeated_ids_are_made_unique_in_linear_probes() -> None:
    rounds = 2_000
    rewriter = IdAssigner(None, unique=True)
    rewriter._used = used = _CountingSet()
    for _ in range(rounds):
        rewriter.calls(ToolCallMessage([call("now", None)]), [])
    assert len(used) == rounds
    # One probe per call and one per taken candidate; probing from _1 each time made it
    # rounds**2 / 2.
    assert used.probes <= 2 * rounds


def _probing_from_the_start(ids: list[str], max_length: int | None) -> list[str]:
    """The suffixes as the repair first gave them: candidates tried from the id itself."""

    def fit(text: str) -> str:
        return text if max_length is None else shorten_identifier(text, max_length)

    used: set[str] = set()
    out = []
    for original in ids:
        candidate, suffix = fit(original), 1
        while candidate in used:
            candidate, suffix = fit(f"{original}_{suffix}"), suffix + 1
        used.add(candidate)
        out.append(candidate)
    return out


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(st.sampled_from(["a", "a_1", "a_2", "a_1_1", "b", "b_1", "x" * 12]), max_size=30),
    max_length=st.sampled_from([None, 10, 12]),
)
def test_suffixes_equal_those_of_probing_from_the_start(
    ids: list[str], max_length: int | None
) -> None:
    rewriter = IdAssigner(
        None if max_length is None else ToolIdRule(max_length=max_length), unique=True
    )
    given_ids = []
    for original in ids:
        message = rewriter.calls(ToolCallMessage([call("f", original)]), [])
        given_ids.append(message.tool_calls[0].tool_call_id)
    assert given_ids == _probing_from_the_start(ids, max_length)
