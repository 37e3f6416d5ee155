"""``python -m llmbridge``: the ``llmbridge`` command line."""

from __future__ import annotations

from llmbridge._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
