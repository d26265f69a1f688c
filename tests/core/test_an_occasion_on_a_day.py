"""An occasion on a day ("the board demo is thursday") tells how things are this week: what
is said beside it is not stored for good (core/sessions/doubts.py). A window kept each week
("… is tuesday 22:00–02:00", "… is tuesday and thursday") still is."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        "board demo is thursday and i don't want real parents getting texts off test data",
        "the release is on friday and we don't want the migration in it",
    ],
)
def test_what_is_said_beside_an_occasion_is_not_stored(message):
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "our maintenance window is tuesday 22:00–02:00, nothing gets restarted outside it",
            "22:00",
        ),
        (
            "our release train is tuesday and thursday, nothing merges to main after 3pm on "
            "those days",
            "after 3pm",
        ),
        ("the deploy window is friday 6pm utc, never outside it", "friday 6pm"),
    ],
)
def test_a_window_kept_each_week_is_stored(message, evidence):
    assert any(evidence in content for content in _stored(message))
