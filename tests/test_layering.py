"""Import rules: the core never needs a provider SDK."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "llmbridge"

BLOCK_SDKS = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("openai", "anthropic", "google"):
            raise ImportError(f"blocked {name}")
        return None
sys.meta_path.insert(0, Blocker())
"""


def test_import_llmbridge_without_sdks() -> None:
    code = BLOCK_SDKS + (
        "import llmbridge, llmbridge.kit, llmbridge.testing\n"
        "assert not {'openai', 'anthropic', 'google'} & set(sys.modules)\n"
        "print(len(llmbridge.__all__))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 40


# Blocks whole distributions, as an environment without them would: ModuleNotFoundError.
BLOCK_MODULES = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
"""


def _run_blocked(blocked: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK_MODULES.format(blocked=blocked) + code],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("blocked", "statement", "message"),
    [
        (
            "openai",
            "import llmbridge.openai",
            "llmbridge.openai needs the openai SDK: pip install 'llmbridge[openai]'",
        ),
        (
            "anthropic",
            "from llmbridge.anthropic import AnthropicChatAgent",
            "llmbridge.anthropic needs the anthropic SDK: pip install 'llmbridge[anthropic]'",
        ),
        (
            "google",
            "from llmbridge.gemini import to_gemini",
            "llmbridge.gemini needs the google-genai SDK: pip install 'llmbridge[gemini]'",
        ),
        (
            "respx",
            "from llmbridge.testing import ScriptedProvider",
            "llmbridge.testing.ScriptedProvider needs httpx and respx: "
            "pip install 'llmbridge[testing]'",
        ),
        (
            "httpx",
            "from llmbridge.testing import openai_completion",
            "llmbridge.testing.openai_completion needs httpx and respx: "
            "pip install 'llmbridge[testing]'",
        ),
        (
            "openai",
            "import respx, llmbridge.testing as kit; kit.openai_client(respx.Router())",
            "openai_client needs the openai SDK: pip install 'llmbridge[openai]'",
        ),
        (
            "anthropic",
            "import llmbridge.testing as kit; kit.ScriptedProvider([]).anthropic_client()",
            "anthropic_client needs the anthropic SDK: pip install 'llmbridge[anthropic]'",
        ),
        (
            "google",
            "import respx, llmbridge.testing as kit; kit.gemini_client(respx.Router())",
            "gemini_client needs the google-genai SDK: pip install 'llmbridge[gemini]'",
        ),
    ],
    ids=[
        "llmbridge.openai without openai names the openai extra",
        "llmbridge.anthropic without anthropic names the anthropic extra",
        "llmbridge.gemini without google-genai names the gemini extra",
        "the scripted provider without respx names the testing extra",
        "a response builder without httpx names the testing extra",
        "the kit's OpenAI client builder without openai names the openai extra",
        "the scripted provider's Anthropic client without anthropic names the anthropic extra",
        "the kit's Gemini client builder without google-genai names the gemini extra",
    ],
)
def test_a_missing_dependency_raises_an_import_error_naming_the_extra(
    blocked: str, statement: str, message: str
) -> None:
    code = "\n".join(
        ["try:", f"    {statement}", "except ImportError as error:", "    print(error, error.name)"]
    )

    result = _run_blocked((blocked,), code)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{message} {blocked}"]


def test_echo_agent_needs_only_the_core_dependencies() -> None:
    blocked = ("openai", "anthropic", "httpx", "httpx2", "respx")
    code = (
        "import asyncio\n"
        "from llmbridge.testing import EchoAgent\n"
        "print(asyncio.run(EchoAgent('echo').send('hi')).get_content())\n"
        f"print(sorted(set(sys.modules) & {set(blocked)!r}))\n"
    )

    result = _run_blocked(blocked, code)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["hi", "[]"]


def _imported_roots(path: Path, *, module_level_only: bool = False) -> set[str]:
    tree = ast.parse(path.read_text())
    roots: set[str] = set()
    for node in tree.body if module_level_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module)
    return roots


PROVIDERS = ("openai", "anthropic", "gemini")
SDKS = ("openai", "anthropic", "google")
# Not core: the provider wings, and the packages that may use them (lazily).
OUTSIDE_CORE = {*PROVIDERS, "testing", "cli"}
ALL_MODULES = sorted(SRC.rglob("*.py"))
CORE = [p for p in ALL_MODULES if p.relative_to(SRC).parts[0] not in OUTSIDE_CORE]
# The command line may use the providers, but only lazily (inside functions).
LAZY_PROVIDER_USERS = {"cli", "testing"}


def _name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("path", CORE, ids=[_name(p) for p in CORE])
def test_core_modules_import_no_provider(path: Path) -> None:
    for module in _imported_roots(path):
        assert module.split(".")[0] not in SDKS, f"{_name(path)} imports {module}"
        assert not module.startswith(tuple(f"llmbridge.{p}" for p in PROVIDERS)), (
            f"{_name(path)} imports {module}"
        )


@pytest.mark.parametrize(
    "path",
    [p for p in ALL_MODULES if p.relative_to(SRC).parts[0] in LAZY_PROVIDER_USERS],
    ids=lambda p: _name(p),
)
def test_the_cli_and_the_test_kit_import_providers_only_lazily(path: Path) -> None:
    for module in _imported_roots(path, module_level_only=True):
        assert module.split(".")[0] not in SDKS, f"{_name(path)} imports {module}"
        assert not module.startswith(tuple(f"llmbridge.{p}" for p in PROVIDERS))


FOUNDATIONS = [SRC / "_errors.py", *sorted((SRC / "_messages").glob("*.py"))]


@pytest.mark.parametrize("path", FOUNDATIONS, ids=[_name(p) for p in FOUNDATIONS])
def test_foundations_import_nothing_of_ours_but_each_other(path: Path) -> None:
    ours = {m for m in _imported_roots(path) if m.startswith("llmbridge")}
    assert all(m == "llmbridge._errors" or m.startswith("llmbridge._messages") for m in ours), ours


# The chain builds the tracing middleware (lazily: it needs the otel extra); tracing imports the
# agents' protocols and context, never the chain or ``llmbridge`` (an empty top: not allowed).
# Structured output (``_output``) sits on the foundations; the agents' options and the kit use it.
LAYERS = {"_agents": {"_messages", "_errors", "_agents", "_functions", "_tracing", "_output"},
          "_functions": {"_messages", "_errors", "_agents", "_functions"},
          "kit": {"_messages", "_errors", "_agents", "_functions", "kit", "_output"},
          "_output": {"_messages", "_errors", "_output"},
          "_tracing": {"_messages", "_errors", "_agents", "_tracing"}}  # fmt: skip


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_agents_functions_and_the_kit_import_only_core(layer: str) -> None:
    for path in (SRC / layer).glob("*.py"):
        for module in _imported_roots(path):
            if module == "llmbridge" or module.startswith("llmbridge."):
                top = module.split(".")[1] if "." in module else ""
                assert top in LAYERS[layer], f"{_name(path)} imports {module}"


PROVIDER_MODULES = [p for p in ALL_MODULES if p.relative_to(SRC).parts[0] in PROVIDERS]


@pytest.mark.parametrize("path", PROVIDER_MODULES, ids=[_name(p) for p in PROVIDER_MODULES])
def test_provider_packages_import_only_public_names_of_llmbridge(path: Path) -> None:
    """A built-in provider uses only what a third party's provider can use too."""
    own = f"llmbridge.{path.relative_to(SRC).parts[0]}"
    for module in _imported_roots(path):
        if module == own or module.startswith(f"{own}."):
            continue
        if module.startswith("llmbridge"):
            assert module in ("llmbridge", "llmbridge.kit"), f"{_name(path)} imports {module}"


_SDK_ROOTS = {"openai": "openai", "anthropic": "anthropic", "gemini": "google"}


@pytest.mark.parametrize(
    ("provider", "other"), [(p, o) for p in PROVIDERS for o in PROVIDERS if p != o]
)
def test_providers_do_not_import_each_other(provider: str, other: str) -> None:
    for path in (SRC / provider).glob("*.py"):
        for module in _imported_roots(path):
            assert module.split(".")[0] != _SDK_ROOTS[other], f"{path} imports {module}"
            assert not module.startswith(f"llmbridge.{other}"), f"{path} imports {module}"


def _edges(path: Path, modules: set[str]) -> set[str]:
    """The package modules ``path`` imports, at any depth of its code but type checking."""
    tree = ast.parse(path.read_text())
    checking = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from pkg import sub`` imports the submodule when there is one.
            names = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in modules
                else node.module
                for alias in node.names
            ]
        targets.update(name for name in names if name in modules)
    return targets


def test_no_import_circle_in_the_package() -> None:
    modules = {_name(p): p for p in ALL_MODULES}
    graph = {name: _edges(path, set(modules)) - {name} for name, path in modules.items()}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            circle = [*trail[trail.index(name) :], name]
            raise AssertionError(f"import circle: {' -> '.join(circle)}")
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
