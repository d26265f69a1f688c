"""A fact told first, with what goes wrong otherwise or how it came to be in the comma-clauses
after it, is kept without them (core/sessions): "the fake payments api is stripe-mock on port
12111, you start it with make stripe-mock, …" was refused whole as a fault of now. A fault or a
story that is all the sentence says stays out, and so does an agent's proposal that names
what it proposes only as "it". "Anything that's …" as what a clause is about is said of every
one of them; "anything" as an object is not."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "the fake payments api is stripe-mock on port 12111, you start it with make "
            "stripe-mock, the test config points there.",
            "The fake payments api is stripe-mock on port 12111",
        ),
        (
            "prod secrets come from vault under kv/payments, reading them from env silently "
            "breaks the rotation.",
            "Prod secrets come from vault under kv/payments",
        ),
        (
            "the nightly export lands in s3://acme-exports/nightly, the lambda we had for it got "
            "deleted in the spring cleanup.",
            "The nightly export lands in s3://acme-exports/nightly",
        ),
    ],
)
def test_a_fact_is_kept_without_the_fault_or_story_told_after_it(message, kept):
    assert _kept(message) == [kept]


def test_a_fact_with_a_fault_after_it_and_no_tie_is_proposed():
    found = gapfill.find(
        [
            "the tracing backend is jaeger with 7 days of retention, you need the vpn up or the "
            "ui loads with no error and no traces."
        ]
    )
    assert [(f.confidence, f.content) for f in found] == [
        (gapfill.MEDIUM, "The tracing backend is jaeger with 7 days of retention")
    ]


def test_where_a_service_is_reached_ties_it_with_a_fault_after_it():
    """A host's address is where the service is, not how it behaves at the moment (stop 96)."""
    found = gapfill.find(
        [
            "the tracing backend is jaeger at http://jaeger.lab.internal:16686, you need the vpn "
            "up or the ui loads with no error and no traces."
        ]
    )
    assert [(f.confidence, f.content) for f in found] == [
        (gapfill.HIGH, "The tracing backend is jaeger at http://jaeger.lab.internal:16686")
    ]


@pytest.mark.parametrize(
    "message",
    [
        # the head only opens a clause
        "before we touch anything else here, the staging deploy fails with a 502.",
        # what follows is the fault of now, said with a general word: the whole is the report
        "the scheduler is on the ops box, it hangs every other night.",
        "the worker is on celery 5.3 now, it crashed twice overnight.",
        "reports are rendered by weasyprint in the pdf service, you call it with the template "
        "name or it just returns a blank page.",
    ],
)
def test_a_report_whose_first_clause_holds_nothing_stays_out(message):
    assert gapfill.find([message]) == []


def test_an_accepted_proposal_that_names_its_pick_only_as_it_is_not_kept():
    messages = [
        {"role": "user", "content": "is the list screen still on default change detection?"},
        {
            "role": "assistant",
            "content": "Yes. Everything it shows comes from selectors, so OnPush fits well, and "
            "I'd suggest it as the default for new screens too.",
        },
        {"role": "user", "content": "ok sounds good"},
    ]
    assert [f.content for f in gapfill.find(messages)] == []


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "anything that's a weight is numeric(12,3) in this schema, we sell cheese by the gram.",
            "Anything that's a weight is numeric(12,3) in this schema, we sell cheese by the gram",
        ),
        (
            "anything new in the mobile app goes through the feature flag service, no hardcoded "
            "toggles.",
            "Anything new in the mobile app goes through the feature flag service, no hardcoded "
            "toggles",
        ),
    ],
)
def test_anything_a_clause_is_about_is_said_of_every_one(message, kept):
    assert _kept(message) == [kept]


@pytest.mark.parametrize(
    "message",
    [
        "the val loss curve doesn't tell me anything tbh.",
        "before writing anything read the README in that module.",
        "did anything else change since friday?",
        "is there anything in the logs from last night?",
    ],
)
def test_anything_as_an_object_or_in_a_question_says_nothing_of_every_one(message):
    assert gapfill.find([message]) == []
