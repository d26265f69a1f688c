"""Rules said in a working message, among the jokes, groans and asks of a real session
(core/sessions: tone, clauses, doubts); and what a working message holds that is no rule."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


def _assert_kept(message: str, word: str) -> None:
    kept = _kept(message)
    assert any(word in memory for memory in kept), kept


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a laugh or a groan while answering the agent or giving it work
        (
            "there's no jest config lol. we're on vitest with happy-dom, jest isn't even "
            "installed. put the test next to the component",
            "vitest",
        ),
        (
            "ugh no, not like that. the api always returns snake_case and we convert at the "
            "fetch layer in src/api/client.ts",
            "snake_case",
        ),
        (
            "wait, it's not the staging cluster lol. we deploy previews to the kind cluster "
            "called preview-east, staging is only for release candidates",
            "preview-east",
        ),
        (
            "yeah let's just go with uuid v7 for every new primary key, the sequential ones "
            "leak how many orders we have",
            "uuid v7",
        ),
    ],
)
def test_a_rule_beside_a_laugh_or_a_groan_is_kept(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    "message",
    [
        # a groan alone with a complaint is a vent, whatever it says always happens
        "ugh. every single release the changelog gets written at midnight by whoever is left",
        "ugh, the flaky e2e again. somebody ALWAYS merges with the suite red",
        "lol yep, that's the one. always nice when it's a one-line fix",
    ],
)
def test_a_groan_with_only_a_complaint_is_not_kept(message):
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # how things are, told after the word that sets the agent right
        (
            "not moment. nothing in the frontend formats dates by hand, it all goes through "
            "the fmtDate helper in src/lib/dates.ts",
            "fmtDate",
        ),
        ("48?? no. the refund window is 30 days, after that it's store credit only", "30 days"),
        (
            "wait, express? the gateway runs on fastify 4, express was only in the prototype",
            "fastify",
        ),
    ],
)
def test_how_things_are_told_to_set_the_agent_right_is_kept(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    "message",
    [
        # the mending itself, what the agent did, a guess at a size: the work at hand
        "nope, that's not thread-safe, two workers can pop the same job",
        "wait no. in the config you set the bucket to logs-old, switch it",
        "ugh no kill that, don't run the whole thing. the nightly suite is like 20 mins",
    ],
)
def test_what_sets_the_agent_right_about_the_work_is_not_kept(message):
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what the person's setup makes fail for them is what they use
        ("I'm on nushell, so the export FOO=bar lines never work for me", "nushell"),
        # a schedule, not a story of one day
        ("our release weeks start on tuesday, not monday", "tuesday"),
        # what the person lives with, whatever the message asks beside it
        (
            "make the legend bigger, I've got protanopia so the red and brown lines look "
            "the same to me",
            "protanopia",
        ),
        ("I'm red-green colourblind so pass vs fail badges need an icon too", "colourblind"),
        # a statement on the line that brings a paste
        (
            "we always pin actions to a full commit sha in this org. heres the workflow:\n\n"
            "jobs:\n  build:\n    runs-on: ubuntu-latest",
            "commit sha",
        ),
    ],
)
def test_what_a_working_message_tells_of_the_person_and_the_team_is_kept(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    "message",
    [
        "I'm on a train, the wifi is spotty, so my replies may lag",
        "Maya maintains the VS Code extension vs the CLI",
    ],
)
def test_a_trip_is_no_setup(message):
    assert not any("train" in kept for kept in _kept(message))


@pytest.mark.parametrize(
    "message",
    [
        # a branch of one piece of work
        "looks good. push to my branch feat/bulk-export, not main",
        # a pasted line after the line that brings it
        "the readme's export line fails when I paste it:\n\n"
        "Error: nu::parser::export_not_found. Please use 'let-env' instead.",
        # what only the talk around it completes
        "quick q, should we use Redis or the db for the lock? saw both in the codebase",
        "should we move the retry logic into the worker? like make the worker own retries",
        "yeah anywhere we show a price",
    ],
)
def test_what_only_the_moment_completes_is_not_kept(message):
    assert _kept(message) == []


def test_the_verb_after_what_a_parenthesis_named_is_that_things():
    kept = _kept(
        "anything that touches the billing export (Finance.Export.Sap) has to go past Ines "
        "before it merges"
    )
    assert any("Ines" in k and "billing export" in k for k in kept), kept


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what the person works in, told beside a question, a hedge or a result
        (
            "whats the command to reseed the db? (I'm on nushell btw, so `export X=y &&` "
            "won't paste cleanly)",
            "nushell",
        ),
        (
            "fyi im on fish so the export X=Y lines dont work for me, give me set -x. anyway "
            "it ran, 0 diffs",
            "fish",
        ),
        (
            "oh and i'm on zsh on macos so the `source .venv/bin/activate.fish` line never "
            "works for me, thats probably why my env broke",
            "zsh",
        ),
    ],
)
def test_what_the_person_works_in_is_kept_beside_the_work(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # where everything of a kind goes is a convention, said in the middle of the work
        (
            "ok, finance wants a report of refunds by reason. anything in reports/ that shows "
            "card data goes through the redact_pan macro, audit checks that every quarter.",
            "redact_pan",
        ),
        (
            "nice. one thing tho - every sql string goes in queries.py and the table names come "
            "from config like the other files do",
            "queries.py",
        ),
        # one way, never the other, however the other is named
        (
            "ok so for the fix: weight on the rust side is u32 grams, never f64, the db column "
            "is weight_g too. someone converted to kg way too early in that handler",
            "u32 grams",
        ),
    ],
)
def test_a_convention_told_mid_message_is_kept(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("no. don't run the seed script against staging yourself, ever. I do that", "seed script"),
        ("don't squash my commits, ever - I keep them small on purpose", "squash"),
    ],
)
def test_a_dont_said_for_good_is_kept(message, word):
    _assert_kept(message, word)


def test_a_dont_for_the_task_is_only_proposed():
    assert _kept("don't touch the migration yet, I'm still editing it") == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "if we ever move the exports to parquet we'd have to redo this whole reader, but "
            "not today. anyway, lint what you touched — we lint with sqlfluff using the "
            "ansi dialect, not the default one",
            "sqlfluff",
        ),
        (
            "the 'updated' column shows raw epoch seconds which is kinda embarrassing. can you "
            "fix that? fyi every timestamp shown to users goes through formatRelative in "
            "src/time.ts",
            "formatRelative",
        ),
    ],
)
def test_a_statement_after_another_matter_opens_is_not_doubted_by_the_first(message, word):
    _assert_kept(message, word)


@pytest.mark.parametrize(
    "message",
    [
        # the doubt is of the same matter as what is said beside it
        "maybe we lint with sqlfluff using the ansi dialect, not sure yet, I'll ask Priya",
        # a version with nothing it is the version of
        "should we bump postgres to 16 at some point? we're on 15",
    ],
)
def test_a_doubt_of_the_same_matter_or_a_bare_version_is_not_kept(message):
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "nice. anything that touches the payout schedule needs a sign-off from Ramona in "
            "finance before it merges, tag her on the PR",
            "Ramona",
        ),
        (
            "Tariq has to approve anything that changes the public API, the SDK team builds on it",
            "Tariq",
        ),
    ],
)
def test_who_a_kind_of_change_goes_past_is_kept(message, word):
    _assert_kept(message, word)


def test_an_ask_the_next_sentence_makes_the_rule_is_kept_with_it():
    kept = _kept(
        "ok next. the nightly export was late again. put the retry in its own task, "
        "exports_retry, every 15 min, not inside the main job. that's how we do retries from "
        "now on"
    )
    assert any("exports_retry" in k and "from now on" in k for k in kept), kept
    assert not any(k.startswith("That's how") for k in kept), kept
