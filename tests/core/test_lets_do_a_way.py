""" "Let's do X, no Y" picks a way of doing it, as "go with X" does (core/sessions/picks.py):
"ok lets do the udev rule + systemd-activated unit, no polling loop" was dropped. "Let's do X"
with nothing beside it names the next piece of work as often ("let's do the mqtt part"), and
"let's do it" / "… next" / "… now" pick nothing to keep."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _found(message: str) -> list[tuple[str, str]]:
    return [(f.confidence, f.content) for f in gapfill.find([message])]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        ("ok lets do the udev rule + systemd-activated unit, no polling loop", "udev rule"),
        ("let's do server wins on updated_at, no merging note bodies", "server wins"),
    ],
)
def test_a_way_picked_with_what_is_out_is_stored(message, evidence):
    assert any(c == gapfill.HIGH and evidence in content for c, content in _found(message))


@pytest.mark.parametrize(
    "message",
    [
        "let's do the mqtt part",
        "let's do it",
        "let's do the tests next",
        "let's do the migration now, then the docs",
    ],
)
def test_the_next_piece_of_work_is_not_kept(message):
    assert _found(message) == []
