"""Real recorded request histories through the payload importers and back (issue 26).

Each case is a request body another project sent to the live API (``tests/fixtures/*/histories``,
origin and licence in ``tests/fixtures/README.md``). For every case:

1. the wing's importer (lenient) gives no ``MessageEnvelope``, unless the case is in
   ``ENVELOPES`` with the reason;
2. ``to_X(from_X(history))`` has the same meaning as the history: the re-emitted payload equals
   the recorded one after this normalization, and nothing else:

   - Gemini: keys in snake_case (``functionCall`` -> ``function_call``; user data under ``args``
     and ``response`` untouched); consecutive contents of one role merged into one content (the
     API reads them as one turn; ``to_gemini`` merges them, note ``"merged"``); the ``id`` that
     ``to_gemini`` gives an id-less call (and its response) removed; the bypass signature
     (``SKIP_THOUGHT_SIGNATURE``) that ``to_gemini`` puts on an unsigned call removed;
     ``inline_data.data`` compared in the standard base64 alphabet with padding (the recorded
     bodies use the URL-safe one; the bytes are the same); the system instruction compared as
     its list of parts (its ``role`` dropped).
   - Responses: a bare string ``input`` read as its one user message; the read-only fields the
     SDK dumps on output items that ``to_openai_responses`` does not write (``status`` of a
     ``function_call``) removed; ``detail: "auto"`` added to an ``input_image`` without one,
     and to an ``input_file`` of a tool output (the API's default; API.md 14 always writes
     it); an assistant message item without text (``"content": ""``, or only empty
     ``output_text`` parts) removed (empty text carries nothing; it is dropped with a note,
     section 0).

3. lenient conversion of the imported messages to every wing (OpenAI Chat, Responses,
   Anthropic, Gemini) passes that wing's strict wire validator.

The envelopes kept on purpose and the defects found this way are in ``recorded_defects.py``:
each defect is asserted to still fail, so the table cannot go stale (a case that starts passing
fails its test, saying to remove the entry).
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from llmbridge import Message, MessageEnvelope
from llmbridge.anthropic import to_anthropic
from llmbridge.gemini import SKIP_THOUGHT_SIGNATURE, from_gemini_contents, to_gemini
from llmbridge.openai import from_openai_responses_input, to_openai, to_openai_responses
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.gemini import wire as gemini_wire
from tests.gemini.sending import snake
from tests.openai import wire as openai_wire
from tests.openai_responses import wire as responses_wire
from tests.reliability.recorded_defects import CONTINUATIONS, ENVELOPES, KNOWN_DEFECTS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class Case:
    """One recorded request body of ``wing`` (``"gemini"`` or ``"openai-responses"``); ``id``
    names the wing, the cassette and the interaction: ``gemini/test_tool_output#1``."""

    wing: str
    id: str
    body: dict[str, Any]


def _cases(wing: str, folder: str) -> list[Case]:
    cases = []
    for path in sorted((FIXTURES / folder / "histories").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            cassette = record["source"].rsplit("/", 1)[-1].replace(".yaml", "")
            cases.append(Case(wing, f"{wing}/{cassette}", record["body"]))
    return cases


CASES = _cases("gemini", "gemini") + _cases("openai-responses", "openai_responses")


def imported(case: Case) -> list[Message]:
    """The case's history through its wing's importer, lenient."""
    if case.wing == "gemini":
        body = case.body
        system = body.get("systemInstruction", body.get("system_instruction"))
        return from_gemini_contents(body["contents"], agent_name=AGENT, system_instruction=system)
    return from_openai_responses_input(case.body["input"], agent_name=AGENT)


def _merged(contents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for content in contents:
        if out and out[-1].get("role") == content.get("role"):
            out[-1] = {**out[-1], "parts": [*out[-1]["parts"], *content["parts"]]}
        else:
            out.append(content)
    return out


def _calls_and_responses(contents: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for content in contents:
        yield from content.get("parts", [])


def _standard_base64(contents: list[dict[str, Any]]) -> list[dict[str, Any]]:
    contents = copy.deepcopy(contents)
    for part in _calls_and_responses(contents):
        for blob in [part.get("inline_data")] + [
            inner.get("inline_data") for inner in part.get("function_response", {}).get("parts", [])
        ]:
            if blob and isinstance(blob.get("data"), str):
                text = blob["data"].replace("+", "-").replace("/", "_")
                raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
                blob["data"] = base64.b64encode(raw).decode()
    return contents


def _without_added(contents: list[dict[str, Any]], ids: set[Any]) -> list[dict[str, Any]]:
    """``contents`` without the call ids and bypass signatures ``to_gemini`` adds."""
    contents = _standard_base64(contents)
    for part in _calls_and_responses(contents):
        if part.get("thought_signature") == SKIP_THOUGHT_SIGNATURE:
            del part["thought_signature"]
        for key in ("function_call", "function_response"):
            if key in part and part[key].get("id") not in ids:
                part[key].pop("id", None)
    return contents


def gemini_round_trip(case: Case, messages: list[Message]) -> None:
    """``to_gemini(from_gemini_contents(h))`` equals ``h``, normalized as the docstring says."""
    body = snake(case.body)
    request = to_gemini(messages, agent_name=AGENT)
    recorded = _standard_base64(_merged(body["contents"]))
    ids = {
        part[key].get("id")
        for part in _calls_and_responses(recorded)
        for key in ("function_call", "function_response")
        if key in part
    }
    assert _without_added(snake(request.contents), ids) == recorded
    system = body.get("system_instruction")
    assert (request.system_instruction or None) == (system["parts"] if system else None)


def _responses_item(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    item = copy.deepcopy(item)
    if item.get("type") == "function_call":
        item.pop("status", None)
    for part in item.get("content") or [] if isinstance(item.get("content"), list) else []:
        if part.get("type") == "input_image":
            part.setdefault("detail", "auto")
    for part in item.get("output") or [] if isinstance(item.get("output"), list) else []:
        if part.get("type") in ("input_image", "input_file"):
            part.setdefault("detail", "auto")
    return item


def _is_empty_assistant_text(item: Any) -> bool:
    """An assistant message item without text: ``""``, or only empty ``output_text`` parts."""
    if not (isinstance(item, dict) and item.get("role") == "assistant"):
        return False
    content = item.get("content")
    if isinstance(content, list):
        return all(part.get("type") == "output_text" and not part.get("text") for part in content)
    return content == ""


def responses_round_trip(case: Case, messages: list[Message]) -> None:
    """``to_openai_responses(from_openai_responses_input(h))`` equals ``h``, normalized."""
    items = case.body["input"]
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    request = to_openai_responses(messages, agent_name=AGENT)
    recorded = [_responses_item(item) for item in items if not _is_empty_assistant_text(item)]
    assert request.input == recorded


def _to_openai(messages: list[Message]) -> None:
    openai_wire.check_messages(to_openai(messages, agent_name=AGENT).messages)


def _to_responses(messages: list[Message]) -> None:
    responses_wire.check_input(to_openai_responses(messages, agent_name=AGENT).input)


def _to_anthropic(messages: list[Message]) -> None:
    assert_valid_request(to_anthropic(messages, agent_name=AGENT))


def _to_gemini(messages: list[Message]) -> None:
    gemini_wire.check_contents(to_gemini(messages, agent_name=AGENT).contents)


WINGS: dict[str, Callable[[list[Message]], None]] = {
    "openai": _to_openai,
    "openai-responses": _to_responses,
    "anthropic": _to_anthropic,
    "gemini": _to_gemini,
}


def check(step: str, case: Case, run: Callable[[], None]) -> None:
    """Run one step of ``case``; a known defect must still fail with its recorded error."""
    known = KNOWN_DEFECTS.get((step, case.id))
    if known is None:
        run()
        return
    try:
        run()
    except Exception as error:  # the defect's error, whatever its type
        failure = repr(error)
    else:
        pytest.fail(f"{case.id} passes {step} now: remove it from DEFECTS ({known[0].what})")
    assert known[1] in failure, f"{case.id}: fails otherwise than recorded: {failure}"


def params() -> list[Any]:
    return [pytest.param(case, id=case.id) for case in CASES]


@pytest.mark.parametrize("case", params())
def test_recorded_history_imports_without_envelopes(case: Case) -> None:
    def run() -> None:
        envelopes = [m for m in imported(case) if isinstance(m, MessageEnvelope)]
        if case.id in ENVELOPES:
            assert envelopes, f"{case.id} imports whole now: remove it from ENVELOPES"
        else:
            assert envelopes == []

    check("import", case, run)


@pytest.mark.parametrize("case", params())
def test_recorded_history_round_trips_with_the_same_meaning(case: Case) -> None:
    round_trip = gemini_round_trip if case.wing == "gemini" else responses_round_trip
    check("round trip", case, lambda: round_trip(case, imported(case)))


@pytest.mark.parametrize("wing", list(WINGS))
@pytest.mark.parametrize("case", params())
def test_recorded_history_converts_to_every_wing(case: Case, wing: str) -> None:
    if case.id in CONTINUATIONS:
        pytest.skip(ENVELOPES[case.id])
    check(f"to {wing}", case, lambda: WINGS[wing](imported(case)))


def test_every_provider_has_recorded_histories() -> None:
    wings = {case.wing for case in CASES}
    assert wings == {"gemini", "openai-responses"}
    assert len({case.id for case in CASES}) == len(CASES)
