"""``python -m llmbridge``: the ``llmbridge`` command line."""

from __future__ import annotations

from llmbridge.cli._main import main

if __name__ == "__main__":
    raise SystemExit(main())
