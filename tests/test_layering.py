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
