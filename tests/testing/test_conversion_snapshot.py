"""The document ``conversion_snapshot`` pins: a section per provider, payload and notes or error.

These run ``ConversionSnapshot`` over a recorder standing in for syrupy's ``snapshot`` (so no
snapshot file is written); tests/testing/test_plugin.py runs the fixtures in a user's project.
This module is also the wing of a provider registered at run time (its ``request_payload``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from llmbridge import ConversionNote, Message, MiddlewareStreamingAgent, Role, TextMessage
from llmbridge.kit import ProviderInfo, provider_tags
from llmbridge.kit import _providers as registry
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ConversionSnapshot, ScriptedProvider

HISTORY = [TextMessage(Role.SYSTEM, "Be brief."), TextMessage(Role.USER, "Hi", "Zoë")]
RENAMED = "1 renamed: name 'Zoë' does not match ^[a-zA-Z0-9_-]{1,64}$: renamed 'Zo__c6a12698'"


def request_payload(
    messages: Sequence[Message], *, agent_name: str, strict_mode: bool, name_policy: str
) -> tuple[dict[str, Any], tuple[ConversionNote, ...]]:
    """The wing of the ``toy`` provider: the texts, and a note on no single message."""
    texts = [str(message.get_content()) for message in messages]
    return {"texts": texts, "by": agent_name}, (ConversionNote(None, "omitted", name_policy),)


class Recorder:
    """Stands in for syrupy's ``SnapshotAssertion``: keeps what ``assert_match`` got."""

    def __init__(self) -> None:
        self.matched: list[Any] = []

    def assert_match(self, data: Any) -> None:
        self.matched.append(data)


def info(tag: str, package: str) -> ProviderInfo:
    return ProviderInfo(tag, tag.title(), package, tag, "model", "MODEL", "KEY")


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def pin(recorder: Recorder) -> ConversionSnapshot:
    return ConversionSnapshot(recorder)  # type: ignore[arg-type]


# (arguments, provider tag, the section of that provider in the document)
SECTIONS = {
    "payload and notes of each provider, notes as '<index> <kind>: <detail>'": (
        {},
        "openai",
        {
            "payload": {
                "messages": [
                    {"role": "system", "content": "Be brief."},
                    {"role": "user", "content": "Hi", "name": "Zo__c6a12698"},
                ]
            },
            "notes": [RENAMED],
        },
    ),
    "a lossy note on the other provider": (
        {},
        "anthropic",
        {
            "payload": {
                "system": [{"type": "text", "text": "Be brief."}],
                "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
            },
            "notes": ["1 dropped: sender name 'Zoë' cannot be sent to Anthropic"],
        },
    ),
    "strict mode pins the error instead": (
        {"strict_mode": True},
        "anthropic",
        {
            "error": "InvalidMessageError: message 1, field 'from_': sender name 'Zoë' "
            "cannot be sent to Anthropic (strict mode)"
        },
    ),
    "the name policy is passed on": (
        {"name_policy": "prefix"},
        "anthropic",
        {
            "payload": {
                "system": [{"type": "text", "text": "Be brief."}],
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "[Zoë] "},
                            {"type": "text", "text": "Hi"},
                        ],
                    }
                ],
            },
            "notes": ["1 repaired: sender name carried as a '[Zoë] ' prefix"],
        },
    ),
}


@pytest.mark.parametrize(("arguments", "tag", "section"), SECTIONS.values(), ids=list(SECTIONS))
def test_document_section(
    pin: ConversionSnapshot,
    recorder: Recorder,
    arguments: dict[str, Any],
    tag: str,
    section: dict[str, Any],
) -> None:
    document = pin(HISTORY, **arguments)

    assert document[tag] == section
    assert recorder.matched == [document]  # asserted once, as one document


def test_the_agent_name_decides_who_speaks_as_assistant(pin: ConversionSnapshot) -> None:
    history = [TextMessage(Role.ASSISTANT, "Hello.", "bot")]

    as_bot = pin(history, "bot", ["openai"])["openai"]["payload"]["messages"]
    as_other = pin(history, "assistant", ["openai"])["openai"]["payload"]["messages"]

    assert [m["role"] for m in as_bot + as_other] == ["assistant", "user"]


@pytest.mark.parametrize(
    ("providers", "tags"),
    [(None, list(provider_tags())), (["anthropic", "openai"], ["anthropic", "openai"])],
    ids=["every installed provider in registry order", "the named ones in the order named"],
)
def test_document_sections(
    pin: ConversionSnapshot, providers: list[str] | None, tags: list[str]
) -> None:
    assert list(pin(HISTORY, providers=providers)) == tags


def test_snapshot_file_keeps_the_document_and_payload_order(
    pin: ConversionSnapshot, recorder: Recorder
) -> None:
    pin(HISTORY, providers=["openai", "anthropic"])

    text = JSONSnapshotExtension().serialize(recorder.matched[0])

    # syrupy sorts plain dict keys; the file reads in registry order, payloads as sent.
    assert text.index('"openai"') < text.index('"anthropic"')
    assert text.index('"payload"') < text.index('"notes"')
    assert text.index('"role": "system"') < text.index('"content": "Be brief."')


def test_a_wing_registered_later_is_covered(
    pin: ConversionSnapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "toy", info("toy", __name__))

    document = pin(HISTORY, "bot", name_policy="prefix")

    assert list(document) == ["openai", "anthropic", "gemini", "toy"]
    assert document["toy"] == {
        "payload": {"texts": ["Be brief.", "Hi"], "by": "bot"},
        "notes": ["request omitted: prefix"],
    }


@pytest.mark.parametrize(
    ("providers", "error", "match"),
    [
        (["toy"], pytest.fail.Exception, "'toy': No module named 'toy_sdk_not_installed'"),
        (["opnai"], KeyError, "no provider 'opnai'; known: openai, anthropic, gemini, toy"),
        ("openai", TypeError, r"a list of provider tags, such as \['openai'\]"),
    ],
    ids=[
        "a named provider whose SDK is missing fails with its ImportError",
        "an unknown tag names the known ones",
        "a single string is refused",
    ],
)
def test_named_providers_refused(
    pin: ConversionSnapshot,
    recorder: Recorder,
    monkeypatch: pytest.MonkeyPatch,
    providers: Any,
    error: type[Exception],
    match: str,
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "toy", info("toy", "toy_sdk_not_installed"))

    with pytest.raises(error, match=match):
        pin(HISTORY, providers=providers)
    assert recorder.matched == []


def test_a_provider_whose_sdk_is_missing_is_left_out(
    pin: ConversionSnapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "toy", info("toy", "toy_sdk_not_installed"))

    assert list(pin(HISTORY)) == ["openai", "anthropic", "gemini"]


def test_a_broken_wing_of_llmbridge_itself_is_not_mistaken_for_a_missing_sdk(
    pin: ConversionSnapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._REGISTRY, "toy", info("toy", "llmbridge.no_such_wing"))

    with pytest.raises(ImportError, match=r"llmbridge\.no_such_wing"):
        pin(HISTORY)


def test_no_installed_provider_fails_the_test(
    pin: ConversionSnapshot, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent = info("toy", "toy_sdk_not_installed")
    monkeypatch.setattr(registry, "_REGISTRY", {"toy": absent})

    with pytest.raises(pytest.fail.Exception, match="no provider SDK is installed"):
        pin(HISTORY)
    assert recorder.matched == []


def test_the_conversation_is_not_changed(pin: ConversionSnapshot) -> None:
    history = list(HISTORY)

    pin(history, strict_mode=True)

    assert history == HISTORY


async def test_scripted_provider_fixture_drives_an_agent(
    scripted_provider: Any,
) -> None:
    # The project's own suite has the plugin too: the editable install registers it.
    model: ScriptedProvider = scripted_provider(["Bonjour !", "Salut !"], chunk_delay=0.0)
    agent: MiddlewareStreamingAgent = OpenAIChatAgent(
        model.openai_client(), name="assistant", model="gpt-test"
    ).register_message_connector()

    sent = await agent.send("Hi")
    streamed = [message async for message in agent.stream("Hi again")]

    assert (sent.get_content(), streamed[-1].get_content()) == ("Bonjour !", "Salut !")
    assert len(streamed) > 2  # the deltas came first
    assert [request.stream for request in model.requests] == [False, True]
