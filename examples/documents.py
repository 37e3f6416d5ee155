"""Documents: a PDF and a text file, one neutral message, each provider's own document format.

A PDF given as bytes goes to OpenAI Chat as a ``file`` part (a data URL with a file name) and to
Anthropic as a ``document`` block with a base64 source; a csv file goes to OpenAI as a text part
headed by its file name (a "repaired" note) and to Anthropic as a ``text/plain`` document. The
pure functions show the payloads without any HTTP; then both agents get the same message.

    python examples/documents.py          # offline: llmbridge's scripted provider answers
    python examples/documents.py --live   # the real APIs (needs OPENAI_API_KEY, ANTHROPIC_API_KEY)
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import anthropic
import openai

from llmbridge import DocumentMessage, MultiModalMessage, Role, TextMessage
from llmbridge.anthropic import AnthropicChatAgent, to_anthropic
from llmbridge.openai import OpenAIChatAgent, to_openai
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]


def one_page_pdf(line: str) -> bytes:
    """A valid one-page PDF that shows ``line`` (built by hand: no PDF library needed)."""
    stream = f"BT /F1 18 Tf 72 720 Td ({line}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


question = MultiModalMessage(
    Role.USER,
    [
        TextMessage(Role.USER, "In one sentence: what do the report and the table say?"),
        DocumentMessage(Role.USER, data=one_page_pdf("Q3 revenue rose 12%."), filename="q3.pdf"),
        DocumentMessage(
            Role.USER,
            data=b"region,revenue\nEurope,4.1\nAmericas,5.3\n",
            media_type="text/csv",
            filename="regions.csv",
        ),
    ],
)


def shortened(payload: Any) -> Any:
    """``payload`` with long strings (base64) cut, for printing."""
    if isinstance(payload, dict):
        return {key: shortened(value) for key, value in payload.items()}
    if isinstance(payload, list):
        return [shortened(value) for value in payload]
    if isinstance(payload, str) and len(payload) > 60:
        return payload[:60] + "..."
    return payload


def show(title: str, payload: object) -> None:
    print(f"== {title}\n{json.dumps(shortened(payload), indent=2)}\n")


async def main() -> None:
    openai_request = to_openai([question], agent_name="assistant")
    show("OpenAI request messages", openai_request.messages)
    for note in openai_request.notes:
        print(f"note: {note.kind}: {note.detail}\n")
    show("Anthropic request messages", to_anthropic([question], agent_name="assistant").messages)

    scripted = ScriptedProvider(["Revenue rose 12%, Americas ahead.", "Q3 revenue up 12%."])
    openai_client = openai.AsyncOpenAI() if LIVE else scripted.openai_client()
    anthropic_client = anthropic.AsyncAnthropic() if LIVE else scripted.anthropic_client()
    agents = [
        OpenAIChatAgent(openai_client, name="assistant", model="gpt-4o-mini"),
        AnthropicChatAgent(anthropic_client, name="assistant", model="claude-haiku-4-5"),
    ]
    for agent in agents:
        reply = await agent.register_message_connector().send(question)
        print(f"{type(agent).__name__}: {reply.get_content()}")


if __name__ == "__main__":
    asyncio.run(main())
