"""A statement heard among signs that it may not last (a story, the moment, a hedge, a
complaint, a measurement, another's view kept at a distance) is proposed, not stored: the
person confirms it. Said as a rule on purpose, it is stored all the same."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _confidences(message: str) -> set[str]:
    return {f.confidence for f in gapfill.find([message])}


@pytest.mark.parametrize(
    "message",
    [
        # a story of the past
        "Before I joined, every release here was cut by hand from the ops laptop.",
        "we always tagged builds with the jira key back then, it was a mess",
        # what happens each time the person tries
        "Every time I rebase, the lockfile gets regenerated with different hashes.",
        # a hedge
        "Our nightly jobs might always run on the big runner pool.",
        # a measurement
        "The nightly ETL on our warehouse takes 41% longer since the upgrade.",
        # another's view, kept at a distance, in the same sentence or the next
        "Our CTO is pretty adamant we should always use feature flags instead of long-lived "
        "branches. I've heard it a dozen times.",
        "Our QA lead would always block a release on any flaky test. That's her preference; "
        "nobody else agreed.",
        # a bare "use …" that fixes the code in front of us
        "Use the retry helper instead of the hand-written loop and drop the sleep.",
        # a complaint, told by how it ends
        "Our flaky e2e suite always fails on the payments page, without fail.",
        # a state not reached yet (the person unsure of a thing is not even proposed:
        # test_heard_classes)
        "We don't have the read replica wired up yet, so point reports at the primary.",
        # a story told in the past tense
        "We always meant to split the monolith's config and never did.",
        # where a thing stands for now
        "The invoice export is in the staging workspace now, prod waits for sign-off.",
        # a thing asked for in this task
        "anyway, I want a retry wrapper around the upload next",
        # words pointing back to someone named before
        "draft a note to Marta about it — she approves every schema change here",
        # a reaction to what was just shown
        "oh nice, the report builds way faster than I expected, every page under a second",
        # a complaint told by what it does to the person
        "the nightly build takes 40 minutes always, I can't work like this",
        # another's house style, kept at a distance
        "the vendor's consultant says we should always pin to the LTS kernel. their house "
        "style, not ours",
        # a step of this task said with "use"
        "Use ggplot's facet_wrap for them",
    ],
)
def test_a_statement_with_a_sign_it_may_not_last_is_proposed(message: str) -> None:
    confidences = _confidences(message)
    assert gapfill.HIGH not in confidences
    assert gapfill.MEDIUM in confidences


@pytest.mark.parametrize(
    "message",
    [
        "Switching the queue to NATS for every service - I'm not going to commit to that, not "
        "my call.",
    ],
)
def test_a_choice_put_off_is_not_stored(message: str) -> None:
    assert gapfill.HIGH not in _confidences(message)


@pytest.mark.parametrize(
    "message",
    [
        "From now on, every error gets wrapped with context — we got burned by bare errors "
        "last year.",
        "For the record: staging is on port 5433, and it was moved there on purpose.",
        "Always use the retry helper for outbound calls, never a hand-written loop.",
        "We deploy with Argo, not Flux.",
        # a figure that bounds the work, not a run's result
        "Our frame budget is 16.6 ms on the base console.",
        "In this repo, drafts always get the label 'not yet'.",
        # a change that holds, told with "now"; a "use"/"keep" said of no task in particular
        "We format with Biome now, not Prettier.",
        "Keep log lines short.",
    ],
)
def test_a_rule_said_on_purpose_is_stored_whatever_is_said_beside_it(message: str) -> None:
    assert gapfill.HIGH in _confidences(message)


@pytest.mark.parametrize(
    "message",
    [
        "Our tech lead, Amara, wants every service to expose a /healthz endpoint. She mentions "
        "it in every review.",
        "The product manager on billing, Jonas, prefers monthly invoices for everyone.",
    ],
)
def test_a_roles_taste_told_by_the_person_is_not_theirs(message: str) -> None:
    assert _confidences(message) == set()


def test_what_the_person_does_with_the_thing_just_named_keeps_its_name() -> None:
    """ "numpydoc format — I use it for every docstring I write" was kept as "The user uses it
    for every docstring the user writes": what "it" was, lost."""
    (found,) = gapfill.find(
        ["Please write the docstring in Google style (I use it for every function I write)."]
    )
    assert "Google style" in found.content


@pytest.mark.parametrize(
    "message",
    [
        # a time of the past beside a verb in the past
        "For many years the invoices were printed and filed in the basement cabinet.",
        "Before 2021 the field team emailed every reading to the office as a spreadsheet.",
        "In my old flat I kept all the sourdough notes in a paper notebook by the oven.",
        "Three winters ago we ploughed the car park with a borrowed tractor every morning.",
        "in last term we marked everything on paper and lost half of the sheets",
        "back in v1 we stored every photo as a blob in the orders table, which hurt",
        "Before the new scanners arrived we typed each label number into the sheet by hand.",
        # a story's later sentences, told in the past after such a start
        "Some history first. Last season we logged the catches on a clipboard. Twice we "
        "mixed up the trap numbers on the east meadow and only noticed at the end.",
    ],
)
def test_a_story_of_the_past_is_proposed_not_stored(message: str) -> None:
    """Fresh held-out sets (v80-v83) had 8 of their 43 wrong stores from such stories: "In
    my first house we kept formulas on index cards" stored as the person's way of working."""
    assert gapfill.HIGH not in _confidences(message)


@pytest.mark.parametrize(
    "message",
    [
        # the past beside what holds now, in the same sentence
        "We moved the catalogue to Postgres in 2019; every new table goes there, never to MySQL.",
        "Last year we switched to weekly releases, always on a Tuesday.",
        # told in the present beside a change of the past
        "we use Dagger for every injection here, Guice got dropped in the last rewrite.",
        # a time of the past in a rule of the present
        "Invoices older than 2020 always go to the cold bucket, never the main one.",
    ],
)
def test_what_holds_now_beside_the_past_is_still_stored(message: str) -> None:
    assert gapfill.HIGH in _confidences(message)
