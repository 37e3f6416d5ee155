"""A strict validator of OpenAI Responses request bodies: the SDK's TypedDicts plus the API's rules.

The SDK checks nothing on the client side, so this is what the API would check. Shapes come
from the SDK's TypedDicts through the Chat validator's walker (unknown keys rejected, required
keys present, JSON types exact); input items are dispatched by ``type`` and ``role`` to their
own TypedDict, since several share ``type: "message"``. On top come the rules of
research/wave2.md 1.4 and the bad inputs R1-R12 of 1.5 that can be checked offline; every
failure names its rule in brackets, e.g. ``[R9 input_text in assistant]``.

Revision 3 (issue 27): images and files by ``file_id``; replayed ``output_text`` with its
``annotations`` (``response_output_text_param.py``: ``url_citation``, ``file_citation``,
``container_file_citation``, ``file_path``, exact keys, ranges forward); hosted items as input
(``web_search_call``, ``file_search_call``, ``code_interpreter_call``, ``image_generation_call``,
``mcp_call``, ``mcp_list_tools``: their ``response_input_item_param.py`` types), with the id
prefixes the API gives them, and as the item a reasoning item precedes.

Not checkable offline: R4 (which item needs its reasoning is known only to the server), R8's
``previous_response_id`` half (the chain is server-side), R13 (the context window), R14 (not
an error).

``check_input`` checks a list of input items; ``check_request_body`` the JSON body the SDK sent.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import Any, Final

from openai.types.responses import (
    EasyInputMessageParam,
    ResponseCodeInterpreterToolCallParam,
    ResponseFileSearchToolCallParam,
    ResponseFunctionToolCallParam,
    ResponseFunctionWebSearchParam,
    ResponseOutputMessageParam,
    ResponseReasoningItemParam,
    response_create_params,
)
from openai.types.responses.response_input_item_param import (
    FunctionCallOutput,
    ImageGenerationCall,
    ItemReference,
    McpCall,
    McpListTools,
    Message,
    ResponseInputItemParam,
)

from tests.openai.wire import WireError, check_type
from tests.urls import only_google_reads

__all__ = ["WireError", "check_input", "check_request_body"]

ITEM_ID: Final = re.compile(r"^[A-Za-z0-9_-]+$")
ENCRYPTED_CONTENT: Final = "reasoning.encrypted_content"
# Hosted (server-side) tool items, replayed as input (API.md 19.5).
HOSTED_SHAPES: Final[dict[str, Any]] = {
    "web_search_call": ResponseFunctionWebSearchParam,
    "file_search_call": ResponseFileSearchToolCallParam,
    "code_interpreter_call": ResponseCodeInterpreterToolCallParam,
    "image_generation_call": ImageGenerationCall,
    "mcp_call": McpCall,
    "mcp_list_tools": McpListTools,
}
# Item kinds whose id the API checks for its prefix (R5: seen for rs, fc, msg); the hosted
# items' are the prefixes the API gives them (assumed checked alike).
ID_PREFIXES: Final = {
    "reasoning": "rs_",
    "function_call": "fc_",
    "output_message": "msg_",
    "web_search_call": "ws_",
    "file_search_call": "fs_",
    "code_interpreter_call": "ci_",
    "image_generation_call": "ig_",
    "mcp_call": "mcp_",
    "mcp_list_tools": "mcpl_",
}
# What a reasoning item may precede, as the output it came from (R3).
AFTER_REASONING: Final = frozenset({"output_message", "function_call"}) | frozenset(HOSTED_SHAPES)
SHAPES: Final[dict[str, Any]] = {
    **HOSTED_SHAPES,
    "easy_message": EasyInputMessageParam,
    "input_message": Message,
    "output_message": ResponseOutputMessageParam,
    "function_call": ResponseFunctionToolCallParam,
    "function_call_output": FunctionCallOutput,
    "reasoning": ResponseReasoningItemParam,
    "item_reference": ItemReference,
}
# Chat Completions keys the Responses API does not take, with what it takes instead.
CHAT_ONLY_KEYS: Final = {
    "messages": "input",
    "max_tokens": "max_output_tokens",
    "max_completion_tokens": "max_output_tokens",
    "response_format": "text.format",
    "stop": "nothing (Responses has no stop sequences)",
    "n": "nothing (one output per response)",
    "seed": "nothing",
}
ASSISTANT_PARTS: Final = frozenset({"output_text", "refusal"})
# annotation type -> its offset keys (response_output_text_param.py)
ANNOTATION_OFFSETS: Final = {
    "url_citation": ("start_index", "end_index"),
    "container_file_citation": ("start_index", "end_index"),
    "file_citation": ("index",),
    "file_path": ("index",),
}
DATA_URL: Final = re.compile(r"^data:[\w.+-]+/[\w.+-]+;base64,[A-Za-z0-9+/=]*$")


def _fail(path: str, rule: str, problem: str) -> typing.NoReturn:
    raise WireError(f"{path}: {problem} [{rule}]")


def _kind(item: Any, path: str) -> str:
    if not isinstance(item, dict):
        _fail(path, "item shape", f"expected an object, got {type(item).__name__}")
    kind = item.get("type")
    if kind is None and "role" not in item:
        return "item_reference"
    if kind in (None, "message"):
        if item.get("role") == "assistant":
            return "easy_message" if isinstance(item.get("content"), str) else "output_message"
        return "input_message" if "status" in item else "easy_message"
    return str(kind)


def _check_image(part: dict[str, Any], path: str) -> None:
    if part.get("detail") is None:
        _fail(path, "1.4 rule 2 input_image detail", "input_image needs detail (auto by default)")
    sources = [key for key in ("image_url", "file_id") if part.get(key) is not None]
    if len(sources) != 1:
        _fail(path, "input_image source", f"needs exactly one of image_url, file_id: {sources}")
    _check_file_id(part, path, "input_image source")
    url = part.get("image_url")
    if url is not None and not (url.startswith("https://") or DATA_URL.match(url)):
        _fail(path, "input_image source", "image_url must be an https URL or a base64 data URL")
    if url is not None and only_google_reads(url):
        _fail(path, "input_image source", "OpenAI cannot fetch gs:// or Files API URIs")


def _check_file_id(part: dict[str, Any], path: str, rule: str) -> None:
    file_id = part.get("file_id")
    if file_id is not None and not (isinstance(file_id, str) and ITEM_ID.match(file_id)):
        _fail(f"{path}.file_id", rule, f"{file_id!r} is not an OpenAI file id")


def _check_annotations(part: dict[str, Any], path: str) -> None:
    annotations = part.get("annotations")
    if not isinstance(annotations, list):
        return  # a shape error the TypedDict check reports
    for position, annotation in enumerate(annotations):
        kind = annotation.get("type") if isinstance(annotation, dict) else None
        offsets = [annotation.get(key) for key in ANNOTATION_OFFSETS.get(str(kind), ())]
        if not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets):
            continue  # a shape error the TypedDict check reports
        if any(o < 0 for o in offsets) or offsets != sorted(offsets):
            _fail(
                f"{path}.annotations[{position}]",
                "output_text annotations",
                f"{kind} offsets {offsets} are negative or backwards",
            )


def _check_file(part: dict[str, Any], path: str) -> None:
    sources = [key for key in ("file_data", "file_id", "file_url") if part.get(key) is not None]
    if len(sources) != 1:
        _fail(
            path,
            "input_file source",
            f"needs exactly one of file_data, file_id, file_url: {sources}",
        )
    _check_file_id(part, path, "input_file source")
    url = part.get("file_url")
    if url is not None and not (
        url.startswith(("http://", "https://")) and not only_google_reads(url)
    ):
        _fail(path, "input_file source", "file_url must be an http(s) URL OpenAI can fetch")
    if part.get("file_data") is not None:
        if not DATA_URL.match(part["file_data"]):
            _fail(path, "input_file source", "file_data must be a base64 data URL")
        if not part.get("filename"):
            _fail(path, "input_file source", "file_data needs a filename")


def _check_parts(parts: Any, path: str, *, assistant: bool) -> None:
    if not isinstance(parts, list):
        return  # a string content, or a shape error the TypedDict check reports
    for position, part in enumerate(parts):
        where = f"{path}[{position}]"
        kind = part.get("type") if isinstance(part, dict) else None
        if assistant and kind not in ASSISTANT_PARTS:
            _fail(
                where,
                "R9 input_text in assistant",
                f"assistant content is output_text or refusal, not {kind!r}",
            )
        if not assistant and kind in ASSISTANT_PARTS:
            _fail(where, "output_text outside assistant", f"{kind} belongs only in assistant items")
        if kind == "input_image":
            _check_image(part, where)
        elif kind == "input_file":
            _check_file(part, where)
        elif kind == "output_text":
            _check_annotations(part, where)


def _check_id(item: dict[str, Any], kind: str, path: str) -> None:
    if "id" not in item:
        return
    item_id = item["id"]
    if not isinstance(item_id, str) or not ITEM_ID.match(item_id):
        _fail(f"{path}.id", "R6 id characters", f"{item_id!r} is not letters, numbers, _ or -")
    prefix = ID_PREFIXES.get(kind)
    if prefix is not None and not item_id.startswith(prefix):
        _fail(
            f"{path}.id",
            "R5 id prefix",
            f"the id of a {kind} item begins with {prefix!r}, not {item_id!r}",
        )


def _is_stored_reference(item: dict[str, Any], kind: str) -> bool:
    """A hosted item given by ``{id, type}`` only: a stored item the API resolves by its id, as
    an ``item_reference`` (it answered such an ``image_generation_call`` with 200, recorded in
    pydantic-ai's ``test_openai_responses_image_generation_tool_without_image_output``)."""
    return kind in HOSTED_SHAPES and item.keys() == {"id", "type"}


def check_item(item: Any, path: str = "item") -> str:
    """Raise ``WireError`` unless ``item`` is a valid input item on its own; return its kind."""
    kind = _kind(item, path)
    if "name" in item and kind.endswith("message"):
        _fail(f"{path}.name", "1.4 rule 4 no names", "Responses messages carry no name")
    if kind == "reasoning" and "summary" not in item:
        _fail(path, "R10 reasoning summary", "a reasoning item needs summary ([] allowed)")
    if kind == "function_call_output" and not item.get("call_id"):
        _fail(f"{path}.call_id", "R2 output without call", "function_call_output needs its call_id")
    _check_id(item, kind, path)
    if _is_stored_reference(item, kind):
        return kind
    if kind.endswith("message"):
        _check_parts(item.get("content"), f"{path}.content", assistant=kind == "output_message")
    elif kind == "function_call_output":
        _check_parts(item.get("output"), f"{path}.output", assistant=False)
    check_type(item, SHAPES.get(kind, ResponseInputItemParam), path)
    return kind


def _check_pairing(items: list[Any], kinds: list[str]) -> None:
    calls: dict[str, int] = {}
    answered: set[str] = set()
    for index, (item, kind) in enumerate(zip(items, kinds, strict=True)):
        if kind == "function_call":
            calls[item["call_id"]] = index
        elif kind == "function_call_output":
            if item["call_id"] not in calls:
                _fail(
                    f"input[{index}]",
                    "R2 output without call",
                    f"no function_call before with call_id {item['call_id']!r}",
                )
            answered.add(item["call_id"])
    for call_id, index in calls.items():
        if call_id not in answered:
            _fail(
                f"input[{index}]",
                "R1 call without output",
                f"no function_call_output for {call_id!r}",
            )


def _check_reasoning_order(items: list[Any], kinds: list[str]) -> None:
    for index, kind in enumerate(kinds):
        if kind != "reasoning":
            continue
        following = kinds[index + 1] if index + 1 < len(kinds) else None
        if following not in AFTER_REASONING or "id" not in items[index + 1]:
            _fail(
                f"input[{index}]",
                "R3 reasoning without following item",
                "a reasoning item must be followed by the msg_ / fc_ / hosted item it preceded,"
                " with its id",
            )


def check_input(items: Any) -> list[str]:
    """Raise ``WireError`` unless ``items`` is a whole, valid ``input`` list; return item kinds."""
    if not isinstance(items, list):
        _fail("input", "item shape", f"expected a list of items, got {type(items).__name__}")
    kinds = [check_item(item, f"input[{index}]") for index, item in enumerate(items)]
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        item_id = item.get("id") if kinds[index] != "item_reference" else None
        if item_id is not None and item_id in seen:
            _fail(
                f"input[{index}].id",
                "R8 duplicate id",
                f"{item_id!r} is also input[{seen[item_id]}].id",
            )
        if item_id is not None:
            seen[item_id] = index
    _check_pairing(items, kinds)
    _check_reasoning_order(items, kinds)
    return kinds


def _check_stateless(body: dict[str, Any], items: list[Any], kinds: list[str]) -> None:
    store = body.get("store")
    if store is False:
        for index, (item, kind) in enumerate(zip(items, kinds, strict=True)):
            if kind == "item_reference" or _is_stored_reference(item, kind):
                _fail(
                    f"input[{index}]",
                    "R7 unstored id",
                    f"store=false: an item given by id only ({kind}) cannot be resolved",
                )
            if kind == "reasoning" and not item.get("encrypted_content"):
                _fail(
                    f"input[{index}]",
                    "R7 unstored id",
                    "store=false: a reasoning item needs its encrypted_content",
                )
    # Only a stateless conversation depends on getting encrypted_content back; stored
    # responses may replay reasoning items as they are (the API resolves their ids).
    if (
        store is False
        and "reasoning" in kinds
        and ENCRYPTED_CONTENT not in (body.get("include") or ())
    ):
        _fail(
            "body",
            "1.4 rule 8 stateless reasoning",
            f"replayed reasoning with store=false needs include [{ENCRYPTED_CONTENT!r}]",
        )


def _check_settings(body: dict[str, Any]) -> None:
    for key, instead in CHAT_ONLY_KEYS.items():
        if key in body:
            _fail(f"body.{key}", "Chat Completions key", f"Responses takes {instead}")
    for position, tool in enumerate(body.get("tools") or ()):
        if isinstance(tool, dict) and "function" in tool:
            _fail(
                f"body.tools[{position}]",
                "R11 flat tools",
                "a function tool is flat: name, parameters, strict at the top",
            )
        if isinstance(tool, dict) and tool.get("type") == "function" and "strict" not in tool:
            _fail(
                f"body.tools[{position}]",
                "1.4 rule 11 strict explicit",
                "a function tool sends strict",
            )
    choice = body.get("tool_choice")
    if isinstance(choice, dict) and "function" in choice:
        _fail(
            "body.tool_choice",
            "1.4 rule 11 flat tool_choice",
            "a function tool_choice is {type, name}",
        )
    if body.get("previous_response_id") is not None and body.get("conversation") is not None:
        _fail("body", "R12 previous_response_id with conversation", "use one of them")
    previous = body.get("previous_response_id")
    if previous is not None and (not isinstance(previous, str) or not ITEM_ID.match(previous)):
        _fail(
            "body.previous_response_id",
            "R6 id characters",
            f"{previous!r} is not letters, numbers, _ or -",
        )


def check_request_body(body: Any, *, extra_keys: Iterable[str] = ()) -> list[str]:
    """Raise ``WireError`` unless ``body`` is a valid ``responses.create`` body; return item kinds.

    ``extra_keys`` are top-level keys a test sent on purpose through ``extra_body``.
    """
    if not isinstance(body, dict):
        _fail("body", "item shape", f"expected an object, got {type(body).__name__}")
    body = {key: value for key, value in body.items() if key not in set(extra_keys)}
    _check_settings(body)
    params = (
        response_create_params.ResponseCreateParamsStreaming
        if body.get("stream") is True
        else response_create_params.ResponseCreateParamsNonStreaming
    )
    check_type({key: value for key, value in body.items() if key != "input"}, params, "body")
    items = body.get("input")
    if isinstance(items, str) or items is None:
        return []
    kinds = check_input(items)
    _check_stateless(body, items, kinds)
    return kinds
