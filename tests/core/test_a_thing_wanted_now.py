""" "I want the card to turn grey when …", "I want signed urls instead": one thing wanted for the
work at hand is the person's to confirm, not a standing preference stored as "The user wants
…" (core/sessions/chunk_judge.py). A want of a kind of thing ("I want commit messages in the
imperative"), or one the person marks as lasting, is still kept."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _confidences(message: str, word: str) -> list[str]:
    return [
        f.confidence for f in gapfill.find([message]) if word.casefold() in f.content.casefold()
    ]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "ok I want the status badge to turn grey when the device has been quiet for an hour",
            "badge",
        ),
        ("I want signed download links instead", "signed download"),
        ("I want MAX_UPLOAD_MB read from the environment so ops can change it", "MAX_UPLOAD_MB"),
    ],
)
def test_one_thing_wanted_now_is_proposed_not_stored(message, word):
    assert _confidences(message, word) == [gapfill.MEDIUM]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("I want commit messages in the imperative mood, no emoji", "imperative"),
        ("for the record: I want the linter output pasted as is, never summarised", "linter"),
        ("I want the changelog entry in every PR, no exceptions", "changelog"),
    ],
)
def test_a_want_of_a_kind_or_marked_lasting_is_stored(message, word):
    assert gapfill.HIGH in _confidences(message, word)
