"""Raw provider messages (``MessageEnvelope`` of a dict) checked against the target provider.

An envelope whose role the target does not take (another provider's message, such as OpenAI's
``{"role": "tool"}`` given to Anthropic) is dropped with a note, or raises
``UnsupportedMessageError`` naming it in strict mode, in ``to_x`` and in the connectors alike.
For Anthropic, a user or assistant envelope merges with the neighbouring turns of its role.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import respx

from llmbridge import (
    Message,
    MessageEnvelope,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector
from llmbridge.openai import OpenAIChatAgent, OpenAIChatRequestMessageConnector
from llmbridge.testing import anthropic_client, anthropic_message, openai_client, openai_completion
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT
from tests.openai import wire as openai_wire
from tests.reliability.helpers import (
    ANTHROPIC_URL,
    OPENAI_URL,
    PROVIDERS,
    Provider,
    Raises,
    Sends,
    a_assistant,
    a_result,
    a_text,
    a_use,
    a_user,
    convert,
    expect,
    messages_of,
    note_kinds,
    o_user,
)

QUESTION = TextMessage(Role.USER, "Weather?")
OPENAI_TOOL = {"role": "tool", "tool_call_id": "c1", "content": "18C"}
FOREIGN: dict[str, tuple[dict[str, Any], tuple[Provider, ...]]] = {
    # id -> (envelope payload, the providers that do not take it)
    "openai-tool-message": (OPENAI_TOOL, ("anthropic",)),
    "openai-function-message": ({"role": "function", "name": "f", "content": "1"}, ("anthropic",)),
    "developer-message": ({"role": "developer", "content": "Be brief."}, ("anthropic",)),
    "gemini-model-content": ({"role": "model", "parts": [{"text": "hi"}]}, PROVIDERS),
    "unknown-role": ({"role": "critic", "content": "no"}, PROVIDERS),
    "no-role": ({"content": "hello"}, PROVIDERS),
    "role-that-is-not-a-string": ({"role": ["user"], "content": "hello"}, PROVIDERS),
}


def _question(provider: Provider) -> dict[str, Any]:
    return o_user("Weather?") if provider == "openai" else a_user(a_text("Weather?"))


REFUSED = [
    pytest.param(provider, payload, id=f"{name}-{provider}")
    for name, (payload, refused_by) in FOREIGN.items()
    for provider in refused_by
]


@pytest.mark.parametrize(("provider", "payload"), REFUSED)
def test_an_envelope_of_a_role_the_target_does_not_take_is_dropped_or_raises(
    provider: Provider, payload: dict[str, Any]
) -> None:
    messages: list[Message] = [QUESTION, MessageEnvelope(payload)]
    lenient = Sends(messages_of, [_question(provider)], notes=[(1, "dropped")])
    expect(provider, messages, lenient, Raises(UnsupportedMessageError, 1))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_envelopes_of_the_targets_own_roles_pass(provider: Provider) -> None:
    if provider == "openai":
        own = [{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "Hi"}]
        expect(provider, [MessageEnvelope(p) for p in own], Sends(messages_of, own))
    else:
        system = MessageEnvelope({"role": "system", "content": "Be brief."})
        user = {"role": "user", "content": [a_text("Hi")]}
        expect(provider, [system, MessageEnvelope(user)], Sends(messages_of, [user]))


def _connector(provider: Provider, strict_mode: bool) -> Any:
    if provider == "openai":
        return OpenAIChatRequestMessageConnector(strict_mode=strict_mode)
    return AnthropicMessageConnector(strict_mode=strict_mode)


def _agent(provider: Provider, router: respx.Router) -> Any:
    if provider == "openai":
        return OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-test")
    return AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")


FOREIGN_TO = {"openai": {"role": "model", "parts": []}, "anthropic": OPENAI_TOOL}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_process_incoming_messages_checks_envelope_roles(provider: Provider) -> None:
    messages = [QUESTION, MessageEnvelope(FOREIGN_TO[provider])]
    agent = _agent(provider, respx.Router())

    lenient = _connector(provider, False).process_incoming_messages(agent, messages)
    with pytest.raises(UnsupportedMessageError) as caught:
        _connector(provider, True).process_incoming_messages(agent, messages)

    assert len(lenient) == 1
    assert caught.value.index == 1


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_foreign_envelope_never_reaches_the_agent(provider: Provider) -> None:
    router = respx.Router()
    body = openai_completion("Sunny.") if provider == "openai" else anthropic_message("Sunny.")
    route = router.post(OPENAI_URL if provider == "openai" else ANTHROPIC_URL).respond(json=body)
    history = [QUESTION, MessageEnvelope(FOREIGN_TO[provider])]

    with pytest.raises(UnsupportedMessageError) as caught:
        await (
            _agent(provider, router)
            .register_message_connector(_connector(provider, True))
            .send(chat_history=history)
        )
    assert caught.value.index == 1
    assert not route.called

    reply = await _agent(provider, router).register_message_connector().send(chat_history=history)
    assert reply.get_content() == "Sunny."
    sent = json.loads(route.calls[0].request.content)
    if provider == "openai":
        openai_wire.check_request_body(sent)
    else:
        assert_valid_request(sent)
    assert sent["messages"] == [_question(provider)]


# -- Anthropic: envelopes merge with their neighbours ------------------------------------------

CALL = ToolCallMessage([ToolCall("get_weather", "{}", tool_call_id="c1")], AGENT)
RESULT = ToolCallResultMessage([ToolCall("get_weather", "{}", tool_call_id="c1", result="18C")])
MERGES: dict[str, tuple[list[Message], list[Any], list[tuple[int | None, str]]]] = {
    "user-envelope-after-user-text": (
        [QUESTION, MessageEnvelope({"role": "user", "content": "In Paris."})],
        [a_user(a_text("Weather?"), a_text("In Paris."))],
        [(1, "merged")],
    ),
    "user-text-after-user-envelope-of-blocks": (
        [MessageEnvelope({"role": "user", "content": [a_text("Weather?")]}), QUESTION],
        [a_user(a_text("Weather?"), a_text("Weather?"))],
        [(1, "merged")],
    ),
    "two-user-envelopes": (
        [
            MessageEnvelope({"role": "user", "content": "a"}),
            MessageEnvelope({"role": "user", "content": "b"}),
        ],
        [a_user(a_text("a"), a_text("b"))],
        [(1, "merged")],
    ),
    "assistant-envelope-before-own-text": (
        [
            QUESTION,
            MessageEnvelope({"role": "assistant", "content": "Let me see."}),
            TextMessage(Role.ASSISTANT, "Sunny.", AGENT),
        ],
        [a_user(a_text("Weather?")), a_assistant(a_text("Let me see."), a_text("Sunny."))],
        [(2, "merged")],
    ),
    "user-envelope-after-tool-results-goes-after-them": (
        [QUESTION, CALL, RESULT, MessageEnvelope({"role": "user", "content": "Thanks."})],
        [
            a_user(a_text("Weather?")),
            a_assistant(a_use("c1", "get_weather", {})),
            a_user(a_result("c1", "18C"), a_text("Thanks.")),
        ],
        [(3, "merged")],
    ),
    "tool-results-after-a-user-envelope-move-to-the-front": (
        [QUESTION, CALL, MessageEnvelope({"role": "user", "content": "Hurry."}), RESULT],
        [
            a_user(a_text("Weather?")),
            a_assistant(a_use("c1", "get_weather", {})),
            a_user(a_result("c1", "18C"), a_text("Hurry.")),
        ],
        # the pairing step moves the envelope after the results (repaired), then it merges
        [(2, "repaired"), (2, "merged")],
    ),
}


@pytest.mark.parametrize(("messages", "sent", "notes"), MERGES.values(), ids=MERGES.keys())
def test_anthropic_envelopes_merge_with_neighbouring_turns_of_their_role(
    messages: list[Message], sent: list[Any], notes: list[tuple[int | None, str]]
) -> None:
    expect("anthropic", messages, Sends(messages_of, sent, notes=notes))  # strict alike


def test_a_developer_envelope_the_anthropic_target_drops_is_not_moved_by_the_pairing_step() -> None:
    developer = MessageEnvelope({"role": "developer", "content": "Be brief."})
    messages = [QUESTION, CALL, developer, RESULT]
    # OpenAI takes it: moved after the results. Anthropic drops it: left where it is.
    assert note_kinds(convert("openai", messages)) == [(2, "repaired")]
    assert note_kinds(convert("anthropic", messages)) == [(2, "dropped")]


def test_an_anthropic_envelope_of_blocks_it_cannot_read_is_sent_as_it_is() -> None:
    odd = {"role": "user", "content": [{"type": ["text"], "text": "odd"}]}
    messages = [QUESTION, MessageEnvelope(odd), TextMessage(Role.USER, "b")]
    sent = [a_user(a_text("Weather?")), odd, a_user(a_text("b"))]
    # Not merged (nor validated: the caller's payload goes as given, for the API to judge).
    expect("anthropic", messages, Sends(messages_of, sent, wire=False))
