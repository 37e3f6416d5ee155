"""Conversion notes and the lenient/strict decision point."""

from __future__ import annotations

import logging

import pytest

from llmbridge import ConversionNote, InvalidMessageError, UnsupportedMessageError
from llmbridge.kit._notes import NoteKind, NoteRecorder, log_notes

LOSSY: list[NoteKind] = ["dropped", "renamed"]
LOSSLESS: list[NoteKind] = ["merged", "repaired", "omitted"]


@pytest.mark.parametrize("kind", LOSSY + LOSSLESS)
def test_lenient_records_every_kind(kind: NoteKind) -> None:
    recorder = NoteRecorder(strict_mode=False)
    recorder.record(4, kind, "detail")
    assert recorder.notes == [ConversionNote(4, kind, "detail")]


@pytest.mark.parametrize("kind", LOSSY)
def test_strict_raises_for_lossy_kinds(kind: NoteKind) -> None:
    recorder = NoteRecorder(strict_mode=True)
    with pytest.raises(InvalidMessageError) as info:
        recorder.record(4, kind, "name cannot be sent", field="from_")
    assert (info.value.index, info.value.field) == (4, "from_")
    assert recorder.notes == []


@pytest.mark.parametrize("kind", LOSSLESS)
def test_strict_records_lossless_kinds(kind: NoteKind) -> None:
    recorder = NoteRecorder(strict_mode=True)
    recorder.record(1, kind, "detail")
    assert len(recorder.notes) == 1


def test_unsupported() -> None:
    lenient = NoteRecorder(strict_mode=False)
    lenient.record(2, "dropped", "Foo cannot be sent", error=UnsupportedMessageError)
    assert lenient.notes == [ConversionNote(2, "dropped", "Foo cannot be sent")]
    with pytest.raises(UnsupportedMessageError) as info:
        NoteRecorder(strict_mode=True).record(
            2, "dropped", "Foo cannot be sent", error=UnsupportedMessageError
        )
    assert info.value.index == 2


def test_log_levels(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="llmbridge")
    log_notes(
        [ConversionNote(0, "dropped", "empty text"), ConversionNote(None, "merged", "turns")],
        source="test",
    )
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "test: message 0 dropped: empty text"),
        (logging.INFO, "test: request merged: turns"),
    ]
