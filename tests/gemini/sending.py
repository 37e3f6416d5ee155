"""Send a ``to_gemini`` request through the real google-genai client over respx.

``sent_body`` returns the JSON body the SDK put on the wire (the conftest router validates it
with ``tests/gemini/wire.py`` after the test); ``snake`` turns its camelCase keys into the
snake_case names ``to_gemini`` uses, so a test can compare the two.
"""

from __future__ import annotations

import re
from typing import Any, Final

import respx
from google.genai import types

from llmbridge.gemini import GeminiRequest
from llmbridge.testing import gemini_client, gemini_response, last_request_json
from tests.gemini.helpers import GENERATE, MODEL

_HUMP: Final = re.compile(r"(?<=[a-z0-9])([A-Z])")
# Values under these keys are user data (arguments, results): their keys stay as they are.
_DATA_KEYS: Final = frozenset({"args", "response", "parameters_json_schema"})


def snake(value: Any) -> Any:
    """``value`` with every wire key in snake_case (user data under args/response untouched)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = _HUMP.sub(r"_\1", key).lower()
            out[name] = item if name in _DATA_KEYS else snake(item)
        return out
    if isinstance(value, list):
        return [snake(item) for item in value]
    return value


def as_sent(value: Any) -> Any:
    """``value`` with its base64 text (inline data, signatures) as the SDK sends it: URL-safe.

    The SDK decodes every bytes field given as base64 text and encodes it again URL-safe (the
    API takes both alphabets); the bypass value is URL-safe base64 already, so it is unchanged.
    """
    if isinstance(value, dict):
        return {
            key: item.replace("+", "-").replace("/", "_")
            if key in ("data", "thought_signature") and isinstance(item, str)
            else as_sent(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [as_sent(item) for item in value]
    return value


async def sent_body(router: respx.Router, request: GeminiRequest) -> dict[str, Any]:
    """The body the SDK sends for ``request`` (snake_case keys), as ``GeminiChatAgent`` would."""
    route = router.post(url__regex=GENERATE).respond(json=gemini_response("ok"))
    client = gemini_client(router)  # kept in a variable: the client closes when collected
    config = types.GenerateContentConfig(
        system_instruction=(
            {"parts": request.system_instruction} if request.system_instruction else None
        ),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    await client.aio.models.generate_content(model=MODEL, contents=request.contents, config=config)
    body: dict[str, Any] = snake(last_request_json(route))
    return body
