"""A strict validator of Gemini ``generateContent`` request bodies, as google-genai sends them.

The SDK checks almost nothing on the client side, and its serialized body mixes camelCase and
snake_case keys (``inlineData`` holding ``mime_type``, ``parameters_json_schema``), so every key
is read in either casing (both casings of one key in one object is an error). On top of the
shapes come the rules of research/wave2.md 2.6 and the offline-checkable rows G1-G13 of 2.7. A
failure is a ``WireError`` whose message starts with the path and names the rule in brackets,
e.g. ``contents[2]: [G2 response count] ...``.

``check_contents`` checks a ``contents`` list; ``check_request_body`` a whole body;
``check_request`` a recorded request (Gemini 3 models, read off the URL, also need signatures).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

import httpx

FUNCTION_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$")
ROLES: Final = frozenset({"user", "model"})
# The bypass value reaches the wire literally; its base64 form is rejected (G5).
SKIP_THOUGHT_SIGNATURE: Final = "skip_thought_signature_validator"
_SKIP_AS_BASE64: Final = base64.b64encode(SKIP_THOUGHT_SIGNATURE.encode()).decode()
MAX_INLINE_BYTES: Final = 20 * 1024 * 1024
# Gemini's documented input types; GIF is not one (wave2.md 2.6 rule 7).
MIME_TYPES: Final = frozenset(
    {
        "image/png",
        "image/jpeg",
        "image/webp",
        "image/heic",
        "image/heif",
        "application/pdf",
        "text/plain",
        "audio/wav",
        "audio/mp3",
        "audio/mpeg",
        "audio/aiff",
        "audio/aac",
        "audio/ogg",
        "audio/flac",
        "video/mp4",
        "video/mpeg",
        "video/mov",
        "video/webm",
    }
)
# What a function_response may carry in its own parts (Gemini 3 multimodal tool results).
TOOL_RESULT_MIME_TYPES: Final = frozenset(
    {"image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"}
)
FILE_URI: Final = re.compile(
    r"^(gs://[^/]+/.+|https://generativelanguage\.googleapis\.com/v1(beta)?/files/[^/]+"
    r"|https://(www\.)?youtube\.com/watch\?v=[\w-]+|https://youtu\.be/[\w-]+)$"
)
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
_CAMEL_HUMP: Final = re.compile(r"(?<=[a-z0-9])([A-Z])")


class WireError(AssertionError):
    """A request body the Gemini API would reject."""


def _fail(path: str, rule: str, problem: str) -> NoReturn:
    raise WireError(f"{path}: [{rule}] {problem}")


def _snake_keys(value: Any, path: str) -> dict[str, Any]:
    """``value`` with its keys in snake_case; one key in both casings is an error."""
    if not isinstance(value, Mapping):
        _fail(path, "shape", f"expected an object, got {type(value).__name__}")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        name = _CAMEL_HUMP.sub(r"_\1", key).lower()
        if name in fields:
            _fail(path, "casing", f"{name!r} is given in both camelCase and snake_case")
        fields[name] = item
    return fields


def _fields(
    value: Any, path: str, allowed: frozenset[str], required: Sequence[str] = ()
) -> dict[str, Any]:
    """``value``'s keys in snake_case, checked against ``allowed`` and ``required``."""
    fields = _snake_keys(value, path)
    unknown = sorted(set(fields) - allowed)
    if unknown:
        _fail(path, "shape", f"unknown keys {unknown}")
    missing = [key for key in required if key not in fields]
    if missing:
        _fail(path, "shape", f"missing keys {missing}")
    return fields


def _list(value: Any, path: str, rule: str) -> list[Any]:
    if not isinstance(value, list) or not value:
        _fail(path, rule, "expected a non-empty list")
    return value


def _name(value: Any, path: str) -> str:
    if not isinstance(value, str) or not FUNCTION_NAME.match(value):
        _fail(path, "G12 function name", f"{value!r} is not [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}")
    return value


def _base64_size(value: Any, path: str, rule: str) -> int:
    if not isinstance(value, str) or not value:
        _fail(path, rule, "expected non-empty base64 text")
    try:
        # The API takes standard and URL-safe base64 (the protobuf JSON mapping of bytes), and
        # the SDK sends URL-safe: it re-encodes every bytes field it was given as base64 text.
        return len(base64.b64decode(value.replace("-", "+").replace("_", "/"), validate=True))
    except binascii.Error:
        _fail(path, rule, "not valid base64")


def _media(value: Any, path: str, kind: str, mime_types: frozenset[str]) -> int:
    """Check an ``inline_data`` / ``file_data`` object; return its inline byte count."""
    if kind == "inline_data":
        fields = _fields(
            value, path, frozenset({"mime_type", "data", "display_name"}), ("mime_type", "data")
        )
        size = _base64_size(fields["data"], f"{path}.data", "inline_data")
    else:
        fields = _fields(
            value, path, frozenset({"file_uri", "mime_type", "display_name"}), ("file_uri",)
        )
        uri = fields["file_uri"]
        if not isinstance(uri, str) or not FILE_URI.match(uri):
            _fail(path, "file_data uri", f"{uri!r} is neither gs://, a Files API URI nor YouTube")
        size = 0
    mime = fields.get("mime_type")
    if (kind == "inline_data" or mime is not None) and mime not in mime_types:
        _fail(path, "G7 mime type", f"mime type {mime!r} is not supported")
    return size


def _function_response(value: Any, path: str) -> tuple[str, Any, int]:
    allowed = frozenset({"name", "response", "id", "parts", "will_continue", "scheduling"})
    fields = _fields(value, path, allowed, ("name", "response"))
    name = _name(fields["name"], f"{path}.name")
    response = fields["response"]
    if not isinstance(response, Mapping):
        _fail(f"{path}.response", "function_response", "response must be an object")
    if _has_ref(response):
        _fail(f"{path}.response", "G13 $ref", "a '$ref' key is read as a part reference")
    size = 0
    for position, part in enumerate(fields.get("parts") or []):
        where = f"{path}.parts[{position}]"
        media = _fields(part, where, frozenset({"inline_data", "file_data"}))
        if len(media) != 1:
            _fail(where, "part data", "a function_response part holds exactly one media field")
        ((kind, item),) = media.items()
        size += _media(item, f"{where}.{kind}", kind, TOOL_RESULT_MIME_TYPES)
    return name, fields.get("id"), size


def _has_ref(value: Any) -> bool:
    if isinstance(value, Mapping):
        return "$ref" in value or any(_has_ref(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_ref(item) for item in value)
    return False


def _part(value: Any, path: str, role: str) -> tuple[dict[str, Any], int]:
    """Check one part of a ``role`` content; return its snake_case fields and inline bytes."""
    fields = _fields(value, path, DATA_FIELDS | PART_MODIFIERS)
    data = sorted(set(fields) & DATA_FIELDS)
    if len(data) != 1:
        _fail(path, "part data", f"a part holds exactly one data field, got {data}")
    kind = data[0]
    signature = fields.get("thought_signature")
    if signature is not None:
        if role != "model":
            _fail(path, "signature", "only model parts carry a thought_signature")
        if signature == _SKIP_AS_BASE64:
            _fail(path, "G5 bypass encoding", "the bypass value must be sent literally")
        if signature != SKIP_THOUGHT_SIGNATURE:
            _base64_size(signature, f"{path}.thought_signature", "signature")
    if "thought" in fields and (role != "model" or kind != "text" or fields["thought"] is not True):
        _fail(path, "thought", "thought: true is only for text parts of model contents")
    size = 0
    if kind == "text":
        if not isinstance(fields["text"], str):
            _fail(path, "G6 empty text", "text must be a string")
        if not fields["text"] and signature is None:
            _fail(path, "G6 empty text", "an empty text part (allowed only to carry a signature)")
    elif kind == "function_call":
        if role != "model":
            _fail(path, "function_call role", "function calls are model parts")
        call = _fields(
            fields[kind], f"{path}.function_call", frozenset({"name", "args", "id"}), ("name",)
        )
        _name(call["name"], f"{path}.function_call.name")
        if not isinstance(call.get("args", {}), Mapping):
            _fail(f"{path}.function_call.args", "function_call args", "args must be an object")
    elif kind == "function_response":
        if role != "user":
            _fail(path, "function_response role", "function responses are user parts")
        size = _function_response(fields[kind], f"{path}.function_response")[2]
    elif kind in ("inline_data", "file_data"):
        size = _media(fields[kind], f"{path}.{kind}", kind, MIME_TYPES)
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
            _fail(path, "G1 call turn order", "a function call turn must follow a user turn")
        if responses:
            asked = _calls(previous[1]) if previous and previous[0] == "model" else []
            if len(responses) != len(asked):
                _fail(
                    path, "G2 response count", f"{len(responses)} responses for {len(asked)} calls"
                )
            for index, ((name, call_id, _), (answered, answer_id)) in enumerate(
                zip(asked, responses, strict=True)
            ):
                if name != answered:
                    _fail(
                        f"{path}.parts[{index}]",
                        "G3 response name",
                        f"{answered!r} answers {name!r}",
                    )
                if call_id is not None and answer_id != call_id:
                    _fail(
                        f"{path}.parts[{index}]",
                        "response id",
                        f"id {answer_id!r} answers {call_id!r}",
                    )
        if calls:
            following = contents[position + 1] if position + 1 < len(contents) else None
            if following is None or not _responses(following[1], path):
                _fail(path, "G2 response count", "a function call turn is not answered next")


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
            _fail(
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
    for position, content in enumerate(_list(contents, "contents", "G6 empty contents")):
        path = f"contents[{position}]"
        fields = _fields(content, path, frozenset({"role", "parts"}), ("role", "parts"))
        role = fields["role"]
        if role not in ROLES:
            _fail(path, "G9 role", f"role {role!r} is not 'user' or 'model'")
        parts = []
        for index, part in enumerate(_list(fields["parts"], f"{path}.parts", "G6 empty parts")):
            part_fields, size = _part(part, f"{path}.parts[{index}]", role)
            parts.append(part_fields)
            total += size
        checked.append((role, parts))
    if checked[0][0] != "user":
        _fail("contents[0]", "first turn", "the first content must be a user turn")
    if checked[-1][0] != "user":
        _fail(
            f"contents[{len(checked) - 1}]", "G11 last turn", "the last content must be a user turn"
        )
    if total > MAX_INLINE_BYTES:
        _fail("contents", "G8 inline size", f"{total} inline bytes exceed 20 MB")
    _pairing(checked)
    if require_signatures:
        _signatures(checked)


def _tools(tools: Any) -> set[str]:
    declared: set[str] = set()
    for position, tool in enumerate(_list(tools, "tools", "tools")):
        path = f"tools[{position}]"
        fields = _fields(
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
            item = _fields(declaration, where, allowed, ("name",))
            name = _name(item["name"], f"{where}.name")
            if name in declared:
                _fail(where, "tool declaration", f"function {name!r} is declared twice")
            if "parameters" in item and "parameters_json_schema" in item:
                _fail(where, "tool declaration", "parameters and parameters_json_schema together")
            declared.add(name)
    return declared


def _tool_config(value: Any, declared: set[str]) -> None:
    fields = _fields(
        value, "tool_config", frozenset({"function_calling_config", "retrieval_config"})
    )
    calling = fields.get("function_calling_config")
    if calling is None:
        return
    path = "tool_config.function_calling_config"
    config = _fields(
        calling,
        path,
        frozenset({"mode", "allowed_function_names", "stream_function_call_arguments"}),
    )
    mode = config.get("mode", "AUTO")
    if mode not in MODES:
        _fail(path, "tool_config", f"mode {mode!r} is not one of {sorted(MODES)}")
    names = config.get("allowed_function_names")
    if names is not None:
        if mode not in ("ANY", "VALIDATED"):
            _fail(path, "tool_config", "allowed_function_names needs mode ANY or VALIDATED")
        unknown = sorted(set(names) - declared)
        if unknown:
            _fail(path, "tool_config", f"allowed_function_names {unknown} are not declared")


def _generation_config(value: Any) -> None:
    fields = _snake_keys(value, "generation_config")
    if "response_schema" in fields and "response_json_schema" in fields:
        _fail(
            "generation_config",
            "G10 response schema",
            "response_schema and response_json_schema together",
        )
    if (
        "response_schema" in fields or "response_json_schema" in fields
    ) and "response_mime_type" not in fields:
        _fail(
            "generation_config", "G10 response schema", "a response schema needs response_mime_type"
        )


def check_request_body(body: Any, *, require_signatures: bool = False) -> None:
    """Check a whole ``generateContent`` body (see the module docstring). Raises ``WireError``."""
    fields = _fields(body, "body", BODY_KEYS, ("contents",))
    check_contents(fields["contents"], require_signatures=require_signatures)
    system = fields.get("system_instruction")
    if system is not None:
        instruction = _fields(
            system, "system_instruction", frozenset({"role", "parts"}), ("parts",)
        )
        if instruction.get("role", "user") != "user":
            _fail("system_instruction", "system_instruction", "role must be 'user' when given")
        for index, part in enumerate(
            _list(instruction["parts"], "system_instruction.parts", "system_instruction")
        ):
            text = _fields(
                part, f"system_instruction.parts[{index}]", frozenset({"text"}), ("text",)
            )["text"]
            if not isinstance(text, str) or not text:
                _fail(
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
