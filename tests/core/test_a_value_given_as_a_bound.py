"""A value given as a bound or a place things keep to ("tops out at 3.9", "go into
exports/finance/") is a constraint of the project, kept; a value measured or said for the task
at hand stays the person's to confirm, or is nothing (core/sessions/around.py)."""

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
        ("the CI runner's python tops out at 3.9", "3.9"),
        ("report csvs go into exports/finance/ with the date in the name", "exports/finance/"),
        # who or what alone does it, said with a general word
        (
            "the exporter is the only thing that should write into reports/, everything else reads",
            "reports/",
        ),
    ],
)
def test_a_value_given_as_a_bound_is_kept(message, word):
    assert _confidences(message, word) == [gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("the photos are small, max 2mb", "2mb"),
        ("p99 partition size 38 MB, max 212 MB", "212"),
        ("for this demo build it has to run on port 3001", "3001"),
    ],
)
def test_a_value_measured_or_for_the_task_is_not_kept(message, word):
    assert gapfill.HIGH not in _confidences(message, word)
