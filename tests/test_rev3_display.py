"""The revision-3 parts (API.md 19) where people see messages: ``format_message`` (printing),
the demo's one-line ``describe``, ``llmbridge convert`` and the ``conversion_snapshot`` document.

Media show by source, never their bytes; a reply's hosted tool calls and citations show beside
it; conversions of messages that carry them work for every wing, each wing's rules deciding.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from llmbridge import (
    AudioMessage,
    Citation,
    DocumentMessage,
    HostedToolCall,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    VideoMessage,
    dump_messages,
    format_message,
)
from llmbridge.cli._main import main
from llmbridge.cli._output import describe
from llmbridge.kit import provider_tags
from llmbridge.testing import ConversionSnapshot
from tests.strategies import MP4, PDF, WAV
from tests.testing.test_conversion_snapshot import Recorder

AGENT = "assistant"
RULE = "-" * 40
SEARCH = HostedToolCall(
    "web_search",
    '{"query":"Paris"}',
    id="srvtoolu_1",
    result="Paris - Wikipedia https://en.wikipedia.org/wiki/Paris",
    provider="anthropic",
    provider_data={"anthropic": {"position": 0}},
)
RUN = HostedToolCall(
    "code_execution",
    '{"code":"1/0"}',
    id="x1",
    result="ZeroDivisionError",
    is_error=True,
    provider="gemini",
)
WEB = Citation(0, 5, url="https://en.wikipedia.org/wiki/Paris", title="Paris", provider="anthropic")
QUOTE = Citation(6, 8, document_index=0, cited_text="the capital", provider="anthropic")
CITED = TextMessage(
    Role.ASSISTANT, "Paris is it.", AGENT, citations=[WEB, QUOTE], hosted_tools=[SEARCH]
)
PAUSED = TextMessage(Role.ASSISTANT, "", AGENT, hosted_tools=[SEARCH], finish_reason="pause")
CALLS = ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT, hosted_tools=[RUN])
AUDIO_RESULT = ToolCallResultMessage(
    [ToolCall("f", "{}", tool_call_id="c1", result=[AudioMessage(Role.TOOL, data=WAV)])]
)

# Each message, its format_message body and its describe line after the header.
SHOWN = {
    "video_bytes": (
        VideoMessage(Role.USER, data=MP4),
        "<video video/mp4, 24 bytes>",
        "<video video/mp4, 24 bytes>",
    ),
    "video_url": (
        VideoMessage(Role.USER, "https://www.youtube.com/watch?v=9hE5-98ZeCg"),
        "<video https://www.youtube.com/watch?v=9hE5-98ZeCg>",
        "<video https://www.youtube.com/watch?v=9hE5-98ZeCg>",
    ),
    "video_file": (
        VideoMessage(
            Role.USER, file_id="files/abc", file_provider="gemini", media_type="video/mp4"
        ),
        "<video gemini file files/abc>",
        "<video gemini file files/abc>",
    ),
    "audio_file": (
        AudioMessage(Role.USER, file_id="file-1", file_provider="openai", media_type="audio/wav"),
        "<audio openai file file-1>",
        "<audio openai file file-1>",
    ),
    "audio_bytes": (
        AudioMessage(Role.USER, data=WAV),
        "<audio audio/wav, 24 bytes>",
        "<audio audio/wav, 24 bytes>",
    ),
    "document_bytes": (
        DocumentMessage(Role.USER, data=PDF, filename="a.pdf"),
        f"<document application/pdf, {len(PDF)} bytes, a.pdf>",
        f"<document application/pdf, {len(PDF)} bytes, a.pdf>",
    ),
    "video_in_multimodal": (
        MultiModalMessage(
            Role.USER, [TextMessage(Role.USER, "see"), VideoMessage(Role.USER, data=MP4)]
        ),
        "see\n<video video/mp4, 24 bytes>",
        '"see" + <video video/mp4, 24 bytes>',
    ),
    "citations_and_hosted_tools": (
        CITED,
        "Paris is it.\nhosted tool calls:\n"
        '- web_search({"query":"Paris"}) [srvtoolu_1, anthropic]\n'
        "  result: Paris - Wikipedia https://en.wikipedia.org/wiki/Paris\n"
        "citations:\n"
        '- [0:5] "Paris" https://en.wikipedia.org/wiki/Paris\n'
        '- [6:8] document 0 quoting "the capital"',
        '"Paris is it."; hosted web_search({"query":"Paris"}) [srvtoolu_1, anthropic] -> '
        "Paris - Wikipedia https://en.wikipedia.org/wiki/Paris; "
        'cites [0:5] "Paris" https://en.wikipedia.org/wiki/Paris; '
        'cites [6:8] document 0 quoting "the capital"',
    ),
    "hosted_tools_alone": (
        PAUSED,
        'hosted tool calls:\n- web_search({"query":"Paris"}) [srvtoolu_1, anthropic]\n'
        "  result: Paris - Wikipedia https://en.wikipedia.org/wiki/Paris",
        '""; hosted web_search({"query":"Paris"}) [srvtoolu_1, anthropic] -> '
        "Paris - Wikipedia https://en.wikipedia.org/wiki/Paris",
    ),
    "an_aggregate_shows_its_calls_hosted_error": (
        ToolCallAggregateMessage(
            CALLS,
            ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="c1", result="ok")]),
            AGENT,
        ),
        '- f({}) [c1]\n  result: ok\nhosted tool calls:\n- code_execution({"code":"1/0"}) '
        "[x1, gemini]\n  error: ZeroDivisionError",
        'f({}) -> ok; hosted code_execution({"code":"1/0"}) [x1, gemini] -> error: '
        "ZeroDivisionError",
    ),
}


@pytest.mark.parametrize(("message", "body", "line"), SHOWN.values(), ids=SHOWN.keys())
def test_printing_shows_media_by_source_and_reply_metadata(
    message: Message, body: str, line: str
) -> None:
    sender = message.from_ or "(caller)"
    assert (
        format_message(message) == f"{type(message).__name__} from {sender}\n{RULE}\n{body}\n{RULE}"
    )
    assert describe(message).split(": ", 1)[1] == line


CONVERSATION: list[Message] = [
    TextMessage(Role.USER, "Watch, listen, find."),
    VideoMessage(Role.USER, data=MP4),
    AudioMessage(Role.USER, file_id="file-1", file_provider="openai", media_type="audio/wav"),
    CITED,
    TextMessage(Role.USER, "Run it."),
    CALLS,
    AUDIO_RESULT,
    TextMessage(Role.USER, "Thanks."),
]


@pytest.fixture
def rev3_file(tmp_path: Path) -> Path:
    path = tmp_path / "rev3.json"
    path.write_text(dump_messages(CONVERSATION), encoding="utf-8")
    return path


def test_convert_to_openai_chat_shows_what_it_sends_and_notes_the_rest(
    rev3_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["convert", "--to", "openai", str(rev3_file)])
    out, err = capsys.readouterr()

    assert code == 0
    payload = json.loads(out)
    roles = [message["role"] for message in payload["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "tool", "user", "user"]
    assert payload["messages"][1] == {"role": "assistant", "content": "Paris is it.", "name": AGENT}
    moved = payload["messages"][5]["content"]  # the audio result part, after the tool message
    assert moved[1]["type"] == "input_audio"
    notes = err.splitlines()
    assert (
        "note: message 1 dropped: VideoMessage cannot be sent to OpenAI Chat Completions" in notes
    )
    assert any(n.startswith("note: message 2 dropped: openai file references") for n in notes)
    assert any(
        n.startswith("note: message 3 omitted: hosted tool calls of anthropic") for n in notes
    )
    assert any(n.startswith("note: message 5 omitted: hosted tool calls of gemini") for n in notes)
    assert not any("citation" in note for note in notes)  # never sent, no note


def test_convert_to_openai_chat_strict_fails_on_the_video_in_one_line(
    rev3_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["convert", "--to", "openai", "--strict", str(rev3_file)])
    out, err = capsys.readouterr()

    assert (code, out) == (2, "")
    assert err == (
        "error: message 1: VideoMessage cannot be sent to OpenAI Chat Completions (strict mode)\n"
    )
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("tag", provider_tags())
def test_convert_reads_the_new_parts_for_every_wing(
    tag: str, rev3_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["convert", "--to", tag, str(rev3_file)])
    out, err = capsys.readouterr()

    assert code == 0, err
    assert json.loads(out)
    # The video: sent by the wings that take it, else noted.
    assert base64.b64encode(MP4).decode() in out or "note: message 1 dropped" in err


def test_conversion_snapshot_pins_the_new_parts_for_every_provider() -> None:
    recorder = Recorder()

    document: dict[str, Any] = ConversionSnapshot(recorder)(CONVERSATION)  # type: ignore[arg-type]

    assert list(document) == list(provider_tags())
    assert recorder.matched == [json.loads(json.dumps(document))]  # JSON as it stands
    chat = document["openai"]
    assert [message["role"] for message in chat["payload"]["messages"]][-2:] == ["user", "user"]
    hosted = (
        "3 omitted: hosted tool calls of anthropic (web_search) are not sent to OpenAI Chat "
        "Completions: only the provider that ran them takes them back"
    )
    assert hosted in chat["notes"]
    assert "1 dropped: VideoMessage cannot be sent to OpenAI Chat Completions" in chat["notes"]
    strict = ConversionSnapshot(Recorder())(CONVERSATION, providers=["openai"], strict_mode=True)  # type: ignore[arg-type]
    assert strict == {
        "openai": {
            "error": "UnsupportedMessageError: message 1: VideoMessage cannot be sent to OpenAI "
            "Chat Completions (strict mode)"
        }
    }
