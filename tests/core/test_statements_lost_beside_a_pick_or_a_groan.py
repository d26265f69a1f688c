"""Lasting statements lost (core/sessions), seen in batch 27 and in earlier read sessions:
a pick of a value read as the agent's option number ("go with 480 …") or as a status code
that came back; a pick told against someone else's view ("… but let's just go with ron …");
a pick whose reason is an agreement or what the person needs to be able to do; a rule whose
object is what the sentence before named ("never regenerate it"); a sentence that carries the
one before to all the person's code ("goes for any code you write for me"); the ban before a
dash ("no anyerror - explicit error sets"); what is said of "anything" past a dashed list of
examples; a need told by what breaks without it; a guess at the agent's work told after a
fact; "truly" and "ugh" read as sarcasm or a vent where they are neither; what safety steps
"say" read as someone's view; what does not work told beside the way that must be taken;
"…, so heads up: …" announcing another matter; a rule joined to the ask by "and". And the
other way: a request after its opener ("alright, let's get this on staging …"), what is done
"in this run", a subject left out and an example of what was just said are not stored."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memdesk.core.sessions.third_person import person
from tests.core import one_message


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "ok go with 480 for no-route then, the upstream carriers retry on 503 and we got "
            "hammered last time a table reload went sideways",
            "480 for no-route",
        ),
        (
            "ok agreed. Marco on discord swears bincode is the only sane choice for saves, "
            "smaller and faster etc. but let's just go with ron for the save format, I want to be "
            "able to open a save in a text editor when something's busted",
            "ron for the save format",
        ),
        (
            "24h is fine. let's do 45 days for the listing expiry, that's what we agreed with "
            "Lena last week",
            "45 days",
        ),
        (
            "go with 72 hours for an offer to lapse, that's what the board voted on in march",
            "72 hours",
        ),
        (
            "fix the 5 in your code properly. the phpstan baseline only ever shrinks. never "
            "regenerate it to get green, either fix those two for real or revert the change",
            "baseline only ever shrinks",
        ),
        (
            "hmm can you not write it like that. honestly I can't read point-free chains longer "
            "than 3 or so, just name the intermediate values. goes for any code you write for me "
            "really",
            "point-free",
        ),
        (
            "ok. in report() you've got `anyerror!void`. please, no anyerror - explicit error "
            "sets, that's how I want it in any zig I write, not just this repo",
            "no anyerror",
        ),
        (
            "nice. run the tests. integration tests in tests/ need --features headless or they "
            "try to open a window and hang on CI",
            "--features headless",
        ),
        (
            "wait what return type. payouts to sellers go through Mangopay, the stripe stuff in "
            "there is only for buyer card payments, and i bet you typed it as a stripe object",
            "mangopay",
        ),
        (
            "ok good. fwiw I really don't like bare unwrap() outside of tests, if something "
            "truly can't fail put an expect on it with an actual message",
            "unwrap()",
        ),
        (
            "ugh that's stale. the thresholds aren't in appsettings anymore, they live in the "
            "triage_rules table in postgres and ops tweaks them live without a deploy",
            "triage_rules",
        ),
        (
            "no no don't touch anything in there. the stuff in testdata/images is real dumps off "
            "the boards, if you need a weird header build it in the test with makeHeader()",
            "testdata/images",
        ),
        (
            "ok makes sense. we're staying on the doctrine transport for messenger, ops doesn't "
            "want to run rabbit or redis just for queues",
            "doctrine transport",
        ),
        # what the safety steps "say" is no one's view
        (
            "hold the LOTO one. anything that changes what the safety steps say has to go past "
            "Dariusz first, he's the client's H&S lead and it's his name on the procedure",
            "dariusz",
        ),
        # what does not work, told beside the way that must be taken
        (
            "ah right, bare pytest won't work here btw, tests have to go through make test "
            "since it sets LITESTREAM_DISABLED=1",
            "make test",
        ),
        # the tail that tells how things are now belongs to the last aside alone
        (
            "oh right sorry — my local supabase api runs on 55421 btw, another client's stack is "
            "sitting on the default ports.",
            "55421",
        ),
        # a guess at what someone did, in the last aside, is that aside's alone
        (
            "run init + plan. oh and the state's in the hpc-tfstate bucket on our ceph rgw, not "
            "AWS, so the s3 backend needs skip_credentials_validation — looks like someone "
            "commented those out in backend.tf last month",
            "hpc-tfstate",
        ),
        # a rule joined to the ask by "and"
        (
            "ok yes go with that. put it in R/suppress_small.R and every table that leaves the "
            "building goes through suppress_small(), no exceptions.",
            "every table that leaves the building",
        ),
        # (one that points at the ask is kept with it)
        (
            "ok do the feature flag, call it s3-integration, and every test that needs a live "
            "bucket goes behind it from now on",
            "s3-integration",
        ),
        # announced after a comma with a colon
        (
            "now OfferPayload goes over the websocket, so heads up: anything that changes the ws "
            "payloads needs a heads up in #rider-app before merge",
            "#rider-app",
        ),
    ],
)
def test_the_statement_is_stored_whole(message: str, evidence: str) -> None:
    stored = one_message.stored(message)
    assert any(evidence.casefold() in s.casefold() for s in stored), stored


def test_what_is_said_of_anything_past_its_examples_is_heard_with_them() -> None:
    heard = one_message.heard(
        "for anything that isn't the image being bad - file missing, permission denied, "
        "whatever - make it exit code 3. flash.sh retries on 3"
    )
    assert any("file missing" in h and "exit code 3" in h for h in heard), heard


@pytest.mark.parametrize(
    ("said", "of_the_user"),
    [
        ("I really don't like bare unwrap()", "the user really doesn't like bare unwrap()"),
        ("I just don't use mocks", "the user just doesn't use mocks"),
        ("I don't like it and I'm tired", "the user doesn't like it and they are tired"),
    ],
)
def test_the_user_s_adverb_stays_before_the_helping_verb(said: str, of_the_user: str) -> None:
    assert person(said) == of_the_user


@pytest.mark.parametrize(
    "message",
    [
        "alright, let's get this on staging so Lena can try reservations.",
        "just filter out grade PK in this run, I'll ask Renee whether that should be permanent",
        "needs to be idempotent, it'll run from cron every few minutes",
        "like someone dials a prefix we don't have",
        # a number alone is still the agent's option
        "yes go with 2, the other one is slower",
        # and a groan before what is thought aloud stays a groan
        "who maintains the mapping when a team renames itself... ugh. not sure it's worth it, "
        "just dumping thoughts",
    ],
)
def test_what_only_goes_on_with_the_work_is_not_stored(message: str) -> None:
    assert one_message.stored(message) == []


def test_a_list_of_examples_built_to_backtrack_is_read_in_bounded_time() -> None:
    # (a subprocess, so that a hang fails the test instead of the suite: the list's first
    # reading took 2^n steps for n items before an empty one)
    crafted = "anything that touches x - " + ", ".join(["ab"] * 40) + ",, c - y has to sign off"
    done = subprocess.run(
        [sys.executable, "-c", _READ, crafted], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


_READ = "import sys; from memdesk.core.sessions import gapfill; gapfill.find([sys.argv[1]])"
