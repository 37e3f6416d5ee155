"""One neutral message at a time -> OpenAI Responses input items (API.md 14, inbound rules).

``Converter.convert`` dispatches on the message type (``match`` with class patterns) and
appends items with the neutral index of each; ``_request.to_openai_responses`` runs the
tool-pairing step around it. Assistant content is never ``input_text``; item ids (``msg_``,
``fc_``, ``rs_``) are sent only from this wing's ``provider_data``, each at most once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from llmbridge import (
    ImageMessage,
    InvalidMessageError,
    Message,
    MessageEnvelope,
    MultiModalMessage,
    Reasoning,
    Role,
    TextMessage,
    ToolCallAggregateMessage,
    ToolCallMessage,
    ToolCallResultMessage,
    UnsupportedMessageError,
)
from llmbridge.kit import (
    NAME_PATTERN,
    NoteRecorder,
    check_image,
    check_text,
    sanitize_identifier,
    tool_call_id_or_fallback,
    unsupported_image_url,
)
from llmbridge.openai._responses._items import Entry, ItemIds, own_data, place_reasoning

__all__ = ["ENVELOPE_ROLES", "IMAGE_URL_SCHEMES", "MAX_IMAGE_BYTES", "Converter"]

MAX_IMAGE_BYTES: Final = 20 * 1024 * 1024
"""Default ``max_image_bytes``: the base64 text of one image (OpenAI's per-image cap, 20 MB)."""
IMAGE_URL_SCHEMES: Final = frozenset({"https"})
"""``input_image.image_url`` takes an https URL or a data URL."""
ENVELOPE_ROLES: Final = frozenset({"user", "assistant", "system", "developer"})
"""The roles of message items passed through in envelopes; items without a role need a type."""

_TITLE: Final = "OpenAI Responses"
_IS_ERROR_OMITTED: Final = (
    "is_error is not sent to OpenAI Responses; the result text carries the error"
)
_ROLE_WITHOUT_SENDER: Final = {Role.USER: "user", Role.ASSISTANT: "assistant"}


class Converter:
    """The state of one conversion: the items, the neutral index of each, the notes, the ids
    already sent (an id twice in one input is a 400)."""

    __slots__ = ("agent_name", "ids", "indices", "items", "max_image_bytes", "prefix", "recorder")

    def __init__(
        self, agent_name: str, recorder: NoteRecorder, name_policy: str, max_image_bytes: int | None
    ) -> None:
        self.agent_name = agent_name
        self.recorder = recorder
        self.prefix = name_policy == "prefix"
        self.max_image_bytes = max_image_bytes
        self.items: list[dict[str, Any]] = []
        self.indices: list[int] = []
        self.ids = ItemIds(recorder)

    def convert(self, message: Message, index: int) -> None:
        """Convert ``message`` (neutral index ``index``); other types are unsupported (dropped
        with a note; strict mode: ``UnsupportedMessageError``)."""
        before = len(self.items)
        # Class patterns: subclasses of the neutral types convert as their nearest base.
        match message:
            case TextMessage():
                self.text(message, index)
            case ToolCallMessage():
                self.tool_calls(message, index)
            case ToolCallResultMessage():
                self.results(message, index)
            case ToolCallAggregateMessage():
                self.aggregate(message, index)
            case ImageMessage():
                self.image(message, index)
            case MultiModalMessage():
                self.multimodal(message, index)
            case MessageEnvelope():
                self.envelope(message, index)
            case _:
                self.recorder.record(
                    index,
                    "dropped",
                    f"{type(message).__name__} cannot be sent to {_TITLE}",
                    error=UnsupportedMessageError,
                )
        self.indices.extend([index] * (len(self.items) - before))

    # -- shared pieces -------------------------------------------------------------------

    def _text(self, text: str, index: int, field: str) -> str | None:
        if not text.isascii():
            check_text(text, index=index, field=field)
        if text and not text.isspace():
            return text
        self.recorder.record(index, "dropped", "empty or whitespace-only text", field=field)
        return None

    def _named(self, name: str | None, index: int) -> str | None:
        """The ``"[name] "`` prefix under ``name_policy="prefix"``; else the name is dropped."""
        if name is None or name == self.agent_name:
            return None
        check_text(name, index=index, field="from_")
        if self.prefix:
            self.recorder.record(index, "repaired", f"sender name carried as a '[{name}] ' prefix")
            return f"[{name}] "
        self.recorder.record(
            index, "dropped", f"sender name {name!r} cannot be sent to {_TITLE}", field="from_"
        )
        return None

    def _user(self, parts: list[dict[str, Any]], sender: str | None, index: int) -> None:
        prefix = self._named(sender, index)
        if prefix is not None:
            parts = [{"type": "input_text", "text": prefix}, *parts]
        self.items.append({"role": "user", "content": parts})

    def _user_text(self, text: str, sender: str | None, index: int) -> None:
        prefix = self._named(sender, index)
        self.items.append({"role": "user", "content": text if prefix is None else prefix + text})

    def _image_part(
        self, image: ImageMessage, index: int, prefix: str = ""
    ) -> dict[str, Any] | None:
        unsupported = unsupported_image_url(
            image, schemes=IMAGE_URL_SCHEMES, provider=_TITLE, field_prefix=prefix
        )
        if unsupported is not None:
            self.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
            return None
        check_image(
            image, max_bytes=self.max_image_bytes, provider=_TITLE, index=index, field_prefix=prefix
        )
        url = image.url if image.url is not None else image.data_url
        return {"type": "input_image", "image_url": url, "detail": image.detail or "auto"}

    def _not_from_self(self, message: Message, index: int) -> None:
        if message.from_ == self.agent_name:
            raise InvalidMessageError(
                f"{type(message).__name__} from the agent itself ({self.agent_name!r}) cannot be "
                "sent: Responses assistant items carry no images",
                index=index,
                field="from_",
            )

    def _turn(self, entries: list[Entry], reasoning: Sequence[Reasoning], index: int) -> None:
        items, omitted = (
            place_reasoning(entries, reasoning)
            if reasoning
            else (
                [entry.item for entry in entries],
                [],
            )
        )
        for item in items:
            if item.get("type") != "reasoning":
                self.items.append(item)
            elif item["id"] in self.ids.sent:
                omitted.append(f"reasoning {item['id']} (sent earlier in this input)")
            else:
                self.ids.sent.add(item["id"])
                self.items.append(item)
        if omitted:
            self.recorder.record(index, "omitted", f"not sent to {_TITLE}: {'; '.join(omitted)}")

    def _function_name(self, name: str, index: int, position: int) -> str:
        field = f"tool_calls[{position}].function_name"
        if NAME_PATTERN.match(name):
            return name
        check_text(name, index=index, field=field)
        cleaned = sanitize_identifier(name)
        self.recorder.record(
            index,
            "renamed",
            f"function name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$: renamed {cleaned!r}",
            field=field,
        )
        return cleaned

    # -- one handler per message type ----------------------------------------------------

    def text(self, message: TextMessage, index: int) -> None:
        """SYSTEM -> a system message item; self (or no sender, role assistant) -> an
        assistant item; no sender, role user, or another agent -> a user item."""
        text = self._text(message.content, index, "content")
        sender, role = message.from_, message.role
        if role == Role.SYSTEM:
            if text is not None:
                prefix = self._named(sender, index)
                content = text if prefix is None else prefix + text
                self.items.append({"role": "system", "content": content})
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
            entries = self.ids.assistant_entries(text, own_data(message.provider_data), index)
            self._turn(entries, message.reasoning, index)
            return
        if message.reasoning:
            self.recorder.record(index, "omitted", "reasoning is not sent in a user item")
        if text is not None:
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
            if isinstance(item, ImageMessage):
                part = self._image_part(item, index, f"content[{position}].")
            else:
                text = self._text(item.content, index, f"content[{position}]")
                part = None if text is None else {"type": "input_text", "text": text}
            if part is not None:
                parts.append(part)
        if parts:
            self._user(parts, message.from_, index)
        else:
            self.recorder.record(index, "dropped", "nothing left to send in this message")

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
        entries = self.ids.assistant_entries(text, own_data(message.provider_data), index)
        for position, call in enumerate(message.tool_calls):
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            if not (call_id.isascii() and call.function_arguments.isascii()):
                check_text(call_id, index=index, field=f"tool_calls[{position}].tool_call_id")
                check_text(
                    call.function_arguments,
                    index=index,
                    field=f"tool_calls[{position}].function_arguments",
                )
            item: dict[str, Any] = {"type": "function_call"}
            item_id = self.ids.take(own_data(call.provider_data), "fc_", index)
            if item_id is not None:
                self.ids.sent.add(item_id)
                item["id"] = item_id
            item["call_id"] = call_id
            item["name"] = self._function_name(call.function_name, index, position)
            item["arguments"] = call.function_arguments
            entries.append(Entry(item, item_id))
        self._turn(entries, message.reasoning, index)

    def results(self, message: ToolCallResultMessage, index: int) -> None:
        """One ``function_call_output`` per call whose ``result`` is not ``None``."""
        error_noted = False
        for position, call in enumerate(message.tool_calls):
            result = call.result
            if result is None:
                continue
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            if not (call_id.isascii() and result.isascii()):
                check_text(call_id, index=index, field=f"tool_calls[{position}].tool_call_id")
                check_text(result, index=index, field=f"tool_calls[{position}].result")
            if call.is_error and not error_noted:
                self.recorder.record(index, "omitted", _IS_ERROR_OMITTED)
                error_noted = True
            self.items.append(
                {"type": "function_call_output", "call_id": call_id, "output": result}
            )

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
            text = self._text(call.result, index, f"tool_calls[{position}].result")
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
