"""A switch told with what holds since ("nah we ripped mocha out last year, it's vitest now")
was refused whole as a story, or kept as a bare status ("Search is pagefind now") that said
nothing of what it replaced (core/sessions). The two clauses are one statement, kept whole
without the word that set the agent right; the time of the switch casts no doubt on it."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "old", "new"),
    [
        ("nah we ripped mocha out last year, it's vitest now.", "mocha", "vitest"),
        (
            "no, we dropped elasticsearch in the spring, search is meilisearch now, it runs "
            "beside the api.",
            "elasticsearch",
            "meilisearch",
        ),
        ("we got rid of moment ages ago, dates are all dayjs these days.", "moment", "dayjs"),
        # what holds now joined by "and", or told first with the switch as its reason
        ("we pulled redux out last year and it's zustand now", "redux", "zustand"),
        ("logging is structlog, we got rid of loguru a while back", "loguru", "structlog"),
    ],
)
def test_a_switch_and_what_holds_since_are_kept_as_one(message, old, new):
    kept = [content for content in _stored(message) if old in content and new in content]
    assert kept, _stored(message)
    assert not kept[0].lower().startswith(("nah", "no,", "no "))


@pytest.mark.parametrize(
    "message",
    [
        "we dropped the orders table by accident last year, it was a mess.",
        "we took it out last week, the build is green now.",
    ],
)
def test_a_move_told_as_a_story_is_not_stored(message):
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "new", "left_out"),
    [
        # what the person goes on to tell after what holds is not part of it
        (
            "we ripped out apache last spring, the proxy is traefik now, that role is just "
            "dead code I never got round to deleting.",
            "traefik",
            "dead code",
        ),
        # what is made since, without "now"
        (
            "we moved off the old bloc classes last year, anything new is a cubit with "
            "freezed states.",
            "cubit",
            None,
        ),
    ],
)
def test_what_holds_since_a_switch_ends_where_it_ends(message, new, left_out):
    stored = [c for c in _stored(message) if new in c]
    assert stored
    assert left_out is None or not any(left_out in c for c in stored)
