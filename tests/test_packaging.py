"""Packaging: one version everywhere, and the lower bounds `make test-min` installs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import llmbridge
from tools.min_constraints import (
    LOCKSTEP,
    RUNTIME_EXTRAS,
    TOOLS_EXTRA,
    lower_bounds,
    runtime_requirements,
    tool_requirements,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    [[str(Path(sys.executable).parent / "llmbridge")], [sys.executable, "-m", "llmbridge"]],
    ids=["the installed script", "python -m llmbridge"],
)
def test_version_is_the_same_for_the_cli_the_package_and_the_metadata(
    command: list[str],
) -> None:
    result = subprocess.run([*command, "--version"], capture_output=True, text=True, check=False)

    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"llmbridge {llmbridge.__version__}\n"
    assert metadata.version("llmbridge") == llmbridge.__version__


@pytest.mark.parametrize(
    ("requirement", "constraint"),
    [
        ("pydantic>=2.14,<3", "pydantic==2.14"),
        ("openai >= 3.14.1, <4", "openai==3.14.1"),
        ("docstring_parser>=0.16", "docstring_parser==0.16"),
        ("httpx2>=2.16; python_version >= '3.11'", "httpx2==2.16"),
    ],
    ids=["a range", "spaces around the operators", "a bare lower bound", "with a marker"],
)
def test_each_lower_bound_becomes_a_pin(requirement: str, constraint: str) -> None:
    assert list(lower_bounds([requirement])) == [constraint]


@pytest.mark.parametrize("requirement", ["pydantic<3", "pydantic"], ids=["cap only", "no bound"])
def test_a_requirement_without_lower_bound_is_refused(requirement: str) -> None:
    with pytest.raises(ValueError, match="has no '>=' lower bound"):
        list(lower_bounds([requirement]))


def test_every_runtime_requirement_has_a_lower_bound_and_every_tool_a_pin() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    runtime = [*project["dependencies"], *(r for e in RUNTIME_EXTRAS for r in extras[e])]
    tools = [r for e in ("dev", "docs") for r in extras[e] if not r.startswith("llmbridge")]

    assert len(list(lower_bounds(runtime))) == len(runtime)
    assert all("==" in requirement for requirement in tools), tools


@pytest.mark.parametrize(
    ("tools", "extras", "constraints", "installed"),
    [
        (["pytest==9.2.0"], {}, ["pydantic==2.14"], ["pytest==9.2.0"]),
        (
            ["opentelemetry-semantic-conventions==0.66b2"],
            {},
            ["opentelemetry-semantic-conventions==0.63b0"],
            [],
        ),
        (["Docstring.Parser==0.17"], {}, ["docstring_parser==0.16"], []),
        (
            ["opentelemetry-sdk==1.45.2"],
            {},
            ["opentelemetry-api==1.42"],
            ["opentelemetry-sdk==1.42"],
        ),
        (["opentelemetry-sdk==1.45.2"], {}, [], ["opentelemetry-sdk==1.45.2"]),
        (
            ["llmbridge[docs, lint]", "pytest==9.2.0"],
            {"docs": ["mkdocs==1.6.1"], "lint": ["llmbridge[docs]", "ruff==0.17.6"]},
            [],
            ["mkdocs==1.6.1", "mkdocs==1.6.1", "ruff==0.17.6", "pytest==9.2.0"],
        ),
    ],
    ids=[
        "a tool keeps its pin",
        "a runtime dependency pinned for dev is left to its lower bound",
        "names are compared as pip normalizes them",
        "a lockstep tool takes its partner's lower bound",
        "a lockstep tool without its partner keeps its pin",
        "extras of llmbridge itself are spelled out, nested too",
    ],
)
def test_the_tools_of_test_min_follow_the_lower_bounds(
    tools: list[str], extras: dict[str, list[str]], constraints: list[str], installed: list[str]
) -> None:
    assert list(tool_requirements(tools, extras, constraints)) == installed


def test_test_min_installs_each_lockstep_tool_at_its_partners_lower_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    constraints = list(lower_bounds(runtime_requirements(project)))
    installed = list(tool_requirements(extras[TOOLS_EXTRA], extras, constraints))

    for tool, partner in LOCKSTEP.items():
        (bound,) = [c.partition("==")[2] for c in constraints if c.startswith(f"{partner}==")]
        assert f"{tool}=={bound}" in installed
    assert all("==" in requirement for requirement in installed), installed
