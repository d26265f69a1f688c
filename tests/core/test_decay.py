"""Decay: the importance multiplier from age and recalls (fixed clock), and that in ranking
it is a soft bias, never a filter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdesk.core import agent
from memdesk.core.search.decay import DECAY, multiplier

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat()


@pytest.mark.parametrize(
    ("age", "recalls", "recalled", "expected"),
    [
        (0, 0, None, 1.0),  # new
        (90, 0, None, 0.5),  # one half-life
        (180, 0, None, 0.3),  # 0.25, held at the floor
        (3650, 0, None, 0.3),
        (0, 5, 0, 1.5),  # 2.0, held at the ceiling
        (90, 5, 0, 1.5),  # recalled often today: 0.5 + 1
        (3650, 5, 0, 1.0),  # however old: still in use
        (90, 1, 0, 0.7),  # one recall: a fifth of the boost
        (90, 5, 30, 1.0),  # recalled a month ago: half the boost
        (90, 0, 0, 0.5),  # a recall time without a count adds nothing
    ],
)
def test_the_multiplier(age, recalls, recalled, expected):
    last = None if recalled is None else ago(recalled)
    assert multiplier(ago(age), recalls, last, NOW) == pytest.approx(expected)


def test_stale_after_is_where_the_floor_is_reached():
    days = DECAY.stale_after_days
    assert multiplier(ago(days - 1), 0, None, NOW) > DECAY.floor
    assert multiplier(ago(days + 1), 0, None, NOW) == DECAY.floor


@given(
    st.floats(0, 5000),
    st.floats(0, 5000),
    st.integers(0, 50),
    st.floats(0, 5000),
)
def test_clamped_older_is_never_more_recalled_is_never_less(age, older, recalls, since):
    m = multiplier(ago(age), recalls, ago(since), NOW)
    assert DECAY.floor <= m <= DECAY.ceiling
    assert multiplier(ago(age + older), recalls, ago(since), NOW) <= m
    assert multiplier(ago(age), recalls + 1, ago(since), NOW) >= m


def test_an_exact_query_still_finds_a_fully_decayed_memory(service):
    service.add("The hangar door code is 4471", created_at="2019-01-01T00:00:00Z")
    for n in range(40):
        service.add(f"Note {n}: the door of room {n} has a code lock", dedup=False)
    hits = service.search("hangar door code")["hits"]
    assert hits[0]["content"] == "The hangar door code is 4471"


def test_between_equals_the_recently_recalled_one_ranks_first(service):
    old = "2025-01-01T00:00:00Z"
    for n in range(10):  # other memories: the query's words must be rare enough to score
        service.add(f"Unrelated note number {n}", dedup=False)
    a = service.add("Backups run nightly at two", project="x", created_at=old)
    b = service.add("Backups run nightly at two", project="y", created_at=old)
    assert service.search("backups nightly")["hits"][0]["id"] == a["id"]
    for _ in range(5):  # an agent keeps needing b
        service.search("backups nightly", project="y", actor=agent("claude-code"))
    assert service.get(b["id"])["recall_count"] == 5
    assert service.search("backups nightly")["hits"][0]["id"] == b["id"]
