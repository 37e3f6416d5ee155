"""The one rule of which media URLs a provider can fetch (``kit.fetchable_url``), shared by the
OpenAI Chat, OpenAI Responses and Anthropic wings (issue 26, defect 15)."""

from __future__ import annotations

import pytest

from llmbridge import ImageMessage, Role
from llmbridge.kit import GOOGLE_FILE_URI, fetchable_url, unsupported_media_url
from tests.urls import FILES_API_URI

FETCHABLE = {
    "an_https_url": ("https://images.example.test/cat.png", True),
    "an_http_url": ("http://images.example.test/cat.png", True),
    "a_gs_url_in_any_case": ("GS://bucket/cat.png", False),
    "a_files_api_uri": (FILES_API_URI, False),
    "a_files_api_uri_of_v1": ("https://generativelanguage.googleapis.com/v1/files/abc", False),
    "a_files_api_uri_in_upper_case": (FILES_API_URI.replace("https://gen", "HTTPS://GEN"), False),
    "another_path_on_that_host": ("https://generativelanguage.googleapis.com/v1beta/x.png", True),
    "files_on_another_host": ("https://example.test/v1beta/files/abc", True),
}


@pytest.mark.parametrize(("url", "expected"), FETCHABLE.values(), ids=FETCHABLE.keys())
def test_fetchable_url_is_the_one_rule_of_the_url_wings(url: str, expected: bool) -> None:
    assert fetchable_url(url) is expected
    reason = unsupported_media_url(
        ImageMessage(Role.USER, url, media_type="image/png"), provider="X"
    )
    assert (reason is None) is expected


def test_the_files_api_pattern_matches_file_uris_only() -> None:
    assert GOOGLE_FILE_URI.match(FILES_API_URI)
    assert GOOGLE_FILE_URI.match(FILES_API_URI + ":download?alt=media")
    assert not GOOGLE_FILE_URI.match("https://generativelanguage.googleapis.com/v1beta/files")
    assert not GOOGLE_FILE_URI.match("https://generativelanguage.googleapis.com/v1beta/files/a/b")


def test_fetchable_url_takes_the_schemes_of_the_wing() -> None:
    assert not fetchable_url("http://images.example.test/cat.png", frozenset({"https"}))
    assert fetchable_url("https://images.example.test/cat.png", frozenset({"https"}))
