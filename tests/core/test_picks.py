"""A way picked for the project among the agent's options (core/sessions/picks.py): kept as
a decision when the person says why the other way is out or that the pick stays; proposed
when nothing is said beside it; an answer to the agent when it points at an option, holds
for now, or is said in doubt."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _found(message: str, confidence: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == confidence]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "yeah let's go with msgpack for the cache values since json was eating half the "
            "memory. wire it into the cache module next",
            "msgpack",
        ),
        ("hmm fine, go with the outbox table, no more publishing from inside handlers", "outbox"),
        (
            "right, sqlc it is, I don't want an orm generating queries behind our back again",
            "sqlc",
        ),
        (
            "let's just go ULIDs everywhere, uuid4 keys were trashing the btree on inserts",
            "ULIDs",
        ),
        (
            "ok we're staying on Node 20 for the workers, the 22 build broke the native "
            "canvas module",
            "Node 20",
        ),
        (
            "go with pg_partman for the events table and that's the standard for every "
            "time-series table from now on",
            "pg_partman",
        ),
        (
            "cool, go with Caddy in front, nginx config was a mess nobody could read",
            "Caddy",
        ),
        # said for good in other words than "from now on" (batch 17: read as an answer)
        (
            "go with pendulum and store everything in UTC, that's how we do dates from here on",
            "pendulum",
        ),
    ],
)
def test_a_pick_with_why_the_other_way_is_out_is_kept_as_a_decision(message, word):
    assert any(word in content for content in _found(message, gapfill.HIGH))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("go with httpx for the client", "httpx"),
        # why, told with no word of fault or of lasting: the person confirms it
        (
            "ok go with argon2id, bcrypt truncates at 72 bytes and we've got long passphrases",
            "argon2id",
        ),
    ],
)
def test_a_pick_with_no_word_of_why_is_proposed(message, word):
    assert _found(message, gapfill.HIGH) == []
    assert any(word in content for content in _found(message, gapfill.MEDIUM))


@pytest.mark.parametrize(
    "message",
    [
        "yes, go with option 2",
        "ok go with the second approach, the first one is overkill",
        "yep, go with your version, mine was broken anyway",
        "Go with the polling approach for now; websockets can wait.",
        "go with 3 replicas for the load test, we can scale down after",
        "go with tabs in this file since that's what's already there",
        "sure, go with 0.5 as threshold and we'll see how the precision looks",
        "maybe go with redis, not sure the memory budget allows it",
        "should we go with redis, since memcached is dead?",
        "Kenji thinks we should go with Maestro, not detox",
        "store it is.",
        "the page stays on the loading spinner, never finishes",
        "let's go through the failing tests one by one, not all at once",
    ],
)
def test_an_answer_or_a_pick_for_now_is_not_kept(message):
    assert _found(message, gapfill.HIGH) == []


def test_a_pick_the_person_words_as_their_habit_keeps_their_words():
    message = "I stick with RSpec over minitest in all my own work, whatever rails defaults to"
    kept = _found(message, gapfill.HIGH)
    assert kept
    assert not any(content.startswith("Decision:") for content in kept), kept


def test_what_else_is_said_beside_a_pick_is_heard_on_its_own():
    message = (
        "go with lookback 3 — oh and every model in this repo lives in the analytics schema, "
        "nothing goes in the default one"
    )
    kept = _found(message, gapfill.HIGH)
    assert any("analytics schema" in content for content in kept), kept
    assert not any("lookback" in content for content in kept), kept
