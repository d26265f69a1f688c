"""A request followed by "I do that in every repo" or "that's how I do it everywhere" is the
person's habit (core/sessions): the request is kept with it, not "We do that everywhere" alone,
which tells the next session nothing. A request followed by what was done once stays the
task."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "named"),
    [
        (
            "looks fine. one thing — can you use pathlib instead of os.path btw, I do that in "
            "every repo and the linter complains otherwise anyway.",
            "pathlib",
        ),
        (
            "one more — could you add type hints to the new helpers, we do that everywhere.",
            "type hints",
        ),
        ("commit subjects lowercase with no period, that's how I do it everywhere", "lowercase"),
    ],
)
def test_the_request_is_kept_with_the_habit_that_points_back_at_it(message, named):
    kept = _kept(message)
    assert len(kept) == 1
    assert named in kept[0]


def test_a_request_followed_by_what_was_done_once_stays_the_task():
    assert (
        gapfill.find(
            ["the rest is fine — can you rerun the failing test, I did that twice already."]
        )
        == []
    )
