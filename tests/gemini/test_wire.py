"""The strict Gemini wire validator: valid bodies pass, each rule has a body that breaks it."""

from __future__ import annotations

import ast
import base64
import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.gemini import wire
from tests.gemini.test_wire_validator_rev3 import RULES as REV3_RULES

SIG = base64.b64encode(b"sig").decode()
PNG = base64.b64encode(b"\x89PNG").decode()


def call_turn(*names: str, signed: bool = True) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    for position, name in enumerate(names):
        part: dict[str, Any] = {
            "functionCall": {"id": f"{name}_{position}", "name": name, "args": {}}
        }
        if signed and position == 0:
            part["thoughtSignature"] = SIG
        parts.append(part)
    return {"role": "model", "parts": parts}


def response_turn(*names: str) -> dict[str, Any]:
    return {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": f"{name}_{position}",
                    "name": name,
                    "response": {"output": "ok"},
                }
            }
            for position, name in enumerate(names)
        ],
    }


def valid_body() -> dict[str, Any]:
    """A body as the SDK serializes it (camelCase and snake_case mixed), every feature used."""
    return {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {"text": "Weather and time?"},
                    {"inlineData": {"data": PNG, "mime_type": "image/png"}},
                    {
                        "fileData": {
                            "file_uri": "gs://bucket/report.pdf",
                            "mime_type": "application/pdf",
                        }
                    },
                ],
            },
            {
                "role": "model",
                "parts": [
                    {"text": "Thinking.", "thought": True, "thoughtSignature": SIG},
                    {"text": "Let me look."},
                    *call_turn("get_weather", "get_time")["parts"],
                ],
            },
            {
                "role": "user",
                "parts": [
                    response_turn("get_weather")["parts"][0],
                    {
                        "functionResponse": {
                            "id": "get_time_1",
                            "name": "get_time",
                            "response": {"error": "no clock"},
                            "parts": [{"inline_data": {"mime_type": "image/webp", "data": PNG}}],
                        }
                    },
                ],
            },
            {"role": "model", "parts": [{"text": "", "thoughtSignature": SIG}, {"text": "Done."}]},
            {"role": "user", "parts": [{"text": "Thanks."}]},
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}], "role": "user"},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_weather",
                        "description": "d",
                        "parameters_json_schema": {"type": "object"},
                    },
                    {"name": "get_time", "parameters_json_schema": {"type": "object"}},
                ]
            }
        ],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_time"]}
        },
        "generationConfig": {
            "temperature": 0.5,
            "responseMimeType": "application/json",
            "responseJsonSchema": {"type": "object"},
            "thinkingConfig": {"include_thoughts": True},
        },
    }


def bypassed_foreign_history() -> dict[str, Any]:
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            call_turn("f"),
            response_turn("f"),
        ]
    }
    body["contents"][1]["parts"][0]["thoughtSignature"] = wire.SKIP_THOUGHT_SIGNATURE
    return body


@pytest.mark.parametrize(
    ("body", "require_signatures"),
    [
        pytest.param(valid_body(), True, id="every feature, signed, in the SDK's mixed casing"),
        pytest.param(
            {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, True, id="one user text"
        ),
        pytest.param(
            bypassed_foreign_history(), True, id="the literal bypass value counts as signed"
        ),
        pytest.param(
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    call_turn("f", signed=False),
                    response_turn("f"),
                ]
            },
            False,
            id="unsigned calls pass when signatures are not required (before Gemini 3)",
        ),
        pytest.param(
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    call_turn("f", signed=False),
                    response_turn("f"),
                    {"role": "model", "parts": [{"text": "ok"}]},
                    {"role": "user", "parts": [{"text": "again"}]},
                    call_turn("f"),
                    response_turn("f"),
                ]
            },
            True,
            id="only the current turn needs signatures",
        ),
        pytest.param(
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "hi"}]},
                    call_turn("f"),
                    response_turn("f"),
                    {
                        "role": "user",
                        "parts": [
                            {"text": "Result of f_0:"},
                            {"inline_data": {"mime_type": "image/png", "data": PNG}},
                        ],
                    },
                ]
            },
            True,
            id="tool-result media in a separate user content after the responses",
        ),
    ],
)
def test_a_valid_body_passes(body: dict[str, Any], require_signatures: bool) -> None:
    wire.check_request_body(body, require_signatures=require_signatures)


def _parent(body: dict[str, Any], path: str) -> tuple[Any, Any]:
    """The container holding the last step of a dotted ``path``, and that step."""
    *steps, last = [int(step) if step.isdigit() else step for step in path.split(".")]
    target: Any = body
    for step in steps:
        target = target[step]
    return target, last


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation setting ``value`` at a dotted ``path`` (list positions as numbers)."""

    def mutate(body: dict[str, Any]) -> None:
        target, last = _parent(body, path)
        target[last] = value

    return mutate


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    """A mutation removing the key at a dotted ``path``."""

    def mutate(body: dict[str, Any]) -> None:
        target, last = _parent(body, path)
        del target[last]

    return mutate


def _contents(*contents: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    return _set("contents", list(contents))


HI = {"role": "user", "parts": [{"text": "hi"}]}
BIG = base64.b64encode(bytes(wire.MAX_INLINE_BYTES + 1)).decode()

BREAKING = [
    ("G9 role", _set("contents.4.role", "assistant"), "a role other than user or model"),
    ("G9 role", _set("contents.4.role", "system"), "a system role inside contents"),
    ("G6 empty parts", _set("contents.4.parts", []), "a content without parts"),
    ("G6 empty contents", _contents(), "no contents at all"),
    ("G6 empty text", _set("contents.4.parts.0.text", ""), "an empty unsigned text part"),
    (
        "first turn",
        _contents(call_turn("f"), response_turn("f")),
        "history starting with the model",
    ),
    (
        "G1 call turn order",
        _contents(
            HI, {"role": "model", "parts": [{"text": "a"}]}, call_turn("f"), response_turn("f")
        ),
        "a call turn after a model turn",
    ),
    (
        "G2 response count",
        _contents(HI, call_turn("f", "g"), response_turn("f"), HI),
        "a missing response",
    ),
    (
        "G2 response count",
        _contents(HI, call_turn("f"), response_turn("f", "g"), HI),
        "an orphan response",
    ),
    ("G2 response count", _contents(HI, call_turn("f"), HI), "a call turn not answered next"),
    (
        "G2 response count",
        _contents(HI, response_turn("f")),
        "a response with no call turn before it",
    ),
    (
        "G3 response name",
        _contents(HI, call_turn("f", "g"), response_turn("g", "f")),
        "responses out of order",
    ),
    (
        "G3 response name",
        _set("contents.2.parts.0.functionResponse.name", "get_time"),
        "a response named after another call",
    ),
    (
        "response id",
        _set("contents.2.parts.0.functionResponse.id", "other"),
        "a response with another call's id",
    ),
    (
        "G4 missing signature",
        _contents(HI, call_turn("f", signed=False), response_turn("f")),
        "an unsigned current call turn",
    ),
    (
        "G5 bypass encoding",
        _set(
            "contents.1.parts.2.thoughtSignature",
            base64.b64encode(b"skip_thought_signature_validator").decode(),
        ),
        "the base64 of the bypass value",
    ),
    (
        "signature",
        _set("contents.1.parts.0.thoughtSignature", "not base64!"),
        "a signature that is not base64",
    ),
    ("signature", _set("contents.0.parts.0.thoughtSignature", SIG), "a signature on a user part"),
    ("thought", _set("contents.0.parts.0.thought", True), "a thought part in a user content"),
    (
        "G7 mime type",
        _set("contents.0.parts.1.inlineData.mime_type", "pdf"),
        "a mime type without its type",
    ),
    ("G7 mime type", _set("contents.0.parts.1.inlineData.mime_type", "image/gif"), "a GIF image"),
    (
        "G7 mime type",
        _set("contents.2.parts.1.functionResponse.parts.0.inline_data.mime_type", "audio/wav"),
        "audio inside a function response",
    ),
    (
        "inline_data",
        _set("contents.0.parts.1.inlineData.data", "%%%"),
        "inline data that is not base64",
    ),
    ("G8 inline size", _set("contents.0.parts.1.inlineData.data", BIG), "more than 20 MB inline"),
    (
        "file_data uri",
        _set("contents.0.parts.2.fileData.file_uri", "https://example.com/a.pdf"),
        "a plain https file URI",
    ),
    (
        "part data",
        _set(
            "contents.0.parts.0",
            {"text": "a", "inlineData": {"data": PNG, "mime_type": "image/png"}},
        ),
        "two data fields in one part",
    ),
    ("part data", _set("contents.0.parts.0", {"thought": True}), "a part with no data field"),
    (
        "casing",
        _set(
            "contents.0.parts.1",
            {"inlineData": {"data": PNG, "mime_type": "image/png"}, "inline_data": {}},
        ),
        "one key in both casings",
    ),
    ("shape", _set("contents.0.name", "Zoë"), "a name field on a content"),
    (
        "function_call role",
        _set("contents.4.parts.0", {"functionCall": {"name": "f", "args": {}}}),
        "a function call in a user content",
    ),
    (
        "function_response role",
        _set("contents.3.parts.1", response_turn("f")["parts"][0]),
        "a function response in a model content",
    ),
    (
        "function_call args",
        _set("contents.1.parts.2.functionCall.args", '{"a": 1}'),
        "arguments as a JSON string",
    ),
    (
        "function_response",
        _set("contents.2.parts.0.functionResponse.response", "ok"),
        "a response that is not an object",
    ),
    (
        "G13 $ref",
        _set("contents.2.parts.0.functionResponse.response", {"output": {"$ref": "#/x"}}),
        "a $ref key in a response",
    ),
    (
        "G12 function name",
        _set("tools.0.functionDeclarations.0.name", "get weather"),
        "a declared name with a space",
    ),
    (
        "G12 function name",
        _set("contents.1.parts.2.functionCall.name", "1st"),
        "a called name starting with a digit",
    ),
    ("G11 last turn", _set("contents.4.role", "model"), "history ending on a model turn"),
    (
        "G10 response schema",
        _delete("generationConfig.responseMimeType"),
        "a JSON schema without a mime type",
    ),
    (
        "G10 response schema",
        _set("generationConfig.responseSchema", {"type": "OBJECT"}),
        "both response schemas",
    ),
    (
        "tool declaration",
        _set("tools.0.functionDeclarations.1.name", "get_weather"),
        "a function declared twice",
    ),
    (
        "tool declaration",
        _set("tools.0.functionDeclarations.0.parameters", {"type": "OBJECT"}),
        "both parameter schemas",
    ),
    (
        "tool_config",
        _set("toolConfig.functionCallingConfig.mode", "REQUIRED"),
        "an unknown calling mode",
    ),
    (
        "tool_config",
        _set("toolConfig.functionCallingConfig.mode", "AUTO"),
        "allowed names without mode ANY",
    ),
    (
        "tool_config",
        _set("toolConfig.functionCallingConfig.allowedFunctionNames", ["nope"]),
        "an allowed name never declared",
    ),
    (
        "system_instruction",
        _set("systemInstruction.role", "model"),
        "a model-role system instruction",
    ),
    ("system_instruction", _set("systemInstruction.parts", [{"text": ""}]), "an empty system text"),
    (
        "shape",
        _set("systemInstruction.parts", [{"inlineData": {"data": PNG, "mime_type": "image/png"}}]),
        "media in the system instruction",
    ),
    (
        "shape",
        _set("automatic_function_calling", {"disable": True}),
        "an SDK-side setting on the wire",
    ),
    ("tools", _set("tools", []), "an empty tools list"),
]


@pytest.mark.parametrize(
    ("rule", "mutate"),
    [pytest.param(rule, mutate, id=f"{rule}: {why}") for rule, mutate, why in BREAKING],
)
def test_each_broken_body_fails_naming_its_rule(
    rule: str, mutate: Callable[[dict[str, Any]], None]
) -> None:
    body = copy.deepcopy(valid_body())
    mutate(body)

    with pytest.raises(wire.WireError, match=re.escape(f"[{rule}]")):
        wire.check_request_body(body, require_signatures=True)


# The validator's functions taking a rule name, and that argument's position.
RULE_ARGUMENT = {"fail": 1, "base64_size": 2, "non_empty_list": 2}


def test_every_rule_of_the_validator_has_a_breaking_body() -> None:
    modules = sorted(Path(wire.__file__).parent.glob("wire*.py"))
    trees = [ast.parse(module.read_text(encoding="utf-8")) for module in modules]
    calls = [
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in RULE_ARGUMENT
    ]
    rules = {
        argument.value
        for node in calls
        if isinstance(argument := node.args[RULE_ARGUMENT[node.func.id]], ast.Constant)  # type: ignore[union-attr]
    }

    assert rules == {rule for rule, _, _ in BREAKING} | REV3_RULES


@pytest.mark.parametrize(
    ("model", "fails"),
    [
        pytest.param("gemini-3-pro-preview", True, id="a Gemini 3 model needs signatures"),
        pytest.param("gemini-2.5-flash", False, id="a Gemini 2.5 model does not"),
    ],
)
def test_a_recorded_request_needs_signatures_by_its_model(model: str, fails: bool) -> None:
    body = {"contents": [HI, call_turn("f", signed=False), response_turn("f")]}
    request = httpx.Request(
        "POST",
        f"https://generativelanguage.googleapis.com/v1/models/{model}:generateContent",
        json=body,
    )

    if fails:
        with pytest.raises(wire.WireError, match=re.escape("[G4 missing signature]")):
            wire.check_request(request)
    else:
        wire.check_request(request)
