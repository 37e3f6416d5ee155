"""Text pieces of one part joined, as a stream delivers them (``PartJoiner``, ``join_parts``).

A Gemini stream sends each text part in pieces (new text only); the joined parts are what the
non-streaming reply holds, so ``from_gemini`` and the stream aggregator convert the same parts.
Never mutates a part given.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.genai import types

from llmbridge import ProviderResponseError
from llmbridge.gemini._partial_args import PartialCall, is_piece

__all__ = ["PartJoiner", "join_parts"]


class PartJoiner:
    """Joins text pieces that belong to one part, a part at a time (see ``join_parts``).

    ``add`` takes the part with the fields the caller has read already (a stream reads them for
    its updates; attribute access on SDK models is what a stream pays most for), so each field
    is read once. ``parts()`` is what has been joined so far; it never changes a part given.
    """

    __slots__ = ("_call", "_joined", "_open", "_pieces")

    def __init__(self) -> None:
        self._joined: list[types.Part] = []
        self._pieces: list[str] = []  # the text pieces of the last part joined so far
        # Whether the last part is thought text (True) or text (False) that a later text piece
        # of the same kind continues; None when none may (a call, a signed part, no part).
        self._open: bool | None = None
        self._call: PartialCall | None = None  # a call streamed in pieces, not ended yet

    def add(
        self,
        part: types.Part,
        text: str | None,
        call: types.FunctionCall | None,
        thought: bool | None,
    ) -> types.FunctionCall | None:
        """Take ``part``, whose ``text``, ``function_call`` and ``thought`` are given; return
        the call it completes (a whole call, or the last piece of one), if any.

        Raises ``ProviderResponseError`` for a malformed call piece (``_partial_args``) and
        for another part inside a call's pieces."""
        if self._call is not None or (call is not None and is_piece(call)):
            return self._add_piece(part, call)
        self._add(part, text, call, thought)
        return call

    def _add_piece(
        self, part: types.Part, call: types.FunctionCall | None
    ) -> types.FunctionCall | None:
        if call is None:
            raise ProviderResponseError(
                "a streamed Gemini function call is malformed: another part came between its pieces"
            )
        if self._call is None:
            self._call = PartialCall(part, call)
        else:
            self._call.add(call)
        if self._call.open:
            return None
        whole = self._call.whole()
        self._call = None
        self._add(whole, None, whole.function_call, None)
        return whole.function_call

    def _add(self, part: types.Part, text: str | None, call: object, thought: bool | None) -> None:
        signature = None
        is_text = text is not None and call is None
        if is_text:
            signature = part.thought_signature
            if self._open == bool(thought):
                self._pieces.append(text or "")
                if signature is not None:
                    # A signature ends its part; a later piece's moves onto the joined part.
                    last = self._joined[-1]
                    self._joined[-1] = last.model_copy(update={"thought_signature": signature})
                    self._open = None
                return
        if len(self._pieces) > 1:
            self._joined[-1] = _with_text(self._joined[-1], self._pieces)
        self._pieces = [text or ""] if is_text else []
        self._joined.append(part)
        self._open = bool(thought) if is_text and signature is None else None

    def parts(self, *, complete: bool = True) -> list[types.Part]:
        """The parts so far, text pieces of one part joined (a new list each time).

        A call whose pieces have not ended is left out; with ``complete`` (the whole reply is
        in) it raises ``ProviderResponseError`` instead."""
        if complete and self._call is not None:
            raise ProviderResponseError(
                f"a streamed Gemini function call ({self._call.name!r}) is malformed: the reply "
                "ended before its last piece"
            )
        joined = list(self._joined)
        if len(self._pieces) > 1:
            joined[-1] = _with_text(joined[-1], self._pieces)
        return joined


def join_parts(parts: Sequence[types.Part]) -> list[types.Part]:
    """Join text pieces that belong to one part, as a stream delivers them.

    A text part continues the previous one when both are text of the same kind (thought or not)
    and the previous one carries no signature yet (a signature ends its part; a later piece's
    signature moves onto the joined part). Other parts stay as they are. Never mutates ``parts``.
    """
    joiner = PartJoiner()
    for part in parts:
        joiner.add(part, part.text, part.function_call, part.thought)
    return joiner.parts()


def _with_text(part: types.Part, pieces: list[str]) -> types.Part:
    return part.model_copy(update={"text": "".join(pieces)})
