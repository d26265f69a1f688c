"""What a thing pointed at "says" or "wants" (a service, a test run) is what it shows or needs,
not someone else's view (core/sessions): "… it wants a bearer token from vault" was refused
whole as reported. A person's or a department's view stays theirs."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "the geo service lives at geo.internal:7070 and it wants a bearer token from vault, "
            "nothing else works for auth.",
            "geo.internal:7070",
        ),
        (
            "the e2e specs live in tests/e2e and run with pnpm test:e2e, plain pnpm test only "
            "picks up the unit specs so dont be surprised when it says 0 files.",
            "pnpm test:e2e",
        ),
    ],
)
def test_what_a_thing_says_or_wants_leaves_the_fact_kept(message, word):
    kept = [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]
    assert len(kept) == 1
    assert word in kept[0]


@pytest.mark.parametrize(
    "message",
    [
        "Dana says we should squash every PR.",
        "our IT says macros must never write to the share directly.",
        "Marek thinks we should always rebase, not my call though.",
    ],
)
def test_a_persons_or_a_departments_view_stays_theirs(message):
    assert gapfill.find([message]) == []


@pytest.mark.parametrize(
    "message",
    [
        "always run the migration against a snapshot first and send me the diff, somebody "
        "dropped like 3 tables that way last spring.",
        "never point the loader at the live bucket, someone racked up like half a grand in "
        "egress doing that.",
    ],
)
def test_like_said_of_an_amount_is_no_ones_taste(message):
    """ "somebody burned like 4k" is an amount, not what somebody likes: the rule before it
    was refused whole as another's view."""
    assert gapfill.find([message]) != []
