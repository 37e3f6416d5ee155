"""Tool outputs holding files import as results with document parts (issue 26, defect 2).

Other clients write ``input_file`` parts in a ``function_call_output`` without the
``"detail": "auto"`` llmbridge adds; the output used to become an envelope, leaving its call
unanswered so that the whole history raised.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest

from llmbridge import DocumentMessage, Role, TextMessage, ToolCallResultMessage
from llmbridge.openai import from_openai_responses_input, to_openai_responses
from tests.openai_responses.wire import check_input

AGENT = "assistant"
PDF = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4\n%%EOF\n").decode()
CALL = {"type": "function_call", "call_id": "call_1", "name": "fetch_report", "arguments": "{}"}
OUTPUTS: dict[str, tuple[list[dict[str, Any]], tuple[Any, ...]]] = {
    "file_data": (
        [{"type": "input_file", "file_data": PDF, "filename": "report.pdf"}],
        (DocumentMessage(Role.USER, PDF, filename="report.pdf"),),
    ),
    "file_url": (
        [{"type": "input_file", "file_url": "https://example.com/report.pdf"}],
        (DocumentMessage(Role.USER, "https://example.com/report.pdf"),),
    ),
    "text_and_file": (
        [
            {"type": "input_text", "text": "The report:"},
            {"type": "input_file", "file_data": PDF, "filename": "report.pdf"},
        ],
        (
            TextMessage(Role.TOOL, "The report:"),
            DocumentMessage(Role.USER, PDF, filename="report.pdf"),
        ),
    ),
}


@pytest.mark.parametrize(("output", "parts"), OUTPUTS.values(), ids=OUTPUTS.keys())
def test_a_tool_output_of_files_without_detail_imports_as_document_parts(
    output: list[dict[str, Any]], parts: tuple[Any, ...]
) -> None:
    items = [CALL, {"type": "function_call_output", "call_id": "call_1", "output": output}]

    messages = from_openai_responses_input(items, agent_name=AGENT, strict_mode=True)

    results = messages[-1]
    assert isinstance(results, ToolCallResultMessage)
    result = results.tool_calls[0].result
    assert isinstance(result, tuple)
    assert [type(part) for part in result] == [type(part) for part in parts]
    sent = to_openai_responses(messages, agent_name=AGENT).input
    check_input(sent)
    assert [{k: v for k, v in p.items() if k != "detail"} for p in sent[-1]["output"]] == output
