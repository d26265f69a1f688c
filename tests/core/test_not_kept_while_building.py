"""What a working message says that is no rule to keep (core/sessions): the behaviour of the
feature being asked for, what the person does not see or know, a verdict on what the agent
found, the plan of this change, a pointer to what a run left behind."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        # the spec of the feature asked for
        "the summary card should turn amber when a refund is older than 5 days",
        "the notifier should ping the on-call when a job has been stuck for more than 30 min "
        "— pager stuff lives in lib/pager.ex",
        "ok. the payments service needs to tell us when a refund settles.",
        "and the scheduler should email the owner when a backup has failed twice in a row. "
        "write the job",
        # the feature told as a user story
        "members should be able to pause their subscription for up to 3 months from the "
        "account page, and they get an email when it resumes",
        # a figure that does not match, reported to have it looked at
        "the invoice totals in the monthly export are ~120 higher than what the accountant reports",
        # what the person does not see or know now
        "ok where does the retry happen? I don't see a backoff in client.py",
        "I don't see any index on the events table",
        "and leave a note in the code so I don't forget to turn the rate limit back on.",
        "I don't understand why the second migration runs twice",
        # a verdict on what the agent found
        "200ms we can live with, but cache the lookup so it doesn't get worse",
        # the plan of this change
        "good. keep the legacy column in a later release, not this one",
        "rename the table in a follow-up migration, not this one",
        # a pointer to what a run left behind
        "log is in logs/export-0412.out",
        "why did the export die at row 4000? the trace is in tmp/export-trace.txt",
    ],
)
def test_nothing_of_the_work_at_hand_is_kept(message):
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a behaviour said of every case is a rule, not the spec of one feature
        (
            "the API should always return 404 when the caller isn't the owner, never 403",
            "404",
        ),
        ("I don't use semicolons in TypeScript, ever", "semicolons"),
        ("only admins should be able to delete invoices, never staff accounts", "admins"),
        ("as a general rule, I want SQL keywords uppercase", "uppercase"),
        ("our app logs go to /var/log/orbit, rotated daily by logrotate", "/var/log/orbit"),
    ],
)
def test_a_rule_in_the_same_words_is_still_kept(message, word):
    assert any(word in kept for kept in _kept(message)), _kept(message)
