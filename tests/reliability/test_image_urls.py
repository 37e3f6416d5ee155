"""Image URLs a target cannot fetch: ``gs://`` (Gemini's) is not supported by OpenAI or Anthropic.

Lenient mode drops such an image with a ``"dropped"`` note (a multimodal message keeps its other
parts); strict mode raises ``UnsupportedMessageError`` naming the message.
"""

from __future__ import annotations

from typing import Any

import pytest

from llmbridge import (
    ImageMessage,
    MultiModalMessage,
    Role,
    TextMessage,
    UnsupportedMessageError,
)
from tests.reliability.helpers import (
    PROVIDERS,
    Provider,
    Raises,
    Sends,
    a_text,
    a_user,
    convert,
    expect,
    messages_of,
    o_user,
)

GS = ImageMessage(Role.USER, "GS://bucket/cat.png")
WEB_URL = "https://images.example.test/cat.png"
QUESTION = TextMessage(Role.USER, "What is this?")
STRICT = Raises(UnsupportedMessageError, 0)


def _web_image(provider: Provider) -> dict[str, Any]:
    if provider == "openai":
        return {"type": "image_url", "image_url": {"url": WEB_URL}}
    return {"type": "image", "source": {"type": "url", "url": WEB_URL}}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_gs_image_is_dropped_or_raises(provider: Provider) -> None:
    kept = o_user("What is this?") if provider == "openai" else a_user(a_text("What is this?"))
    lenient = Sends(messages_of, [kept], notes=[(0, "dropped")])
    expect(provider, [GS, QUESTION], lenient, STRICT)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_multimodal_message_keeps_its_other_parts(provider: Provider) -> None:
    web = ImageMessage(Role.USER, WEB_URL)
    message = MultiModalMessage(Role.USER, [QUESTION, GS, web])
    if provider == "openai":
        kept = o_user([{"type": "text", "text": "What is this?"}, _web_image(provider)])
    else:
        kept = a_user(a_text("What is this?"), _web_image(provider))
    expect(provider, [message], Sends(messages_of, [kept], notes=[(0, "dropped")]), STRICT)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_multimodal_message_of_gs_images_only_is_dropped(provider: Provider) -> None:
    message = MultiModalMessage(Role.USER, [GS, GS])
    kept = o_user("What is this?") if provider == "openai" else a_user(a_text("What is this?"))
    # Anthropic also notes that nothing of the message was left to send.
    dropped = [(0, "dropped")] * (2 if provider == "openai" else 3)
    expect(provider, [message, QUESTION], Sends(messages_of, [kept], notes=dropped), STRICT)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_note_names_the_scheme_and_the_part(provider: Provider) -> None:
    request = convert(provider, [MultiModalMessage(Role.USER, [QUESTION, GS])])
    (note,) = request.notes
    assert "gs:// image URLs cannot be sent to" in note.detail
    assert "(content[1])" in note.detail
