"""What a session end must not store although it reads like a statement: the person's next
steps, a question typed without its mark, a story and what it led to, a date of the moment,
and what is said in a burst of frustration (only proposed: the person confirms it)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        # the person's next steps, after a time lead-in
        "once the canary is green i'll flip the flag for everyone and write the changelog",
        "after this lands we'll regenerate the client and bump the sdk version",
        "as soon as QA signs off i'm going to tag 3.1 and push it to the registry",
        # a question put off, and a constraint of this one piece of work
        "whether we move the queue to NATS is still open, let's not design around it yet",
        "gRPC or plain REST for the partner API, let's keep that open",
        "for this homework we can't import anything outside the standard library",
        "we're two days from the freeze, so no new flags in this version",
        # what the person means to do, and when
        "I intend to migrate the wiki to Outline over the holidays.",
        "next quarter we want the billing jobs moved onto the new queue",
        "after the freeze i want a canary stage in front of every deploy",
        "I'd like to pilot Renovate for the mobile repos at some point",
        "we'll probably drop the python 3.9 wheels in Q2, pending the support review",
        # a question led in by a conjunction or an interjection, without its mark
        "is there a lib for parsing iso durations? or should we just write the regex ourselves",
        "honestly who thought a modal inside a modal was a good idea for the settings page",
        # a story, and what it led to
        "we moved the queue to redis a couple of years back and had to move it off again",
        "at the last release the migration locked the orders table for twenty minutes",
        "thats why nobody here trusts auto-migrations on deploy",
        "nobody noticed until the invoices went out with the wrong totals",
        # where the person was then, and what the story left behind
        "at my previous company we did every report in Crystal Reports, never again",
        "in my master's I used MATLAB for all of it and never learned numpy properly",
        "when I was at the agency we shipped every site on Drupal 7",
        "last summer we ran the nightly jobs from a cron box under someone's desk",
        "we hosted everything on Heroku until they dropped the free dynos",
        "In October the backup job on nas02 failed silently for a week.",
        "Someone dropped the prod schema in 2018. We never forgot that one.",
        "the v1 was a single Flask file with 4000 lines, that's the history",
        # where a piece of work stands, what a run just showed, a deadline of this work
        "the search service uses the new index in 4 of 7 regions now",
        "the RC build is at about 300 tests now, rest still to do",
        "add the retry wrapper, we need it before Friday's release",
        # a clarification of what was said to the agent
        "the timeout I gave you was in seconds, not ms",
        # what the person is looking at now, and what a capture of it shows
        "I'm seeing duplicate rows whenever the sync job overlaps with the backfill",
        "I've been digging through the auth middleware all morning",
        "I had a look and the timeout comes from the DNS lookup",
        "the flame graph shows most of the time is in json encoding",
        # when something of the moment is due
        "the submission deadline is in 4 days, and the results section is still empty",
        # a piece of work where it stands
        "checkout flow is in review, Priya left three comments on the coupon field",
        "the migration tests are in, 12 cases, all green over 10k runs",
        # an option left for later, a subset or a weekday of this task
        "no idea yet if the cache should be redis or memcached. keep both in the doc, decide later",
        "yep, weekend orders only, that's the slice we care about for this analysis",
        "for the demo this thursday only seed 50 customers, the full set can wait",
    ],
)
def test_plans_questions_stories_and_dates_of_the_moment_are_not_stored(message):
    assert _stored(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "docker volumes eating 300GB on the build box because nobody ever prunes anything. i'm "
        "losing my mind",
        "every migration in this repo rewrites the whole table. who did this",
        "the flaky e2e suite fails on the first run every single time 😩",
        "webpack rebuilds take FOREVER on this laptop, every time I save",
        "terraform state locks are black magic and the team never unlocks them",
        "the linter and the formatter disagree about quotes AGAIN. every. time.",
    ],
)
def test_what_a_burst_of_frustration_states_is_only_proposed(message):
    assert _stored(message) == []
    assert all(f.confidence != gapfill.HIGH for f in gapfill.find([message]))


@pytest.mark.parametrize(
    "message",
    [
        # a burst of frustration at the end
        "the annotators boxed the forklift's shadow on half the frames. I want to scream",
        "cold start is still 30 seconds on the staging box. painful",
        "every sprint the same story: design changes the spec after we estimate",
        # a habit of someone else's, kept at arm's length
        "Tobias prefixes every branch with his initials. that's his thing, I'm not sold on it",
        "our architect keeps saying every service needs its own database. I don't buy it",
        "my manager always books every review for friday afternoon. she says it works. hmm",
        # thought aloud
        "latency spikes line up with the gc pauses... the heap is too small maybe, or it leaks",
    ],
)
def test_what_is_said_in_doubt_is_only_proposed(message):
    assert _stored(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        # rules said with words a plan, a question or a story also use
        ("keep the last 3 releases back on the mirror so people can roll back", "3 releases"),
        ("so when you write tests, use pytest fixtures instead of setUp", "fixtures"),
        ("after a deploy we always run the smoke tests against staging", "smoke tests"),
        ("everyone here uses pnpm, never npm", "pnpm"),
        # a rule that reaches even a throwaway, a file compared, a place in the calendar
        ("I want docstrings on every public function, even in throwaway scripts", "docstrings"),
        ("type hints on everything I write in python please, even throwaway scripts", "hints"),
        ("fixtures live in the same file as the tests that use them, always", "fixtures"),
        ("Board decks are due the first Monday of the last month of each quarter", "board"),
        # where things are deployed for good
        ("The app is deployed to prod automatically on every merge to main.", "every merge"),
        # the person's own rule beside a distance from another way
        ("I disagree with squash merges; we always rebase onto main.", "rebase"),
        ("their style guide is different from ours: we use 4 spaces", "4 spaces"),
    ],
)
def test_rules_that_share_those_words_are_still_stored(message, evidence):
    assert any(evidence in content.lower() for content in _stored(message)), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        # a taste for what was just shown: its object is the thing at hand, not named
        "oh nice, that's so much cleaner, exactly how i like it",
        "That is the kind of code I like to see.",
        "wow ok this works perfect, I like it very much",
        "Good. That reads nicely — very much the style I prefer.",
        # what the person forgets or does not understand
        "does laravel always wrap a resource in a data key? i never remember if it's global",
        "I have never really understood wildcard_constraints, to be honest.",
        # two options named, nothing said of them yet
        "pest vs phpunit for new tests, let's come back to it",
        # what the last message meant: it mends a message of the moment
        "Sorry, that was confusing. I meant envs/prod and envs/staging.",
    ],
)
def test_a_reaction_a_self_report_or_two_options_weighed_are_not_stored(message):
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("I like short answers with the code first", "short answers"),
        ("Aiko Tanaka maintains the VS Code extension", "vs code extension"),
        ("I never use mocks in the service tests", "never uses mocks"),
        ("I mean, in every project: Go tests go next to the code", "go tests go next"),
    ],
)
def test_a_taste_that_names_its_object_is_still_stored(message, kept):
    assert any(kept in content.casefold() for content in _stored(message))


def test_a_way_told_then_pointed_back_to_is_still_heard():
    said = "compare both (give me trade-offs as pros/cons lists, that's how I like it) then pick"
    shown = [f.content for f in gapfill.find([said]) if f.confidence != gapfill.LOW]
    assert any("pros/cons lists" in content for content in shown)


@pytest.mark.parametrize(
    "message",
    [
        # a view told with other words than "says" or "thinks"
        "my lead would rather we squash every PR into one commit",
        "my co-author's rule is to drop every outlier past 3 sigma",
        "my advisor from the physics side is very strict, for him plots never get titles",
        "our security guy is adamant that every endpoint needs mTLS",
        # the person's distance from a view just told, which says nothing of its own
        "Priya wants a changelog entry per commit. i dont really buy it, thats a lot of noise",
        "Omar pushes for tabs everywhere. nobody else agrees and we're not changing it",
        "Lena keeps saying every service needs its own repo. her style; I find that too rigid",
        "someone on reddit swears by nix for everything. I doubt it helps us much, but fine",
    ],
)
def test_a_view_told_or_the_persons_distance_from_it_is_not_stored(message):
    assert _stored(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "The second one, with the retry table. We normally use plain loops, but this "
        "importer has flaky sources.",
        "go with caching the token and refreshing on 401",
        "yes, B. I prefer we keep the validation in the model and just call it from the form.",
        "the second one — I'd prefer we keep the queue in memory and just flush on shutdown",
    ],
)
def test_what_explains_a_pick_among_the_agents_options_is_not_stored(message):
    assert _stored(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "You patched the symptom. The race comes from the scheduler, not the worker — look there.",
        "I don't love the name `HelperUtil`. Try something that says what it does.",
        "hmm if the cache is shared then every test would need to clear it first",
    ],
)
def test_a_verdict_on_the_agents_work_or_a_thought_aloud_is_not_stored(message):
    assert _stored(message) == [], gapfill.find([message])


def test_a_rule_said_for_good_beside_a_pick_is_still_stored():
    message = "yes option A. and in general, we always keep validation in the model layer"
    assert _stored(message) == ["We always keep validation in the model layer"]


@pytest.mark.parametrize(
    "message",
    [
        # the next step, asked as a wish
        "next, I'd like the status LED to flash on every successful upload so I know it's alive",
        # what a graph showed
        "staging dashboard shows p99 going from 80ms to 2.4s over the afternoon, then the pods "
        "get restarted.",
        # where a piece of the work already is
        "the migration's in db/migrations/0042 already (Sam wrote it last week), I need the api "
        "side + the seed data.",
        # one more piece of the change asked
        "the french pages need the same restructure, content/fr mirrors en one to one.",
        # a half memory
        "I remember some of the cron jobs are plain yaml and others get templated in CI.",
    ],
)
def test_a_next_step_a_reading_more_of_the_change_and_a_half_memory_are_not_kept(message):
    assert gapfill.find([message]) == []
