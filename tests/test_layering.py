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
        if name.split(".")[0] in ("openai", "anthropic"):
            raise ImportError(f"blocked {name}")
        return None
sys.meta_path.insert(0, Blocker())
"""


def test_import_llmbridge_without_sdks() -> None:
    code = BLOCK_SDKS + (
        "import llmbridge, llmbridge.testing\n"
        "assert 'openai' not in sys.modules and 'anthropic' not in sys.modules\n"
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
    ],
    ids=[
        "llmbridge.openai without openai names the openai extra",
        "llmbridge.anthropic without anthropic names the anthropic extra",
        "the scripted provider without respx names the testing extra",
        "a response builder without httpx names the testing extra",
        "the kit's OpenAI client builder without openai names the openai extra",
        "the scripted provider's Anthropic client without anthropic names the anthropic extra",
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


CORE = sorted(p for p in SRC.glob("*.py"))


# The command line may use the providers, but only lazily (inside functions).
LAZY_PROVIDER_USERS = {"_cli.py", "_demo.py"}


@pytest.mark.parametrize("path", CORE, ids=[p.name for p in CORE])
def test_core_modules_import_no_provider(path: Path) -> None:
    for module in _imported_roots(path, module_level_only=path.name in LAZY_PROVIDER_USERS):
        assert module.split(".")[0] not in ("openai", "anthropic"), f"{path.name} imports {module}"
        assert not module.startswith(("llmbridge.openai", "llmbridge.anthropic")), (
            f"{path.name} imports {module}"
        )


@pytest.mark.parametrize(
    "name", ["_errors.py", "_messages.py", "_message_parts.py", "_image_data.py"]
)
def test_foundations_import_nothing_of_ours_but_each_other(name: str) -> None:
    allowed = {
        "llmbridge._errors",
        "llmbridge._messages",
        "llmbridge._message_parts",
        "llmbridge._image_data",
    }
    ours = {m for m in _imported_roots(SRC / name) if m.startswith("llmbridge")}
    assert ours <= allowed


@pytest.mark.parametrize(("provider", "other"), [("openai", "anthropic"), ("anthropic", "openai")])
def test_providers_do_not_import_each_other(provider: str, other: str) -> None:
    for path in (SRC / provider).glob("*.py"):
        for module in _imported_roots(path):
            assert module.split(".")[0] != other, f"{path} imports {module}"
            assert not module.startswith(f"llmbridge.{other}"), f"{path} imports {module}"
