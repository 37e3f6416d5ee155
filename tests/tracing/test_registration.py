"""Registering tracing: the provider tag and model from the innermost agent, the method form,
tracing inside the connector, and llmbridge without the ``otel`` extra."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest
import respx

import llmbridge
from llmbridge import (
    GenerateReplyOptions,
    Message,
    MessageEnvelope,
    MiddlewareAgent,
    MiddlewareStreamingAgent,
    Role,
    TextMessage,
    register_tracing,
)
from llmbridge._tracing._attributes import provider_attributes
from llmbridge._tracing._middleware import TracingMiddleware
from llmbridge._tracing._target import provider_tag
from llmbridge.testing import EchoAgent
from tests.tracing.helpers import PROVIDERS, WINGS, Provider, Telemetry, agent_for

SRC = Path(llmbridge.__file__).resolve().parent
TRACING = SRC / "_tracing"


class Tagged:
    provider: ClassVar[str] = "gemini"


class Untagged:
    pass


def _in_module(cls: type, module: str) -> object:
    cls.__module__ = module
    return cls()


@pytest.mark.parametrize(
    ("agent", "tag"),
    [
        pytest.param(Tagged(), "gemini", id="class_provider_attribute_wins"),
        pytest.param(
            _in_module(type("A", (), {}), "llmbridge.gemini._agent"),
            "gemini",
            id="llmbridge_module_gives_its_provider_package",
        ),
        pytest.param(
            _in_module(type("B", (), {}), "acme_llm.agents"),
            "acme_llm",
            id="third_party_module_gives_its_top_package",
        ),
        pytest.param(_in_module(type("C", (), {}), "__main__"), "unknown", id="main_is_unknown"),
    ],
)
def test_the_provider_tag_comes_from_the_agent_class_else_its_module(
    agent: object, tag: str
) -> None:
    assert provider_tag(agent) == tag


@pytest.mark.parametrize(
    ("tag", "attributes"),
    [
        pytest.param(
            "openai",
            {"gen_ai.provider.name": "openai", "openai.api.type": "chat_completions"},
            id="openai_chat_completions",
        ),
        pytest.param(
            "openai-responses",
            {"gen_ai.provider.name": "openai", "openai.api.type": "responses"},
            id="openai_responses",
        ),
        pytest.param("anthropic", {"gen_ai.provider.name": "anthropic"}, id="anthropic"),
        pytest.param("gemini", {"gen_ai.provider.name": "gcp.gemini"}, id="gemini"),
        pytest.param("vertex", {"gen_ai.provider.name": "gcp.vertex_ai"}, id="vertex"),
        pytest.param("acme_llm", {"gen_ai.provider.name": "acme_llm"}, id="other_tag_as_is"),
    ],
)
def test_provider_tags_map_to_the_conventions_provider_names(
    tag: str, attributes: dict[str, str]
) -> None:
    assert provider_attributes(tag) == attributes


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_target_is_the_innermost_agent_through_every_layer(provider: Provider) -> None:
    inner = agent_for(provider, respx.Router())
    chain = inner.register_message_connector().register_pre_process(list).register_print_message()

    tracing = chain.register_tracing().middlewares[-1]

    assert isinstance(tracing, TracingMiddleware)
    target = tracing.target
    assert target.agent is inner
    assert (target.provider, target.model) == (provider, WINGS[provider].model)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_method_form_and_the_free_function_trace_alike(
    provider: Provider, telemetry: Telemetry
) -> None:
    wing = WINGS[provider]
    router = respx.Router()
    router.post(wing.url).mock(side_effect=[wing.text_reply(), wing.text_reply()])
    connected = agent_for(provider, router).register_message_connector()
    providers = {
        "tracer_provider": telemetry.tracer_provider,
        "meter_provider": telemetry.meter_provider,
    }

    by_method = connected.register_tracing(**providers)
    by_function = register_tracing(connected, **providers)
    for agent in (by_method, by_function):
        assert isinstance(agent, MiddlewareStreamingAgent)
        assert isinstance(agent.middlewares[-1], TracingMiddleware)
        await agent.send("Hi")

    first, second = telemetry.spans()
    assert (first.name, dict(first.attributes or {})) == (
        second.name,
        dict(second.attributes or {}),
    )
    assert len(connected.middlewares) == 1  # registering returned new agents


@pytest.mark.parametrize("streaming", [False, True], ids=["send", "stream"])
@pytest.mark.parametrize("provider", PROVIDERS)
async def test_inside_the_connector_it_records_what_envelopes_show(
    provider: Provider, streaming: bool, telemetry: Telemetry
) -> None:
    wing = WINGS[provider]
    router = respx.Router()
    router.post(wing.url).mock(return_value=wing.text_stream() if streaming else wing.text_reply())
    agent = (
        agent_for(provider, router)
        .register_tracing(
            tracer_provider=telemetry.tracer_provider,
            meter_provider=telemetry.meter_provider,
            capture_content=True,
        )
        .register_message_connector()
    )

    if streaming:
        final = [message async for message in agent.stream("Hi")][-1]
    else:
        final = await agent.send("Hi")

    assert isinstance(final, TextMessage)
    span = telemetry.span()
    attributes = dict(span.attributes or {})
    assert attributes["gen_ai.provider.name"] == provider
    assert attributes["gen_ai.input.messages"].startswith('[{"role": "user"')
    if not streaming:
        assert attributes["gen_ai.response.model"] == wing.response_model
        assert attributes["gen_ai.response.id"] == wing.response_id
    assert span.status.is_ok


class NonStreaming:
    """An agent that only answers ``generate_reply``."""

    name = "plain"
    model = "plain-1"

    async def generate_reply(
        self, messages: Sequence[Message], options: GenerateReplyOptions | None = None
    ) -> Message:
        return TextMessage(Role.ASSISTANT, "ok", self.name)


async def test_a_non_streaming_agent_stays_non_streaming(telemetry: Telemetry) -> None:
    agent = register_tracing(NonStreaming(), tracer_provider=telemetry.tracer_provider)

    reply = await agent.send("Hi")

    assert type(agent) is MiddlewareAgent
    assert reply.get_content() == "ok"
    span = telemetry.span()
    assert span.name == "chat plain-1"
    assert (span.attributes or {})["gen_ai.provider.name"] == "tests"


async def test_an_echo_agent_passes_envelopes_through_without_a_crash(
    telemetry: Telemetry,
) -> None:
    agent = EchoAgent("echo").register_tracing(
        tracer_provider=telemetry.tracer_provider, capture_content=True
    )
    envelope = MessageEnvelope(object(), "someone")

    assert [m async for m in agent.stream(envelope)] == [MessageEnvelope(envelope.content, "echo")]
    assert telemetry.span().name == "chat"


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


# As tests/test_layering.py blocks the provider SDKs: every opentelemetry import fails.
BLOCK_OPENTELEMETRY = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "opentelemetry":
            raise ImportError(f"blocked {name}")
        return None
sys.meta_path.insert(0, Blocker())
"""


def test_without_the_extra_llmbridge_imports_and_register_tracing_names_the_extra() -> None:
    code = BLOCK_OPENTELEMETRY + (
        "import llmbridge\n"
        "from llmbridge.testing import EchoAgent\n"
        "assert 'register_tracing' in llmbridge.__all__\n"
        "try:\n"
        "    llmbridge.register_tracing(EchoAgent('echo'))\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
        "try:\n"
        "    EchoAgent('echo').register_tracing()\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )

    result = _run(code)

    assert result.returncode == 0, result.stderr
    assert result.stdout.count("pip install 'llmbridge[otel]'") == 2


def test_importing_llmbridge_imports_no_opentelemetry_module() -> None:
    # Only llmbridge itself: the anthropic SDK imports opentelemetry for its own spans.
    result = _run(
        "import sys, llmbridge, llmbridge.testing\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


# What tracing may import of llmbridge: the neutral model, the errors, the agents' protocols and
# middleware context. Never ``llmbridge`` itself nor the chain: the chain imports tracing.
TRACING_MAY_IMPORT = (
    "llmbridge._messages",
    "llmbridge._errors",
    "llmbridge._agents._context",
    "llmbridge._agents._protocols",
)


@pytest.mark.parametrize("path", sorted(TRACING.glob("*.py")), ids=lambda p: p.name)
def test_tracing_imports_only_public_names_of_the_core_below_the_chain(path: Path) -> None:
    for module, names in _imports(path):
        if module.split(".")[0] != "llmbridge" or module.startswith("llmbridge._tracing"):
            continue
        assert module in TRACING_MAY_IMPORT, f"{path.name} imports {module}"
        exported = importlib.import_module(module).__all__
        assert set(names) <= set(exported), f"{path.name}: {names}"


def test_only_tracing_imports_opentelemetry() -> None:
    outside = [p for p in SRC.rglob("*.py") if TRACING not in p.parents]
    offenders = [
        f"{path.relative_to(SRC)}: {module}"
        for path in outside
        for module, _ in _imports(path)
        if module.split(".")[0] == "opentelemetry"
    ]
    assert offenders == []
