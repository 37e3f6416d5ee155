"""Print pip constraints pinning every runtime dependency of llmbridge to its lower bound.

``make test-min`` installs with them, so the suite runs against the oldest versions
``pyproject.toml`` claims to support. Reads the core dependencies and the extras that are not
tools (``openai``, ``anthropic``, ``gemini``, ``testing``); each requirement needs a ``>=`` bound.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

RUNTIME_EXTRAS: Final = ("openai", "anthropic", "gemini", "testing")
_REQUIREMENT: Final = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<specs>[^;]*)")
_LOWER: Final = re.compile(r">=\s*(?P<version>[^,\s]+)")


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


def main(pyproject: Path) -> int:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in RUNTIME_EXTRAS:
        requirements += project["optional-dependencies"][extra]
    print("\n".join(lower_bounds(requirements)))
    return 0


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sys.exit(main(root / "pyproject.toml"))
