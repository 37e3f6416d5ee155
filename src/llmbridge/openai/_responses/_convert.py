"""One neutral message at a time -> OpenAI Responses input items.

``Converter.convert`` dispatches on the message type (``match`` with class patterns) and
appends items with the neutral index of each; ``_request.to_openai_responses`` runs the
tool-pairing step around it. Assistant content is never ``input_text``; item ids (``msg_``,
``fc_``, ``rs_``) are sent only from this wing's ``provider_data``, each at most once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from llmbridge import (
    AudioMessage,
    DocumentMessage,
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.kit import (
    NoteRecorder,
    apply_name_policy,
    check_text,
    text_or_parts,
)
from llmbridge.openai._responses._calls import CallBuilder
from llmbridge.openai._responses._hosted import hosted_entries
from llmbridge.openai._responses._items import (
    PROVIDER,
    Entry,
    ItemIds,
    own_data,
    place_reasoning,
)
from llmbridge.openai._responses._media import MAX_DOCUMENT_BYTES
from llmbridge.openai._responses._parts import IMAGE_URL_SCHEMES

__all__ = [
    "ENVELOPE_ROLES",
    "IMAGE_URL_SCHEMES",
    "MAX_DOCUMENT_BYTES",
    "MAX_IMAGE_BYTES",
    "Converter",
]

MAX_IMAGE_BYTES: Final = 20 * 1024 * 1024
"""Default ``max_image_bytes``: the base64 text of one image (OpenAI's per-image cap, 20 MB)."""
ENVELOPE_ROLES: Final = frozenset({"user", "assistant", "system", "developer"})
"""The roles of message items passed through in envelopes; items without a role need a type."""

_TITLE: Final = "OpenAI Responses"
_ROLE_WITHOUT_SENDER: Final = {Role.USER: "user", Role.ASSISTANT: "assistant"}


class Converter(CallBuilder):
    """The state of one conversion: the items, the neutral index of each (``indices`` grows
    with ``items``), the notes, the ids already sent (an id twice in one input is a 400), the
    function names found valid."""

    __slots__ = (
        "agent_name",
        "ids",
        "indices",
        "items",
        "max_document_bytes",
        "max_image_bytes",
        "name_policy",
        "names",
        "recorder",
    )

    def __init__(
        self,
        agent_name: str,
        recorder: NoteRecorder,
        name_policy: str,
        max_image_bytes: int | None,
        max_document_bytes: int | None = MAX_DOCUMENT_BYTES,
    ) -> None:
        self.agent_name = agent_name
        self.max_document_bytes = max_document_bytes
        self.recorder = recorder
        self.name_policy = name_policy
        self.max_image_bytes = max_image_bytes
        self.items: list[dict[str, Any]] = []
        self.indices: list[int] = []
        self.ids = ItemIds(recorder)
        self.names: set[str] = set()

    def convert(self, messages: Sequence[Message], indices: Sequence[int]) -> None:
        """Convert each message (its neutral index in ``indices``); other types are unsupported
        (dropped with a note; strict mode: ``UnsupportedMessageError``)."""
        # One loop here rather than a call per message; each handler appends an item and its
        # index together (counting what each message added, after it, cost a fifth of a
        # conversion).
        for message, index in zip(messages, indices, strict=True):
            # Class patterns: subclasses of the neutral types convert as their nearest base
            # (the types are unrelated, so the cases go by how common each type is).
            match message:
                case TextMessage():
                    self.text(message, index)
                case ToolCallMessage():
                    self.tool_calls(message, index)
                case ToolCallResultMessage():
                    self.results(message, index)
                case ImageMessage():
                    self.image(message, index)
                case ToolCallAggregateMessage():
                    self.aggregate(message, index)
                case MultiModalMessage():
                    self.multimodal(message, index)
                case DocumentMessage():
                    self.document(message, index)
                case AudioMessage():
                    self._not_from_self(message, index)
                    self._audio(index)
                case MessageEnvelope():
                    self.envelope(message, index)
                case _:
                    self.recorder.record(
                        index,
                        "dropped",
                        f"{type(message).__name__} cannot be sent to {_TITLE}",
                        error=UnsupportedMessageError,
                    )

    # -- shared pieces -------------------------------------------------------------------

    def _named(self, name: str | None, index: int) -> str | None:
        """The ``"[name] "`` prefix under ``name_policy="prefix"``; else the name is dropped."""
        if name is None or name == self.agent_name:
            return None
        # Unlike the other wings, Responses rejects an invalid name even when it drops it
        # (the kit helper checks it under "prefix" only); kept so that errors stay the same.
        check_text(name, index=index, field="from_")
        return apply_name_policy(
            name, self.name_policy, recorder=self.recorder, index=index, target=_TITLE
        )

    def _user(self, parts: list[dict[str, Any]], sender: str | None, index: int) -> None:
        prefix = None if sender is None else self._named(sender, index)
        if prefix is not None:
            parts = [{"type": "input_text", "text": prefix}, *parts]
        self.items.append({"role": "user", "content": parts})
        self.indices.append(index)

    def _user_text(self, text: str, sender: str | None, index: int) -> None:
        prefix = self._named(sender, index)
        self.items.append({"role": "user", "content": text if prefix is None else prefix + text})
        self.indices.append(index)

    def _not_from_self(self, message: Message, index: int) -> None:
        if message.from_ == self.agent_name:
            raise InvalidMessageError(
                f"{type(message).__name__} from the agent itself ({self.agent_name!r}) cannot be "
                "sent: Responses assistant items carry text only",
                index=index,
                field="from_",
            )

    def _turn(
        self,
        entries: list[Entry],
        message: TextMessage | ToolCallMessage,
        index: int,
    ) -> None:
        reasoning = message.reasoning
        hosted = (
            hosted_entries(message, self.ids, self.recorder, index) if message.hosted_tools else []
        )
        items, omitted = (
            place_reasoning(entries, reasoning, hosted)
            if reasoning or hosted
            else (
                [entry.item for entry in entries],
                [],
            )
        )
        for item in items:
            if item.get("type") != "reasoning":
                self.items.append(item)
                self.indices.append(index)
            elif item["id"] in self.ids.sent:
                omitted.append(f"reasoning {item['id']} (sent earlier in this input)")
            else:
                self.ids.sent.add(item["id"])
                self.items.append(item)
                self.indices.append(index)
        if omitted:
            self.recorder.record(index, "omitted", f"not sent to {_TITLE}: {'; '.join(omitted)}")

    def _assistant_text(self, text: str, provider_data: Mapping[str, Any], index: int) -> None:
        """Append the output-message items of an assistant text in a turn without reasoning."""
        if provider_data.get(PROVIDER) is None:
            # Nothing recorded to replay: the plain form ``assistant_entries`` would build.
            self.items.append({"role": "assistant", "content": text})
            self.indices.append(index)
            return
        entries = self.ids.assistant_entries(text, own_data(provider_data), index)
        self.items += [entry.item for entry in entries]
        self.indices += [index] * len(entries)

    # -- one handler per message type ----------------------------------------------------

    def text(self, message: TextMessage, index: int) -> None:
        """SYSTEM -> a system message item; self (or no sender, role assistant) -> an
        assistant item; no sender, role user, or another agent -> a user item."""
        content = message.content
        # Most text is ASCII with something in it: nothing to check, no call to ``_text``.
        if content.isascii() and content and not content.isspace():
            text: str | None = content
        elif not content and message.hosted_tools:
            text = None  # a reply of hosted tools only: no text to leave out
        else:
            text = self._text(content, index, "content")
        sender, role = message.from_, message.role
        if role == Role.SYSTEM:
            if text is not None:
                prefix = self._named(sender, index)
                content = text if prefix is None else prefix + text
                self.items.append({"role": "system", "content": content})
                self.indices.append(index)
            if message.reasoning:
                self.recorder.record(index, "omitted", "reasoning is not sent in a system item")
            return
        if sender is None:
            turn = _ROLE_WITHOUT_SENDER.get(role)
            if turn is None:
                raise InvalidMessageError(
                    "a TextMessage without sender needs role user, assistant or system, got "
                    f"{str(role)!r}",
                    index=index,
                    field="role",
                )
        else:
            turn = "assistant" if sender == self.agent_name else "user"
        if turn == "assistant":
            if message.reasoning or message.hosted_tools or message.citations:
                data = own_data(message.provider_data)
                entries = self.ids.assistant_entries(text, data, index, message.citations)
                self._turn(entries, message, index)
            elif text is not None:
                self._assistant_text(text, message.provider_data, index)
            return
        if message.reasoning:
            self.recorder.record(index, "omitted", "reasoning is not sent in a user item")
        if message.hosted_tools:
            self.recorder.record(index, "omitted", "hosted tool calls are not sent in a user item")
        if text is None:
            return
        if sender is None:
            self.items.append({"role": "user", "content": text})
            self.indices.append(index)
        else:
            self._user_text(text, sender, index)

    def image(self, message: ImageMessage, index: int) -> None:
        """A user item with one ``input_image``; from self: ``InvalidMessageError``."""
        self._not_from_self(message, index)
        part = self._image_part(message, index)
        if part is not None:
            self._user([part], message.from_, index)

    def multimodal(self, message: MultiModalMessage, index: int) -> None:
        """One user item, parts in order; from self: ``InvalidMessageError``."""
        self._not_from_self(message, index)
        parts: list[dict[str, Any]] = []
        for position, item in enumerate(message.content):
            part = self._part(item, index, f"content[{position}]")
            if part is not None:
                parts.append(part)
        if parts:
            self._user(parts, message.from_, index)
        else:
            self.recorder.record(index, "dropped", "nothing left to send in this message")

    def document(self, message: DocumentMessage, index: int) -> None:
        """A user item with one ``input_file`` (or ``input_text`` for a text document)."""
        self._not_from_self(message, index)
        part = self._part(message, index, "")
        if part is not None:
            self._user([part], message.from_, index)

    def tool_calls(self, message: ToolCallMessage, index: int) -> None:
        """Reasoning, text, then one ``function_call`` per call (``fc_`` ids only from this
        wing's ``provider_data``); from another agent or with no call: ``InvalidMessageError``."""
        sender = message.from_
        if sender is not None and sender != self.agent_name:
            raise InvalidMessageError(
                f"tool calls from another agent ({sender!r}) cannot be sent as calls of "
                f"{self.agent_name!r}; send a ToolCallAggregateMessage instead",
                index=index,
                field="from_",
            )
        if not message.tool_calls:
            raise InvalidMessageError(
                "a tool-call message needs at least one tool call", index=index, field="tool_calls"
            )
        text = None
        if message.content:
            text = self._text(message.content, index, "content")
        if not (message.reasoning or message.hosted_tools or message.citations):
            # Nothing to place: the items go straight out, no turn entries are built.
            if text is not None:
                self._assistant_text(text, message.provider_data, index)
            calls = self._call_items(message.tool_calls, index)
            self.items += calls
            self.indices += [index] * len(calls)
            return
        data = own_data(message.provider_data)
        entries = self.ids.assistant_entries(text, data, index, message.citations)
        calls = self._call_items(message.tool_calls, index)
        entries += [Entry(item, item.get("id")) for item in calls]
        self._turn(entries, message, index)

    def aggregate(self, message: ToolCallAggregateMessage, index: int) -> None:
        """Self or no sender: the call items then the output items; another agent: one user
        item per result (name policy)."""
        sender = message.from_
        if sender is None or sender == self.agent_name:
            self.tool_calls(message.tool_call_message, index)
            self.results(message.tool_call_result_message, index)
            return
        sent = False
        for position, call in enumerate(message.tool_call_result_message.tool_calls):
            if call.result is None:
                continue
            result = text_or_parts(call.result)  # a structured result: its JSON text
            field = f"tool_calls[{position}].result"
            if not isinstance(result, str):
                parts = self._output_parts(result, index, field, detail=False)
                if parts:
                    self._user(parts, sender, index)
                    sent = True
                continue
            text = self._text(result, index, field)
            if text is not None:
                self._user_text(text, sender, index)
                sent = True
        if not sent:
            self.recorder.record(index, "dropped", "nothing left to send in this message")

    def envelope(self, message: MessageEnvelope[Any], index: int) -> None:
        """A Responses input item dict (a message of a known role, or an item with a
        ``type``) passes through unchanged; anything else is unsupported."""
        payload = message.content
        reason = _unsupported_item(payload)
        if reason is None:
            self.items.append(payload)
            self.indices.append(index)
        else:
            self.recorder.record(index, "dropped", reason, error=UnsupportedMessageError)


def _unsupported_item(payload: object) -> str | None:
    if not isinstance(payload, dict):
        return (
            f"a MessageEnvelope of {type(payload).__name__} is not a Responses input item "
            "(expected a dict)"
        )
    role = payload.get("role")
    if role is None and isinstance(payload.get("type"), str):
        return None
    if isinstance(role, str) and role in ENVELOPE_ROLES:
        return None
    taken = ", ".join(sorted(ENVELOPE_ROLES))
    return f"a MessageEnvelope of a {role!r} message is not a Responses input item (roles: {taken})"
