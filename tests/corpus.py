"""The shared neutral corpus: every message type and From/Role rule, converted by each provider.

Each provider's approval test converts every entry on its own (``check_pairing=False``) and
pins the results in ``snapshots/``, so the providers' payloads for one message sit side by
side. ``AGENT`` is the name of the provider agent ("self").
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    TextMessageUpdate,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallMessageUpdate,
    ToolCallResultMessage,
    Usage,
)
from tests.corpus_rev3 import revision_3
from tests.strategies import PDF, WAV

AGENT = "assistant"
OTHER = "critic"

# A 1x1 transparent PNG: real magic bytes, so sniffing is exercised.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

CALLS = (
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1"),
    ToolCall("get_time", '{"tz": "Europe/Paris"}', tool_call_id="call_2"),
)
RESULTS = (
    ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1", result="18C, sunny"),
    ToolCall("get_time", '{"tz": "Europe/Paris"}', tool_call_id="call_2", result="14:05"),
)
ANTHROPIC_THINKING = Reasoning("Two tools are needed.", signature="sig-abc", provider="anthropic")

CORPUS: dict[str, Message] = {
    "system_text": TextMessage(Role.SYSTEM, "You are a helpful assistant."),
    "system_text_from_other_agent": TextMessage(Role.SYSTEM, "Be brief.", OTHER),
    "system_text_from_self": TextMessage(Role.SYSTEM, "Stay on topic.", AGENT),
    "user_text": TextMessage(Role.USER, "What is the weather in Paris?"),
    "assistant_text_no_sender": TextMessage(Role.ASSISTANT, "Let me check."),
    "text_from_self": TextMessage(Role.ASSISTANT, "It is sunny.", AGENT),
    "user_role_text_from_self": TextMessage(Role.USER, "Said by me, though role is user.", AGENT),
    "text_from_other_agent": TextMessage(Role.ASSISTANT, "I disagree.", OTHER),
    "text_from_unsanitary_name": TextMessage(Role.USER, "Hello.", "Dr. Who?"),
    "empty_text": TextMessage(Role.USER, ""),
    "whitespace_text": TextMessage(Role.USER, "   \n"),
    "image_url": ImageMessage(Role.USER, "https://example.com/cat.png", detail="high"),
    "image_bytes": ImageMessage(Role.USER, data=PNG),
    "image_data_url_jpg_alias": ImageMessage(
        Role.USER, "data:image/jpg;base64," + base64.b64encode(PNG).decode()
    ),
    "image_from_other_agent": ImageMessage(Role.USER, "https://example.com/dog.jpg", OTHER),
    "multimodal": MultiModalMessage(
        Role.USER,
        [
            TextMessage(Role.USER, "What is in this picture?"),
            ImageMessage(Role.USER, data=PNG, detail="low"),
            TextMessage(Role.USER, "And this one?"),
            ImageMessage(Role.USER, "https://example.com/cat.png"),
        ],
    ),
    "multimodal_from_other_agent": MultiModalMessage(
        Role.USER, [TextMessage(Role.USER, "Look:"), ImageMessage(Role.USER, data=PNG)], OTHER
    ),
    "image_from_self": ImageMessage(Role.ASSISTANT, "https://example.com/me.png", AGENT),
    "tool_calls_parallel": ToolCallMessage(CALLS, AGENT),
    "tool_calls_with_text_and_thinking": ToolCallMessage(
        CALLS[:1], AGENT, content="Checking the weather.", reasoning=(ANTHROPIC_THINKING,)
    ),
    "tool_calls_without_ids": ToolCallMessage([ToolCall("now", ""), ToolCall("now", "{}")], AGENT),
    "tool_calls_from_other_agent": ToolCallMessage(CALLS, OTHER),
    "tool_results": ToolCallResultMessage(RESULTS),
    "tool_results_with_error_and_missing": ToolCallResultMessage(
        [
            ToolCall("get_weather", "{}", tool_call_id="call_1", result="", is_error=True),
            ToolCall("get_time", "{}", tool_call_id="call_2"),
        ]
    ),
    "tool_results_without_ids": ToolCallResultMessage(
        [ToolCall("now", "", result="12:00"), ToolCall("now", "{}", result="12:01")]
    ),
    "aggregate_from_self": ToolCallAggregateMessage(
        ToolCallMessage(CALLS, AGENT), ToolCallResultMessage(RESULTS), AGENT
    ),
    "aggregate_from_other_agent": ToolCallAggregateMessage(
        ToolCallMessage(CALLS, OTHER), ToolCallResultMessage(RESULTS), OTHER
    ),
    "text_with_foreign_reasoning": TextMessage(
        Role.ASSISTANT,
        "Done.",
        AGENT,
        reasoning=(Reasoning("thought", provider="openai"),),
        usage=Usage(10, 2),
        finish_reason="stop",
    ),
    "text_with_redacted_thinking": TextMessage(
        Role.ASSISTANT,
        "Answer.",
        AGENT,
        reasoning=(Reasoning("", redacted_data="opaque==", provider="anthropic"),),
    ),
    "text_update": TextMessageUpdate(Role.ASSISTANT, "partial", AGENT),
    "reasoning_update": ReasoningMessageUpdate("thinking...", AGENT),
    "tool_call_update": ToolCallMessageUpdate("get_weather", '{"ci', AGENT, index=0),
    "envelope_of_string": MessageEnvelope("not a provider message"),
    # Revision 2 (API.md 13): documents, audio, media in tool results, provider_data.
    "document_pdf_bytes": DocumentMessage(Role.USER, data=PDF, filename="report.pdf"),
    "document_pdf_url": DocumentMessage(Role.USER, "https://example.com/report.pdf"),
    "document_text": DocumentMessage(
        Role.USER, data=b"city,temp\nParis,18\n", media_type="text/csv", filename="weather.csv"
    ),
    "document_from_other_agent": DocumentMessage(Role.USER, data=PDF, from_=OTHER),
    "document_from_self": DocumentMessage(Role.USER, data=PDF, from_=AGENT),
    "audio_wav": AudioMessage(Role.USER, data=WAV),
    "audio_other_type": AudioMessage(Role.USER, data=b"OggS\x00\x02", media_type="audio/ogg"),
    "multimodal_with_document_and_audio": MultiModalMessage(
        Role.USER,
        [
            TextMessage(Role.USER, "Summarise the report and the recording."),
            DocumentMessage(Role.USER, data=PDF),
            AudioMessage(Role.USER, data=WAV),
        ],
    ),
    "tool_results_with_media": ToolCallResultMessage(
        [
            ToolCall(
                "get_weather",
                '{"city": "Paris"}',
                tool_call_id="call_1",
                result=[TextMessage(Role.TOOL, "Radar:"), ImageMessage(Role.TOOL, data=PNG)],
            ),
            ToolCall(
                "get_time",
                "{}",
                tool_call_id="call_2",
                result=[DocumentMessage(Role.TOOL, data=PDF, filename="timetable.pdf")],
            ),
        ]
    ),
    "aggregate_with_media_from_self": ToolCallAggregateMessage(
        ToolCallMessage(CALLS[:1], AGENT),
        ToolCallResultMessage(
            [
                ToolCall(
                    "get_weather",
                    '{"city": "Paris"}',
                    tool_call_id="call_1",
                    result=[ImageMessage(Role.TOOL, data=PNG)],
                )
            ]
        ),
        AGENT,
    ),
    "text_with_provider_data": TextMessage(
        Role.ASSISTANT,
        "Hello.",
        AGENT,
        provider_data={
            "openai-responses": {"item_id": "msg_1", "phase": "final_answer"},
            "gemini": {"thought_signature": "c2ln"},
        },
    ),
    "tool_calls_with_provider_data": ToolCallMessage(
        [
            ToolCall(
                "get_weather",
                '{"city": "Paris"}',
                tool_call_id="call_1",
                provider_data={"openai-responses": {"item_id": "fc_1"}},
            )
        ],
        AGENT,
        provider_data={"x-custom": {"trace": [1, 2]}},
    ),
    # Revision 3 (API.md 19): file references, video, structured and media results, replies
    # with citations and hosted tools in each wing's flavour (tests/corpus_rev3.py).
    **revision_3(AGENT, OTHER),
}


Converted = Callable[..., dict[str, Any]]
"""``convert(message, *, strict_mode, name_policy)``: one message's payload and notes, or
``{"error": ...}``."""


def approval_rows(convert: Converted) -> dict[str, dict[str, Any]]:
    """Every corpus entry converted lenient, strict and with ``name_policy="prefix"``.

    Most rows convert alike; only the differences are spelled out again (``"same"`` otherwise),
    so the snapshot reads as the rules.
    """
    rows: dict[str, dict[str, Any]] = {}
    for name, message in CORPUS.items():
        lenient = convert(message, strict_mode=False, name_policy="drop")
        strict = convert(message, strict_mode=True, name_policy="drop")
        prefix = convert(message, strict_mode=False, name_policy="prefix")
        rows[name] = {
            "lenient": lenient,
            "strict": "same" if strict == lenient else strict,
            "name_policy=prefix": "same" if prefix == lenient else prefix,
        }
    return rows
