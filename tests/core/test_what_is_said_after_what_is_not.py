"""A message that opens on what is not so ("no no, we don't use redis anywhere.", "ah no, never
latest.") says what is in the very next sentence; the two are one memory (core/sessions/
later_sentences.py). The second was held back as a later statement of the message, while the
first was stored alone, a memory that only says what is not."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "not_so", "what_is"),
    [
        (
            "no no, we don't use redis anywhere. sessions are stored in the postgres sessions "
            "table. drop the cache module",
            "redis",
            "postgres sessions table",
        ),
        (
            "ah no, never the latest tag. images are pinned by digest, CI passes it in as the "
            "chart value. check the api chart",
            "latest",
            "digest",
        ),
    ],
)
def test_what_is_joins_what_is_not(message, not_so, what_is):
    stored = _stored(message)
    assert any(not_so in s and what_is in s for s in stored), stored


def test_the_task_that_follows_what_is_not_stays_out():
    stored = _stored(
        "no, we don't deploy from laptops. so drop the deploy step from the Makefile and push"
    )
    assert not any("Makefile" in s for s in stored), stored
