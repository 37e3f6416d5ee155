"""The helpers provider agents share to build their SDK calls."""

from __future__ import annotations

from typing import Any

from llmbridge._agents import create_keywords, layer_create_settings


def fake_create(self: object, *, model: str, max_tokens: int, **kwargs: Any) -> None:
    """Stands in for an SDK's create()."""


def test_create_keywords_skip_self_and_var_keyword() -> None:
    assert create_keywords(fake_create) == {"model", "max_tokens"}


def test_layer_routes_keywords_and_body() -> None:
    base = {"model": "m", "extra_body": {"a": 1}}
    arguments = dict(base)
    layer_create_settings(
        arguments,
        {"max_tokens": 5, "top_k": 3, "extra_body": {"b": 2, "top_k": 9}},
        {"model", "max_tokens"},
    )
    assert arguments == {
        "model": "m",
        "max_tokens": 5,
        "extra_body": {"a": 1, "b": 2, "top_k": 3},  # a loose key wins over extra_body's
    }
    assert base["extra_body"] == {"a": 1}  # the base arguments' body is not mutated


def test_layer_adds_no_empty_body() -> None:
    arguments: dict[str, Any] = {}
    layer_create_settings(arguments, {"model": "m"}, {"model"})
    assert arguments == {"model": "m"}
