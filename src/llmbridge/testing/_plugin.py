"""The llmbridge pytest plugin: the ``scripted_provider`` and ``conversion_snapshot`` fixtures.

Registered through the ``pytest11`` entry point ``llmbridge`` (``-p no:llmbridge`` disables
it). Loading it imports no provider SDK, nor syrupy, respx or httpx: the fixtures import what
they need when a test asks for them, so a suite that does not use them is unchanged. There is
no autouse fixture.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pytest

from llmbridge._errors import LLMBridgeError
from llmbridge._messages import Message
from llmbridge.kit._notes import ConversionNote
from llmbridge.kit._providers import load_provider, provider_info, provider_tags

if TYPE_CHECKING:
    from syrupy.assertion import SnapshotAssertion

    from llmbridge.testing._provider import ScriptedProvider, ScriptedReply

__all__ = ["ConversionSnapshot", "conversion_snapshot", "scripted_provider"]

_SYRUPY_MISSING = "the conversion_snapshot fixture needs syrupy: pip install 'llmbridge[testing]'"


def _note_line(note: ConversionNote) -> str:
    where = "request" if note.index is None else str(note.index)
    return f"{where} {note.kind}: {note.detail}"


def _ordered(value: Any) -> Any:
    """``value`` with every dict as an ``OrderedDict``: syrupy's JSON keeps their key order."""
    if isinstance(value, Mapping):
        return OrderedDict((key, _ordered(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return [_ordered(item) for item in value]
    return value


class ConversionSnapshot:
    """What the ``conversion_snapshot`` fixture returns: call it to pin a conversation.

    ``conversion_snapshot(messages, agent_name="assistant", providers=None, *,
    strict_mode=False, name_policy="drop")`` converts ``messages`` with each provider wing's
    ``request_payload`` and asserts one JSON document against the test's syrupy snapshot (a
    failure shows syrupy's diff; ``pytest --snapshot-update`` writes it). The document has a
    section per provider tag, in registry order: ``{"payload": ..., "notes": ["<index>
    <kind>: <detail>", ...]}`` (``request`` for a note on no single message), or ``{"error":
    "<ErrorType>: <message>"}`` when the conversion raises an llmbridge error, so strict-mode
    failures are pinned too. It returns the document.

    ``providers=None`` takes every registered provider whose SDK is installed (fails when
    none is); named providers are all converted, and a named one whose SDK is missing fails
    the test with the ``ImportError``'s text. An unknown tag raises ``KeyError`` naming the
    known ones, and a single ``str`` for ``providers`` raises ``TypeError``.
    """

    def __init__(self, snapshot: SnapshotAssertion) -> None:
        self.snapshot = snapshot

    def __call__(
        self,
        messages: Sequence[Message],
        agent_name: str = "assistant",
        providers: Sequence[str] | None = None,
        *,
        strict_mode: bool = False,
        name_policy: str = "drop",
    ) -> dict[str, Any]:
        """Convert ``messages`` for the providers and assert the document (see the class)."""
        document = {
            tag: self._section(tag, messages, agent_name, strict_mode, name_policy)
            for tag in self._tags(providers)
        }
        self.snapshot.assert_match(_ordered(document))
        return document

    @staticmethod
    def _tags(providers: Sequence[str] | None) -> Iterable[str]:
        if isinstance(providers, str):
            raise TypeError(
                f"providers must be a list of provider tags, such as [{providers!r}], "
                "not a single string"
            )
        if providers is None:
            installed = [tag for tag in provider_tags() if _missing_sdk(tag) is None]
            if not installed:
                extras = ", ".join(provider_info(tag).extra for tag in provider_tags())
                pytest.fail(
                    f"conversion_snapshot: no provider SDK is installed (extras: {extras})",
                    pytrace=False,
                )
            return installed
        tags = [provider_info(tag).tag for tag in providers]
        for tag in tags:
            missing = _missing_sdk(tag)
            if missing is not None:
                pytest.fail(f"conversion_snapshot: provider {tag!r}: {missing}", pytrace=False)
        return tags

    @staticmethod
    def _section(
        tag: str, messages: Sequence[Message], agent_name: str, strict_mode: bool, name_policy: str
    ) -> dict[str, Any]:
        wing = load_provider(tag)
        try:
            payload, notes = wing.request_payload(
                messages, agent_name=agent_name, strict_mode=strict_mode, name_policy=name_policy
            )
        except LLMBridgeError as error:
            return {"error": f"{type(error).__name__}: {error}"}
        return {"payload": payload, "notes": [_note_line(note) for note in notes]}


def _missing_sdk(tag: str) -> str | None:
    """Why the wing of ``tag`` cannot load for want of a third-party module (its SDK), if so.

    ``None`` when it loads; an ``ImportError`` of llmbridge's own modules propagates (a bug).
    """
    try:
        load_provider(tag)
    except ImportError as error:
        if (error.name or "llmbridge").split(".")[0] == "llmbridge":
            raise
        return str(error)
    return None


@pytest.fixture
def scripted_provider() -> Callable[..., ScriptedProvider]:
    """A factory of offline providers: ``scripted_provider(["reply", ...], chunk_delay=0.0)``.

    Each call returns a new ``llmbridge.testing.ScriptedProvider`` over that script (keyword
    arguments are passed on); build SDK clients on it with ``.openai_client()`` or
    ``.anthropic_client()``. Raises ``ImportError`` naming the ``testing`` extra without respx.
    """

    def make(script: Iterable[ScriptedReply], **kwargs: Any) -> ScriptedProvider:
        # Through the package, whose lazy import names the extra when respx is missing.
        from llmbridge import testing

        provider: ScriptedProvider = testing.ScriptedProvider(script, **kwargs)
        return provider

    return make


@pytest.fixture
def conversion_snapshot(request: pytest.FixtureRequest) -> ConversionSnapshot:
    """Pin conversions in a snapshot: ``conversion_snapshot(messages)`` (``ConversionSnapshot``).

    Uses syrupy's ``snapshot`` fixture (yours, when you override it) with syrupy's
    ``JSONSnapshotExtension`` unless its extension already is one, so the snapshot is a
    readable ``.json`` file (``__snapshots__/<test module>/<test name>.json`` by default).
    Raises ``ImportError`` naming ``pip install 'llmbridge[testing]'`` when syrupy is missing.
    """
    try:
        from syrupy.extensions.json import JSONSnapshotExtension
    except ImportError as error:
        raise ImportError(_SYRUPY_MISSING, name=error.name) from error
    snapshot: SnapshotAssertion = request.getfixturevalue("snapshot")
    if not issubclass(snapshot.extension_class, JSONSnapshotExtension):
        snapshot = snapshot.use_extension(JSONSnapshotExtension)
    return ConversionSnapshot(snapshot)
