"""A plan the person drops in the same breath ("I was going to rename X but nah, forget it")
is nothing to keep (core/sessions): it was stored or proposed as "The user was going to
rename X …", and the person had to reject it in the Inbox. What they do state beside it, and a
plan they keep, stay heard."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    "message",
    [
        "(i was going to rename the whole Orders module to Purchases while we're at it but nah, "
        "forget it, way too much churn)",
        "I was gonna move every fixture into tests/data/v2 too, but scrap that, not worth it "
        "before the release.",
        "was going to swap celery for dramatiq here but actually scratch that, the queue is "
        "fine as it is",
        "We were thinking of splitting the billing schema into two databases, but never mind, "
        "one is plenty for now.",
        "I was planning to bump the worker pool to 16 but no, leave it at 8 for this run.",
        "I was gonna rename Billing.Invoices to Billing.Bills while we're in here but forget "
        "it, not worth the churn",
        "nah scratch that, the cron box only runs twice a day anyway",
        "Actually never mind the redis idea, traffic is like 30 requests a day.",
    ],
)
def test_a_plan_dropped_as_it_is_said_is_neither_stored_nor_proposed(message):
    assert gapfill.find([message]) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "I was going to add a cache but forget it. We deploy with kamal from the ops repo, "
            "always.",
            "kamal",
        ),
        (
            "i was going to ask about the linter, but never mind: we use ruff for everything "
            "in this repo.",
            "ruff",
        ),
    ],
)
def test_what_is_stated_beside_a_dropped_plan_is_still_heard(message, word):
    kept = [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]
    assert any(word in content for content in kept)
