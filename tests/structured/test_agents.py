"""``output_schema`` through the provider agents, their connectors, ``send`` and ``stream``:
exact request bodies sent by the real SDK clients (API.md 17)."""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

import anthropic
import httpx
import pytest
import respx

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
from llmbridge.openai import OpenAIChatAgent, OpenAIResponsesAgent
from llmbridge.testing import (
    ScriptedProvider,
    openai_chunk,
    openai_client,
    openai_completion,
    openai_response,
    openai_response_events,
    openai_response_message,
    openai_responses_sse_response,
    openai_sse_response,
)
from tests.anthropic.wire import assert_valid_request
from tests.openai import wire
from tests.openai_responses import wire as responses_wire
from tests.structured.models import DICT_SCHEMA, LISTING, LISTING_JSON, Listing
from tests.structured.providers import TAGS, Served

OPTIONS = GenerateReplyOptions(output_schema=Listing)
STRICT_LISTING = strict_json_schema(Listing.model_json_schema())[0]


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


def expected_fields(tag: str, name: str, original: dict[str, Any]) -> dict[str, Any]:
    """What API.md 17 says each provider gets for a schema (its JSON schema ``original``)."""
    strict = strict_json_schema(original)[0]
    match tag:
        case "openai":
            format_ = {"name": name, "schema": strict, "strict": True}
            return {"response_format": {"type": "json_schema", "json_schema": format_}}
        case "openai-responses":
            format_ = {"type": "json_schema", "name": name, "schema": strict, "strict": True}
            return {"text": {"format": format_}}
        case "anthropic":
            schema = anthropic.transform_schema(original)
            return {"output_config": {"format": {"type": "json_schema", "schema": schema}}}
        case _:
            return {"responseMimeType": "application/json", "responseJsonSchema": original}


@pytest.mark.parametrize("path", ["send", "stream"])
@pytest.mark.parametrize("tag", TAGS)
async def test_a_model_schema_goes_out_in_the_provider_dialect_and_the_reply_parses(
    tag: str, path: str
) -> None:
    served = Served(tag, [(LISTING_JSON, "stop")])
    if path == "send":
        reply = await send(served.agent, "Describe the flat", options=OPTIONS)
    else:
        reply = await final(served.agent, "Describe the flat", options=OPTIONS)
    assert isinstance(reply, TextMessage)
    assert parse_output(reply, Listing) == LISTING
    assert served.format_fields() == expected_fields(tag, "Listing", Listing.model_json_schema())
    assert len(served.bodies()) == 1


def test_anthropic_keeps_the_required_list_and_openai_requires_every_property() -> None:
    anthropic_fields = expected_fields("anthropic", "Listing", Listing.model_json_schema())
    assert anthropic_fields["output_config"]["format"]["schema"]["required"] == [
        "title",
        "kind",
        "rooms",
    ]
    assert STRICT_LISTING["required"] == ["title", "kind", "rooms", "tags", "garden", "floor"]


@pytest.mark.parametrize("tag", TAGS)
async def test_a_dict_schema_is_named_output_and_sent_without_mutating_it(tag: str) -> None:
    served = Served(tag, [('{"city": "Oslo", "zip": null}', "stop")])
    before = copy.deepcopy(DICT_SCHEMA)
    options = GenerateReplyOptions(output_schema=DICT_SCHEMA)
    reply = await send(served.agent, "Where?", options=options)
    assert parse_output(reply, DICT_SCHEMA) == {"city": "Oslo", "zip": None}
    assert served.format_fields() == expected_fields(tag, "output", before)
    assert before == DICT_SCHEMA


def test_the_dict_schema_in_each_dialect() -> None:
    openai_schema = expected_fields("openai", "output", DICT_SCHEMA)["response_format"]
    assert openai_schema["json_schema"]["schema"]["properties"]["zip"] == {
        "type": ["string", "null"],
        "description": "{maxLength: 5}",
    }
    anthropic_schema = expected_fields("anthropic", "output", DICT_SCHEMA)["output_config"]
    assert anthropic_schema["format"]["schema"]["properties"]["zip"] == {
        "type": "string",
        "description": "{maxLength: 5}",
    }


@pytest.mark.parametrize("tag", TAGS)
async def test_without_output_schema_no_format_is_sent(tag: str) -> None:
    served = Served(tag, [("hi", "stop")])
    await send(served.agent, "Hi", options=GenerateReplyOptions(temperature=0.1))
    assert set(served.format_fields().values()) == {None}


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
        ("openai-responses", {"text": {"format": {"type": "json_object"}}}),
        ("anthropic", {"output_config": {"format": {"type": "json_schema", "schema": {}}}}),
        ("gemini", {"response_json_schema": {"type": "object"}}),
        ("gemini", {"response_mime_type": "text/x.enum"}),
    ],
    ids=[
        "openai: output_schema and response_format",
        "responses: output_schema and a text format",
        "anthropic: output_schema and an output_config format",
        "gemini: output_schema and a response schema",
        "gemini: output_schema and a MIME type that is not JSON",
    ],
)
async def test_output_schema_and_a_format_setting_together_are_refused_before_sending(
    tag: str, setting: dict[str, Any]
) -> None:
    served = Served(tag, [])
    options = GenerateReplyOptions(output_schema=Listing, extra=setting)
    with pytest.raises(ValueError, match=r"pass only one|needs response_mime_type"):
        await send(served.agent, "Hi", options=options)
    assert served.bodies() == []


async def test_a_schema_anthropic_cannot_transform_is_a_value_error_before_sending() -> None:
    provider = ScriptedProvider([])
    schema = {"type": "object", "properties": {"anything": {}}, "required": ["anything"]}
    with pytest.raises(ValueError, match="cannot be sent to Anthropic: Schema must have a 'type'"):
        await send(
            agents(provider)["anthropic"], "Hi", options=GenerateReplyOptions(output_schema=schema)
        )
    assert provider.requests == []


@pytest.mark.parametrize("tag", ["openai", "openai-responses", "anthropic"])
async def test_repaired_notes_are_logged_once_per_agent(
    tag: str, caplog: pytest.LogCaptureFixture
) -> None:
    agent = Served(tag, [(LISTING_JSON, "stop")] * 2).agent
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


@pytest.mark.parametrize("path", ["send", "stream"])
@pytest.mark.parametrize("tag", TAGS)
async def test_a_reply_cut_at_the_token_limit_is_an_output_validation_error(
    tag: str, path: str
) -> None:
    served = Served(tag, [(LISTING_JSON[:30], "length")])
    reply = await (send if path == "send" else final)(served.agent, "Describe", options=OPTIONS)
    with pytest.raises(OutputValidationError, match="cut off") as caught:
        parse_output(reply, Listing)
    assert caught.value.text == LISTING_JSON[:30]


@pytest.mark.parametrize("path", ["send", "stream"])
async def test_a_responses_refusal_part_stays_a_refusal_error(path: str) -> None:
    response = openai_response([openai_response_message(refusal="I can't help with that")])
    router = respx.Router(assert_all_called=False)
    if path == "send":
        router.route().mock(return_value=httpx.Response(200, json=response))
    else:
        router.route().mock(
            return_value=openai_responses_sse_response(openai_response_events(response))
        )
    agent = OpenAIResponsesAgent(
        openai_client(router), name="assistant", model="gpt-5-mini"
    ).register_message_connector()
    with pytest.raises(RefusalError):
        await (send if path == "send" else final)(agent, "Describe", options=OPTIONS)
    assert len(router.calls) == 1
    responses_wire.check_request_body(json.loads(router.calls[0].request.content))
