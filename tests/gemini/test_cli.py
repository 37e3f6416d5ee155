"""``llmbridge convert --to gemini``: the payload, its notes, and the wing's other functions."""

from __future__ import annotations

import json

import pytest
import respx

from llmbridge import (
    InvalidMessageError,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    dump_messages,
)
from llmbridge.gemini import import_payload, request_payload, sdk_client
from llmbridge.kit import provider_info
from llmbridge.testing import RespxTransport, gemini_response, last_request_json
from tests.gemini import wire
from tests.gemini.helpers import GENERATE, MODEL
from tests.test_cli import SHIPPED, run

CONVERSATION = [
    TextMessage(Role.SYSTEM, "Be brief."),
    TextMessage(Role.USER, "Weather?", "Zoë"),
    ToolCallMessage([ToolCall("get_weather", '{"city": "Paris"}')], "assistant"),
    ToolCallResultMessage(
        [ToolCall("get_weather", "", tool_call_id="get_weather_0", result="sun")]
    ),
]
PAYLOAD = {
    "system_instruction": {"parts": [{"text": "Be brief."}]},
    "contents": [
        {"role": "user", "parts": [{"text": "Weather?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "function_call": {
                        "name": "get_weather",
                        "args": {"city": "Paris"},
                        "id": "get_weather_0",
                    },
                    "thought_signature": "skip_thought_signature_validator",
                }
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "function_response": {
                        "name": "get_weather",
                        "id": "get_weather_0",
                        "response": {"output": "sun"},
                    }
                }
            ],
        },
    ],
}


def test_the_registry_names_the_gemini_wing() -> None:
    info = provider_info("gemini")
    assert (info.package, info.extra, info.key_variable) == (
        "llmbridge.gemini",
        "gemini",
        "GEMINI_API_KEY",
    )


def test_convert_to_gemini_prints_the_payload_and_notes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "convert", "--to", "gemini", stdin=dump_messages(CONVERSATION))

    assert code == 0
    assert json.loads(out) == PAYLOAD
    wire.check_request_body(json.loads(out), require_signatures=True)
    assert err == [
        "note: message 1 dropped: sender name 'Zoë' cannot be sent to Gemini",
        "note: message 2 repaired: call 'get_weather' has no Gemini thought signature: sent "
        "with 'skip_thought_signature_validator'",
    ]


def test_convert_to_gemini_without_system_text_has_no_system_instruction(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi")])

    code, out, _ = run(capsys, "convert", "--to", "gemini", stdin=stdin)

    assert (code, json.loads(out)) == (
        0,
        {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]},
    )


@pytest.mark.parametrize(
    ("flags", "stdin", "expected"),
    [
        pytest.param(
            ["--strict"], [TextMessage(Role.USER, "Hi", "Zoë")], "sender name", id="strict"
        ),
        pytest.param(
            [],
            [TextMessage(Role.USER, "Hi"), TextMessage(Role.ASSISTANT, "Yo", "assistant")],
            "ends with a model turn",
            id="a request ending with a model turn",
        ),
    ],
)
def test_invalid_input_is_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flags: list[str], stdin: list[object], expected: str
) -> None:
    code, out, err = run(capsys, "convert", "--to", "gemini", *flags, stdin=dump_messages(stdin))  # type: ignore[arg-type]

    assert (code, out, len(err)) == (2, "", 1)
    assert err[0].startswith("error: ")
    assert expected in err[0]


def test_name_policy_prefix_carries_names(capsys: pytest.CaptureFixture[str]) -> None:
    stdin = dump_messages([TextMessage(Role.USER, "Hi", "Zoë")])

    code, out, _ = run(capsys, "convert", "--to", "gemini", "--name-policy", "prefix", stdin=stdin)

    assert code == 0
    assert json.loads(out)["contents"][0]["parts"] == [{"text": "[Zoë] "}, {"text": "Hi"}]


def test_the_shipped_example_conversation_converts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "convert", "--to", "gemini", str(SHIPPED))

    assert code == 0
    wire.check_request_body(json.loads(out), require_signatures=True)
    assert any(line.startswith("note: message 1 ") for line in err)  # 'Zoë' cannot go as is


def test_the_payload_imports_back() -> None:
    payload, _ = request_payload(
        CONVERSATION, agent_name="assistant", strict_mode=False, name_policy="drop"
    )

    imported = import_payload(payload, agent_name="assistant", strict_mode=True)

    again, _ = request_payload(
        imported, agent_name="assistant", strict_mode=False, name_policy="drop"
    )
    assert again == payload == PAYLOAD


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        pytest.param({"messages": []}, "messages", id="another provider's payload"),
        pytest.param({"contents": {}}, "contents", id="contents not a list"),
        pytest.param(
            {"contents": [], "system_instruction": 3}, "system_instruction", id="bad system"
        ),
    ],
)
def test_a_payload_of_another_shape_is_refused(payload: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidMessageError) as raised:
        import_payload(payload, agent_name="assistant", strict_mode=False)
    assert raised.value.field == field


async def test_sdk_client_runs_on_the_given_http_client(router: respx.Router) -> None:
    import httpx2

    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    http = httpx2.AsyncClient(transport=RespxTransport(router))
    client = sdk_client(api_key="gemini-key", http_client=http, max_retries=0)

    await client.aio.models.generate_content(model=MODEL, contents="hi")

    assert route.calls.last.request.headers["x-goog-api-key"] == "gemini-key"
    assert last_request_json(route)["contents"] == [{"parts": [{"text": "hi"}], "role": "user"}]
    await client.aio.aclose()
