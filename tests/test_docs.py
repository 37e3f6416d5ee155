"""The documentation: the site builds with warnings as errors, public names are documented, the
examples on its pages run, and no page cites a file that does not ship."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import griffe
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PUBLIC_MODULES = [
    "llmbridge",
    "llmbridge.kit",
    "llmbridge.openai",
    "llmbridge.anthropic",
    "llmbridge.gemini",
    "llmbridge.testing",
]


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    # The same build as `make docs`: a broken link, reference or include fails it.
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "reference" / "llmbridge" / "index.html").is_file()


def _documented(obj: griffe.Object) -> bool:
    return bool(obj.docstring and obj.docstring.value.strip())


def _undocumented_methods(cls: griffe.Class) -> list[str]:
    """Public methods with no docstring of their own nor one inherited (as ``help()`` shows)."""
    missing = []
    for name, member in cls.all_members.items():
        if name.startswith("_") or member.is_alias or not member.is_function:
            continue
        inherited = [base.members[name] for base in cls.mro() if name in base.members]
        if not any(_documented(method) for method in [member, *inherited]):
            missing.append(f"{cls.path}.{name}")
    return missing


def _public_objects() -> list[griffe.Object]:
    package = griffe.load("llmbridge", search_paths=[str(ROOT / "src")], resolve_aliases=True)
    objects: list[griffe.Object] = []
    for module_path in PUBLIC_MODULES:
        module = package if module_path == "llmbridge" else package[module_path.split(".", 1)[1]]
        objects.append(module)
        for name in sorted(module.exports or ()):
            if not name.startswith("__"):
                member = module[name]
                objects.append(member.final_target if member.is_alias else member)
    return objects


def test_every_public_name_has_a_docstring() -> None:
    missing: list[str] = []
    for target in _public_objects():
        if not _documented(target):
            missing.append(target.path)
        if isinstance(target, griffe.Class):
            missing += _undocumented_methods(target)

    assert missing == []


PAGES = sorted(DOCS.glob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_the_examples_on_each_page_run(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ```python blocks run, in order, sharing one namespace; ```py blocks are sketches that
    # need a real API key or a project of your own, and are not run.
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    namespace = {"__name__": f"docs.{page.stem}"}

    for number, code in enumerate(blocks, 1):
        exec(compile(code, f"{page.name}: example {number}", "exec"), namespace)

    capsys.readouterr()


CITES_UNSHIPPED = re.compile(r"API\.md|wire-rules|STYLE\.md|research/")


@pytest.mark.parametrize(
    "path", [ROOT / "README.md", *PAGES], ids=["README.md", *(page.name for page in PAGES)]
)
def test_no_page_cites_a_file_that_does_not_ship(path: Path) -> None:
    assert CITES_UNSHIPPED.findall(path.read_text(encoding="utf-8")) == []


def test_no_public_docstring_cites_a_file_that_does_not_ship() -> None:
    # The API reference renders these docstrings.
    citing = []
    for target in _public_objects():
        members = list(target.members.values()) if isinstance(target, griffe.Class) else []
        for obj in [target, *members]:
            if not obj.is_alias and obj.docstring and CITES_UNSHIPPED.search(obj.docstring.value):
                citing.append(obj.path)

    assert citing == []


def test_the_readme_links_only_to_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?://|#)([^)#\s]+)", readme)

    assert [target for target in targets if not (ROOT / target).exists()] == []


def test_the_readme_is_a_landing_page_that_starts_with_the_two_commands() -> None:
    # Everything else lives on the documentation site; the README's first block is how to start.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"^```\w*\n(.*?)^```", readme, re.S | re.M)

    assert len(readme.splitlines()) <= 250
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == ["make demo", "make test"]


def test_every_page_is_in_the_navigation() -> None:
    # A page left out of the nav builds but no reader finds it (mkdocs only logs it, at INFO).
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = [path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")]

    assert [page for page in pages if f": {page}\n" not in nav] == []
