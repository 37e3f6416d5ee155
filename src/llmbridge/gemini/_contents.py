"""Where converted parts go: merged into contents, or kept one payload per message.

The converter in ``_convert`` emits, per neutral message, the parts of one role (or system
parts, or a content dict passed through). ``ContentSink`` builds a whole request: consecutive
same-role contents merged (parts are never combined, so a signed part stays whole), function
responses in the order of the calls they answer; ``PayloadSink`` keeps each message separate.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from llmbridge import MessageEnvelope
from llmbridge.kit import NoteRecorder

__all__ = ["ContentSink", "Part", "PayloadSink", "Sink"]

Part = dict[str, Any]

_LAST: Final = 1 << 30  # the order key of a response that answers no call of the call turn


class Sink(Protocol):
    """Receives the converter's output for one neutral message at a time."""

    def add(self, role: str, parts: list[Part], index: int) -> None:
        """Take the parts of one ``user`` or ``model`` message (no calls, no responses)."""
        ...

    def add_calls(self, parts: list[Part], calls: list[dict[str, Any]], index: int) -> None:
        """Take a model message's parts; ``calls`` are the ``function_call`` dicts among them."""
        ...

    def add_responses(self, parts: list[Part], index: int) -> None:
        """Take a user message of ``function_response`` parts (each with a ``str`` id)."""
        ...

    def add_system(self, parts: list[Part], index: int) -> None:
        """Take text parts for the ``system_instruction``."""
        ...

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Take a content dict given as-is (an envelope of a dict)."""
        ...

    def call_name(self, call_id: str) -> str | None:
        """The function name sent for the call ``call_id`` of the open call turn, if any."""
        ...


def _response_id(part: Part) -> Any:
    response = part.get("function_response")
    return response.get("id") if isinstance(response, dict) else None


def _is_call(part: Part) -> bool:
    return isinstance(part.get("function_call"), dict)


class ContentSink:
    """Builds the request: system parts, and contents where consecutive same roles merge.

    A merge records a ``"merged"`` note on the later message; function responses that arrive
    out of call order (or after other parts of their content) are put in call order, first in
    their content (a ``"repaired"`` note). System text after a content moves to the
    ``system_instruction`` (a ``"repaired"`` note). A content dict passed through is merged
    with neighbours of its role into a new dict (the caller's dict is never changed); alone it
    is sent as it is. ``first_indices[i]`` is the neutral index of the first message of
    ``contents[i]``; ``call_indices`` maps a content position to the neutral index of the
    message that gave its first function call.
    """

    __slots__ = (
        "_calls",
        "_raw",
        "_recorder",
        "_role",
        "call_indices",
        "contents",
        "first_indices",
        "system",
    )

    def __init__(self, recorder: NoteRecorder, system: list[Part]) -> None:
        self._recorder = recorder
        self.system = system
        self.contents: list[Any] = []
        self.first_indices: list[int] = []
        self.call_indices: dict[int, int] = {}
        # The calls of the latest model content: id -> (position, function name).
        self._calls: dict[Any, tuple[int, Any]] = {}
        self._raw = False  # whether the open content is a caller's dict, not yet merged into
        self._role: Any = None  # the role of the open (last) content, None before the first

    def call_name(self, call_id: str) -> str | None:
        """The function name sent for ``call_id`` in the latest model content."""
        found = self._calls.get(call_id)
        name = found[1] if found is not None else None
        return name if isinstance(name, str) else None

    def add(self, role: str, parts: list[Part], index: int) -> None:
        """Start a content, or merge into the open one when it has the same role; ``parts``
        hold no function call or response (the converter says so by the method it calls)."""
        if role != self._role:
            self.contents.append({"role": role, "parts": list(parts)})
            self.first_indices.append(index)
            self._role = role
            self._raw = False
            if role == "model":
                self._calls = {}
            return
        if self._raw:
            self._open_for_merge()
        self._recorder.record(index, "merged", f"merged into the preceding {role} content")
        self.contents[-1]["parts"].extend(parts)

    def add_calls(self, parts: list[Part], calls: list[dict[str, Any]], index: int) -> None:
        """As ``add`` for a model message; ``calls`` (its ``function_call`` dicts) are noted."""
        self.add("model", parts, index)
        self._note_calls(calls, index)

    def add_responses(self, parts: list[Part], index: int) -> None:
        """As ``add`` for a user message of ``function_response`` parts, kept in call order."""
        self.add("user", parts, index)
        if parts:
            self._keep_call_order(self.contents[-1]["parts"], index)

    def _note_calls(self, calls: list[dict[str, Any]], index: int) -> None:
        if calls:
            self.call_indices.setdefault(len(self.contents) - 1, index)
            known = self._calls
            for call in calls:
                known.setdefault(call.get("id"), (len(known), call.get("name")))

    def _open_for_merge(self) -> None:
        if self._raw:
            # Merging into a caller's dict: its parts go into a new content.
            last = self.contents[-1]
            self.contents[-1] = {"role": last["role"], "parts": list(last.get("parts") or ())}
            self._raw = False

    def _extend(self, role: str, parts: list[Part], index: int) -> None:
        """Extend the open content with parts of any kind (a caller's content dict)."""
        content_parts: list[Part] = self.contents[-1]["parts"]
        content_parts.extend(parts)
        if role == "model":
            calls = [part["function_call"] for part in parts if _is_call(part)]
            self._note_calls(calls, index)
        elif any(_response_id(part) is not None for part in parts):
            self._keep_call_order(content_parts, index)

    def _keep_call_order(self, parts: list[Part], index: int) -> None:
        """``_order_responses``, after one pass that finds most contents in order already (the
        responses first, in the order of the calls they answer), which the sort would keep."""
        calls = self._calls
        last = -1
        others = False
        for part in parts:
            if "function_response" not in part:
                others = True
                continue
            position = calls.get(_response_id(part), (_LAST,))[0]
            if others or position < last:
                self._order_responses(parts, index)
                return
            last = position

    def _order_responses(self, parts: list[Part], index: int) -> None:
        responses = [part for part in parts if "function_response" in part]
        ordered = sorted(
            responses, key=lambda part: self._calls.get(_response_id(part), (_LAST,))[0]
        )
        others = [part for part in parts if "function_response" not in part]
        arranged = [*ordered, *others]
        if arranged != parts:
            parts[:] = arranged
            self._recorder.record(
                index, "repaired", "function responses put in the order of the calls they answer"
            )

    def add_system(self, parts: list[Part], index: int) -> None:
        """Append to the system instruction (noted when a content came before)."""
        if self.contents:
            self._recorder.record(
                index,
                "repaired",
                "system text after the start of the conversation moved to the system_instruction",
            )
        self.system.extend(parts)

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Lift a system dict into the system instruction; merge a user or model dict with an
        open content of its role, else start a content with the dict itself."""
        payload = envelope.content
        role, parts = payload.get("role"), payload.get("parts")
        if role == "system":
            self.system.extend(parts or ())
            return
        readable = isinstance(parts, list) and all(isinstance(part, dict) for part in parts)
        if role == self._role and readable and parts:
            self._open_for_merge()
            self._recorder.record(index, "merged", f"merged into the preceding {role} content")
            self._extend(role, list(parts), index)
            return
        self.contents.append(payload)
        self.first_indices.append(index)
        self._role = role
        self._raw = True
        if role == "model":
            self._calls = {}
            calls = [
                part["function_call"] for part in (parts if readable else ()) if _is_call(part)
            ]
            self._note_calls(calls, index)


class PayloadSink:
    """One payload per converted message, in order, with the neutral index of each.

    System text becomes ``{"role": "system", "parts": [text parts]}``, which
    ``GeminiChatAgent`` lifts into the ``system_instruction``; an envelope's dict is kept as it
    is (the same object, so a connector passes the envelope itself on).
    """

    __slots__ = ("indices", "payloads")

    def __init__(self) -> None:
        self.payloads: list[Any] = []
        self.indices: list[int] = []

    def call_name(self, call_id: str) -> str | None:
        """Messages are not merged here, so no call is open."""
        return None

    def add(self, role: str, parts: list[Part], index: int) -> None:
        """Keep the message's parts as one content."""
        self.payloads.append({"role": role, "parts": parts})
        self.indices.append(index)

    def add_calls(self, parts: list[Part], calls: list[dict[str, Any]], index: int) -> None:
        """Keep a model message's parts as one content."""
        self.add("model", parts, index)

    def add_responses(self, parts: list[Part], index: int) -> None:
        """Keep a user message's response parts as one content (in the message's order)."""
        self.add("user", parts, index)

    def add_system(self, parts: list[Part], index: int) -> None:
        """Keep system text parts as a system content."""
        self.payloads.append({"role": "system", "parts": parts})
        self.indices.append(index)

    def pass_through(self, envelope: MessageEnvelope[Any], index: int) -> None:
        """Keep the envelope's own dict."""
        self.payloads.append(envelope.content)
        self.indices.append(index)
