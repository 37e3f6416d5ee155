"""One neutral message -> Gemini parts (``match`` with class patterns over message types).

``Converter`` handles a message at a time and hands the parts of one role to a sink
(``_contents``); it never mutates its input and never re-encodes an image (it reads the
``base64_data`` each ``ImageMessage`` caches). Parts are plain dicts in the SDK's snake_case
field names. Lossy changes go through ``NoteRecorder``, the one lenient/strict decision point;
rule violations raise ``InvalidMessageError`` in both modes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Final

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
    VideoMessage,
)
from llmbridge.gemini._arguments import parse_arguments
from llmbridge.gemini._contents import Part, Sink
from llmbridge.gemini._media import MediaParts
from llmbridge.gemini._model_turn import TEXT_AFTER_CALLS, ModelTurn
from llmbridge.gemini._results import result_answer, result_parts
from llmbridge.kit import (
    MessageDispatcher,
    NoteRecorder,
    apply_name_policy,
    check_text,
    sanitize_identifier,
    text_or_parts,
    tool_call_id_or_fallback,
    unsupported_envelope,
)

__all__ = ["ENVELOPE_ROLES", "Converter"]

ENVELOPE_ROLES: Final = frozenset({"user", "model", "system"})
"""The roles of content dicts passed through in envelopes (``system`` goes to the
``system_instruction``)."""
_FUNCTION_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,127}")
_ROLE_WITHOUT_SENDER: Final = {Role.USER: "user", Role.ASSISTANT: "model"}


def _has_parts(payload: dict[str, Any]) -> bool:
    parts = payload.get("parts")
    return isinstance(parts, list) and bool(parts) and all(isinstance(p, dict) for p in parts)


class Converter(ModelTurn, MessageDispatcher):
    """Converts one neutral message at a time into ``sink`` (``convert`` dispatches on type).

    ``provider`` is the tag (``"gemini"`` or ``"vertex"``) whose reasoning and signatures are
    sent back. ``convert(message, index)`` raises ``InvalidMessageError`` (both modes) for a
    message that breaks a rule, and records notes (raising in strict mode when they are lossy).
    """

    __slots__ = ("agent_name", "media", "name_policy", "provider", "recorder", "sink")
    provider_title: ClassVar[str] = "Gemini"

    def __init__(
        self, agent_name: str, recorder: NoteRecorder, name_policy: str, sink: Sink, provider: str
    ) -> None:
        self.agent_name = agent_name
        self.recorder = recorder
        self.name_policy = name_policy
        self.sink = sink
        self.provider = provider
        self.media = MediaParts(recorder)

    # -- shared pieces -------------------------------------------------------------------

    def _sender(self, parts: list[Part], name: str, index: int) -> list[Part]:
        """Apply the name policy to the parts of another agent's message."""
        prefix = apply_name_policy(
            name, self.name_policy, recorder=self.recorder, index=index, target="Gemini"
        )
        return parts if prefix is None else [{"text": prefix}, *parts]

    def _function_name(self, name: str, position: int, index: int) -> str:
        if _FUNCTION_NAME.fullmatch(name):
            return name
        field = f"tool_calls[{position}].function_name"
        check_text(name, index=index, field=field)
        cleaned = sanitize_identifier(name, max_length=127)
        if not (cleaned[0].isascii() and (cleaned[0].isalpha() or cleaned[0] == "_")):
            cleaned = f"_{cleaned}"
        self.recorder.record(
            index,
            "renamed",
            f"function name {name!r} does not match [A-Za-z_][A-Za-z0-9_.:-]{{0,127}}: renamed "
            f"{cleaned!r}",
            field=field,
        )
        return cleaned

    def _not_from_self(self, message: Message, index: int, what: str) -> None:
        if message.from_ == self.agent_name:
            made = "images" if isinstance(message, ImageMessage | MultiModalMessage) else "media"
            raise InvalidMessageError(
                f"{what} cannot come from the agent itself (models do not produce {made})",
                index=index,
                field="from_",
            )

    # -- one handler per message type ----------------------------------------------------

    def convert(self, message: Message, index: int) -> None:
        """Convert ``message`` through its handler: a ``VideoMessage`` (which only Gemini
        takes, API.md 19.2, and the kit's dispatcher does not route) is a media message here;
        every other type as the kit dispatches."""
        if message.__class__ is VideoMessage:
            self.media_message(message, index)
        else:
            MessageDispatcher.convert(self, message, index)

    def text(self, message: TextMessage, index: int) -> None:
        """SYSTEM -> system instruction; self -> model (thought parts first); no sender -> its
        role (user/model, else ``InvalidMessageError``); another agent -> user (name policy)."""
        role, from_ = message.role, message.from_
        if role == Role.SYSTEM:
            part = self._text_part(message.content, index, "content")
            if part is not None:
                parts = [part]
                if from_ is not None and from_ != self.agent_name:
                    parts = self._sender(parts, from_, index)
                self.sink.add_system(parts, index)
            return
        if from_ == self.agent_name:
            turn = "model"
        elif from_ is None:
            turn = _ROLE_WITHOUT_SENDER.get(role, "")
            if not turn:
                raise InvalidMessageError(
                    f"a TextMessage without sender needs role user, assistant or system, got "
                    f"{str(role)!r}",
                    index=index,
                    field="role",
                )
        else:
            turn = "user"
        if turn == "user":
            part = self._text_part(message.content, index, "content")
            if message.reasoning:
                self.recorder.record(index, "omitted", "reasoning is not sent in a user turn")
            if message.hosted_tools:
                self.recorder.record(
                    index, "omitted", "hosted tool calls are not sent in a user turn"
                )
            if part is not None:
                parts = [part] if from_ is None else self._sender([part], from_, index)
                self.sink.add("user", parts, index)
            return
        parts = self._thoughts(message.reasoning, index) if message.reasoning else []
        entry = message.provider_data.get(self.provider)
        body = (
            self._hosted_body(message, message.content, entry, index)
            if message.hosted_tools
            else None
        )
        if body is None:
            signed = self._model_text(message.content, entry, index)
            if signed is not None:
                parts.append(signed)
        else:
            parts.extend(body)
        if parts:
            self.sink.add("model", parts, index)

    def media_message(
        self, message: ImageMessage | DocumentMessage | AudioMessage | VideoMessage, index: int
    ) -> None:
        """A user image, document, audio or video part; from self: ``InvalidMessageError``."""
        name = type(message).__name__
        self._not_from_self(message, index, f"{'an' if name[0] in 'AEIOU' else 'a'} {name}")
        part = self.media.part(message, index)
        if part is not None:
            parts = [part]
            if message.from_ is not None:
                parts = self._sender(parts, message.from_, index)
            self.sink.add("user", parts, index)

    def multimodal(self, message: MultiModalMessage, index: int) -> None:
        """One user content, items in order; from self: ``InvalidMessageError``."""
        self._not_from_self(message, index, "a MultiModalMessage")
        parts: list[Part] = []
        for position, item in enumerate(message.content):
            if isinstance(item, TextMessage):
                part = self._text_part(item.content, index, f"content[{position}]")
            else:
                part = self.media.part(item, index, f"content[{position}].")
            if part is not None:
                parts.append(part)
        if not parts:
            self.recorder.record(index, "dropped", "nothing left to send in this message")
            return
        if message.from_ is not None:
            parts = self._sender(parts, message.from_, index)
        self.sink.add("user", parts, index)

    def tool_calls(self, message: ToolCallMessage, index: int) -> None:
        """A model content: thought parts, text (if any), one ``function_call`` per call with
        the parsed ``args`` and its own signature; from another agent or with non-object
        arguments: ``InvalidMessageError``."""
        from_ = message.from_
        if from_ is not None and from_ != self.agent_name:
            raise InvalidMessageError(
                f"tool calls from another agent ({from_!r}) cannot be sent; only the agent "
                "itself calls tools",
                index=index,
                field="from_",
            )
        parts = self._thoughts(message.reasoning, index) if message.reasoning else []
        provider = self.provider
        own = message.provider_data.get(provider)
        body = None
        if message.hosted_tools:
            body = self._hosted_body(message, message.content or "", own, index)
        if body is not None:
            parts.extend(body)
        elif message.content or (
            isinstance(own, Mapping) and own.get("thought_signature") is not None
        ):
            text = self._model_text(message.content or "", own, index)
            if text is not None:
                parts.append(text)
        calls: list[dict[str, Any]] = []
        for position, call in enumerate(message.tool_calls):
            # Ids come assigned by prepare_conversation (Gemini takes them as they are).
            name = call.function_name
            if not _FUNCTION_NAME.fullmatch(name):  # checked here: a valid name costs no call
                name = self._function_name(name, position, index)
            function_call = {
                "name": name,
                "args": parse_arguments(call, position, index),
                "id": call.tool_call_id or tool_call_id_or_fallback(call, position),
            }
            calls.append(function_call)
            part: Part = {"function_call": function_call}
            entry = call.provider_data.get(provider)
            if entry is not None:
                field = f"tool_calls[{position}].provider_data[{provider!r}]"
                signature = self._signature(entry, index, field)
                if signature is not None:
                    part["thought_signature"] = signature
            parts.append(part)
        # The message's own entry was read above: most call messages have none.
        after = own.get(TEXT_AFTER_CALLS) if own is not None and isinstance(own, Mapping) else None
        if after is not None and isinstance(after, Mapping):
            parts.append(self._text_after_calls(after, index))
        self.sink.add_calls(parts, calls, index)

    def tool_results(self, message: ToolCallResultMessage, index: int) -> None:
        """A user content of ``function_response`` parts for the calls whose result is not
        ``None`` (the sink puts them in call order); a parts result puts its text parts, joined
        with ``"\n"``, under ``output`` and its media in ``function_response.parts``."""
        parts: list[Part] = []
        for position, call in enumerate(message.tool_calls):
            result = call.result
            if result is None:
                continue
            answer, media = result_answer(self.media, result, call.is_error, index, position)
            call_id = call.tool_call_id or tool_call_id_or_fallback(call, position)
            response: dict[str, Any] = {
                # The sink names it after the call it answers, which the API requires.
                "name": self.sink.call_name(call_id)
                or self._function_name(call.function_name, position, index),
                "id": call_id,
                "response": answer,
            }
            if media:
                response["parts"] = media
            parts.append({"function_response": response})
        if parts:  # results that are all None carry nothing: no content, nothing lost
            self.sink.add_responses(parts, index)

    def aggregate(self, message: ToolCallAggregateMessage, index: int) -> None:
        """Self or no sender: the call content then the response content; another agent: the
        results as user text parts (name policy)."""
        from_ = message.from_
        if from_ is None or from_ == self.agent_name:
            self.tool_calls(message.tool_call_message, index)
            self.tool_results(message.tool_call_result_message, index)
            return
        parts: list[Part] = []
        for position, call in enumerate(message.tool_call_result_message.tool_calls):
            field = f"tool_calls[{position}].result"
            result = None if call.result is None else text_or_parts(call.result)
            if isinstance(result, str):
                part = self._text_part(result, index, field)
                if part is not None:
                    parts.append(part)
            elif result is not None:
                text, media = result_parts(self.media, result, index, field)
                part = self._text_part(text, index, field) if text else None
                parts.extend([part, *media] if part is not None else media)
        if parts:
            self.sink.add("user", self._sender(parts, from_, index), index)
        else:
            self.recorder.record(index, "dropped", "nothing left to send in this message")

    def envelope(self, message: MessageEnvelope[Any], index: int) -> None:
        """A user, model or system content dict passes through to the sink; anything else
        (another provider's message) is unsupported."""
        unsupported = unsupported_envelope(
            message, roles=ENVELOPE_ROLES, target="a Gemini content", expected="a Content dict"
        )
        if unsupported is None and not _has_parts(message.content):
            # Another provider's dict of a shared role ({"role": "user", "content": ...}).
            unsupported = "a MessageEnvelope of a dict without a non-empty 'parts' list of part "
            unsupported += "dicts is not a Gemini content"
        if unsupported is None:
            self.sink.pass_through(message, index)
        else:
            self.recorder.record(index, "dropped", unsupported, error=UnsupportedMessageError)
