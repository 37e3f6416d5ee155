"""What the recorded histories of ``test_recorded_histories.py`` show today: the envelopes an
importer keeps on purpose, and the defects (library, or a validator stricter than the API),
each asserted there to still fail so this table cannot go stale."""

from __future__ import annotations

from dataclasses import dataclass

_G = "gemini/"
_MATRIX = "test_multimodal_tool_return_matrix"
_VIDEO_METADATA = "a part holding only videoMetadata: no neutral form (VideoMessage has no clip)"
_VIDEO_URL = (
    "a video file_data URI that is not gs://, Files API or YouTube: to_gemini does not send "
    "it (API.md 19.2), so the importer keeps the content as it is"
)
_STORED = "answers a call made in a stored response (previous_response_id / conversation)"

# Cases whose lenient import keeps an envelope on purpose: case id -> why.
ENVELOPES: dict[str, str] = {
    "gemini/test_google_model_file_search_grounding_gemini_3[False]#4": (
        "Gemini 3 server-side toolCall / toolResponse parts: no neutral form (API.md 19.5 "
        "names executable_code only)"
    ),
    "gemini/test_google_model_video_as_binary_content_input_with_vendor_metadata#0": (
        _VIDEO_METADATA
    ),
    "gemini/test_google_url_input[VideoUrl]#0": _VIDEO_URL,
    "openai-responses/test_openai_responses_compact_stateful_mode#3": (
        "a compaction item: not in the contract"
    ),
    "openai-responses/test_openai_conversation_id_tool_call_continuation#2": _STORED,
    "openai-responses/test_openai_previous_response_id_seed_auto_chains_through_retries#2": (
        _STORED
    ),
    "openai-responses/test_openai_previous_response_id_seed_auto_chains_through_retries#3": (
        _STORED
    ),
}

# Not whole histories: they continue a stored response, so no wing can take them on their own
# (step 3 does not apply; steps 1 and 2 do).
CONTINUATIONS = frozenset(case for case, why in ENVELOPES.items() if why == _STORED)


@dataclass(frozen=True)
class Defect:
    """A defect these recordings show: in the library, or a validator rule stricter than the
    API (which answered the recorded request with 200)."""

    what: str
    cases: tuple[str, ...]
    errors: dict[str, str]  # step -> a piece of the error it raises today


_MEDIA_RESULT_CASES = (
    f"{_G}test_mixed_content_ordering[google_gemini3]#1",
    f"{_G}test_mixed_content_ordering[google_vertex]#2",
    f"{_G}test_model_sees_multiple_images[google_gemini3]#2",
)
_UNANSWERED = "is not answered by a tool result"
_EVERY_WING = ("to openai", "to openai-responses", "to anthropic", "to gemini")
_GEMINI_CONTENT = {
    "to openai": "unknown key 'parts'",
    "to openai-responses": "unknown key 'parts'",
    "to anthropic": "missing keys ['content']",
}

# Each entry is asserted to still fail; remove it when the defect is fixed.
DEFECTS: tuple[Defect, ...] = (
    Defect(
        "Gemini: a function_response with media `parts` and a response other than "
        "{'output': text} (pydantic-ai's {'return_value': [...]}) imports as an envelope, so "
        "its call is unanswered and every wing raises, lenient too",
        _MEDIA_RESULT_CASES,
        {"import": "MessageEnvelope", "round trip": _UNANSWERED}
        | dict.fromkeys(_EVERY_WING, _UNANSWERED),
    ),
    Defect(
        "Gemini: a history opening with a user content {'text': ''} (an instructions-only "
        "run) loses that turn: to_gemini raises 'starts with a model turn' even lenient, "
        "to_anthropic sends an assistant turn first",
        tuple(f"{_G}test_google_instructions_only_with_tool_calls#{n}" for n in (1, 2, 3, 4)),
        {
            "round trip": "starts with a model turn",
            "to gemini": "starts with a model turn",
            "to anthropic": "the first message must be a user turn",
        },
    ),
    Defect(
        "an envelope kept by one wing's importer (a Gemini content) is sent unchanged to "
        "OpenAI Chat, Responses and Anthropic (API.md 4.1 passes dict envelopes through), "
        "which reject it",
        (
            f"{_G}test_google_model_video_as_binary_content_input_with_vendor_metadata#0",
            f"{_G}test_google_url_input[VideoUrl]#0",
        ),
        _GEMINI_CONTENT,
    ),
    Defect(
        "validator (tests/gemini/wire.py G5, API.md 15) stricter than the API: the bypass "
        "signature sent as base64 of 'skip_thought_signature_validator' was accepted",
        (f"{_G}test_google_model_structured_output#1",),
        {"to gemini": "the bypass value must be sent literally"},
    ),
    Defect(
        "validator stricter than the API: Gemini 3 toolCall parts, a part holding only "
        "videoMetadata and an https file_data URI (not gs://, Files API or YouTube) were "
        "accepted",
        (
            f"{_G}test_google_model_file_search_grounding_gemini_3[False]#4",
            f"{_G}test_google_model_video_as_binary_content_input_with_vendor_metadata#0",
            f"{_G}test_google_url_input[VideoUrl]#0",
        ),
        {"to gemini": "contents["},
    ),
)

KNOWN_DEFECTS: dict[tuple[str, str], tuple[Defect, str]] = {
    (step, case): (defect, error)
    for defect in DEFECTS
    for case in defect.cases
    for step, error in defect.errors.items()
}
