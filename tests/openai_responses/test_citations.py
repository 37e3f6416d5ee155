"""Citations (API.md 19.4, 19.7): ``output_text`` annotations -> ``Citation``s, replayed to
Responses exactly, the same from a stream, and read back by the payload importer."""

from __future__ import annotations

from typing import Any

import pytest
from openai.types.responses import Response

from llmbridge import Citation, Role, StreamInterruptedError, TextMessage
from llmbridge.openai import (
    from_openai_responses,
    from_openai_responses_input,
    to_openai_responses,
)
from llmbridge.testing import openai_response, openai_response_events
from tests.openai_responses.rev3 import (
    AGENT,
    CONTAINER_CITATION,
    FILE_CITATION,
    FILE_PATH,
    URL_CITATION,
    USER,
    aggregate,
    as_sent,
    bodies,
    connected,
    reply_of,
    sent_input,
    state,
    text_message,
)
from tests.openai_responses.sdk import streamed

MODES = pytest.mark.parametrize("strict_mode", [False, True], ids=["lenient", "strict"])
TEXT = "Hello world, again."  # 19 characters


def cited(start: int, end: int, annotation: dict[str, Any], **fields: Any) -> Citation:
    entry: dict[str, Any] = {"annotation": annotation}
    for key in ("message", "offset"):
        if key in fields:
            entry[key] = fields.pop(key)
    return Citation(start, end, provider="openai", provider_data=state(**entry), **fields)


URL_CITED = cited(0, 5, URL_CITATION, url=URL_CITATION["url"], title="Example")

# name -> (output items, the citations of the reply)
REPLIES: dict[str, tuple[list[dict[str, Any]], tuple[Citation, ...]]] = {
    "url_citation_is_a_span_with_url_and_title": (
        [text_message((TEXT, [URL_CITATION]))],
        (URL_CITED,),
    ),
    "file_citation_is_the_point_at_its_index": (
        [text_message((TEXT, [FILE_CITATION]))],
        (cited(10, 10, FILE_CITATION, file_id="file-1", title="ai.pdf"),),
    ),
    "file_path_is_the_point_at_its_index": (
        [text_message((TEXT, [FILE_PATH]))],
        (cited(3, 3, FILE_PATH, file_id="file-2"),),
    ),
    "container_file_citation_is_a_span_with_its_file": (
        [text_message((TEXT, [CONTAINER_CITATION]))],
        (cited(6, 11, CONTAINER_CITATION, file_id="cfile_1", title="sums.txt"),),
    ),
    "annotations_keep_their_order": (
        [text_message((TEXT, [FILE_CITATION, URL_CITATION]))],
        (cited(10, 10, FILE_CITATION, file_id="file-1", title="ai.pdf"), URL_CITED),
    ),
    "offsets_count_the_parts_before_in_the_joined_content": (
        [text_message(("Hi. ", []), (TEXT, [URL_CITATION, FILE_PATH]))],
        (
            cited(4, 9, URL_CITATION, url=URL_CITATION["url"], title="Example", offset=4),
            cited(7, 7, FILE_PATH, file_id="file-2", offset=4),
        ),
    ),
    "several_message_items_name_the_message_of_each_citation": (
        [
            text_message(("Checking. ", [FILE_PATH]), item_id="msg_1", phase="commentary"),
            text_message((TEXT, [URL_CITATION]), item_id="msg_2", phase="final_answer"),
        ],
        (
            cited(3, 3, FILE_PATH, file_id="file-2", message=0),
            cited(10, 15, URL_CITATION, url=URL_CITATION["url"], title="Example", message=1),
        ),
    ),
    "an_offset_past_the_text_stays_within_it": (
        [text_message(("Short.", [{**FILE_CITATION, "index": 99}]))],
        (cited(6, 6, {**FILE_CITATION, "index": 99}, file_id="file-1", title="ai.pdf"),),
    ),
}


@MODES
@pytest.mark.parametrize("name", list(REPLIES), ids=list(REPLIES))
async def test_annotations_become_citations_in_the_joined_content(
    name: str, strict_mode: bool
) -> None:
    items, expected = REPLIES[name]

    reply = await reply_of(items, strict_mode=strict_mode)

    assert isinstance(reply, TextMessage)
    assert reply.citations == expected
    assert [c.provider_data for c in reply.citations] == [c.provider_data for c in expected]


async def test_a_url_citation_covers_the_text_it_names() -> None:
    text = "See ([example.com](https://example.com))."
    annotation = {**URL_CITATION, "start_index": 4, "end_index": len(text) - 1}

    reply = await reply_of([text_message((text, [annotation]))])

    (citation,) = reply.citations  # type: ignore[attr-defined]
    content = reply.get_content() or ""
    assert content[citation.start : citation.end] == "([example.com](https://example.com))"


# The replies whose items go back exactly as they came (one part per message item).
EXACT = [name for name in REPLIES if name != "offsets_count_the_parts_before_in_the_joined_content"]


@pytest.mark.parametrize("name", EXACT, ids=EXACT)
async def test_the_reply_sent_back_replays_each_output_text_with_its_annotations(
    name: str,
) -> None:
    items, _ = REPLIES[name]
    reply = await reply_of(items)

    sent = await sent_input([USER, reply, TextMessage(Role.USER, "More?")])

    assert sent[1:-1] == [as_sent(item) for item in items]


async def test_parts_joined_into_one_item_carry_their_annotations_at_the_new_offsets() -> None:
    items, _ = REPLIES["offsets_count_the_parts_before_in_the_joined_content"]
    reply = await reply_of(items)

    sent = await sent_input([USER, reply])

    (part,) = sent[1]["content"]
    assert part == {
        "type": "output_text",
        "text": "Hi. " + TEXT,
        "annotations": [
            {**URL_CITATION, "start_index": 4, "end_index": 9},
            {**FILE_PATH, "index": 7},
        ],
    }


async def test_a_conversation_through_the_connector_replays_the_annotations() -> None:
    items = [text_message((TEXT, [URL_CITATION, FILE_CITATION]))]
    agent, route = connected(openai_response(items), openai_response("ok"))

    reply = await agent.generate_reply([USER])
    await agent.generate_reply([USER, reply, TextMessage(Role.USER, "Sources?")])

    assert reply.citations[0] == URL_CITED  # type: ignore[attr-defined]
    assert bodies(route)[1]["input"][1] == as_sent(items[0])


@MODES
@pytest.mark.parametrize(
    "citation",
    [
        pytest.param(Citation(0, 5, url="https://a.test", provider="anthropic"), id="of_anthropic"),
        pytest.param(Citation(0, 5, url="https://a.test", provider="openai"), id="without_data"),
    ],
)
def test_a_citation_without_a_recorded_annotation_is_not_sent_and_not_noted(
    citation: Citation, strict_mode: bool
) -> None:
    reply = TextMessage(
        Role.ASSISTANT, TEXT, AGENT, provider_data=state(id="msg_1"), citations=[citation]
    )

    request = to_openai_responses([USER, reply], agent_name=AGENT, strict_mode=strict_mode)

    assert request.input[1]["content"][0]["annotations"] == []  # type: ignore[index]
    assert request.notes == ()


async def test_a_text_replayed_without_its_id_sends_no_annotations() -> None:
    reply = await reply_of([text_message((TEXT, [URL_CITATION]))])
    unrecorded = TextMessage(Role.ASSISTANT, TEXT, AGENT, citations=reply.citations)  # type: ignore[attr-defined]

    request = to_openai_responses([USER, unrecorded], agent_name=AGENT, strict_mode=True)

    assert request.input[1] == {"role": "assistant", "content": TEXT}
    assert request.notes == ()


@pytest.mark.parametrize("terminal_output", ["full", "null"])
@pytest.mark.parametrize("name", list(REPLIES), ids=list(REPLIES))
async def test_a_stream_ends_with_the_citations_of_the_reply(
    name: str, terminal_output: Any
) -> None:
    body = openai_response(REPLIES[name][0])
    events = await streamed(openai_response_events(body, terminal_output=terminal_output))

    final = aggregate(events).finish()

    expected = from_openai_responses(Response.model_validate(body), agent_name=AGENT)
    assert final == expected
    assert final.citations == REPLIES[name][1]  # type: ignore[attr-defined]


async def test_an_interrupted_stream_keeps_the_citations_added_so_far() -> None:
    body = openai_response([text_message((TEXT, [URL_CITATION, FILE_CITATION]))])
    events = openai_response_events(body, pieces=1)
    text_done = next(i for i, e in enumerate(events) if e["type"] == "response.output_text.done")
    aggregator = aggregate(await streamed(events[:text_done]))

    with pytest.raises(StreamInterruptedError) as raised:
        aggregator.finish()

    partial = raised.value.partial
    assert isinstance(partial, TextMessage)
    assert partial.content == TEXT
    assert partial.citations == REPLIES["annotations_keep_their_order"][1][::-1]


@MODES
@pytest.mark.parametrize("name", list(REPLIES), ids=list(REPLIES))
async def test_the_importer_reads_the_replayed_annotations_back(
    name: str, strict_mode: bool
) -> None:
    reply = await reply_of(REPLIES[name][0])
    payload = to_openai_responses([USER, reply], agent_name=AGENT).input

    imported = from_openai_responses_input(payload, agent_name=AGENT, strict_mode=strict_mode)

    assert to_openai_responses(imported, agent_name=AGENT).input == payload
    (text,) = imported[1:]
    if name in EXACT:
        assert text.citations == reply.citations  # type: ignore[attr-defined]
    else:  # the parts were joined into one: the annotations are read at their new offsets
        spans = [(c.start, c.end, c.url, c.file_id) for c in text.citations]  # type: ignore[attr-defined]
        assert spans == [(c.start, c.end, c.url, c.file_id) for c in reply.citations]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "annotation",
    [
        pytest.param({"start_index": 0, "end_index": 5}, id="no_type"),
        pytest.param("url_citation", id="not_an_object"),
    ],
)
def test_an_annotation_that_is_no_object_with_a_type_keeps_its_item_as_it_is(
    annotation: Any,
) -> None:
    item = as_sent(text_message((TEXT, [annotation])))

    (imported,) = from_openai_responses_input([item], agent_name=AGENT)

    assert imported.content == item  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "annotation",
    [
        pytest.param({**URL_CITATION, "end_index": 99}, id="past_the_text"),
        pytest.param({**URL_CITATION, "start_index": 6, "end_index": 5}, id="reversed"),
        pytest.param({**FILE_PATH, "index": True}, id="index_not_an_integer"),
        pytest.param({"type": "future_citation", "anchor": "x"}, id="a_type_to_come"),
    ],
)
def test_any_other_annotation_reads_back_and_replays_exactly(annotation: dict[str, Any]) -> None:
    payload = [{"role": "user", "content": "Hi"}, as_sent(text_message((TEXT, [annotation])))]

    imported = from_openai_responses_input(payload, agent_name=AGENT, strict_mode=True)

    (citation,) = imported[1].citations  # type: ignore[attr-defined]
    assert 0 <= citation.start <= citation.end <= len(TEXT)
    assert to_openai_responses(imported, agent_name=AGENT).input == payload
