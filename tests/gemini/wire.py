"""A strict validator of Gemini ``generateContent`` request bodies, as google-genai sends them.

The SDK checks almost nothing on the client side, and its serialized body mixes camelCase and
snake_case keys (``inlineData`` holding ``mime_type``, ``parameters_json_schema``), so every key
is read in either casing (``wire_fields.py``). On top of the shapes come the rules of
research/wave2.md 2.6 and the offline-checkable rows G1-G13 of 2.7. A failure is a
``WireError`` whose message starts with the path and names the rule in brackets, e.g.
``contents[2]: [G2 response count] ...``.

Video (API.md 19.2): ``inline_data`` of the documented ``video/*`` types, ``file_data`` of a
``gs://``, Files API or YouTube URI (a YouTube video is ``video/*`` when typed), and
``video_metadata`` only on a video part (``VideoMetadata``: offsets as durations, ``fps`` in
(0, 24]). Code execution parts (API.md 19.5) follow ``wire_code.py``.

``check_contents`` checks a ``contents`` list; ``check_request_body`` a whole body;
``check_request`` a recorded request (Gemini 3 models, read off the URL, also need signatures).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Mapping
from typing import Any, Final

import httpx

from tests.gemini.wire_code import CODE_PARTS, check_code_order, check_code_part
from tests.gemini.wire_fields import WireError, fail, non_empty_list, read_fields, snake_keys
from tests.gemini.wire_media import (
    MAX_INLINE_BYTES,
    MIME_TYPES,
    TOOL_RESULT_MIME_TYPES,
    base64_size,
    check_media,
    check_video_metadata,
    is_video,
)

__all__ = [
    "SKIP_THOUGHT_SIGNATURE",
    "WireError",
    "check_contents",
    "check_request",
    "check_request_body",
]

FUNCTION_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$")
ROLES: Final = frozenset({"user", "model"})
# The bypass value reaches the wire literally; its base64 form is rejected (G5).
SKIP_THOUGHT_SIGNATURE: Final = "skip_thought_signature_validator"
_SKIP_AS_BASE64: Final = base64.b64encode(SKIP_THOUGHT_SIGNATURE.encode()).decode()
DATA_FIELDS: Final = frozenset(
    {
        "text",
        "inline_data",
        "file_data",
        "function_call",
        "function_response",
        "executable_code",
        "code_execution_result",
    }
)
PART_MODIFIERS: Final = frozenset(
    {"thought", "thought_signature", "video_metadata", "media_resolution", "part_metadata"}
)
BODY_KEYS: Final = frozenset(
    {
        "contents",
        "system_instruction",
        "tools",
        "tool_config",
        "generation_config",
        "safety_settings",
        "cached_content",
        "labels",
    }
)
MODES: Final = frozenset({"AUTO", "ANY", "NONE", "VALIDATED"})


def _name(value: Any, path: str) -> str:
    if not isinstance(value, str) or not FUNCTION_NAME.match(value):
        fail(path, "G12 function name", f"{value!r} is not [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}")
    return value


def _function_response(value: Any, path: str) -> tuple[str, Any, int]:
    allowed = frozenset({"name", "response", "id", "parts", "will_continue", "scheduling"})
    fields = read_fields(value, path, allowed, ("name", "response"))
    name = _name(fields["name"], f"{path}.name")
    response = fields["response"]
    if not isinstance(response, Mapping):
        fail(f"{path}.response", "function_response", "response must be an object")
    if _has_ref(response):
        fail(f"{path}.response", "G13 $ref", "a '$ref' key is read as a part reference")
    size = 0
    for position, part in enumerate(fields.get("parts") or []):
        where = f"{path}.parts[{position}]"
        media = read_fields(part, where, frozenset({"inline_data", "file_data"}))
        if len(media) != 1:
            fail(where, "part data", "a function_response part holds exactly one media field")
        ((kind, item),) = media.items()
        size += check_media(item, f"{where}.{kind}", kind, TOOL_RESULT_MIME_TYPES)
    return name, fields.get("id"), size


def _has_ref(value: Any) -> bool:
    if isinstance(value, Mapping):
        return "$ref" in value or any(_has_ref(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_ref(item) for item in value)
    return False


def _part(value: Any, path: str, role: str) -> tuple[dict[str, Any], int]:
    """Check one part of a ``role`` content; return its snake_case fields and inline bytes."""
    fields = read_fields(value, path, DATA_FIELDS | PART_MODIFIERS)
    data = sorted(set(fields) & DATA_FIELDS)
    if len(data) != 1:
        fail(path, "part data", f"a part holds exactly one data field, got {data}")
    kind = data[0]
    signature = fields.get("thought_signature")
    if signature is not None:
        if role != "model":
            fail(path, "signature", "only model parts carry a thought_signature")
        if signature == _SKIP_AS_BASE64:
            fail(path, "G5 bypass encoding", "the bypass value must be sent literally")
        if signature != SKIP_THOUGHT_SIGNATURE:
            base64_size(signature, f"{path}.thought_signature", "signature")
    if "thought" in fields and (role != "model" or kind != "text" or fields["thought"] is not True):
        fail(path, "thought", "thought: true is only for text parts of model contents")
    size = 0
    if kind == "text":
        if not isinstance(fields["text"], str):
            fail(path, "G6 empty text", "text must be a string")
        if not fields["text"] and signature is None:
            fail(path, "G6 empty text", "an empty text part (allowed only to carry a signature)")
    elif kind == "function_call":
        if role != "model":
            fail(path, "function_call role", "function calls are model parts")
        call = read_fields(
            fields[kind], f"{path}.function_call", frozenset({"name", "args", "id"}), ("name",)
        )
        _name(call["name"], f"{path}.function_call.name")
        if not isinstance(call.get("args", {}), Mapping):
            fail(f"{path}.function_call.args", "function_call args", "args must be an object")
    elif kind == "function_response":
        if role != "user":
            fail(path, "function_response role", "function responses are user parts")
        size = _function_response(fields[kind], f"{path}.function_response")[2]
    elif kind in ("inline_data", "file_data"):
        size = check_media(fields[kind], f"{path}.{kind}", kind, MIME_TYPES)
    elif kind in CODE_PARTS:
        check_code_part(kind, fields[kind], path, role)
    if "video_metadata" in fields:
        if kind not in ("inline_data", "file_data") or not is_video(snake_keys(fields[kind], path)):
            fail(path, "video_metadata", "video_metadata belongs only to a video part")
        check_video_metadata(fields["video_metadata"], f"{path}.video_metadata")
    return fields, size


def _calls(parts: list[dict[str, Any]]) -> list[tuple[str, Any, bool]]:
    """``(name, id, signed)`` of each function_call part, in order."""
    # Already checked by _part; "name" and "id" are spelt alike in both casings.
    return [
        (
            part["function_call"]["name"],
            part["function_call"].get("id"),
            "thought_signature" in part,
        )
        for part in parts
        if "function_call" in part
    ]


def _responses(parts: list[dict[str, Any]], path: str) -> list[tuple[str, Any]]:
    return [
        _function_response(part["function_response"], path)[:2]
        for part in parts
        if "function_response" in part
    ]


def _pairing(contents: list[tuple[str, list[dict[str, Any]]]]) -> None:
    """G1-G3: call turns follow a user turn and are answered by the next content, in order."""
    for position, (role, parts) in enumerate(contents):
        path = f"contents[{position}]"
        calls = _calls(parts) if role == "model" else []
        responses = _responses(parts, path) if role == "user" else []
        previous = contents[position - 1] if position else None
        if calls and (previous is None or previous[0] != "user"):
            fail(path, "G1 call turn order", "a function call turn must follow a user turn")
        if responses:
            asked = _calls(previous[1]) if previous and previous[0] == "model" else []
            if len(responses) != len(asked):
                fail(
                    path, "G2 response count", f"{len(responses)} responses for {len(asked)} calls"
                )
            for index, ((name, call_id, _), (answered, answer_id)) in enumerate(
                zip(asked, responses, strict=True)
            ):
                if name != answered:
                    fail(
                        f"{path}.parts[{index}]",
                        "G3 response name",
                        f"{answered!r} answers {name!r}",
                    )
                if call_id is not None and answer_id != call_id:
                    fail(
                        f"{path}.parts[{index}]",
                        "response id",
                        f"id {answer_id!r} answers {call_id!r}",
                    )
        if calls:
            following = contents[position + 1] if position + 1 < len(contents) else None
            if following is None or not _responses(following[1], path):
                fail(path, "G2 response count", "a function call turn is not answered next")


def _signatures(contents: list[tuple[str, list[dict[str, Any]]]]) -> None:
    """G4: in the current turn (since the last user text or media) each call turn is signed."""
    start = 0
    for position, (role, parts) in enumerate(contents):
        if role == "user" and any("function_response" not in part for part in parts):
            start = position
    for position in range(start, len(contents)):
        role, parts = contents[position]
        calls = _calls(parts) if role == "model" else []
        if calls and not calls[0][2]:
            fail(
                f"contents[{position}]",
                "G4 missing signature",
                "the first call has no thought_signature",
            )


def check_contents(contents: Any, *, require_signatures: bool = False) -> None:
    """Check a ``contents`` list: shapes, roles, media, pairing, and (optionally) signatures.

    ``require_signatures`` applies the Gemini 3 rule G4. Raises ``WireError``.
    """
    checked: list[tuple[str, list[dict[str, Any]]]] = []
    total = 0
    for position, content in enumerate(non_empty_list(contents, "contents", "G6 empty contents")):
        path = f"contents[{position}]"
        fields = read_fields(content, path, frozenset({"role", "parts"}), ("role", "parts"))
        role = fields["role"]
        if role not in ROLES:
            fail(path, "G9 role", f"role {role!r} is not 'user' or 'model'")
        parts = []
        for index, part in enumerate(
            non_empty_list(fields["parts"], f"{path}.parts", "G6 empty parts")
        ):
            part_fields, size = _part(part, f"{path}.parts[{index}]", role)
            parts.append(part_fields)
            total += size
        check_code_order(parts, path)
        checked.append((role, parts))
    if checked[0][0] != "user":
        fail("contents[0]", "first turn", "the first content must be a user turn")
    if checked[-1][0] != "user":
        fail(
            f"contents[{len(checked) - 1}]", "G11 last turn", "the last content must be a user turn"
        )
    if total > MAX_INLINE_BYTES:
        fail("contents", "G8 inline size", f"{total} inline bytes exceed 20 MB")
    _pairing(checked)
    if require_signatures:
        _signatures(checked)


def _tools(tools: Any) -> set[str]:
    declared: set[str] = set()
    for position, tool in enumerate(non_empty_list(tools, "tools", "tools")):
        path = f"tools[{position}]"
        fields = read_fields(
            tool,
            path,
            frozenset({"function_declarations", "google_search", "code_execution", "url_context"}),
        )
        for index, declaration in enumerate(fields.get("function_declarations") or []):
            where = f"{path}.function_declarations[{index}]"
            allowed = frozenset(
                {
                    "name",
                    "description",
                    "parameters",
                    "parameters_json_schema",
                    "response",
                    "response_json_schema",
                    "behavior",
                }
            )
            item = read_fields(declaration, where, allowed, ("name",))
            name = _name(item["name"], f"{where}.name")
            if name in declared:
                fail(where, "tool declaration", f"function {name!r} is declared twice")
            if "parameters" in item and "parameters_json_schema" in item:
                fail(where, "tool declaration", "parameters and parameters_json_schema together")
            declared.add(name)
    return declared


def _tool_config(value: Any, declared: set[str]) -> None:
    fields = read_fields(
        value, "tool_config", frozenset({"function_calling_config", "retrieval_config"})
    )
    calling = fields.get("function_calling_config")
    if calling is None:
        return
    path = "tool_config.function_calling_config"
    config = read_fields(
        calling,
        path,
        frozenset({"mode", "allowed_function_names", "stream_function_call_arguments"}),
    )
    mode = config.get("mode", "AUTO")
    if mode not in MODES:
        fail(path, "tool_config", f"mode {mode!r} is not one of {sorted(MODES)}")
    names = config.get("allowed_function_names")
    if names is not None:
        if mode not in ("ANY", "VALIDATED"):
            fail(path, "tool_config", "allowed_function_names needs mode ANY or VALIDATED")
        unknown = sorted(set(names) - declared)
        if unknown:
            fail(path, "tool_config", f"allowed_function_names {unknown} are not declared")


def _generation_config(value: Any) -> None:
    fields = snake_keys(value, "generation_config")
    if "response_schema" in fields and "response_json_schema" in fields:
        fail(
            "generation_config",
            "G10 response schema",
            "response_schema and response_json_schema together",
        )
    if (
        "response_schema" in fields or "response_json_schema" in fields
    ) and "response_mime_type" not in fields:
        fail(
            "generation_config", "G10 response schema", "a response schema needs response_mime_type"
        )


def check_request_body(body: Any, *, require_signatures: bool = False) -> None:
    """Check a whole ``generateContent`` body (see the module docstring). Raises ``WireError``."""
    fields = read_fields(body, "body", BODY_KEYS, ("contents",))
    check_contents(fields["contents"], require_signatures=require_signatures)
    system = fields.get("system_instruction")
    if system is not None:
        instruction = read_fields(
            system, "system_instruction", frozenset({"role", "parts"}), ("parts",)
        )
        if instruction.get("role", "user") != "user":
            fail("system_instruction", "system_instruction", "role must be 'user' when given")
        for index, part in enumerate(
            non_empty_list(instruction["parts"], "system_instruction.parts", "system_instruction")
        ):
            text = read_fields(
                part, f"system_instruction.parts[{index}]", frozenset({"text"}), ("text",)
            )["text"]
            if not isinstance(text, str) or not text:
                fail(
                    f"system_instruction.parts[{index}]",
                    "system_instruction",
                    "non-empty text parts only",
                )
    declared = _tools(fields["tools"]) if "tools" in fields else set()
    if "tool_config" in fields:
        _tool_config(fields["tool_config"], declared)
    if "generation_config" in fields:
        _generation_config(fields["generation_config"])


def check_request(request: httpx.Request) -> None:
    """Check a recorded ``generateContent`` / ``streamGenerateContent`` request's body.

    A Gemini 3 model (``models/gemini-3...`` in the URL) also needs signatures (G4).
    """
    model = request.url.path.rsplit("/models/", 1)[-1].split(":", 1)[0]
    check_request_body(json.loads(request.content), require_signatures=model.startswith("gemini-3"))
