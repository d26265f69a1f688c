"""Lasting statements lost (core/sessions), seen in batches 28 and 29 and in earlier read
sessions:
- a rule for "anyone" of a kind read as a question ("anyone under 16 can only …");
- what the person does or wants, lost to an adverb before its verb ("I really don't want");
- a way taken out for another ("we ripped it out in favour of valibot");
- a value set right without a comma before its "not", or after "wrong place —";
- what the person's machine rules out, read as a fault that shows on it ("… opens this thing
  on her Mac so nothing ActiveX");
- how the person does a kind of thing ("I name vars with type prefixes");
- what the team keeps doing under a condition, read as what goes on now, and behind "we
  talked this through as a team last week:";
- what to do "if you ever" do a kind of thing, read as a guess and cut at a parenthesis;
- a pick told with what it spares everyone ("… so nobody has to keep offsets in sync");
- an ask the person calls "just how I work" or "the rule in here", or follows with "always"
  as a word of its own ("label the axes with units, always, every plot"), or leads in with "in
  general" ("(and btw, in general just send me diffs …)");
- a step done in "a throwaway" directory, read as work thrown away;
- what holds "now" against what is retired ("the wandb project is docclf-v2 now, docclf is the
  archived one"), read as the state of the moment;
- a way told before what would change "if we ever" did something else, read as undecided;
- a "don't" told with how the project stands ("don't regenerate schema.rb, we switched to
  structure.sql", "…, that's Priya's folder");
- a ban or a style for "anything you write for me" or "anything you commit", read as this
  task's ("no unwrap() in anything you write for me unless …");
- a fact followed by what it rules out ("I use fish shell, so don't give me bash-only
  syntax", "the workers run Python 3.11, so no 3.12 syntax"), read as a value of the moment;
- an instruction that names a function ("`.then()`") said of everything from now on, read as
  a change to that one place;
- a word the person bans, in quotes ("never use 'simply' or 'just'"), the name of a thing in
  quotes ("realm 'admin'", "the 'bigmem' partition") and quoted examples ("'colour',
  'initialise'"), read as scare quotes;
- who owns what and what must go past them, told after "next:", read as the next task;
- an ask nothing else heard, made a rule by the sentence after it ("please just show me diffs,
  don't paste whole files back at me. that goes for everything btw");
- who signs off or approves every change of a kind ("Kenji … signs off any schema change
  there", "Lucía is the one who signs off experiments").
And the other way: a question that opens with "anyone" stays a question; what someone
replaced once, what the person wants in place of what is there now ("I want X as an env
var instead of the constant"), what keeps going wrong, what it took ", every time", "if you
ever get bored", what others want built ("dispatchers want the board to update live") and
the work the team has to do now ("we need to rebuild upstream jq 1.7.1 with a patch") are no
rules; what the team has to keep supporting still is, a "don't" told with what is so
only this week is for this week, and so is what is ruled out "until that's merged"; a
warning pasted as verilator prints it ("%Warning-WIDTH: rtl/quad_dec.v:42:18: …") is no one's
statement."""

from __future__ import annotations

import pytest

from tests.core import one_message


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "no no, take that out, youth refs are the whole point of this league. anyone under "
            "16 can only take U12 and below, thats the county rule",
            "u12 and below",
        ),
        (
            "I really don't want On Error Resume Next sprinkled around, if you need it wrap "
            "exactly one line and put On Error GoTo 0 right after",
            "on error resume next",
        ),
        (
            "no zod, we ripped it out in favour of valibot because of bundle size. check the "
            "other actions under src/routes/admin/ for the pattern",
            "valibot",
        ),
        (
            "not ActiveX. Linda in AP opens this thing on her Mac so nothing ActiveX and no "
            "Declare statements for Windows APIs. a shape with a macro assigned is fine",
            "nothing activex",
        ),
        (
            "looked at GetBurdenPct. btw I name vars with type prefixes, lngRow, strCode, wsSrc, "
            "rngData — keep that style. you've got i and r and tbl in there",
            "type prefixes",
        ),
        (
            "we talked this through as a team last week: when the city's server is down we keep "
            "serving the stale entry for up to 90 seconds past expiry, after that it's a 503 "
            "with Retry-After",
            "90 seconds past expiry",
        ),
        (
            "pull that into a var pls. and fyi, if you ever change anything about how we hit that "
            "server (endpoints, auth, the url) give #apt-ops a heads up before it merges, that box "
            "is Marta's and she gets grumpy when things change under her",
            "give #apt-ops a heads up",
        ),
        (
            "ok let's go with JRecord, feed it the copybook straight from cobol/copy so nobody has "
            "to keep offsets in sync by hand",
            "jrecord",
        ),
        (
            "sounds right. for bugs i want a failing test that reproduces it first, then the fix, "
            "thats just how i work. so test first pls",
            "failing test that reproduces it first",
        ),
        (
            "please route them all through the AppError type in src/transit_gate/error.gleam, "
            "that's the rule in here, nothing returns bare strings as errors",
            "apperror type",
        ),
        (
            "better. plot roll vs setpoint and the rate loop error together. and label the axes "
            "with units, always, every plot, I can't stand having to guess if it's rad or deg",
            "label the axes with units",
        ),
        (
            "oof ok. in general just give me the diff, not the whole file pasted back, I'm usually "
            "reviewing on a tiny laptop at the station. anyway the query part looks fine",
            "give the user the diff",
        ),
        (
            "oh and fyi the wandb project is docclf-v2 now, docclf is the archived one -- i "
            "noticed conf/logger/wandb.yaml still points at the old name so fix that while you're "
            "there",
            "docclf-v2",
        ),
        (
            "jekyll-scholar won't work for us, pages only runs its whitelisted plugins and we're "
            "on the plain github-pages gem build. that's literally why the script exists, forgot "
            "for a sec myself. if we ever switch the build over to actions we could revisit it I "
            "guess",
            "jekyll-scholar",
        ),
        (
            "and I want custom errors instead of require strings in everything I write",
            "custom errors instead of require strings",
        ),
        (
            "we need to support iOS 15, half our users are on old iPads",
            "support ios 15",
        ),
        (
            "don't regenerate schema.rb, we switched to structure.sql because of the postgres "
            "enums and the trigger on appointments",
            "regenerate schema.rb",
        ),
        (
            "don't touch anything under assets/sprites, that's Priya's folder and her aseprite "
            "export script writes those exact filenames",
            "assets/sprites",
        ),
        (
            "pls no printk in anything you commit, LOG_INF/LOG_DBG with a module registered",
            "no printk",
        ),
        (
            "No unwrap() in anything you write for me unless there's a comment saying why it "
            "can't fail. Rewrite the GPS parser.",
            "no unwrap()",
        ),
        (
            "yes go ahead with the upsert, ON CONFLICT (meter_id, ts) DO UPDATE — oh and put type "
            "hints on every function signature, helpers included, that's just how I write python "
            "everywhere",
            "type hints on every function signature",
        ),
        (
            "btw I use fish shell, so don't give me bash-only syntax for env vars.",
            "bash-only syntax",
        ),
        (
            "Fix the failing great_expectations check on customers and re-run the DAG. The "
            "workers run Python 3.11, so no 3.12 syntax.",
            "no 3.12 syntax",
        ),
        (
            "Please use async/await from now on instead of `.then()` chains in anything you write "
            "for me, I find it so much easier to follow. Can you redo the seed script that way?",
            "async/await",
        ),
        (
            "also please never use 'simply' or 'just' in anything you write for me, it's "
            "condescending to readers",
            "'simply'",
        ),
        (
            "just so you know: the API key lives in Doppler, project 'studio-api', config 'prd', "
            "we never put it in .env files. load it from there",
            "doppler",
        ),
        (
            "context for you: our cluster is slurm, anything over 64G goes to the 'bigmem' "
            "partition, and jobs get charged to the account genomics-lab.",
            "'bigmem' partition",
        ),
        (
            "next: Priya owns the test suites for the labs, anything under tests/hidden/ has to "
            "go through her before it merges, so put the new lab 6 cases on a separate branch and "
            "I'll ping her.",
            "priya owns the test suites",
        ),
        (
            "please just show me diffs, don't paste whole files back at me, I can't see what "
            "changed that way. that goes for everything btw not just this",
            "show the user diffs",
        ),
        (
            "Kenji Watanabe is tech lead for the map tiles service and signs off any schema change "
            "there. could you draft the PR description for the zoom-level column so I can send it",
            "signs off any schema change",
        ),
        (
            "I like the refactor a lot. I personally can't stand single-letter variable names "
            "outside of loop counters, so rename `d` and `r` before we merge.",
            "single-letter variable names",
        ),
    ],
)
def test_a_statement_is_stored(message: str, evidence: str) -> None:
    assert any(evidence in memory.casefold() for memory in one_message.stored(message))


def test_a_step_done_in_a_throwaway_place_is_at_least_proposed() -> None:
    heard = one_message.heard(
        "it's not supposed to live on the hosts at all. the key is in vault under "
        "secret/apt/signing, sign.sh should pull it into a throwaway GNUPGHOME, sign, then nuke "
        "the dir."
    )
    assert any("secret/apt/signing" in memory for memory in heard)


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        ("it's 1047 not 037", "1047 not 037"),
        (
            "wrong place — it's /api/stripe/webhook not /api/webhooks/stripe, that's what's "
            "registered in the dashboard",
            "/api/stripe/webhook",
        ),
    ],
)
def test_a_value_set_right_is_at_least_proposed(message: str, evidence: str) -> None:
    assert any(evidence in memory.casefold() for memory in one_message.heard(message))


def test_a_pasted_compiler_warning_is_not_stored() -> None:
    stored = one_message.stored(
        "%Warning-WIDTH: rtl/quad_dec.v:42:18: Operator ASSIGN expects 8 bits on the Assign "
        "RHS, but Assign RHS's SUB generates 9 bits.\n\nthat one's real, fix it properly."
    )
    assert not any("assign" in memory.casefold() for memory in stored)


@pytest.mark.parametrize(
    "message",
    [
        "anyone know why the build is red on main",
        "anyone in the team should know this by now?",
        "we replaced the fan with a bigger one last week",
        "it's really not a big deal, just ship it",
        "we keep getting 502s from the gateway",
        "never mind the router on this branch — Kai has a big PR open against router.ex, so "
        "don't touch it until that's merged",
        "don't touch the preset format for now, we have a beta with ~300 testers and I can't "
        "break their saved presets this week",
        "ok the thing that actually started this whole session lol. we need to rebuild upstream "
        "jq 1.7.1 with a patch for our internal logging thing and put it in the repo.",
        "I want RATE_LIMIT_PER_MIN as an env var instead of the constant so we can tune it "
        "without a deploy",
        "I keep getting errors from the linter",
        "the app opens on her Mac then closes right away",
        "if you ever get bored, the flaky test in auth could use a look",
        "back when I did these charts on paper I used to recompute every tension by hand for each "
        "new harp. took a whole evening, every time",
        "ok the big one for today. dispatchers want the board to update live instead of the meta "
        "refresh every 15s. what are my options with kemal",
    ],
)
def test_a_question_stores_nothing(message: str) -> None:
    assert one_message.stored(message) == []
