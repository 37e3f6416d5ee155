"""The helpers provider agents share to build their SDK calls."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest
import respx

from llmbridge import GenerateReplyOptions
from llmbridge._agents import create_keywords, layer_create_settings
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import anthropic_client, openai_client


def fake_create(self: object, *, model: str, max_tokens: int, **kwargs: Any) -> None:
    """Stands in for an SDK's create()."""


def test_create_keywords_skip_self_and_var_keyword() -> None:
    assert create_keywords(fake_create) == {"model", "max_tokens"}


def test_layer_routes_keywords_and_body() -> None:
    base = {"model": "m", "extra_body": {"a": 1}}
    arguments = dict(base)
    layer_create_settings(
        arguments,
        {"max_tokens": 5, "top_k": 3, "extra_body": {"b": 2, "top_k": 9}},
        {"model", "max_tokens"},
    )
    assert arguments == {
        "model": "m",
        "max_tokens": 5,
        "extra_body": {"a": 1, "b": 2, "top_k": 3},  # a loose key wins over extra_body's
    }
    assert base["extra_body"] == {"a": 1}  # the base arguments' body is not mutated


def test_layer_adds_no_empty_body() -> None:
    arguments: dict[str, Any] = {}
    layer_create_settings(arguments, {"model": "m"}, {"model"})
    assert arguments == {"model": "m"}


# -- keys a provider agent sets itself --------------------------------------------------------

_RESERVED_KEYS = {
    OpenAIChatAgent: ("messages", "model", "stream"),
    AnthropicChatAgent: ("max_tokens", "messages", "model", "stream"),
}
RESERVED = [
    pytest.param(agent_type, key, id=f"{agent_type.__name__}-{key}")
    for agent_type, keys in _RESERVED_KEYS.items()
    for key in keys
]


def _agent(agent_type: type, router: respx.Router, **create_kwargs: Any) -> Any:
    client = openai_client(router) if agent_type is OpenAIChatAgent else anthropic_client(router)
    return agent_type(client, name="bot", model="model-a", **create_kwargs)


def _expected(agent_type: type, key: str) -> str:
    return re.escape(
        f"{key!r} is set by {agent_type.__name__} and cannot be overridden (pass it to the "
        "constructor / use GenerateReplyOptions)"
    )


# Reserved keys that are constructor parameters (model, max_tokens) cannot reach **create_kwargs.
IN_CREATE_KWARGS = [
    param
    for param in RESERVED
    if param.values[1] not in inspect.signature(param.values[0]).parameters
]


@pytest.mark.parametrize(("agent_type", "key"), IN_CREATE_KWARGS)
def test_a_reserved_key_in_create_kwargs_raises(agent_type: type, key: str) -> None:
    with pytest.raises(ValueError, match=_expected(agent_type, key)):
        _agent(agent_type, respx.Router(), **{key: "x"})


@pytest.mark.parametrize(("agent_type", "key"), RESERVED)
@pytest.mark.parametrize("path", ["send", "stream"])
async def test_a_reserved_key_in_options_extra_raises_before_sending(
    agent_type: type, key: str, path: str
) -> None:
    router = respx.Router(assert_all_called=False)
    route = router.route()
    agent = _agent(agent_type, router).register_message_connector()
    options = GenerateReplyOptions(extra={key: "x"})

    async def reply() -> object:
        if path == "send":
            return await agent.send("Hi", options=options)
        return [item async for item in agent.stream("Hi", options=options)]

    with pytest.raises(ValueError, match=_expected(agent_type, key)):
        await reply()
    assert not route.called


@pytest.mark.parametrize("description", [None, ""], ids=["none", "empty"])
def test_both_agents_leave_out_a_tool_description_that_says_nothing(
    description: str | None,
) -> None:
    from llmbridge import FunctionContract
    from llmbridge.anthropic._tools import tool_param
    from llmbridge.openai import openai_tools

    contract = FunctionContract("f", description)

    assert "description" not in openai_tools([contract])[0]["function"]
    assert "description" not in tool_param(contract)
