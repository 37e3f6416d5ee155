"""A lone surrogate (``"a\\ud800b"``) is no Unicode text: no SDK can encode it for the wire.

Every neutral string that a conversion puts on the wire is checked, for both providers in both
modes: the conversion raises ``InvalidMessageError`` naming the message index and the field,
before anything is sent, instead of the SDK's ``UnicodeEncodeError`` mid-request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest
import respx

from llmbridge import (
    InvalidMessageError,
    Message,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
)
from llmbridge.anthropic import AnthropicChatAgent, to_anthropic
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import anthropic_client, anthropic_message, openai_client, openai_completion
from tests.corpus import AGENT
from tests.reliability.helpers import (
    ANTHROPIC_URL,
    OPENAI_URL,
    PROVIDERS,
    Provider,
    Raises,
    Sends,
    convert,
    expect,
    messages_of,
)

BAD = "a\ud800b"
USER = TextMessage(Role.USER, "Hi")


def round_trip(
    *, name: str = "get_weather", arguments: str = "{}", call_id: str = "c1", result: str = "18C"
) -> list[Message]:
    """A user turn, one call and its result, with the given parts."""
    call = ToolCall(name, arguments, tool_call_id=call_id)
    answer = ToolCall(name, "{}", tool_call_id=call_id, result=result)
    return [USER, ToolCallMessage([call], AGENT), ToolCallResultMessage([answer])]


# (messages, index, field): the same outcome for both providers.
ON_THE_WIRE = [
    pytest.param([TextMessage(Role.USER, BAD)], 0, "content", id="user_text"),
    pytest.param([USER, TextMessage(Role.ASSISTANT, BAD, AGENT)], 1, "content", id="own_text"),
    pytest.param([TextMessage(Role.SYSTEM, BAD), USER], 0, "content", id="system_text"),
    pytest.param(
        [MultiModalMessage(Role.USER, [TextMessage(Role.USER, "ok"), TextMessage(Role.USER, BAD)])],
        0,
        "content[1]",
        id="multimodal_text_part",
    ),
    pytest.param(
        [
            USER,
            ToolCallMessage([ToolCall("f", "{}", tool_call_id="c1")], AGENT, content=BAD),
            ToolCallResultMessage([ToolCall("f", "{}", tool_call_id="c1", result="ok")]),
        ],
        1,
        "content",
        id="text_beside_tool_calls",
    ),
    pytest.param(
        round_trip(arguments='{"q": "' + BAD + '"}'),
        1,
        "tool_calls[0].function_arguments",
        id="tool_call_arguments",
    ),
    pytest.param(round_trip(result=BAD), 2, "tool_calls[0].result", id="tool_result"),
    pytest.param(
        [USER, ToolCallAggregateMessage(*round_trip(result=BAD)[1:], from_="critic")],
        1,
        "tool_calls[0].result",
        id="another_agents_tool_result_as_text",
    ),
    pytest.param(
        round_trip(name="get\ud800weather"),
        1,
        "tool_calls[0].function_name",
        id="function_name",
    ),
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(("messages", "index", "field"), ON_THE_WIRE)
def test_lone_surrogate_on_the_wire_is_an_invalid_message(
    provider: Provider, messages: Sequence[Message], index: int, field: str
) -> None:
    expect(provider, messages, Raises(InvalidMessageError, index, field))


def test_openai_sender_name_with_a_lone_surrogate_is_an_invalid_message() -> None:
    messages = [TextMessage(Role.USER, "Hi", "bot\ud800")]

    expect("openai", messages, Raises(InvalidMessageError, 0, "from_"))


@pytest.mark.parametrize(
    "call_id",
    [pytest.param("c\ud800", id="short"), pytest.param("c\ud800" + "x" * 50, id="shortened")],
)
def test_openai_tool_call_id_with_a_lone_surrogate_is_an_invalid_message(call_id: str) -> None:
    expect(
        "openai",
        round_trip(call_id=call_id),
        Raises(InvalidMessageError, 1, "tool_calls[0].tool_call_id"),
    )


def first_openai_arguments(request: Any) -> Any:
    return request.messages[1]["tool_calls"][0]["function"]["arguments"]


def first_anthropic_input(request: Any) -> Any:
    return request.messages[1]["content"][0]["input"]


def test_openai_sends_an_escaped_lone_surrogate_in_arguments_verbatim() -> None:
    # "\\ud800" is six ASCII characters: OpenAI gets the arguments text as it is.
    arguments = '{"q": "\\ud800"}'

    expect("openai", round_trip(arguments=arguments), Sends(first_openai_arguments, arguments))


def test_anthropic_escaped_lone_surrogate_in_arguments_is_an_invalid_message() -> None:
    # Anthropic gets the parsed input, in which the escape has become a lone surrogate.
    messages = round_trip(arguments='{"q": "\\ud800"}')

    expect(
        "anthropic", messages, Raises(InvalidMessageError, 1, "tool_calls[0].function_arguments")
    )


def test_anthropic_escaped_surrogate_pair_in_arguments_is_fine() -> None:
    messages = round_trip(arguments='{"q": "\\ud83d\\ude00"}')

    expect("anthropic", messages, Sends(first_anthropic_input, {"q": "\U0001f600"}))


def test_anthropic_sender_name_sent_as_a_prefix_with_a_lone_surrogate_is_invalid() -> None:
    messages = [TextMessage(Role.USER, "Hi", "bot\ud800")]

    expect("anthropic", messages, Raises(InvalidMessageError, 0, "from_"), name_policy="prefix")


def test_anthropic_reasoning_with_a_lone_surrogate_is_an_invalid_message() -> None:
    thought = Reasoning(BAD, signature="sig", provider="anthropic")
    messages = [USER, TextMessage(Role.ASSISTANT, "Done.", AGENT, reasoning=(thought,))]

    expect("anthropic", messages, Raises(InvalidMessageError, 1, "reasoning[0].text"))


def test_anthropic_system_argument_with_a_lone_surrogate_is_an_invalid_message() -> None:
    with pytest.raises(InvalidMessageError) as caught:
        to_anthropic([USER], agent_name=AGENT, system=BAD)

    assert (caught.value.index, caught.value.field) == (None, "system")


def sent_ids(request: Any) -> tuple[str, str]:
    return request.messages[1]["content"][0]["id"], request.messages[2]["content"][0]["tool_use_id"]


def test_anthropic_tool_call_id_with_a_lone_surrogate_is_rewritten_like_any_invalid_id() -> None:
    request = convert("anthropic", round_trip(call_id="c\ud800"))

    call_id, result_id = sent_ids(request)
    assert call_id == result_id
    assert re.fullmatch(r"[a-zA-Z0-9_-]+", call_id)
    assert [(note.index, note.kind) for note in request.notes] == [(1, "repaired"), (2, "repaired")]


def agent(provider: Provider, router: respx.Router) -> Any:
    if provider == "openai":
        router.post(OPENAI_URL).respond(json=openai_completion("ok"))
        inner: Any = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
    else:
        router.post(ANTHROPIC_URL).respond(json=anthropic_message("ok"))
        inner = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
    return inner.register_message_connector()


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_connected_agent_raises_before_sending_a_lone_surrogate(provider: Provider) -> None:
    router = respx.Router(assert_all_called=False)

    with pytest.raises(InvalidMessageError) as caught:
        await agent(provider, router).send(BAD)

    assert (caught.value.index, caught.value.field) == (0, "content")
    assert not router.calls, "nothing was sent"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_valid_non_ascii_text_is_sent_unchanged(provider: Provider) -> None:
    text = "héllo ✓ \U0001f600"

    request = convert(provider, [TextMessage(Role.USER, text)])

    assert text in str(messages_of(request))
