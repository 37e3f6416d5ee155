"""The shared corpus' revision-3 replies (API.md 19.4, 19.5): citations and hosted tools in each
wing's own flavour (Anthropic web search and fetch, a ``pause_turn`` reply; Responses
``url_citation`` and ``web_search_call``, ``code_interpreter_call``, encrypted reasoning; Gemini
grounding and code execution), as the reply messages hold them.

Each is what the wing's own parser reads from a small reply (``from_anthropic``,
``from_openai_responses``, ``from_gemini``; usage and finish reason left out), written out here
so the corpus imports no provider.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from llmbridge import (
    Citation,
    HostedToolCall,
    Message,
    Reasoning,
    Role,
    TextMessage,
    ToolCall,
    ToolCallMessage,
)

PARIS = "https://weather.example/paris"
WEATHER = ToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1")


def _weather(tool_call_id: str, provider_data: dict[str, Any]) -> ToolCall:
    """The weather call as a wing's reply gives it: its id and state."""
    return dataclasses.replace(WEATHER, tool_call_id=tool_call_id, provider_data=provider_data)


def _anthropic_search(tool_id: str, hits: tuple[dict[str, Any], ...]) -> HostedToolCall:
    """A web search Anthropic ran: ``from_anthropic``'s reading of its two blocks."""
    query = {"query": "Paris weather"}
    return HostedToolCall(
        "web_search",
        '{"query": "Paris weather"}',
        id=tool_id,
        result="\n".join(f"{hit['title']} {hit['url']}" for hit in hits),
        provider="anthropic",
        provider_data={
            "anthropic": {
                "blocks": [
                    {
                        "id": tool_id,
                        "input": query,
                        "name": "web_search",
                        "type": "server_tool_use",
                    },
                    {
                        "content": list(hits),
                        "tool_use_id": tool_id,
                        "type": "web_search_tool_result",
                    },
                ],
                "offset": 0,
            }
        },
    )


HIT = {
    "encrypted_content": "EqgfCioI",
    "page_age": "May 1, 2025",
    "title": "Paris forecast",
    "type": "web_search_result",
    "url": PARIS,
}
ANTHROPIC_CITATION = {
    "cited_text": "Paris: 18C, sunny",
    "encrypted_index": "Eo8BCioI",
    "title": "Paris forecast",
    "type": "web_search_result_location",
    "url": PARIS,
}
ANTHROPIC_FETCH = HostedToolCall(
    "web_fetch",
    '{"url": "https://weather.example/paris"}',
    id="srvtoolu_02",
    result="url_not_accessible",
    is_error=True,
    provider="anthropic",
    provider_data={
        "anthropic": {
            "blocks": [
                {
                    "id": "srvtoolu_02",
                    "input": {"url": PARIS},
                    "name": "web_fetch",
                    "type": "server_tool_use",
                },
                {
                    "content": {
                        "error_code": "url_not_accessible",
                        "type": "web_fetch_tool_result_error",
                    },
                    "tool_use_id": "srvtoolu_02",
                    "type": "web_fetch_tool_result",
                },
            ],
            "offset": 0,
        }
    },
)


def _anthropic_reply(from_: str) -> TextMessage:
    """A reply that searched the web and cites a search result for its whole text block."""
    return TextMessage(
        Role.ASSISTANT,
        "It is 18C in Paris.",
        from_,
        citations=[
            Citation(
                0,
                19,
                url=PARIS,
                title="Paris forecast",
                cited_text="Paris: 18C, sunny",
                provider="anthropic",
                provider_data={"anthropic": {"citation": ANTHROPIC_CITATION}},
            )
        ],
        hosted_tools=[_anthropic_search("srvtoolu_01", (HIT,))],
    )


URL_CITATION = {
    "end_index": 18,
    "start_index": 9,
    "title": "Paris forecast",
    "type": "url_citation",
    "url": PARIS,
}
WEB_SEARCH_CALL = {
    "id": "ws_01",
    "action": {
        "type": "search",
        "query": "Paris weather",
        "sources": [{"type": "url", "url": PARIS}],
    },
    "status": "completed",
    "type": "web_search_call",
}
CODE_INTERPRETER_CALL = {
    "id": "ci_01",
    "code": "print(18 + 0)",
    "container_id": "cntr_01",
    "outputs": [{"logs": "18\n", "type": "logs"}],
    "status": "completed",
    "type": "code_interpreter_call",
}


def _gemini_code(code: str, outcome: str, output: str) -> HostedToolCall:
    """A code execution Gemini ran: ``from_gemini``'s reading of its two parts."""
    return HostedToolCall(
        "code_execution",
        f'{{"language": "PYTHON", "code": "{code}"}}',
        id="code_execution_0",
        result=output,
        is_error=outcome != "OUTCOME_OK",
        provider="gemini",
        provider_data={
            "gemini": {
                "parts": [
                    {"executable_code": {"code": code, "language": "PYTHON"}},
                    {"code_execution_result": {"outcome": outcome, "output": output}},
                ],
                "offset": 0,
            }
        },
    )


GROUNDING = {
    "support": {
        "grounding_chunk_indices": [0],
        "segment": {"start_index": 9, "end_index": 18, "part_index": 2, "text": "in Paris."},
    },
    "chunk_index": 0,
    "chunk": {"web": {"title": "weather.example", "uri": PARIS}},
}


def replies(agent: str, other: str) -> dict[str, Message]:
    """The replies by name, ``agent`` the provider agent ("self"), ``other`` another agent."""
    return {
        "reply_anthropic_web_search_cited": _anthropic_reply(agent),
        "reply_anthropic_web_search_cited_from_other_agent": _anthropic_reply(other),
        "reply_anthropic_pause_turn_hosted_only": TextMessage(
            Role.ASSISTANT,
            "",
            agent,
            finish_reason="pause",
            hosted_tools=[_anthropic_search("srvtoolu_03", ())],
        ),
        "tool_calls_after_anthropic_web_fetch": ToolCallMessage(
            [WEATHER],
            agent,
            content="The page is down; asking the tool.",
            hosted_tools=[ANTHROPIC_FETCH],
        ),
        "reply_responses_web_search_cited": TextMessage(
            Role.ASSISTANT,
            "It is 18C in Paris.",
            agent,
            provider_data={"openai-responses": {"id": "msg_01"}},
            citations=[
                Citation(
                    9,
                    18,
                    url=PARIS,
                    title="Paris forecast",
                    provider="openai",
                    provider_data={"openai-responses": {"annotation": URL_CITATION}},
                )
            ],
            hosted_tools=[
                HostedToolCall(
                    "web_search",
                    '{"type":"search","query":"Paris weather","sources":[{"type":"url","url":'
                    '"https://weather.example/paris"}]}',
                    id="ws_01",
                    result=PARIS,
                    provider="openai",
                    provider_data={"openai-responses": {"item": WEB_SEARCH_CALL, "position": 0}},
                )
            ],
        ),
        "reply_responses_with_encrypted_reasoning": TextMessage(
            Role.ASSISTANT,
            "Done.",
            agent,
            reasoning=[
                Reasoning(
                    "Look it up.",
                    signature="gAAAAB-enc",
                    provider="openai-responses",
                    provider_data={
                        "openai-responses": {
                            "id": "rs_01",
                            "summary": ["Look it up."],
                            "before": "msg_02",
                        }
                    },
                )
            ],
            provider_data={"openai-responses": {"id": "msg_02"}},
        ),
        "tool_calls_after_responses_code_interpreter": ToolCallMessage(
            [_weather("call_1", {"openai-responses": {"id": "fc_01"}})],
            agent,
            hosted_tools=[
                HostedToolCall(
                    "code_interpreter",
                    '{"code":"print(18 + 0)"}',
                    id="ci_01",
                    result="18\n",
                    provider="openai",
                    provider_data={
                        "openai-responses": {"item": CODE_INTERPRETER_CALL, "position": 0}
                    },
                )
            ],
        ),
        "reply_gemini_code_execution_grounded": TextMessage(
            Role.ASSISTANT,
            "It is 18C in Paris.",
            agent,
            citations=[
                Citation(
                    9,
                    18,
                    url=PARIS,
                    title="weather.example",
                    provider="gemini",
                    provider_data={"gemini": GROUNDING},
                )
            ],
            hosted_tools=[_gemini_code("print(18 + 0)", "OUTCOME_OK", "18\n")],
        ),
        "tool_calls_after_gemini_code_execution": ToolCallMessage(
            [_weather("get_weather_0", {"gemini": {"thought_signature": "c2lnLWNhbGw="}})],
            agent,
            hosted_tools=[_gemini_code("print(1/0)", "OUTCOME_FAILED", "ZeroDivisionError")],
        ),
    }
