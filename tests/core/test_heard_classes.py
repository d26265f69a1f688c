"""Classes of message a session end misread (stop 57), each said in words of its own here: a
thing's misbehaviour judged in passing, another's view told with the person's distance from
it, a state that holds only until something happens, a story's opening, an answer naming the
agent's own proposal; and what they must not cost: a ruled-out choice kept whole, a "!" inside
a sentence, a team's identity before a colon, a request made for good behind a lead-in."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        # a judgement of a thing, or the time it takes
        "the gradle daemon always eats 6gb on this laptop for no reason at all",
        "xcode previews crash whenever I rename a file, it's exasperating",
        "the vendor portal logs me out every ten minutes, so annoying",
        "every release I lose two hours to the signing certificates",
        "the staging VPN drops every Friday afternoon like clockwork",
        "the cluster autoscaler is down every Sunday. Every Sunday. Nobody knows why.",
        # another's view, told at arm's length
        "Our tech lead has this idea that every service should own its own database.",
        "Priya keeps preaching trunk-based development for every repo; I don't fully agree",
        "someone opened an issue saying we should always vendor our dependencies",
        "The architect, Bruno, holds that we should never expose gRPC outside the mesh.",
        "Tomasz thinks every endpoint needs a feature flag. I merely relay it.",
        # a state until something happens, a job in progress
        "we're on node 18 till the platform team's base image lands",
        "everything runs on the spare box while the new rack is provisioned",
        "I'm in the middle of rotating the TLS certs on the edge nodes",
        "7 of 12 shards done, about 20 minutes each",
        # a story's opening
        "before the kafka migration this job ran on one cron box and took six hours",
        "back with jenkins we just rebuilt everything on every push",
        "on our last client project we used redux for everything and regretted it",
        # what would follow if, an open question, a guess about the past
        "switching the api to graphql would break every mobile client we have shipped",
        "In the event we open a second region, read replicas on 5433 are the obvious route.",
        "I'd start the pool at 20 connections and watch the wait times",
        "whether we expose raw scores to the dashboard, I honestly can't say yet",
        "I saw that in the changelog, but it may have been for the 2.x line",
        "tried with the prod snapshot: the import takes 40 minutes on 8 workers",
        # the day's plan, what began at an hour today, a run's failures, a story told by
        # when it happened or what it took
        "plan for the afternoon: I wire the exporter, then we write the alert rules together",
        "the CDN started serving stale assets around 10am, checking the purge logs now",
        "ran the contract suite, pact says 4 failing interactions on the orders consumer",
        "last project had a custom ORM nobody understood, took me weeks to rip out",
        "we rewrote the importer in October, two sprints, mostly encoding fights",
        # another's view the person cannot judge; a thing that is cursed
        "A guy on the forum maintains one should never use WAL mode on NFS. I don't know "
        "enough to judge.",
        "the vendor SDK is cursed. every time I bump it the build always breaks somewhere else",
        # a command and what it gave; a one-off undone afterwards; a question left open
        "curl -I https://api.example.org -> 301 to the www host, checking the redirect next",
        "For the demo just turn the log level up to debug. I want every request; we'll put it "
        "back afterwards.",
        "sharding can wait, I'd rather keep that question open until we see the Q3 numbers",
        # a reaction to what was shown
        "Ah, parfait — that is exactly the layout I like to see.",
        # what the person assumed or is confused about, beside a question
        "Does the exporter send one metric per label set? I've always assumed per series.",
        "Is the cache shared between workers or per process? I'm confused with the docs.",
        # a one-off for this check; a story dated by its days; a state on hold
        "for this quick check just run 2 epochs, I only want to see if the loss moves",
        "before this my team lead did every release by hand, 2 hours every friday",
        "Back in Django 1.x days we ran everything through signals, never again",
        "At present the EU cluster is the one under review; the US one is on hold.",
        # another's certainty; a proposal that is no decision
        "my manager is sure rust will always beat go for this service. he hasn't tried it",
        "The intention is to retire the old queue in Q2, but this is a proposal, not a decision.",
        # a verdict, a word said again alone; a run's report
        "The CLI writes logs so long I scroll 20 000 lines every time to find one error. Awful.",
        "i always lose the ssh session right when the migration gets interesting. always.",
        "soak run on the api, 12h: memory flat, but p99 jumps to 900 ms every hour",
        "current state: the lease test holds for 3 nodes, fails at 5. branch is on lease-fix",
        "hm, maybe the arena allocator would be faster here... or maybe it does not matter",
        # a pick said with "yes", then what goes with it
        "The 2x2 grid, yes. The margin is 15 pixels on each side.",
        # a verdict on what just ran
        "the alert rule fires fine",
        # an answer naming the agent's own proposal
        "yes, keep the retries at three, as in your first suggestion",
        "the 'only failed jobs' one, the rest can wait",
        # a pick among options by its number in words, a verbless "the X, not our Y"
        "option two. keep `Makefile.old` around with a `# LEGACY` banner until cutover",
        "the vendor id, not our sku.",
        # another's wish passed on, with the person's word that it is not theirs
        "Dana from sales would rather everyone used the shared inbox because 'it's faster'. "
        "I'm reporting that, not agreeing.",
        # a setting tried and what it gave
        "with --jobs 8 it builds in 41s, without it 2m50s. pushed to the review app ok",
        "with the lazy loader: startup works, 90ms warm, heap stays under 60MB",
        # a question put off to another time, an order told "subject to change"
        "About switching the logs to Loki, let's leave that question for another day.",
        "The caching layer, that we talk about at some other point, not now.",
        "The order I have in mind, subject to change: first the worker images, since they share "
        "one base, then the web tier.",
        # another's view told as theirs: "X's take:", a state that lasts "until then"
        "my lead's take: every table gets soft deletes and an audit trigger. heavy-handed imo",
        "The main VPN is down while the ISP swaps the modem; we're on the LTE backup until then.",
        # a question asked in other words, beside the one asked
        "Is the nightly compaction on by default? I want to know if I must trigger it by hand "
        "every time.",
        "Does the proxy always retry idempotent calls? I've never been entirely clear on that.",
        # a reaction to what was shown, with the kind of thing liked
        "nice, tidy diff, that's what I like to see",
        "Ha. Lovely, that's the kind of two-liner I like.",
        # the work of this session, and its occasion
        "Good morning. My intention is to start with the importer, then the reports, then the "
        "exports.",
        "For the purposes of this refactor, please keep every public signature exactly as it is.",
        # a complaint closed with one word, or with a suspicion
        "the installer needs 3 minutes to unpack on this VM. Always. I make tea meanwhile.",
        "every plugin update renames a setting, I'm half convinced they do it on purpose",
        # a fault that comes back, told with exasperation
        "Whenever the runners update, the build cache gets wiped and I get paged. Always on a "
        "Sunday. It's maddening.",
    ],
)
def test_a_misreading_class_is_not_stored(message):
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        # a choice ruled out, kept with what is used instead ("off" was read as a state)
        (
            "Redux is off the table for us, we keep state in zustand stores, one per feature.",
            ["redux", "zustand"],
        ),
        # a "!" between spaces is an operator in prose, not a sentence's end
        ("I never use the ! non-null assertion anywhere in TypeScript.", ["non-null assertion"]),
        # a team's identity before a colon is part of what it says
        ("we're a bazel shop: every target builds hermetically in CI.", ["bazel", "hermetic"]),
        # a request made for every time after this one
        (
            "Going forward, please give me migration files with a down step as well.",
            ["down step"],
        ),
        # a consequence told after the statement is no hypothetical
        (
            "changelog entries go under changes/ named after the PR, so this one would be 412.md",
            ["changes/"],
        ),
        # a value set right beside its default, with no "yes" in front
        ("fyi the cache redis listens on 6390, not the default one", ["6390"]),
        # a state until something happens, with what it rules meanwhile
        (
            "we're pinned to django 4.2 until wagtail ships 5.0 support, so no 5.0 apis please",
            ["django 4.2"],
        ),
    ],
)
def test_what_must_still_be_stored(message, kept):
    stored = _stored(message)
    assert len(stored) == 1, stored
    assert all(word in stored[0].casefold() for word in kept), stored


def test_an_aside_naming_what_the_statement_is_about_stays_with_it():
    stored = _stored("I stick to explicit-width integers (uint8_t and friends) in drivers.")
    assert len(stored) == 1
    assert "explicit-width" in stored[0]
    assert "uint8_t" in stored[0]


def test_a_flag_named_in_a_statement_is_not_the_person():
    stored = _stored("Always run curl -I https://example.org before a redirect change.")
    assert stored
    assert "curl -I https://example.org" in stored[0]
    assert "the user" not in stored[0]


def test_a_thing_said_not_to_be_the_persons_is_their_taste():
    stored = _stored("Singletons aren't my thing — wire references through the inspector.")
    assert stored
    assert "singletons" in stored[0].casefold()


def test_a_habit_kept_for_good_is_heard_and_a_cut_off_reach_is_not_stored_alone():
    message = (
        "I'm a tabs person for Go and I'll keep being one, so don't convert mine to spaces "
        "when you touch a file - anywhere, not just here."
    )
    stored = _stored(message)
    assert all(content.casefold() != "anywhere, not just here" for content in stored)


@pytest.mark.parametrize(
    "message",
    [
        "Our QA lead wants every PR to carry a screenshot. Nothing has been agreed on that.",
        "Kofi would like all logs in JSON everywhere. It's his preference; we haven't decided.",
        "The auditor suggested rotating every key monthly. I'm passing this along, that's all.",
        "Mina says we should always squash merges. I don't have strong feelings either way.",
        "Our CFO wants invoices always in EUR. She may well be right, but it's not my call.",
        "The consultants recommend a read replica for every service. I'm not convinced.",
    ],
)
def test_a_view_disowned_in_its_own_sentence_is_not_stored(message):
    """Stop 59's sets: another's view, then a sentence of the person's disowning it ("nothing
    has been agreed", "I'm passing this along"): the view was stored, and the disowning
    sentence too, as the person's."""
    assert _stored(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Prefer early returns over nested ifs, not just in this function.", "early returns"),
        ("I always want f-strings, not only inside this module.", "f-strings"),
    ],
)
def test_a_rule_said_to_hold_beyond_the_file_at_hand_is_stored(message, word):
    assert any(word in content for content in _stored(message)), _stored(message)


def test_a_rule_for_the_file_at_hand_is_still_not_stored():
    assert _stored("Prefer early returns over nested ifs in this function.") == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what a strict setting does to any one case is no fault of the moment
        ("CI runs eslint with --max-warnings 0 so a single warning breaks the build.", "eslint"),
        # a rule's own condition is no hedge (a plan's still is: see below)
        ("Shell scripts stay POSIX sh, bashisms only if there's no other way.", "POSIX"),
    ],
)
def test_a_strict_setting_or_a_rules_condition_is_stored(message, word):
    assert any(word in content for content in _stored(message)), _stored(message)


def test_a_plan_only_if_something_happens_is_still_a_hedge():
    assert _stored("We'd move the queue to kafka only if the load triples.") == []
