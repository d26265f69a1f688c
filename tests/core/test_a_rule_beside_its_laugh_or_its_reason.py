"""A rule told with a laugh beside it, or with the story or the fault that is its reason after
it, is still the rule (core/sessions): the laugh colours its own clause, the reason is why the
rule holds. A joke alone, and a report whose first clause is no rule, stay out."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a laugh in another clause of the sentence
        (
            "we format with black in this repo, please don't reach for yapf again, the last "
            "assistant did that twice lol",
            "black",
        ),
        (
            "we never hardcode the tenant id, it comes from the request context, found "
            "three of those in review last week lmao",
            "tenant id",
        ),
        (
            "haha fair enough. our api always returns money as integer cents, that's why "
            "the total looked like 129900 dollars lol.",
            "cents",
        ),
        # the reason after the rule is a story or what goes wrong otherwise
        (
            "every schema change in this repo goes through a reviewed migration, somebody "
            "edited prod by hand in 2023 and nobody could tell what changed",
            "migration",
        ),
        (
            "we never run the e2e suite against the shared staging db, it wipes the seed "
            "data other teams rely on",
            "e2e",
        ),
        # the reason after it is how things stand ("… I keep running" is no status report)
        ("the api listens on 8088 btw, 8080 is something else I keep running", "8088"),
        ("the staging db is on 6543, 5432 is the one I keep for another client", "6543"),
        # "a failing test" is a kind of test, not a fault
        ("please always start with a failing test when you fix a bug", "failing test"),
    ],
)
def test_the_rule_is_kept_beside_a_laugh_or_its_reason(message, word):
    kept = _kept(message)
    assert any(word in k.casefold() for k in kept), (kept, gapfill.find([message]))


@pytest.mark.parametrize(
    "message",
    [
        # the laugh is all there is to the sentence: a joke
        "our linter is going to hate this nested ternary lol",
        "took us three days and we never once got the same numbers twice lol",
        "last weekend I finally ripped out authelia, took me like 6 hours lol",
        "a friend who maintains a big deno lib said you should never ship a CLI through npm",
        # what opens is no rule: a status, news, a condition
        "release 4.2 is out to the beta group, nothing broke so far",
        "every time the vendor updates the sdk, the build breaks for a day",
        "the nightly build uses the same flags as always, nothing changed",
        "there's a failing test in CI since this morning",
        "the deploy is running now, it keeps timing out",
    ],
)
def test_a_joke_or_a_report_with_its_story_is_not_kept(message):
    assert _kept(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what follows the "don't" says how it always goes
        ("don't run npm here, we use bun for everything in this repo", "npm"),
        ("please don't open PRs for me, I review the diff locally and push myself", "prs"),
        (
            "don't add a logger per module — nobody reads those, all logs go through the "
            "request logger",
            "logger",
        ),
    ],
)
def test_a_dont_with_how_it_always_goes_after_it_is_kept(message, word):
    kept = _kept(message)
    assert any(word in k.casefold() for k in kept), (kept, gapfill.find([message]))


@pytest.mark.parametrize(
    "message",
    [
        "don't merge it yet, CI is still red on the arm runner",
        "don't touch the styles in that file, I'm rewriting them this afternoon",
    ],
)
def test_a_dont_for_this_work_stays_a_question_for_the_person(message):
    assert _kept(message) == [], gapfill.find([message])


def test_a_request_with_the_frustration_that_is_its_reason_is_kept():
    message = (
        "the handler file is a mess again. please always use early returns, five levels of nesting "
        "drives me nuts in review"
    )
    kept = _kept(message)
    assert any("early returns" in k.casefold() for k in kept), gapfill.find([message])


def test_frustration_beside_a_plain_statement_still_leaves_it_to_the_person():
    message = "the staging db resets every sunday night. i'm losing my mind"
    assert _kept(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("tidy it up a bit, in this codebase every handler is named after its route", "route"),
        ("rewrite that with fetch, we never pull axios into any of our frontends", "axios"),
    ],
)
def test_what_holds_for_good_after_the_task_of_the_moment_is_kept(message, word):
    kept = _kept(message)
    assert any(word in k.casefold() for k in kept), (kept, gapfill.find([message]))


def test_the_task_going_on_after_its_first_clause_is_not_kept():
    message = "commit it as two commits, then everything else goes in a third one"
    assert _kept(message) == [], gapfill.find([message])


def test_a_name_ending_in_staging_is_no_work_going_on():
    message = "ok ship it. staging is quill-staging on fly, prod is quill-prod"
    kept = _kept(message)
    assert any("quill-staging" in k for k in kept), (kept, gapfill.find([message]))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "don't upgrade pydantic past 1.10.13, the airflow image still imports the v1 api "
            "and everything broke when we tried",
            "1.10.13",
        ),
        ("keep node pinned at 18.19 though, the build box fails with 20", "18.19"),
    ],
)
def test_a_version_held_on_purpose_is_kept_with_its_reason_after_it(message, word):
    kept = _kept(message)
    assert any(word in k for k in kept), (kept, gapfill.find([message]))


def test_pinning_a_version_as_the_task_of_now_is_not_kept():
    message = "pin cosign to v2.2.4 in the installer step"
    assert _kept(message) == [], gapfill.find([message])
