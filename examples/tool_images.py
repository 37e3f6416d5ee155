"""A tool that returns a chart image: a parts result, sent the way each provider takes it.

The plain function returns a caption and an ``ImageMessage``; FunctionCallMiddleware makes that a
parts result. Anthropic gets it as ``tool_result`` content blocks (text and image); OpenAI Chat
tool messages take text only, so the caption stays in the tool message and the chart follows
in one user message labelled ``[result of <call id>]`` (a "repaired" note).

    python examples/tool_images.py          # offline: llmbridge's scripted provider answers
    python examples/tool_images.py --live   # the real APIs (OPENAI_API_KEY, ANTHROPIC_API_KEY)
"""

from __future__ import annotations

import asyncio
import json
import struct
import sys
import zlib
from typing import Any

import anthropic
import openai

from llmbridge import (
    FunctionCallMiddleware,
    ImageMessage,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    function,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.openai import OpenAIChatAgent
from llmbridge.testing import ScriptedProvider

LIVE = "--live" in sys.argv[1:]
SALES = {"January": 3, "February": 5, "March": 8, "April": 6}


def bar_chart(values: list[int], *, bar: int = 6, height: int = 24) -> bytes:
    """A small grey-on-white PNG bar chart (encoded by hand: no imaging library needed)."""
    top = max(values)
    rows = []
    for y in range(height):
        level = (height - y) * top / height
        row = bytearray([0])  # PNG filter type 0 for each row
        for value in values:
            row += bytes([60 if value >= level else 255] * bar + [255] * 2)
        rows.append(bytes(row))
    width = len(values) * (bar + 2)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )


@function
def sales_chart(months: int = 4) -> list[str | ImageMessage]:
    """A bar chart of monthly sales.

    Args:
        months: How many months to show, from January.
    """
    shown = list(SALES)[:months]
    caption = "Monthly sales (units): " + ", ".join(f"{m} {SALES[m]}" for m in shown)
    return [caption, ImageMessage(Role.TOOL, data=bar_chart([SALES[m] for m in shown]))]


SCRIPT = [
    ToolCallMessage([ToolCall("sales_chart", '{"months": 4}', tool_call_id="call_chart")]),
    "Sales climbed to a peak in March, then eased in April.",
]


def shortened(payload: Any) -> Any:
    """``payload`` with long strings (base64) cut, for printing."""
    if isinstance(payload, dict):
        return {key: shortened(value) for key, value in payload.items()}
    if isinstance(payload, list):
        return [shortened(value) for value in payload]
    if isinstance(payload, str) and len(payload) > 60:
        return payload[:60] + "..."
    return payload


async def ask(agent: Any, scripted: ScriptedProvider | None, provider: str) -> None:
    connected = agent.register_message_connector().register_streaming_middleware(
        FunctionCallMiddleware([sales_chart])
    )
    history: list[Message] = [TextMessage(Role.USER, "How did sales go? Look at the chart.")]
    while isinstance(reply := await connected.send(chat_history=history), ToolCallAggregateMessage):
        history.append(reply)
    if scripted is not None:  # what the model got back for the chart, as the SDK sent it
        last = scripted.bodies(provider)[-1]["messages"]
        print(
            f"== {provider}: the tool result as sent\n{json.dumps(shortened(last[-2:]), indent=2)}"
        )
    print(f"{type(agent).__name__}: {reply.get_content()}\n")


async def main() -> None:
    for provider in ("openai", "anthropic"):
        scripted = None if LIVE else ScriptedProvider(SCRIPT)
        if provider == "openai":
            client: Any = openai.AsyncOpenAI() if scripted is None else scripted.openai_client()
            agent: Any = OpenAIChatAgent(client, name="assistant", model="gpt-4o-mini")
        else:
            client = anthropic.AsyncAnthropic() if scripted is None else scripted.anthropic_client()
            agent = AnthropicChatAgent(client, name="assistant", model="claude-haiku-4-5")
        await ask(agent, scripted, provider)


if __name__ == "__main__":
    asyncio.run(main())
