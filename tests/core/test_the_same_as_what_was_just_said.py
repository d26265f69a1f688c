"""A clause that opens with "same …" points back at what was just said (core/sessions): stored
alone, "Same shape as prod, REGIONAL too since the failover test is parked" tells the next
session nothing. It is kept only as far as it can be read alone: not stored."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    "message",
    [
        "same shape as prod, REGIONAL too since the failover test is parked",
        "same on every laptop i use, not a this-repo thing",
        "same with the /orders/{id} route honestly, anyone can guess we have 80k orders lol.",
    ],
)
def test_what_points_back_with_same_is_not_stored(message):
    assert [f for f in gapfill.find([message]) if f.confidence == gapfill.HIGH] == []


def test_the_same_said_inside_a_clause_is_still_read():
    found = gapfill.find(["we keep the same node pool in both clusters, n2-standard-8"])
    assert [f.content for f in found] == [
        "We keep the same node pool in both clusters, n2-standard-8"
    ]
