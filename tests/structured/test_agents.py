"""``output_schema`` through the provider agents, their connectors, ``send`` and ``stream``:
exact request bodies sent by the real SDK clients (API.md 17)."""

from __future__ import annotations

import logging
from typing import Any

import anthropic
import httpx
import pytest

from llmbridge import (
    GenerateReplyOptions,
    Message,
    OutputValidationError,
    RefusalError,
    Role,
    TextMessage,
    parse_output,
    send,
    stream,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.kit import strict_json_schema
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import (
    ScriptedProvider,
    openai_chunk,
    openai_completion,
    openai_sse_response,
)
from tests.anthropic.wire import assert_valid_request
from tests.openai import wire
from tests.structured.models import DICT_SCHEMA, LISTING, LISTING_JSON, Listing

OPTIONS = GenerateReplyOptions(output_schema=Listing)


def agents(provider: ScriptedProvider, **kwargs: Any) -> dict[str, Any]:
    return {
        "openai": OpenAIChatAgent(
            provider.openai_client(), name="assistant", model="gpt-4o-mini", **kwargs
        ).register_message_connector(),
        "anthropic": AnthropicChatAgent(
            provider.anthropic_client(), name="assistant", model="claude-sonnet-4-5", **kwargs
        ).register_message_connector(),
    }


def checked_bodies(provider: ScriptedProvider) -> list[dict[str, Any]]:
    """Every body sent, each put through the strict wire validator of its provider."""
    for request in provider.requests:
        if request.provider == "openai":
            wire.check_request_body(request.body)
        else:
            assert_valid_request(request.body)
    return provider.bodies()


async def final(agent: Any, message: str, *, options: GenerateReplyOptions) -> Message:
    """The last message of the stream: the complete reply."""
    items = [item async for item in stream(agent, message, options=options)]
    return items[-1]


@pytest.mark.parametrize("path", ["send", "stream"])
@pytest.mark.parametrize("tag", ["openai", "anthropic"])
async def test_a_model_schema_goes_out_in_the_provider_dialect_and_the_reply_parses(
    tag: str, path: str
) -> None:
    provider = ScriptedProvider([LISTING_JSON])
    agent = agents(provider)[tag]
    if path == "send":
        reply = await send(agent, "Describe the flat", options=OPTIONS)
    else:
        reply = await final(agent, "Describe the flat", options=OPTIONS)
    assert isinstance(reply, TextMessage)
    assert parse_output(reply, Listing) == LISTING
    [body] = checked_bodies(provider)
    if tag == "openai":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {
                "name": "Listing",
                "schema": strict_json_schema(Listing.model_json_schema())[0],
                "strict": True,
            },
        }
    else:
        assert body["output_config"] == {
            "format": {
                "type": "json_schema",
                "schema": anthropic.transform_schema(Listing.model_json_schema()),
            }
        }
        assert body["output_config"]["format"]["schema"]["required"] == ["title", "kind", "rooms"]
    assert body.get("stream", False) is (path == "stream")


async def test_a_dict_schema_is_named_output_and_sent_without_mutating_it() -> None:
    provider = ScriptedProvider(['{"city": "Oslo", "zip": null}', '{"city": "Oslo"}'])
    before = repr(DICT_SCHEMA)
    options = GenerateReplyOptions(output_schema=DICT_SCHEMA)
    found = agents(provider)
    assert parse_output(await send(found["openai"], "Where?", options=options), DICT_SCHEMA) == {
        "city": "Oslo",
        "zip": None,
    }
    await send(found["anthropic"], "Where?", options=options)
    openai_body, anthropic_body = checked_bodies(provider)
    assert openai_body["response_format"]["json_schema"] == {
        "name": "output",
        "schema": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "zip": {"type": ["string", "null"], "description": "{maxLength: 5}"},
            },
            "required": ["city", "zip"],
            "additionalProperties": False,
        },
        "strict": True,
    }
    assert anthropic_body["output_config"] == {
        "format": {
            "type": "json_schema",
            "schema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "zip": {"type": "string", "description": "{maxLength: 5}"},
                },
                "additionalProperties": False,
                "required": ["city"],
            },
        }
    }
    assert repr(DICT_SCHEMA) == before


async def test_without_output_schema_no_format_is_sent() -> None:
    provider = ScriptedProvider(["hi", "hi"])
    for agent in agents(provider).values():
        await send(agent, "Hi", options=GenerateReplyOptions(temperature=0.1))
    openai_body, anthropic_body = checked_bodies(provider)
    assert "response_format" not in openai_body
    assert "output_config" not in anthropic_body


async def test_anthropic_keeps_other_output_config_settings_beside_the_format() -> None:
    provider = ScriptedProvider([LISTING_JSON])
    agent = agents(provider, output_config={"effort": "low"})["anthropic"]
    await send(agent, "Describe", options=OPTIONS)
    [body] = checked_bodies(provider)
    assert body["output_config"]["effort"] == "low"
    assert body["output_config"]["format"]["type"] == "json_schema"


@pytest.mark.parametrize(
    ("tag", "setting"),
    [
        ("openai", {"response_format": {"type": "json_object"}}),
        ("anthropic", {"output_config": {"format": {"type": "json_schema", "schema": {}}}}),
    ],
    ids=["openai: output_schema and response_format", "anthropic: output_schema and a format"],
)
async def test_output_schema_and_a_format_setting_together_are_refused_before_sending(
    tag: str, setting: dict[str, Any]
) -> None:
    provider = ScriptedProvider([])
    agent = agents(provider)[tag]
    options = GenerateReplyOptions(output_schema=Listing, extra=setting)
    with pytest.raises(ValueError, match="pass only one"):
        await send(agent, "Hi", options=options)
    assert provider.requests == []


async def test_a_schema_anthropic_cannot_transform_is_a_value_error_before_sending() -> None:
    provider = ScriptedProvider([])
    schema = {"type": "object", "properties": {"anything": {}}, "required": ["anything"]}
    with pytest.raises(ValueError, match="cannot be sent to Anthropic: Schema must have a 'type'"):
        await send(
            agents(provider)["anthropic"], "Hi", options=GenerateReplyOptions(output_schema=schema)
        )
    assert provider.requests == []


@pytest.mark.parametrize("tag", ["openai", "anthropic"])
async def test_repaired_notes_are_logged_once_per_agent(
    tag: str, caplog: pytest.LogCaptureFixture
) -> None:
    provider = ScriptedProvider([LISTING_JSON, LISTING_JSON])
    agent = agents(provider)[tag]
    with caplog.at_level(logging.INFO, logger="llmbridge"):
        await send(agent, "One", options=OPTIONS)
        await send(agent, "Two", options=OPTIONS)
    logged = [r.getMessage() for r in caplog.records if "output_schema at" in r.getMessage()]
    assert any(
        "/$defs/Room/properties/name: " in line and "moved into the description" in line
        for line in logged
    )
    assert all(
        record.levelno == logging.INFO
        for record in caplog.records
        if "output_schema" in record.getMessage()
    )
    assert len(logged) == len(set(logged))


def openai_refusal(path: str) -> httpx.Response:
    if path == "send":
        return httpx.Response(200, json=openai_completion(refusal="I can't help with that"))
    chunks = [
        openai_chunk({"role": "assistant", "refusal": "I can't help with that"}),
        openai_chunk(finish_reason="stop"),
    ]
    return openai_sse_response(chunks)


@pytest.mark.parametrize("path", ["send", "stream"])
async def test_a_refusal_stays_a_refusal_error(path: str) -> None:
    anthropic_refusal = TextMessage(Role.ASSISTANT, "", finish_reason="refusal")
    provider = ScriptedProvider([openai_refusal(path), anthropic_refusal])
    for agent in agents(provider).values():
        with pytest.raises(RefusalError):
            await (send if path == "send" else final)(agent, "Describe", options=OPTIONS)
    assert len(checked_bodies(provider)) == 2


@pytest.mark.parametrize("tag", ["openai", "anthropic"])
async def test_a_reply_cut_at_the_token_limit_is_an_output_validation_error(tag: str) -> None:
    cut = TextMessage(Role.ASSISTANT, LISTING_JSON[:30], finish_reason="length")
    provider = ScriptedProvider([cut])
    reply = await final(agents(provider)[tag], "Describe", options=OPTIONS)
    with pytest.raises(OutputValidationError, match="cut off") as caught:
        parse_output(reply, Listing)
    assert caught.value.text == LISTING_JSON[:30]
