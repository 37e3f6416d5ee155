"""The ``llmbridge`` command line (also ``python -m llmbridge``): ``demo`` and ``convert``."""

from __future__ import annotations

from llmbridge.cli._main import main

__all__ = ["main"]
