"""The tone of a message falls on what it states only where it is of the same matter: a few
words first about the agent's last step, or a step of the person's own after the statement,
leave the statement as it was said."""

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a word on what the agent just did, then a statement
        (
            "nope nope nope. we never deploy the worker with kubectl apply, it all goes "
            "through argocd",
            "argocd",
        ),
        (
            "no no no. the billing service is owned by Tamsin, any schema change there "
            "goes past her first",
            "tamsin",
        ),
        # the person's own next step after it
        (
            "we don't use celery here, background jobs go through dramatiq with redis. "
            "I'll ask Marco about the deploy myself.",
            "dramatiq",
        ),
        (
            "the nightly export runs on the reporting replica, never on the primary. "
            "the other dashboards can wait until next week",
            "replica",
        ),
        (
            "don't rotate it yourself, the signing key is Dana's and only she has access to "
            "the vault policy. I'll text her.",
            "dana",
        ),
        # a groan that sends the agent back to work is at its step
        (
            "ugh, reword those pls. short lowercase commit subjects, no ticket numbers, ticket "
            "prefixes are just noise to me",
            "lowercase",
        ),
        (
            "ugh, that stripe file is dead code, delete it. card payments go through adyen now, "
            "we moved off stripe in april",
            "adyen",
        ),
        # what would hold in another world some day
        (
            "ok decided: uploads stay on our own minio, no S3. if we ever go multi-region we'd "
            "need a managed bucket anyway, but not now",
            "minio",
        ),
        (
            "we store every amount as integer cents in this repo, never floats. "
            "can you add a helper to Money that converts the parser's decimals?",
            "cents",
        ),
        # a statement the person marks as told to keep, beside a groan or a question
        (
            "ugh, whatever. remember, the nightly job runs on the replica and never on the primary",
            "replica",
        ),
        (
            "does the exporter even need that lock? heads up, Tomás owns the export format "
            "and signs off any change to it",
            "tomás",
        ),
        (
            "honestly this page is kinda messy. just so you know, Ines owns the pricing page "
            "copy and signs off every change to it",
            "ines",
        ),
    ],
)
def test_a_statement_beside_another_matters_tone_is_stored(message, word):
    stored = _stored(message)
    assert any(word in s.lower() for s in stored), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        # a groan first is about all of it
        "ugh. every single release the changelog script drops half the entries",
        # a doubt with no matter of its own closes the thought
        "maybe every service should get its own database user... not sure yet",
        "redis or postgres for the job queue, idk. lets not decide now, just stub an interface",
        # a deferral of the very thing just said
        "if we ever go multi-region we'd need a managed bucket, not sure yet",
        "the retry limit is 5 for now. not sure yet whether the retry limit should be 5 or 10",
        # praise first is irony unless work follows; a laugh, a question or a lead-in first
        # is no word on the agent's step
        "great. another friday deploy that took prod down.",
        "2 lol. my local dump is from march. whatever",
        "what's -1 there? the sensor manual mentions an error code but I never found which",
        "died again, same thing:\n\nsure, let's just give every pod 64 gigs, money is free",
        # remembering is no word told to keep
        "no idea why it's slow. I vaguely remember that the ORM drops the preload after a "
        "distinct, not sure",
        "maybe the docs site reads a versions file... but then someone has to remember to "
        "bump it every release. idk",
    ],
)
def test_a_tone_of_the_same_matter_still_leaves_it_to_the_person(message):
    assert _stored(message) == [], gapfill.find([message])
