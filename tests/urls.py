"""The URLs a wire validator refuses for OpenAI and Anthropic: only Google's APIs read them.

An independent oracle for the validators (it does not import the library's rule): ``gs://``
(Google Cloud Storage) and the file URIs of Google's Files API, which are https but readable
only by that API with the key of the project that uploaded the file.
"""

from __future__ import annotations

import re

__all__ = ["FILES_API_URI", "GS_URI", "only_google_reads"]

GS_URI = "gs://bucket/report.pdf"
FILES_API_URI = "https://generativelanguage.googleapis.com/v1beta/files/abc-123"

_GOOGLE_ONLY = re.compile(
    r"^(gs://|https?://generativelanguage\.googleapis\.com/v1(beta)?/files/)", re.IGNORECASE
)


def only_google_reads(url: str) -> bool:
    """Whether ``url`` is one that OpenAI and Anthropic cannot fetch (a 400 from their API)."""
    return _GOOGLE_ONLY.match(url) is not None
