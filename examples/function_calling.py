"""Function calling: plain Python functions as tools, run by FunctionCallMiddleware.

The model asks for two calls in one reply; the middleware runs them concurrently and returns a
ToolCallAggregateMessage (calls and results together). A call that fails still gets a result
(is_error=True: unknown function, invalid arguments, or an exception the function raised),
so the next request is valid. Uses Anthropic; the code is the same for OpenAI.

    python examples/function_calling.py          # offline: llmbridge's scripted provider answers
    python examples/function_calling.py --live   # the real API (needs ANTHROPIC_API_KEY)
"""

from __future__ import annotations

import asyncio
import sys

import anthropic

from llmbridge import (
    FunctionCallMiddleware,
    Message,
    Role,
    TextMessage,
    ToolCall,
    ToolCallAggregateMessage,
    ToolCallMessage,
    function,
)
from llmbridge.anthropic import AnthropicChatAgent
from llmbridge.testing import ScriptedProvider, ScriptedReply

LIVE = "--live" in sys.argv[1:]
STOCK = {"apples": 12, "pears": 0}


@function
def check_stock(item: str) -> int:
    """How many of an item are in stock.

    Args:
        item: The item, for example "apples".
    """
    return STOCK.get(item, 0)


@function
async def order(item: str, quantity: int = 1) -> dict[str, object]:
    """Order more of an item.

    Args:
        item: The item to order.
        quantity: How many to order.
    """
    return {"item": item, "quantity": quantity, "status": "ordered"}


SCRIPT: list[ScriptedReply] = [
    ToolCallMessage(
        [
            ToolCall("check_stock", '{"item": "pears"}'),
            # A model mistake (a wrong argument name): the model gets an error result back.
            ToolCall("check_stock", '{"name": "plums"}'),
        ],
        content="Let me check both.",
    ),
    ToolCallMessage([ToolCall("order", '{"item": "pears", "quantity": 10}')]),
    "Pears were out of stock, so I ordered 10. Plums: my stock check failed, sorry.",
]


async def main() -> None:
    client = anthropic.AsyncAnthropic() if LIVE else ScriptedProvider(SCRIPT).anthropic_client()
    agent = (
        AnthropicChatAgent(client, name="assistant", model="claude-haiku-4-5")
        .register_message_connector()
        # Registered after the connector, so it runs outside it and sees neutral messages.
        .register_streaming_middleware(FunctionCallMiddleware([check_stock, order]))
    )
    history: list[Message] = [
        TextMessage(Role.USER, "Do we have pears and plums? Order 10 of anything out of stock.")
    ]
    while isinstance(reply := await agent.send(chat_history=history), ToolCallAggregateMessage):
        history.append(reply)
        for call in reply.tool_call_result_message.tool_calls:
            status = "error" if call.is_error else "ok"
            print(f"{call.function_name}({call.function_arguments}) -> {status}: {call.result}")
    print(f"{type(reply).__name__}: {reply.get_content()}")


if __name__ == "__main__":
    asyncio.run(main())
