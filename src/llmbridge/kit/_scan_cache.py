"""``ScanCache``: the pairing scans of the conversations one owner converts, to go on from.

An agent loop sends the same history every turn, grown by a few messages. Neutral messages are
immutable, so the outcome of scanning a prefix holds for as long as the same message objects
are sent again: a cache keeps, per conversation, the state its last scan ended in, and the next
scan of those messages with more after them goes on from there. Messages are compared by
identity, never by value; a conversation's last message is held weakly, and when it goes (its
owner dropped the conversation, or took that message out) the scan goes with the messages it
held. A conversation that holds anything else than the exact neutral types (an envelope's dict
can change, a subclass may) is scanned every time and never kept.

The cache lives where the conversations do: every connector owns one, and a caller of the pure
``to_*`` functions may pass one (``scans=``); without it they scan from the start and keep
nothing, so no conversion has hidden state.
"""

from __future__ import annotations

import functools
import operator
import threading
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from llmbridge._errors import InvalidMessageError
from llmbridge._messages import Message
from llmbridge.kit._scan import START, Outcome, ScanState, scan
from llmbridge.kit._tool_ids import ToolIdRule
from llmbridge.kit._turns import RawTurnHook

__all__ = ["ScanCache", "clear_recent_scans", "detect_repairs"]

MAX_CONVERSATIONS: Final = 1024
"""The default bound of a ``ScanCache``: a server's conversations in flight, with room."""

_LOOKBACK: Final = 64
"""How far back from a conversation's end a kept prefix is looked for: more than one turn of an
agent loop adds. A longer step is scanned from the start, with the same result."""

_PER_PREFIX: Final = 8
"""Scans of one prefix under other options kept side by side: the same history converted for
each wing (each has its own tool-id rule and raw-turn hook), or by each agent of a group chat
under its own name."""


@dataclass(frozen=True, slots=True)
class _Kept:
    """One conversation scanned to its end without a stop, and how it was scanned.

    ``held`` holds the messages but the last (compared by identity: a strong reference costs a
    third of a weak one to compare, and the scan of a history sent again is judged by that),
    emptied by the callback of ``tip``, the last message's weak reference, when it goes.
    """

    length: int
    held: list[tuple[Message, ...]]
    tip: weakref.ReferenceType[Message]
    agent_name: str
    rule: ToolIdRule | None
    raw_turn: RawTurnHook
    outcome: Outcome
    state: ScanState
    indices: tuple[int, ...]  # ``range(length)``: sent again with the messages


def _released(
    dead: list[tuple[int, weakref.ReferenceType[Message]]],
    key: int,
    held: list[tuple[Message, ...]],
    ref: weakref.ReferenceType[Message],
) -> None:
    # A weakref callback may run in any thread, in the middle of anything (a collection can
    # start inside a locked section), so it takes no lock: it lets the messages go at once
    # (emptying a list is atomic) and records the death; the next call purges the entry.
    # It holds ``held``, not the entry, so that no reference cycle keeps an entry alive.
    held.clear()
    dead.append((key, ref))


class ScanCache:
    """The pairing scans of the conversations one owner converts, kept to go on from.

    Pass one as ``scans=`` to ``prepare_conversation`` or a wing's ``to_*`` function to have
    a history sent again scanned only past what was scanned before; every connector owns one
    (``MessageConnector.scans``). Results never depend on what is kept: a message replaced,
    removed or changed in type is noticed (messages are compared by identity) and scanned anew.

    Bounded: one scan per conversation (a scan replaces that of the prefix it went on from, so
    a conversation costs one entry however long it grows; the same history for other wings or
    under other agent names keeps a few side by side) and at most ``max_conversations``
    conversations, the least recently sent going first. Released with the conversation: a
    conversation's last message is held weakly, and when it goes (the conversation dropped, or
    that message taken out) its scan and the messages it held go at once. Safe to share
    between threads and asyncio tasks. Raises ``ValueError`` for a ``max_conversations`` below
    1.
    """

    __slots__ = ("_dead", "_kept", "_lock", "max_conversations")

    def __init__(self, max_conversations: int = MAX_CONVERSATIONS) -> None:
        if max_conversations < 1:
            raise ValueError(f"max_conversations must be at least 1, not {max_conversations}")
        self.max_conversations = max_conversations
        # ``id`` of a kept prefix's last message -> the scans ending there, the latest first;
        # insertion order is the order of use (the first key is the least recently sent).
        self._kept: dict[int, tuple[_Kept, ...]] = {}
        self._dead: list[tuple[int, weakref.ReferenceType[Message]]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ScanCache(max_conversations={self.max_conversations!r})"

    def __len__(self) -> int:
        """The number of scans kept (a conversation converted for several wings, or under
        several agent names, keeps one for each)."""
        with self._lock:
            self._purge()
            return sum(map(len, self._kept.values()))

    def clear(self) -> None:
        """Forget every kept scan."""
        with self._lock:
            self._kept.clear()
            self._dead.clear()

    # -- under the lock ----------------------------------------------------------------------

    def _purge(self) -> None:
        dead = self._dead
        while dead:
            key, ref = dead.pop()
            self._drop(key, lambda entry: entry.tip is ref)  # noqa: B023 - called at once

    def _drop(self, key: int, matches: Callable[[_Kept], bool]) -> None:
        entries = self._kept.get(key)
        if entries is None:
            return
        remaining = tuple(entry for entry in entries if not matches(entry))
        if remaining:
            self._kept[key] = remaining
        else:
            del self._kept[key]

    def _find(
        self,
        messages: tuple[Message, ...],
        agent_name: str,
        rule: ToolIdRule | None,
        hook: RawTurnHook,
    ) -> _Kept | None:
        """The longest kept scan of a prefix of ``messages`` (the same objects), same options."""
        self._purge()
        kept = self._kept
        if not kept:
            return None
        end = len(messages)
        for position in range(end - 1, max(end - 1 - _LOOKBACK, -1), -1):
            key = id(messages[position])
            entries = kept.get(key)
            if entries is None:
                continue
            for entry in entries:
                held = entry.held
                if (
                    entry.length == position + 1
                    and held
                    and entry.raw_turn is hook
                    and entry.agent_name == agent_name
                    and entry.rule == rule
                    and entry.tip() is messages[position]
                    and all(map(operator.is_, held[0], messages))
                ):
                    kept[key] = kept.pop(key)  # now the most recently sent
                    return entry
        return None

    def _keep(self, entry: _Kept, key: int, replaced: _Kept | None) -> None:
        """Keep ``entry`` (its last message's ``id`` is ``key``); ``replaced``, the scan of the
        prefix it grew from, goes."""
        self._purge()
        if replaced is not None:
            last = replaced.tip()
            if last is not None:
                self._drop(id(last), lambda other: other is replaced)
        kept = self._kept
        others = tuple(
            other
            for other in kept.pop(key, ())
            if not (
                other.raw_turn is entry.raw_turn
                and other.agent_name == entry.agent_name
                and other.rule == entry.rule
            )
        )
        kept[key] = (entry, *others[: _PER_PREFIX - 1])
        while len(kept) > self.max_conversations:
            del kept[next(iter(kept))]

    # -- what ``detect_repairs`` calls ---------------------------------------------------------

    def _detect(
        self,
        messages: tuple[Message, ...],
        agent_name: str,
        raw_turn: RawTurnHook,
        rule: ToolIdRule | None,
    ) -> tuple[Outcome, tuple[int, ...]]:
        with self._lock:
            found = self._find(messages, agent_name, rule, raw_turn)
        if found is not None and found.length == len(messages):
            return _own_copy(found.outcome), found.indices
        start, state = (0, START) if found is None else (found.length, found.state)
        # The scan runs outside the lock: threads converting at once do not wait for each other.
        outcome, end = scan(
            messages, None, agent_name, raw_turn, rule=rule, detect=True, start=start, state=state
        )
        indices = tuple(range(len(messages)))
        if end is not None and messages:  # an empty prefix saves nothing
            key = id(messages[-1])
            held = [messages[:-1]]
            tip = weakref.ref(messages[-1], functools.partial(_released, self._dead, key, held))
            entry = _Kept(
                len(messages),
                held,
                tip,
                agent_name,
                rule,
                raw_turn,
                _own_copy(outcome),
                end,
                indices,
            )
            with self._lock:
                self._keep(entry, key, found)
        return outcome, indices


def _own_copy(outcome: Outcome) -> Outcome:
    # A violation is handed out to be raised: each caller gets an error of its own, so that no
    # traceback or note one caller attaches is kept, or reaches the next caller.
    if isinstance(outcome, InvalidMessageError):
        assert outcome.index is not None  # a pairing violation names its message
        return outcome.at(outcome.index)
    return outcome


def detect_repairs(
    messages: tuple[Message, ...],
    agent_name: str,
    raw_turn: RawTurnHook,
    rule: ToolIdRule | None,
    scans: ScanCache | None,
) -> tuple[Outcome, tuple[int, ...]]:
    """The detecting scan of ``messages`` (see ``scan``) and the indices ``0 .. len - 1``: from
    where a scan ``scans`` kept of a prefix of them left off, and kept there when it went
    through every message; without ``scans``, from the start."""
    if scans is not None:
        return scans._detect(messages, agent_name, raw_turn, rule)
    outcome, _ = scan(messages, None, agent_name, raw_turn, rule=rule, detect=True)
    return outcome, tuple(range(len(messages)))


def clear_recent_scans() -> None:
    """Deprecated: does nothing; the conversions keep no scans of their own any longer.

    Since 0.3 a kept pairing scan lives in a ``ScanCache`` its owner holds (every connector has
    one; the ``to_*`` functions take ``scans=``), and is released with the conversation's
    messages or by ``ScanCache.clear()``. Warns with ``DeprecationWarning``.
    """
    warnings.warn(
        "clear_recent_scans() does nothing since llmbridge 0.3: kept scans live in a "
        "ScanCache (MessageConnector.scans, or the scans= argument of the to_* functions); "
        "use ScanCache.clear()",
        DeprecationWarning,
        stacklevel=2,
    )
