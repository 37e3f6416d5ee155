"""to_openai_responses: the inbound rules of API.md 14 in both modes, every input validated."""

from __future__ import annotations

import base64
import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from llmbridge import (
    ConversionNote,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    ReasoningMessageUpdate,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.openai import OpenAIResponsesRequest, to_openai_responses
from tests.corpus import AGENT, PNG
from tests.openai_responses.wire import check_input, check_item

TAG = "openai-responses"
OTHER = "critic"
PNG_URL = "data:image/png;base64," + base64.b64encode(PNG).decode()
CALL = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")
RESULT = ToolCall("get_weather", "{}", tool_call_id="call_1", result="sunny")
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}


def own(**data: Any) -> dict[str, Any]:
    return {TAG: data}


def reasoning(rs_id: str | None = "rs_1", **data: Any) -> Reasoning:
    entry = dict(data) if rs_id is None else {"id": rs_id, **data}
    return Reasoning("Think.", signature="enc-1", provider=TAG, provider_data={TAG: entry})


def function_call(call_id: str = "call_1", fc_id: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "function_call"}
    if fc_id is not None:
        item["id"] = fc_id
    item.update({"call_id": call_id, "name": "get_weather", "arguments": '{"city": "Paris"}'})
    return item


def output_message(msg_id: str, text: str, phase: str | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "message", "role": "assistant", "id": msg_id}
    item["status"] = "completed"
    item["content"] = [{"type": "output_text", "text": text, "annotations": []}]
    if phase is not None:
        item["phase"] = phase
    return item


def reasoning_item(rs_id: str = "rs_1", texts: Sequence[str] = ("Think.",)) -> dict[str, Any]:
    summary = [{"type": "summary_text", "text": text} for text in texts]
    return {"type": "reasoning", "id": rs_id, "summary": summary, "encrypted_content": "enc-1"}


def convert(messages: Sequence[Message], **kwargs: Any) -> OpenAIResponsesRequest:
    """Convert without the pairing step, validating every item on its own."""
    kwargs.setdefault("check_pairing", False)
    request = to_openai_responses(messages, agent_name=AGENT, **kwargs)
    for item in request.input:
        check_item(item)
    return request


def whole(messages: Sequence[Message], **kwargs: Any) -> OpenAIResponsesRequest:
    """Convert a whole conversation and validate its input as the API would."""
    request = to_openai_responses(messages, agent_name=AGENT, **kwargs)
    check_input(request.input)
    return request


def kinds(request: OpenAIResponsesRequest) -> list[str]:
    return [note.kind for note in request.notes]


IMAGE_FILE = ImageMessage(Role.USER, data=PNG, from_=None)

RULES: list[tuple[str, list[Message], list[dict[str, Any]]]] = [
    (
        "system text stays in place as a system item",
        [TextMessage(Role.USER, "Hi"), TextMessage(Role.SYSTEM, "Be brief.")],
        [{"role": "user", "content": "Hi"}, {"role": "system", "content": "Be brief."}],
    ),
    (
        "user text is a user item with string content",
        [TextMessage(Role.USER, "Hi")],
        [{"role": "user", "content": "Hi"}],
    ),
    (
        "assistant text without sender is an assistant item",
        [TextMessage(Role.ASSISTANT, "Hello.")],
        [{"role": "assistant", "content": "Hello."}],
    ),
    (
        "text from self without an id is the plain assistant form",
        [TextMessage(Role.ASSISTANT, "Hello.", AGENT)],
        [{"role": "assistant", "content": "Hello."}],
    ),
    (
        "text from self with a msg id is the output-message form",
        [TextMessage(Role.ASSISTANT, "Hello.", AGENT, provider_data=own(id="msg_1"))],
        [output_message("msg_1", "Hello.")],
    ),
    (
        "the recorded phase goes back with the id",
        [
            TextMessage(
                Role.ASSISTANT, "Hello.", AGENT, provider_data=own(id="msg_1", phase="final_answer")
            )
        ],
        [output_message("msg_1", "Hello.", "final_answer")],
    ),
    (
        "the recorded phase goes back on the plain form too",
        [TextMessage(Role.ASSISTANT, "Hello.", AGENT, provider_data=own(phase="commentary"))],
        [{"role": "assistant", "content": "Hello.", "phase": "commentary"}],
    ),
    (
        "several recorded message items are replayed each as its own item",
        [
            TextMessage(
                Role.ASSISTANT,
                "One. Two.",
                AGENT,
                provider_data=own(
                    messages=[
                        {"id": "msg_1", "phase": "commentary", "text": "One. "},
                        {"id": "msg_2", "phase": "final_answer", "text": "Two."},
                    ]
                ),
            )
        ],
        [
            output_message("msg_1", "One. ", "commentary"),
            output_message("msg_2", "Two.", "final_answer"),
        ],
    ),
    (
        "recorded message items whose texts no longer make up the text are not replayed",
        [
            TextMessage(
                Role.ASSISTANT,
                "Edited.",
                AGENT,
                provider_data=own(messages=[{"id": "msg_1", "text": "One."}]),
            )
        ],
        [{"role": "assistant", "content": "Edited."}],
    ),
    (
        "another provider's ids are never sent",
        [
            TextMessage(
                Role.ASSISTANT, "Hello.", AGENT, provider_data={"anthropic": {"id": "msg_9"}}
            )
        ],
        [{"role": "assistant", "content": "Hello."}],
    ),
    (
        "an image is a user item with input_image and detail auto",
        [IMAGE_FILE],
        [
            {
                "role": "user",
                "content": [{"type": "input_image", "image_url": PNG_URL, "detail": "auto"}],
            }
        ],
    ),
    (
        "an image keeps its detail",
        [ImageMessage(Role.USER, "https://example.com/cat.png", detail="low")],
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "input_image",
                        "image_url": "https://example.com/cat.png",
                        "detail": "low",
                    }
                ],
            }
        ],
    ),
    (
        "a multimodal message is one user item, parts in order",
        [MultiModalMessage(Role.USER, [TextMessage(Role.USER, "Look"), IMAGE_FILE])],
        [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Look"},
                    {"type": "input_image", "image_url": PNG_URL, "detail": "auto"},
                ],
            }
        ],
    ),
    (
        "a tool-call message: text then one function_call per call",
        [
            ToolCallMessage(
                [CALL, ToolCall("get_time", "{}", tool_call_id="call_2")],
                AGENT,
                content="Checking.",
            )
        ],
        [
            {"role": "assistant", "content": "Checking."},
            function_call(),
            {"type": "function_call", "call_id": "call_2", "name": "get_time", "arguments": "{}"},
        ],
    ),
    (
        "fc ids only from provider_data",
        [
            ToolCallMessage(
                [
                    ToolCall(
                        "get_weather",
                        '{"city": "Paris"}',
                        tool_call_id="call_1",
                        provider_data=own(id="fc_1"),
                    )
                ],
                AGENT,
            )
        ],
        [function_call(fc_id="fc_1")],
    ),
    (
        "a call without id gets the fallback id",
        [ToolCallMessage([ToolCall("get_weather", '{"city": "Paris"}')])],
        [function_call(call_id="get_weather_0")],
    ),
    (
        "results are function_call_output items",
        [ToolCallResultMessage([RESULT, ToolCall("get_time", "{}", tool_call_id="c2")])],
        [OUTPUT],
    ),
    (
        "an aggregate from self is its calls then its outputs",
        [ToolCallAggregateMessage(ToolCallMessage([CALL], AGENT), ToolCallResultMessage([RESULT]))],
        [function_call(), OUTPUT],
    ),
    (
        "an envelope of an input item passes through unchanged",
        [MessageEnvelope({"type": "item_reference", "id": "msg_7"})],
        [{"type": "item_reference", "id": "msg_7"}],
    ),
    (
        "an envelope of a developer message passes through unchanged",
        [MessageEnvelope({"role": "developer", "content": "Use tools."})],
        [{"role": "developer", "content": "Use tools."}],
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("messages", "expected"), [r[1:] for r in RULES], ids=[r[0] for r in RULES]
)
def test_rule(messages: list[Message], expected: list[dict[str, Any]], strict_mode: bool) -> None:
    request = convert(messages, strict_mode=strict_mode)
    assert request.input == expected
    assert request.messages is request.input


REASONING_RULES: list[tuple[str, ToolCallMessage | TextMessage, list[dict[str, Any]]]] = [
    (
        "reasoning goes before the item named by before",
        ToolCallMessage(
            [replace(CALL, provider_data=own(id="fc_1"))],
            AGENT,
            content="Checking.",
            reasoning=(reasoning(before="fc_1"),),
            provider_data=own(id="msg_1"),
        ),
        [output_message("msg_1", "Checking."), reasoning_item(), function_call(fc_id="fc_1")],
    ),
    (
        "without before, reasoning comes first",
        ToolCallMessage(
            [replace(CALL, provider_data=own(id="fc_1"))], AGENT, reasoning=(reasoning(),)
        ),
        [reasoning_item(), function_call(fc_id="fc_1")],
    ),
    (
        "reasoning before each of parallel calls",
        ToolCallMessage(
            [
                replace(CALL, provider_data=own(id="fc_1")),
                replace(CALL, tool_call_id="call_2", provider_data=own(id="fc_2")),
            ],
            AGENT,
            reasoning=(reasoning(before="fc_1"), reasoning("rs_2", before="fc_2")),
        ),
        [
            reasoning_item(),
            function_call(fc_id="fc_1"),
            reasoning_item("rs_2"),
            function_call("call_2", fc_id="fc_2"),
        ],
    ),
    (
        "the recorded summary texts become one part each",
        TextMessage(
            Role.ASSISTANT,
            "Hi.",
            AGENT,
            reasoning=(reasoning(summary=["A.", "B."]),),
            provider_data=own(id="msg_1"),
        ),
        [reasoning_item(texts=("A.", "B.")), output_message("msg_1", "Hi.")],
    ),
    (
        "reasoning without text has an empty summary",
        TextMessage(
            Role.ASSISTANT,
            "Hi.",
            AGENT,
            reasoning=(replace(reasoning(), text=""),),
            provider_data=own(id="msg_1"),
        ),
        [reasoning_item(texts=()), output_message("msg_1", "Hi.")],
    ),
    (
        "reasoning is omitted when the following item has no id of its own",
        ToolCallMessage([CALL], AGENT, reasoning=(reasoning(),)),
        [function_call()],
    ),
    (
        "reasoning without encrypted_content is omitted and its item loses its id",
        ToolCallMessage(
            [replace(CALL, provider_data=own(id="fc_1"))],
            AGENT,
            reasoning=(replace(reasoning(), signature=None),),
        ),
        [function_call()],
    ),
    (
        "reasoning without an rs id is omitted and the message loses its id",
        TextMessage(
            Role.ASSISTANT,
            "Hi.",
            AGENT,
            reasoning=(reasoning(None),),
            provider_data=own(id="msg_1", phase="final_answer"),
        ),
        [{"role": "assistant", "content": "Hi.", "phase": "final_answer"}],
    ),
    (
        "foreign reasoning is omitted",
        TextMessage(
            Role.ASSISTANT,
            "Hi.",
            AGENT,
            reasoning=(Reasoning("Hmm.", signature="sig", provider="anthropic"),),
            provider_data=own(id="msg_1"),
        ),
        [output_message("msg_1", "Hi.")],
    ),
    (
        "reasoning followed by reasoning: only the last one stays",
        ToolCallMessage(
            [replace(CALL, provider_data=own(id="fc_1"))],
            AGENT,
            reasoning=(reasoning(), reasoning("rs_2")),
        ),
        [reasoning_item("rs_2"), function_call(fc_id="fc_1")],
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("message", "expected"), [r[1:] for r in REASONING_RULES], ids=[r[0] for r in REASONING_RULES]
)
def test_reasoning_placement(
    message: Message, expected: list[dict[str, Any]], strict_mode: bool
) -> None:
    messages: list[Message] = [TextMessage(Role.USER, "Go"), message]
    if isinstance(message, ToolCallMessage):
        results = [replace(call, result="sunny") for call in message.tool_calls]
        messages.append(ToolCallResultMessage(results))
    request = whole(messages, strict_mode=strict_mode)
    sent = request.input[1 : 1 + len(expected)]
    assert sent == expected
    omitted = [n for n in request.notes if n.kind == "omitted"]
    assert bool(omitted) == (
        len(message.reasoning) != sum(item.get("type") == "reasoning" for item in expected)
    )


def test_indices_name_the_neutral_message_of_each_item() -> None:
    messages: list[Message] = [
        TextMessage(Role.USER, "Go"),
        ToolCallMessage([CALL], AGENT, content="Checking."),
        ToolCallResultMessage([RESULT]),
    ]
    assert whole(messages).indices == (0, 1, 1, 2)


NAMES: list[tuple[str, Message, dict[str, Any]]] = [
    (
        "another agent's text",
        TextMessage(Role.USER, "Hi", OTHER),
        {"role": "user", "content": "[critic] Hi"},
    ),
    (
        "another agent's system text",
        TextMessage(Role.SYSTEM, "Be brief.", OTHER),
        {"role": "system", "content": "[critic] Be brief."},
    ),
    (
        "another agent's image",
        ImageMessage(Role.USER, "https://example.com/cat.png", OTHER),
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "[critic] "},
                {
                    "type": "input_image",
                    "image_url": "https://example.com/cat.png",
                    "detail": "auto",
                },
            ],
        },
    ),
    (
        "another agent's aggregate",
        ToolCallAggregateMessage(
            ToolCallMessage([CALL], OTHER), ToolCallResultMessage([RESULT]), OTHER
        ),
        {"role": "user", "content": "[critic] sunny"},
    ),
]


@pytest.mark.parametrize(("message", "prefixed"), [r[1:] for r in NAMES], ids=[r[0] for r in NAMES])
def test_name_policy(message: Message, prefixed: dict[str, Any]) -> None:
    request = convert([message], name_policy="prefix", strict_mode=True)
    assert request.input == [prefixed]
    assert kinds(request) == ["repaired"]
    dropped = convert([message])
    assert kinds(dropped) == ["dropped"]
    assert dropped.input[0]["content"] != prefixed["content"]
    with pytest.raises(InvalidMessageError) as caught:
        convert([message], strict_mode=True)
    assert caught.value.index == 0
    assert caught.value.field == "from_"


def test_unknown_name_policy_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="name_policy"):
        to_openai_responses([], agent_name=AGENT, name_policy="keep")  # type: ignore[arg-type]


DROPPED: list[tuple[str, Message, type[Exception]]] = [
    ("empty text", TextMessage(Role.USER, " "), InvalidMessageError),
    ("an update", ReasoningMessageUpdate("x"), UnsupportedMessageError),
    (
        "a gs:// image",
        ImageMessage(Role.USER, "gs://bucket/cat.png"),
        UnsupportedMessageError,
    ),
    ("an http image", ImageMessage(Role.USER, "http://x.test/a.png"), UnsupportedMessageError),
    (
        "an envelope of a Chat tool message",
        MessageEnvelope({"role": "tool"}),
        UnsupportedMessageError,
    ),
    ("an envelope of a string", MessageEnvelope("hi"), UnsupportedMessageError),
]


@pytest.mark.parametrize(
    ("message", "error"), [r[1:] for r in DROPPED], ids=[r[0] for r in DROPPED]
)
def test_dropped_lenient_raises_strict(message: Message, error: type[Exception]) -> None:
    request = convert([TextMessage(Role.USER, "Hi"), message])
    assert request.input == [{"role": "user", "content": "Hi"}]
    assert kinds(request) == ["dropped"]
    assert request.notes[0].index == 1
    with pytest.raises(error) as caught:
        convert([TextMessage(Role.USER, "Hi"), message], strict_mode=True)
    assert caught.value.index == 1  # type: ignore[attr-defined]


INVALID: list[tuple[str, Message, str]] = [
    ("an image from self", ImageMessage(Role.USER, "https://x.test/a.png", AGENT), "from_"),
    (
        "a multimodal message from self",
        MultiModalMessage(Role.USER, [TextMessage(Role.USER, "x")], AGENT),
        "from_",
    ),
    ("tool calls from another agent", ToolCallMessage([CALL], OTHER), "from_"),
    ("a tool-call message with no call", ToolCallMessage([], AGENT), "tool_calls"),
    ("text without sender of role tool", TextMessage(Role.TOOL, "x"), "role"),
    ("a lone surrogate", TextMessage(Role.USER, "a\ud800b"), "content"),
    (
        "image bytes of an unknown type",
        ImageMessage(Role.USER, data=b"BM" + b"\x00" * 8, media_type="image/bmp"),
        "media_type",
    ),
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(
    ("message", "field"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID]
)
def test_invalid_in_both_modes(message: Message, field: str, strict_mode: bool) -> None:
    with pytest.raises(InvalidMessageError) as caught:
        convert([TextMessage(Role.USER, "Hi"), message], strict_mode=strict_mode)
    assert caught.value.index == 1
    assert caught.value.field == field


NOTES: list[tuple[str, list[Message], ConversionNote]] = [
    (
        "is_error is carried by the text",
        [ToolCallResultMessage([replace(RESULT, is_error=True)])],
        ConversionNote(
            0,
            "omitted",
            "is_error is not sent to OpenAI Responses; the result text carries the error",
        ),
    ),
    (
        "an id of another prefix is not sent",
        [TextMessage(Role.ASSISTANT, "Hi.", AGENT, provider_data=own(id="item_1"))],
        ConversionNote(0, "omitted", "item id 'item_1' is not a msg_ id: not sent"),
    ),
    (
        "reasoning on user text is not sent",
        [TextMessage(Role.USER, "Hi", reasoning=(reasoning(),))],
        ConversionNote(0, "omitted", "reasoning is not sent in a user item"),
    ),
]


@pytest.mark.parametrize(("messages", "note"), [r[1:] for r in NOTES], ids=[r[0] for r in NOTES])
def test_lossless_notes(messages: list[Message], note: ConversionNote) -> None:
    assert convert(messages, strict_mode=True).notes == (note,)


def test_an_item_id_is_never_sent_twice() -> None:
    text = TextMessage(Role.ASSISTANT, "Hi.", AGENT, provider_data=own(id="msg_1"))
    request = whole([TextMessage(Role.USER, "a"), text, TextMessage(Role.USER, "b"), text])
    assert request.input[3] == {"role": "assistant", "content": "Hi."}
    assert kinds(request) == ["omitted"]


def test_pairing_repairs_and_violations() -> None:
    interrupted: list[Message] = [
        ToolCallMessage([CALL], AGENT),
        TextMessage(Role.USER, "wait"),
        ToolCallResultMessage([RESULT]),
    ]
    request = whole(interrupted)
    assert request.input == [function_call(), OUTPUT, {"role": "user", "content": "wait"}]
    assert request.indices == (0, 2, 1)
    assert kinds(request) == ["repaired"]
    with pytest.raises(InvalidMessageError) as caught:
        whole([TextMessage(Role.USER, "Go"), ToolCallMessage([CALL], AGENT)])
    assert caught.value.index == 1
    assert convert([ToolCallMessage([CALL], AGENT)]).input == [function_call()]


def test_an_empty_request_raises() -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_openai_responses([TextMessage(Role.USER, "")], agent_name=AGENT)
    assert caught.value.index is None


def test_input_is_never_mutated() -> None:
    messages: list[Message] = [
        TextMessage(Role.USER, "Go"),
        ToolCallMessage(
            [replace(CALL, provider_data=own(id="fc_1"))],
            AGENT,
            reasoning=(replace(reasoning(), signature=None),),
        ),
        ToolCallResultMessage([RESULT]),
    ]
    before = copy.deepcopy(messages)
    whole(messages)
    assert messages == before
    envelope_item = {"role": "user", "content": "x"}
    to_openai_responses([MessageEnvelope(envelope_item)], agent_name=AGENT)
    assert envelope_item == {"role": "user", "content": "x"}
