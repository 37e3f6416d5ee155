"""Approval snapshot: every entry of the shared neutral corpus converted for Anthropic.

Each entry converts on its own (``check_pairing=False``) in lenient mode, strict mode and
with ``name_policy="prefix"`` (the last two shown only where they differ), so the Anthropic
payload of each neutral message sits beside the OpenAI one in ``snapshots/``.
"""

from __future__ import annotations

from typing import Any

from llmbridge import LLMBridgeError, Message
from llmbridge.anthropic import to_anthropic
from tests.anthropic.wire import assert_valid_request
from tests.corpus import AGENT, CORPUS


def outcome(message: Message, *, strict: bool, name_policy: str = "drop") -> dict[str, Any]:
    try:
        request = to_anthropic(
            [message],
            agent_name=AGENT,
            strict_mode=strict,
            name_policy=name_policy,  # type: ignore[arg-type]
            check_pairing=False,
        )
    except LLMBridgeError as error:
        return {"error": type(error).__name__, "message": str(error)}
    assert_valid_request(request, fragment=True)
    return {
        "system": request.system,
        "messages": request.messages,
        "notes": [[note.index, note.kind, note.detail] for note in request.notes],
    }


def variants(message: Message) -> dict[str, Any]:
    lenient = outcome(message, strict=False)
    strict = outcome(message, strict=True)
    prefix = outcome(message, strict=False, name_policy="prefix")
    return {
        "lenient": lenient,
        "strict": "same as lenient" if strict == lenient else strict,
        "prefix": "same as lenient" if prefix == lenient else prefix,
    }


def test_corpus(snapshot: Any) -> None:
    converted = {name: variants(message) for name, message in CORPUS.items()}

    assert converted == snapshot
