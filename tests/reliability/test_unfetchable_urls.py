"""Media URLs only Google's APIs read (``gs://`` and Files API URIs, as a Gemini history carries
them) are never sent to OpenAI Chat, OpenAI Responses or Anthropic (API.md 13 (*); issue 26,
defects 3 and 15).

Each case goes through the real SDK client of each wing over respx, and every body sent is put
through that wing's strict wire validator (which refuses such URLs as the APIs do). Lenient mode
drops the item with one ``"dropped"`` note and keeps the rest of the message; strict mode raises
``UnsupportedMessageError`` naming the message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import pytest
import respx

from llmbridge import (
    DocumentMessage,
    ImageMessage,
    Message,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.anthropic import AnthropicChatAgent, AnthropicMessageConnector, to_anthropic
from llmbridge.openai import (
    OpenAIChatAgent,
    OpenAIChatRequestMessageConnector,
    OpenAIResponsesAgent,
    OpenAIResponsesConnector,
    to_openai,
    to_openai_responses,
)
from llmbridge.testing import (
    anthropic_client,
    anthropic_message,
    last_request_json,
    openai_client,
    openai_completion,
    openai_response,
)
from tests.anthropic import wire as anthropic_wire
from tests.anthropic.helpers import URL as ANTHROPIC_URL
from tests.corpus import AGENT
from tests.openai import wire as chat_wire
from tests.openai.helpers import CHAT_URL
from tests.openai_responses import wire as responses_wire
from tests.openai_responses.sdk import URL as RESPONSES_URL
from tests.urls import FILES_API_URI, GS_URI

Wing = Literal["chat", "responses", "anthropic"]
WINGS: tuple[Wing, ...] = ("chat", "responses", "anthropic")
START = TextMessage(Role.USER, "Read this.")
QUESTION = TextMessage(Role.USER, "What is this?")
GS_IMAGE = "gs://bucket/cat.png"
WEB_IMAGE = "https://images.example.test/cat.png"
WEB_PDF = "https://docs.example.test/report.pdf"


def _image(url: str, role: Role = Role.USER) -> ImageMessage:
    # A Files API URI has no suffix to infer a type from: the media type is declared.
    return ImageMessage(role, url, media_type="image/png")


def _document(url: str, role: Role = Role.USER) -> DocumentMessage:
    return DocumentMessage(role, url, media_type="application/pdf")


Media = Callable[[str, Role], ImageMessage | DocumentMessage]


def _top_level(media: Media, url: str) -> list[Message]:
    return [media(url, Role.USER), QUESTION]


def _in_multimodal(media: Media, url: str) -> list[Message]:
    return [MultiModalMessage(Role.USER, [QUESTION, media(url, Role.USER)])]


def _in_tool_result(media: Media, url: str) -> list[Message]:
    call = ToolCall("chart", "{}", tool_call_id="call_1")
    answered = ToolCall(
        "chart",
        "{}",
        tool_call_id="call_1",
        result=[TextMessage(Role.TOOL, "Sales"), media(url, Role.TOOL)],
    )
    return [ToolCallMessage([call], AGENT), ToolCallResultMessage([answered])]


# id: (the messages after START, the index of the message holding the URL)
PLACES: dict[str, tuple[Callable[[Media, str], list[Message]], int]] = {
    "a_media_message": (_top_level, 1),
    "media_in_a_multimodal_message": (_in_multimodal, 1),
    "media_in_a_tool_result": (_in_tool_result, 2),
}
MEDIA: dict[str, tuple[Media, str]] = {
    "image_gs": (_image, GS_IMAGE),
    "image_files_api": (_image, FILES_API_URI),
    "document_gs": (_document, GS_URI),
    "document_files_api": (_document, FILES_API_URI),
}
CASES = [
    pytest.param(wing, place, media, url, index, id=f"{wing}-{media_id}-{place_id}")
    for wing in WINGS
    for media_id, (media, url) in MEDIA.items()
    for place_id, (place, index) in PLACES.items()
]


def _agent(wing: Wing, router: respx.Router, strict_mode: bool) -> Any:
    """The wing's agent on its real SDK client over ``router``, behind its connector."""
    if wing == "chat":
        agent: Any = OpenAIChatAgent(openai_client(router), name=AGENT, model="gpt-4o-mini")
        connector: Any = OpenAIChatRequestMessageConnector(strict_mode=strict_mode)
    elif wing == "responses":
        agent = OpenAIResponsesAgent(openai_client(router), name=AGENT, model="gpt-5-mini")
        connector = OpenAIResponsesConnector(strict_mode=strict_mode)
    else:
        agent = AnthropicChatAgent(anthropic_client(router), name=AGENT, model="claude-test")
        connector = AnthropicMessageConnector(strict_mode=strict_mode)
    return agent.register_message_connector(connector)


# wing: (its endpoint, a reply, the strict validator of its request body)
ENDPOINTS: dict[Wing, tuple[str, dict[str, Any], Callable[[Any], object]]] = {
    "chat": (CHAT_URL, openai_completion("ok"), chat_wire.check_request_body),
    "responses": (RESPONSES_URL, openai_response("ok"), responses_wire.check_request_body),
    "anthropic": (ANTHROPIC_URL, anthropic_message("ok"), anthropic_wire.assert_valid_request),
}


async def _send(wing: Wing, messages: list[Message], *, strict_mode: bool) -> dict[str, Any]:
    """The body the wing's real SDK client sent for ``[START, *messages]``, wire-checked."""
    url, reply, check = ENDPOINTS[wing]
    router = respx.Router(assert_all_called=False)
    route = router.post(url).respond(json=reply)
    await _agent(wing, router, strict_mode).send(chat_history=[START, *messages])
    body: dict[str, Any] = last_request_json(route)
    check(body)
    return body


def _dropped_notes(wing: Wing, messages: list[Message]) -> list[tuple[int | None, str]]:
    convert = {"chat": to_openai, "responses": to_openai_responses, "anthropic": to_anthropic}
    request = convert[wing]([START, *messages], agent_name=AGENT)
    return [(note.index, note.kind) for note in request.notes if note.kind == "dropped"]


@pytest.mark.parametrize(("wing", "place", "media", "url", "index"), CASES)
async def test_a_url_only_google_reads_is_dropped_with_a_note_when_lenient(
    wing: Wing, place: Callable[[Media, str], list[Message]], media: Media, url: str, index: int
) -> None:
    messages = place(media, url)
    body = await _send(wing, messages, strict_mode=False)
    sent = json.dumps(body)
    assert url not in sent
    assert "Read this." in sent
    assert ("What is this?" if index == 1 else "Sales") in sent  # the rest of it is kept
    assert _dropped_notes(wing, messages) == [(index, "dropped")]


@pytest.mark.parametrize(("wing", "place", "media", "url", "index"), CASES)
async def test_a_url_only_google_reads_raises_naming_its_message_when_strict(
    wing: Wing, place: Callable[[Media, str], list[Message]], media: Media, url: str, index: int
) -> None:
    with pytest.raises(UnsupportedMessageError) as caught:
        await _send(wing, place(media, url), strict_mode=True)
    assert caught.value.index == index


# The web URLs each wing takes still go out (Chat Completions takes no document URL at all).
WEB = [
    pytest.param(wing, media, url, id=f"{wing}-{kind}")
    for wing in WINGS
    for kind, (media, url) in {
        "image": (_image, WEB_IMAGE),
        "document": (_document, WEB_PDF),
    }.items()
    if not (wing == "chat" and kind == "document")
]


@pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
@pytest.mark.parametrize(("wing", "media", "url"), WEB)
async def test_a_web_url_is_still_sent(
    wing: Wing, media: Media, url: str, strict_mode: bool
) -> None:
    body = await _send(wing, _in_multimodal(media, url), strict_mode=strict_mode)
    assert url in json.dumps(body)


@pytest.mark.parametrize("wing", WINGS)
def test_the_note_says_only_gemini_reads_a_files_api_uri(wing: Wing) -> None:
    convert = {"chat": to_openai, "responses": to_openai_responses, "anthropic": to_anthropic}
    message = MultiModalMessage(Role.USER, [QUESTION, _image(FILES_API_URI)])
    (note,) = convert[wing]([message], agent_name=AGENT).notes
    assert "Google Files API image URIs cannot be sent to" in note.detail
    assert "only Gemini reads them" in note.detail
    assert "(content[1])" in note.detail
