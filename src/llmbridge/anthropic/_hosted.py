"""Server and MCP tool blocks of a reply -> neutral ``HostedToolCall`` (API.md 19.5, 19.7).

A tool the API runs itself shows as a use block (``server_tool_use``, ``mcp_tool_use``) and,
once it has run, a result block (``web_search_tool_result``, ``mcp_tool_result``, ...) whose
``tool_use_id`` names it. ``HostedBlocks`` pairs them in reply order; each pair (or a use block
still waiting for its result, as a ``pause_turn`` reply ends, or a result whose use came in an
earlier reply) becomes one ``HostedToolCall`` whose ``provider_data["anthropic"]`` holds the
exact ``blocks`` and their ``offset`` (the reply text before them), so ``to_anthropic`` replays
them in place: the result right after its use, in the same assistant turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from llmbridge import HostedToolCall
from llmbridge.anthropic._arguments import arguments_json
from llmbridge.anthropic._errors import PROVIDER

__all__ = ["HOSTED_TYPES", "RESULT_NAMES", "USE_TYPES", "HostedBlocks", "reply_block"]

USE_TYPES: Final = frozenset({"server_tool_use", "mcp_tool_use"})
RESULT_NAMES: Final[Mapping[str, str]] = {
    "web_search_tool_result": "web_search",
    "web_fetch_tool_result": "web_fetch",
    "code_execution_tool_result": "code_execution",
    "bash_code_execution_tool_result": "bash_code_execution",
    "text_editor_code_execution_tool_result": "text_editor_code_execution",
    "tool_search_tool_result": "tool_search",
    "mcp_tool_result": "mcp_tool",
}
"""Result block type -> the tool's name, for a result whose use block is not in the reply."""
HOSTED_TYPES: Final = USE_TYPES | RESULT_NAMES.keys()
_ERROR_SUFFIX: Final = "_tool_result_error"


def reply_block(block: Mapping[str, Any]) -> dict[str, Any]:
    """A hosted block as a reply or stream dumps it, without its ``null`` values (a request
    takes the same block with or without them): one form for both paths. The tool's ``input``
    is the model's own data and stays as it is."""
    return {
        key: value if key == "input" else _without_nulls(value)
        for key, value in block.items()
        if value is not None
    }


def _without_nulls(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        return [_without_nulls(item) for item in value]
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _output(content: Mapping[str, Any]) -> str | None:
    """Code output: ``stdout``, then ``stderr`` on a line of its own."""
    stdout, stderr = _text(content.get("stdout")), _text(content.get("stderr"))
    if stdout and stderr and not stdout.endswith("\n"):
        stdout += "\n"
    return stdout + stderr


def _fetched(content: Mapping[str, Any]) -> str | None:
    document = content.get("content")
    document = document if isinstance(document, Mapping) else {}
    source = document.get("source")
    if isinstance(source, Mapping) and source.get("type") == "text":
        return _text(source.get("data"))
    title, url = _text(document.get("title")), _text(content.get("url"))
    return f"{title} {url}".strip()


def _lines(values: Any, key: str) -> str | None:
    if not isinstance(values, list):
        return None
    return "\n".join(_text(item.get(key)) for item in values if isinstance(item, Mapping))


def _replaced_lines(content: Mapping[str, Any]) -> str | None:
    lines = content.get("lines")
    return "\n".join(_text(line) for line in lines) if isinstance(lines, list) else None


def _tool_names(content: Mapping[str, Any]) -> str | None:
    return _lines(content.get("tool_references"), "tool_name")


# The result content type -> its text (API.md 19.7: code gives its output).
_READERS: Final[Mapping[str, Callable[[Mapping[str, Any]], str | None]]] = {
    "web_fetch_result": _fetched,
    "code_execution_result": _output,
    "bash_code_execution_result": _output,
    "encrypted_code_execution_result": lambda content: _text(content.get("stderr")) or None,
    "text_editor_code_execution_view_result": lambda content: _text(content.get("content")),
    "text_editor_code_execution_create_result": lambda content: None,
    "text_editor_code_execution_str_replace_result": _replaced_lines,
    "tool_search_tool_search_result": _tool_names,
}


def _search_results(results: Sequence[Any]) -> str:
    """One ``"<title> <url>"`` line per search result."""
    return "\n".join(
        f"{_text(item.get('title'))} {_text(item.get('url'))}".strip()
        for item in results
        if isinstance(item, Mapping)
    )


def result_text(block: Mapping[str, Any]) -> tuple[str | None, bool]:
    """The text of a result block and whether it is an error (a ``*_tool_result_error``
    content, or an MCP result's ``is_error``); ``None`` when the provider gives no text."""
    content = block.get("content")
    if block.get("type") == "mcp_tool_result":
        if isinstance(content, list):
            return _lines(content, "text"), block.get("is_error") is True
        return (content if isinstance(content, str) else None), block.get("is_error") is True
    if isinstance(content, list):  # web search results
        return _search_results(content), False
    if not isinstance(content, Mapping):
        return None, False
    kind = _text(content.get("type"))
    if kind.endswith(_ERROR_SUFFIX):
        message = _text(content.get("error_message"))
        code = _text(content.get("error_code"))
        return (f"{code}: {message}" if message else code), True
    reader = _READERS.get(kind)
    return (None if reader is None else reader(content)), False


class HostedBlocks:
    """A reply's hosted blocks in order: ``add`` each with the reply text's length before it;
    ``calls()`` gives one ``HostedToolCall`` per use block (with its result when it came) and
    per result whose use block is not in the reply."""

    __slots__ = ("_entries", "_open")

    def __init__(self) -> None:
        self._entries: list[tuple[list[Mapping[str, Any]], int]] = []
        self._open: dict[str, int] = {}  # use block id -> its entry, until its result comes

    def __bool__(self) -> bool:
        return bool(self._entries)

    def add(self, block: Mapping[str, Any], offset: int) -> None:
        """Take one use or result block (as ``reply_block`` gives it)."""
        if block.get("type") in USE_TYPES:
            tool_id = block.get("id")
            if isinstance(tool_id, str):
                self._open[tool_id] = len(self._entries)
            self._entries.append(([block], offset))
            return
        entry = self._open.pop(_text(block.get("tool_use_id")), None)
        if entry is None:
            self._entries.append(([block], offset))
        else:
            self._entries[entry][0].append(block)

    def add_entry(self, blocks: list[Mapping[str, Any]], offset: int) -> None:
        """Take one call's blocks as they are (a use block and its result, or either alone)."""
        self._entries.append((blocks, offset))

    def calls(self) -> tuple[HostedToolCall, ...]:
        """The calls, in the order their first block came."""
        return tuple(_call(blocks, offset) for blocks, offset in self._entries)


def _call(blocks: list[Mapping[str, Any]], offset: int) -> HostedToolCall:
    use = blocks[0] if blocks[0].get("type") in USE_TYPES else None
    result = blocks[-1] if blocks[-1].get("type") in RESULT_NAMES else None
    text, is_error = (None, False) if result is None else result_text(result)
    name: Any
    tool_id: Any  # HostedToolCall checks that both are non-empty text
    if use is not None:
        name, arguments, tool_id = use.get("name"), arguments_json(use.get("input")), use.get("id")
    else:
        assert result is not None  # an entry holds a use block or a result
        name = RESULT_NAMES[result["type"]]
        arguments, tool_id = "{}", result.get("tool_use_id")
    return HostedToolCall(
        name,
        arguments,
        id=tool_id,
        result=text,
        is_error=is_error,
        provider=PROVIDER,
        provider_data={PROVIDER: {"blocks": blocks, "offset": offset}},
    )
