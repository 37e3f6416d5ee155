"""A sync SDK client given to an async provider agent fails at construction, naming the fix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import openai
import pytest

from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent

OPENAI_USE = "OpenAIChatAgent needs an async client (openai.AsyncOpenAI or openai.AsyncAzureOpenAI)"
ANTHROPIC_USE = (
    "AnthropicChatAgent needs an async client (anthropic.AsyncAnthropic, or a cloud's async "
    "class such as anthropic.AsyncAnthropicBedrock)"
)


def _azure() -> openai.AzureOpenAI:
    return openai.AzureOpenAI(api_key="k", api_version="2024-10-21", azure_endpoint="https://e")


def _bedrock() -> anthropic.AnthropicBedrock:
    return anthropic.AnthropicBedrock(
        aws_region="us-east-1", aws_access_key="a", aws_secret_key="b"
    )


@pytest.mark.parametrize(
    ("agent_type", "make_client", "message"),
    [
        (OpenAIChatAgent, lambda: openai.OpenAI(api_key="k"), f"{OPENAI_USE}, got openai.OpenAI"),
        (OpenAIChatAgent, _azure, f"{OPENAI_USE}, got openai.AzureOpenAI"),
        (
            AnthropicChatAgent,
            lambda: anthropic.Anthropic(api_key="k"),
            f"{ANTHROPIC_USE}, got anthropic.Anthropic",
        ),
        (AnthropicChatAgent, _bedrock, f"{ANTHROPIC_USE}, got anthropic.AnthropicBedrock"),
    ],
    ids=[
        "openai.OpenAI is refused",
        "openai.AzureOpenAI is refused",
        "anthropic.Anthropic is refused",
        "anthropic.AnthropicBedrock is refused",
    ],
)
def test_a_sync_client_is_refused_at_construction(
    agent_type: type[Any], make_client: Callable[[], object], message: str
) -> None:
    with pytest.raises(TypeError) as info:
        agent_type(make_client(), name="assistant", model="m")

    assert str(info.value) == message


class _DuckClient:
    """A test double with no SDK base class."""


@pytest.mark.parametrize(
    ("agent_type", "make_client"),
    [
        (OpenAIChatAgent, lambda: openai.AsyncOpenAI(api_key="k")),
        (AnthropicChatAgent, lambda: anthropic.AsyncAnthropic(api_key="k")),
        (OpenAIChatAgent, _DuckClient),
        (AnthropicChatAgent, _DuckClient),
    ],
    ids=[
        "openai.AsyncOpenAI is accepted",
        "anthropic.AsyncAnthropic is accepted",
        "a duck-typed double is accepted by OpenAIChatAgent",
        "a duck-typed double is accepted by AnthropicChatAgent",
    ],
)
def test_async_clients_and_doubles_are_accepted(
    agent_type: type[Any], make_client: Callable[[], object]
) -> None:
    client = make_client()

    assert agent_type(client, name="assistant", model="m").client is client
