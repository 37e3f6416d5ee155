"""Print pip constraints pinning every runtime dependency of llmbridge to its lower bound.

``make test-min`` installs with them, so the suite runs against the oldest versions
``pyproject.toml`` claims to support. Reads the core dependencies and the extras that are not
tools (``openai``, ``anthropic``, ``gemini``, ``testing``, ``otel``); each requirement needs a
``>=`` bound.

With ``--tools`` it prints the dev tools to install beside them instead: the pins of the
``dev`` extra (the extras it names of llmbridge itself spelled out), less the pins of runtime
dependencies, which the constraints hold at their lower bound; a tool released in lockstep with
a runtime dependency (``opentelemetry-sdk`` pins ``opentelemetry-api`` exactly) takes that
dependency's lower bound instead of its own pin.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

RUNTIME_EXTRAS: Final = ("openai", "anthropic", "gemini", "testing", "otel")
TOOLS_EXTRA: Final = "dev"
# Tool -> the runtime dependency whose every release it pins exactly.
LOCKSTEP: Final[Mapping[str, str]] = {"opentelemetry-sdk": "opentelemetry-api"}
_REQUIREMENT: Final = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<specs>[^;]*)")
_LOWER: Final = re.compile(r">=\s*(?P<version>[^,\s]+)")
_SELF: Final = re.compile(r"^\s*llmbridge\s*\[(?P<extras>[^\]]*)\]\s*$")


def _normalized(name: str) -> str:
    """A distribution name as pip compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lower_bounds(requirements: Iterable[str]) -> Iterator[str]:
    """Yield ``name==version`` for each requirement's ``>=`` bound.

    Raises ``ValueError`` for a requirement without one: its oldest version is unknown.
    """
    for requirement in requirements:
        match = _REQUIREMENT.match(requirement)
        lower = _LOWER.search(match["specs"]) if match else None
        if match is None or lower is None:
            raise ValueError(f"{requirement!r} has no '>=' lower bound")
        yield f"{match['name']}=={lower['version']}"


def runtime_requirements(project: Mapping[str, Any]) -> list[str]:
    """The core dependencies and those of the runtime extras, as ``pyproject.toml`` gives them."""
    requirements = list(project["dependencies"])
    for extra in RUNTIME_EXTRAS:
        requirements += project["optional-dependencies"][extra]
    return requirements


def _expanded(requirements: Sequence[str], extras: Mapping[str, Sequence[str]]) -> Iterator[str]:
    """``requirements`` with each ``llmbridge[extra, ...]`` replaced by that extra's list."""
    for requirement in requirements:
        match = _SELF.match(requirement)
        if match is None:
            yield requirement
            continue
        for extra in match["extras"].split(","):
            yield from _expanded(extras[extra.strip()], extras)


def tool_requirements(
    tools: Sequence[str], extras: Mapping[str, Sequence[str]], constraints: Iterable[str]
) -> Iterator[str]:
    """Yield the tools to install beside ``constraints`` (``name==version`` lines).

    A tool that is a runtime dependency is left out (its constraint decides); one in
    ``LOCKSTEP`` is pinned to its runtime partner's constrained version.
    """
    pinned = {_normalized(line.partition("==")[0]): line.partition("==")[2] for line in constraints}
    for requirement in _expanded(tools, extras):
        match = _REQUIREMENT.match(requirement)
        name = _normalized(match["name"]) if match else ""
        partner = _normalized(LOCKSTEP.get(name, ""))
        if name in pinned:
            continue
        if partner in pinned:
            yield f"{name}=={pinned[partner]}"
        else:
            yield requirement


def main(pyproject: Path, argv: Sequence[str]) -> int:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    constraints = list(lower_bounds(runtime_requirements(project)))
    if list(argv) == ["--tools"]:
        extras = project["optional-dependencies"]
        print("\n".join(tool_requirements(extras[TOOLS_EXTRA], extras, constraints)))
    elif not argv:
        print("\n".join(constraints))
    else:
        print("usage: min_constraints.py [--tools]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.exit(main(root / "pyproject.toml", sys.argv[1:]))
