"""Smoke tests of ``benchmarks/``: each benchmark runs once at a tiny size; no timing asserts."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import llmbridge.gemini._media as gemini_media
import llmbridge.kit._scan_cache as scan_cache
from benchmarks.__main__ import _closing_note, _conversion_profile, _missed, main
from benchmarks.conversation import (
    AGENT,
    anthropic_stream,
    big_image_conversation,
    make_conversation,
    openai_stream,
    responses_stream,
)
from benchmarks.convert import ConversionResult, run_conversion
from benchmarks.documents import run_document_memory
from benchmarks.floors import gemini_floor
from benchmarks.gemini import gemini_conversation, gemini_stream
from benchmarks.ids import loop_conversation, run_id_repair
from benchmarks.interleaved import run_interleaved
from benchmarks.memory import deep_size, lifted_inline_limit, run_memory
from benchmarks.peers.__main__ import main as peers_main
from benchmarks.peers.adapters import PEERS
from benchmarks.peers.harness import JOBS, run_peers
from benchmarks.percall import run_per_call
from benchmarks.repeat import RepeatResult, repeat_cases, run_repeat
from benchmarks.report import conversion_table, repeat_table, stream_table
from benchmarks.soak import repaired_conversation, run_soak
from benchmarks.streams import StreamResult, StreamShape, run_streams
from benchmarks.timing import FloorMismatchError, Settings, check_same, first_difference
from benchmarks.tracing import run_tracing
from llmbridge import ImageMessage, Role, TextMessage, ToolCallMessage, check_tool_pairing
from llmbridge.gemini import to_gemini
from llmbridge.openai import to_openai

ONCE = Settings(min_time=0.0, repeats=1)
WINGS = ["openai", "openai-responses", "anthropic", "gemini"]
TINY_STREAM = StreamShape(text_deltas=5, calls=2, fragments=4)


def test_conversation_is_deterministic_exact_in_size_and_pairs_its_tool_calls() -> None:
    messages = make_conversation(200, seed=3)
    assert messages == make_conversation(200, seed=3)
    assert messages != make_conversation(200, seed=4)
    assert len(messages) == 200
    assert messages[0] == TextMessage(Role.SYSTEM, messages[0].get_content() or "")
    assert isinstance(messages[-1], TextMessage)
    assert messages[-1].role == Role.USER
    check_tool_pairing(messages, agent_name=AGENT)


def test_conversation_mixes_every_kind_the_issue_names() -> None:
    messages = make_conversation(300)
    kinds = Counter(type(message).__name__ for message in messages)
    assert {"TextMessage", "ImageMessage", "ToolCallMessage", "ToolCallResultMessage"} <= set(kinds)
    images = [message for message in messages if isinstance(message, ImageMessage)]
    assert any(image.url for image in images)
    assert any(len(image.base64_data or "") == 2048 for image in images)
    parallel = {len(message.get_tool_calls() or []) for message in messages}
    assert {1, 2, 3} <= parallel
    consecutive_users = any(
        isinstance(first, TextMessage | ImageMessage)
        and isinstance(second, TextMessage)
        and first.role == second.role == Role.USER
        for first, second in itertools.pairwise(messages)
    )
    assert consecutive_users


@pytest.mark.parametrize(
    ("build", "expected_chunks"),
    [
        # role chunk + 5 text + 2 call starts + 2 x 4 fragments + finish + usage
        pytest.param(openai_stream, 1 + 5 + 2 + 8 + 1 + 1, id="openai_chunks_per_delta"),
        # message_start + text block (start, 5, stop) + 2 tool blocks (start, 4, stop) + 2 ends
        pytest.param(anthropic_stream, 1 + 7 + 2 * 6 + 2, id="anthropic_events_per_block"),
        # created + in_progress + message item (added, part added, 5, text done, part done,
        # done) + 2 call items (added, 4, arguments done, done) + completed
        pytest.param(responses_stream, 2 + 10 + 2 * 7 + 1, id="responses_events_per_item"),
        # 5 text chunks + each call whole in one chunk
        pytest.param(gemini_stream, 5 + 2, id="gemini_chunks_per_delta_and_call"),
    ],
)
def test_stream_shape_gives_the_expected_number_of_chunks(
    build: object, expected_chunks: int
) -> None:
    assert callable(build)
    assert len(build(5, 2, 4)) == expected_chunks


def test_the_gemini_conversation_opens_with_a_user_turn_after_the_system_message() -> None:
    messages = gemini_conversation(30)
    assert messages == [messages[0], TextMessage(Role.USER, "Hello."), *make_conversation(30)[1:]]


def test_conversion_benchmark_runs_once_with_floors_matching_the_library() -> None:
    results = run_conversion(30, ONCE)
    assert [result.provider for result in results] == [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
    ]
    assert all(result.library_us > 0 and result.floor_us > 0 for result in results)
    assert all(result.first_ratio is not None and result.first_ratio > 0 for result in results)


def test_the_interleaved_rounds_go_on_from_the_kept_scans(monkeypatch: pytest.MonkeyPatch) -> None:
    scans: list[int] = []
    real = scan_cache.scan

    def watched(*args: Any, **kwargs: Any) -> Any:
        scans.append(kwargs.get("start", 0))
        return real(*args, **kwargs)

    monkeypatch.setattr(scan_cache, "scan", watched)
    results = run_interleaved(7, 12, ONCE)
    assert [(result.provider, result.conversations, result.messages) for result in results] == [
        (provider, 7, 12) for provider in ("openai", "openai-responses", "anthropic", "gemini")
    ]
    assert all(result.library_us > 0 and result.floor_us > 0 for result in results)
    # Only the round that fills the cache scans: every timed round finds each history kept.
    assert scans == [0] * 7 * 4


def test_repeat_benchmark_measures_every_registered_wing_per_history_length() -> None:
    results = run_repeat((20, 5), ONCE)
    wings = ["openai", "openai-responses", "anthropic", "gemini"]
    assert list(repeat_cases()) == wings
    assert [(result.provider, result.messages) for result in results] == [
        (wing, size) for wing in wings for size in (5, 20)
    ]
    assert all(result.us_per_message > 0 for result in results)
    assert [result.growth for result in results[::2]] == [1.0] * (len(results) // 2)


@pytest.mark.parametrize(
    ("messages", "growth", "floor_growth", "verdict"),
    [
        pytest.param(10, 1.6, 1.0, "(fixed cost per call)", id="shorter_history_is_not_judged"),
        pytest.param(100, 1.0, 1.0, "(reference)", id="base_history_is_the_reference"),
        pytest.param(1000, 1.1, 1.0, "<= 1.25x: met", id="flat_cost_per_message_is_met"),
        pytest.param(1000, 1.5, 1.4, "<= 1.25x: met", id="growth_the_floor_shares_is_met"),
        pytest.param(1000, 2.5, 1.0, "<= 1.25x: MISSED by 100%", id="growing_cost_is_missed"),
    ],
)
def test_repeat_table_judges_only_growth_past_the_reference_over_the_floors(
    messages: int, growth: float, floor_growth: float, verdict: str
) -> None:
    table = repeat_table([RepeatResult("openai", messages, 1.0, growth, floor_growth)])
    relative = growth / floor_growth
    assert table.endswith(f"| {growth:.2f}x | {floor_growth:.2f}x | {relative:.2f}x | {verdict} |")


def test_stream_benchmark_runs_once_with_floors_matching_the_library() -> None:
    results = run_streams(TINY_STREAM, ONCE, sdk_settings=ONCE)
    assert [result.provider for result in results] == [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
    ]
    assert [result.chunks for result in results] == [18, 27, 22, 7]
    assert all(min(result.library_us, result.floor_us, result.sdk_us) > 0 for result in results)
    assert all((result.target, result.bare_target) == (5.0, 6.0) for result in results)


def test_stream_table_judges_the_floor_and_the_bare_pass_separately() -> None:
    result = StreamResult("openai", 10, 5.5, 1.0, 1.0, 50.0, 5.0, 6.0)
    row = stream_table([result]).splitlines()[-1]
    assert row.endswith("| <= 5.0x: MISSED by 10% | <= 6.0x: met |")


def test_memory_benchmark_runs_once_and_measures_the_payload() -> None:
    results = run_memory(count=2, image_size=64 * 1024)
    assert [result.provider for result in results] == WINGS
    for result in results:
        # two images of 64 KiB are at least 4/3 x 128 KiB of base64 text in the payload
        assert result.payload_bytes > 2 * 64 * 1024 * 4 // 3
        assert result.first_peak > 0


def test_document_benchmark_counts_one_encoding_per_document() -> None:
    results = run_document_memory(count=3, document_size=64 * 1024)
    assert [result.provider for result in results] == WINGS
    for result in results:
        assert result.payload_bytes > 3 * 64 * 1024 * 4 // 3
        assert result.first_peak > 0
        assert result.encodings == 3  # the first conversion's; the repeat reuses the caches


@pytest.mark.parametrize("ids", [False, True], ids=["calls_without_ids", "calls_with_unique_ids"])
def test_loop_conversation_pairs_and_repairs_only_without_ids(ids: bool) -> None:
    messages = loop_conversation(5, ids=ids)
    assert len(messages) == 15
    calls = [message for message in messages if isinstance(message, ToolCallMessage)]
    assert all((call.tool_calls[0].tool_call_id is not None) == ids for call in calls)
    check_tool_pairing(messages, agent_name=AGENT)
    kinds = [note.kind for note in to_openai(messages, agent_name=AGENT).notes]
    assert kinds == ([] if ids else ["repaired"] * 4)  # each round after the first repeats now_0


def test_id_repair_benchmark_runs_once_per_provider_and_loop_length() -> None:
    results = run_id_repair((4, 2), ONCE)
    assert [(result.provider, result.rounds) for result in results] == [
        ("openai", 2), ("openai", 4), ("openai-responses", 2), ("openai-responses", 4),
        ("anthropic", 2), ("anthropic", 4), ("gemini", 2), ("gemini", 4),
    ]  # fmt: skip
    assert all(result.no_ids_us > 0 and result.unique_ids_us > 0 for result in results)
    assert [result.growth for result in results[::2]] == [1.0, 1.0, 1.0, 1.0]


def test_tracing_benchmark_runs_once_for_both_providers_and_paths() -> None:
    results = run_tracing(10, ONCE)
    assert [(result.provider, result.path) for result in results] == [
        ("openai", "send"),
        ("openai", "stream"),
        ("anthropic", "send"),
        ("anthropic", "stream"),
    ]
    assert all(min(result.untraced_us, result.traced_us, result.floor_us) > 0 for result in results)


def test_per_call_benchmark_runs_once_per_wing_and_path_with_the_sdk_request_matching() -> None:
    # run_per_call raises FloorMismatchError when the SDK call with the hand-built arguments
    # puts another URL or JSON body on the wire than the agent did.
    results = run_per_call(10, ONCE)
    assert [(result.provider, result.path, result.messages) for result in results] == [
        ("openai", "send", 10),
        ("openai", "stream", 10),
        ("openai-responses", "send", 10),
        ("openai-responses", "stream", 10),
        ("anthropic", "send", 10),
        ("anthropic", "stream", 10),
        ("gemini", "send", 11),  # the Gemini conversation opens with a user turn
        ("gemini", "stream", 11),
    ]
    assert all(min(result.agent_us, result.sdk_us, result.hand_us) > 0 for result in results)


def test_gemini_memory_case_converts_past_the_inline_limit_only_inside_the_lift() -> None:
    messages = big_image_conversation(2, 64 * 1024)
    with lifted_inline_limit():
        request = to_gemini(messages, agent_name=AGENT)
    check_same("gemini memory", (request.system_instruction, request.contents),
               gemini_floor(messages, AGENT))  # fmt: skip
    assert gemini_media.MAX_INLINE_BYTES == 20 * 1024 * 1024  # restored


def test_soak_conversation_needs_the_pairing_repairs() -> None:
    notes = to_openai(repaired_conversation(1), agent_name=AGENT).notes
    details = [note.detail for note in notes if note.kind == "repaired"]
    assert any("moved after the results" in detail for detail in details)
    assert any("made unique" in detail for detail in details)


def test_soak_benchmark_runs_once_per_wing() -> None:
    results = run_soak(20, warm=5)
    assert [result.provider for result in results] == [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
    ]
    assert all(result.warm_bytes > 0 and result.conversions == 20 for result in results)


def test_big_image_conversation_holds_the_requested_images() -> None:
    messages = big_image_conversation(3, 10_000)
    images = [message for message in messages if isinstance(message, ImageMessage)]
    assert [len(image.data or b"") for image in images] == [10_000] * 3
    assert {image.media_type for image in images} == {"image/png"}


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        pytest.param({"a": [1, {"b": "x"}]}, None, id="equal_payloads_have_no_difference"),
        pytest.param({"a": [1, {"b": "y"}]}, "$.a[1].b", id="nested_value_named_by_path"),
        pytest.param({"a": [1]}, "$.a: library has 1 items, floor 2", id="list_lengths"),
        pytest.param({}, "$.a: only the floor has it", id="missing_key"),
        pytest.param({"a": [True, {"b": "x"}]}, "$.a[0]", id="bool_is_not_int"),
    ],
)
def test_first_difference_names_where_library_and_floor_part(
    payload: dict[str, object], expected: str | None
) -> None:
    found = first_difference(payload, {"a": [1, {"b": "x"}]})
    if expected is None:
        assert found is None
    else:
        assert found is not None
        assert found.startswith(expected)


def test_check_same_raises_with_the_first_difference() -> None:
    with pytest.raises(FloorMismatchError, match=r"openai conversion: .* at \$\[0\]\.role"):
        check_same("openai conversion", [{"role": "user"}], [{"role": "assistant"}])


def test_deep_size_counts_shared_strings_once() -> None:
    text = "x" * 10_000
    assert deep_size([text, text]) == deep_size([text, "y"]) - deep_size("y")


@pytest.mark.parametrize(
    ("ratio", "verdict"),
    [
        pytest.param(1.5, "met", id="under_target_is_met"),
        pytest.param(2.0, "met", id="at_target_is_met"),
        pytest.param(3.0, "MISSED by 50%", id="over_target_says_by_how_much"),
    ],
)
def test_conversion_table_states_the_verdict(ratio: float, verdict: str) -> None:
    table = conversion_table([ConversionResult("openai", 10, ratio, 1.0, 2.0)])
    assert f"| {ratio:.2f}x | <= 2.0x: {verdict} |" in table


def test_main_prints_every_table_at_a_tiny_size(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        ["--messages", "20", "--min-time", "0", "--repeats", "1", "--text-deltas", "3",
         "--calls", "1", "--fragments", "3", "--images", "1", "--image-mb", "0.01",
         "--documents", "1", "--document-mb", "0.01", "--rounds", "3", "6",
         "--turns", "4", "8", "--conversions", "10",
         "--traced-messages", "10", "--interleaved", "3", "5"]
    )  # fmt: skip
    out = capsys.readouterr().out
    rows = (
        "| `to_openai` | 20 |",
        "| `to_anthropic` | 20 |",
        "| openai | 10 |",
        "| `to_openai` | 6 |",
        "| anthropic | stream | 10 |",
        "| `anthropic` | 8 |",
        "| `to_gemini` | 3 | 5 |",
    )
    for row in rows:
        assert row in out
    assert "| `anthropic` | 10 (warm-up 1) |" in out
    assert out.count("| anthropic | send | 10 |") == 2  # per call and tracing
    assert "| gemini | stream | 11 |" in out  # per call
    assert "| openai-responses | send | 10 |" in out  # per call
    # conversion, interleaved, memory, documents and two id-repair rows
    assert out.count("| `to_openai` |") == 6
    assert out.count("| `to_gemini` |") == 6
    assert "| `to_anthropic` | 1 x 0 MB |" in out
    assert "\nClosing note: " in out  # every missed target, or that every one was met


def test_closing_note_names_each_missed_row_with_its_profile() -> None:
    table = conversion_table(
        [ConversionResult("openai-responses", 10, 3.0, 1.0, 2.0),
         ConversionResult("openai", 10, 1.0, 1.0, 2.0)]
    )  # fmt: skip
    missed = list(_missed(table, _conversion_profile))
    assert missed == [
        "- `to_openai_responses` 10: `python -m benchmarks --profile openai-responses` shows "
        "what bounds it"
    ]
    assert _closing_note([]) == "Closing note: every target met."


def test_profile_of_a_connected_call_runs(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--profile", "percall-gemini-stream", "--messages", "5"])
    assert "generate_content_stream" in capsys.readouterr().out


def test_peer_harness_runs_with_llmbridge_and_the_floor_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    peers_main(
        ["--messages", "20", "--text-deltas", "3", "--calls", "1", "--fragments", "3",
         "--min-time", "0", "--repeats", "1", "--no-peers"]
    )  # fmt: skip
    out = capsys.readouterr().out
    for job in JOBS.values():
        row = next(line for line in out.splitlines() if line.startswith(f"| {job} |"))
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[2] == "1.0x"  # the floor
        assert cells[3].endswith("x")  # llmbridge
        assert cells[-len(PEERS) :] == ["-"] * len(PEERS)  # no peer was asked for


def test_peer_harness_times_every_job_for_the_floor_llmbridge_and_streams_for_the_sdk() -> None:
    results = run_peers(20, TINY_STREAM, ONCE, with_peers=False)
    assert [result.job for result in results] == list(JOBS)
    assert all(result.floor_us > 0 and result.ratios["llmbridge"] > 0 for result in results)
    assert ["SDK" in result.ratios for result in results] == [False, False, True, True]


def test_the_peers_venv_gets_every_extra_the_harness_imports() -> None:
    # The harness reuses benchmarks.convert and benchmarks.streams, which import all four wings'
    # SDKs: a peers venv with only some extras fails at import (it once lacked google-genai).
    makefile = (Path(__file__).parents[2] / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("$(PEERS_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "-e '.[all]'" in recipe
