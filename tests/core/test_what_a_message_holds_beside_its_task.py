"""What a message says to keep beside the task it asks for, and what only looks lasting there
(core/sessions: gapfill, gapfill_patterns, clauses, others_views, faults, moments, doubts,
undecided, replies)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what a label or a screen "says" is what it shows, nobody's view; the rule after it
        # is tied by the requirement named
        (
            "the header says EUR but prices in this shop are shown in pounds, that's an "
            "accounting requirement, so fix the header.",
            "pounds",
        ),
        (
            "the legend says seconds but durations on this dashboard are always shown in "
            "minutes, that's a finance team rule.",
            "minutes",
        ),
        # "it's in <place>" is where a thing is, not a change that landed
        ("The staging bucket isn't in us-east-1, it's in eu-west-2.", "eu-west-2"),
        ("the AWS keys aren't in Vault, they're in SSM parameter store.", "SSM"),
        # "now-serving" is a name, not "now"
        (
            "The scoreboard pulls live scores from scores.league.net on port 9443, and the "
            "now-serving number sits at /queue/current.",
            "9443",
        ),
        # looking into why is a task, not an undecided plan
        (
            "ok it's the nil map on line 40. honestly I'd rather never see panics used for "
            "control flow in any Go I write. so strip them out of the parser and then let's see "
            "why the test still hangs",
            "panics",
        ),
        # what is ruled out, said as a correction, is a rule
        (
            "no, Kafka is off the table for us — the ops team runs RabbitMQ and nothing else. "
            "rewrite the consumer for amqp",
            "Kafka",
        ),
        # the rule beside a diagnosis of now is kept once the diagnosis is not
        (
            "ok so the S3 errors are the bucket policy, it's denying PutObject. Lena owns the "
            "payments client and every change to it goes through her before merge.",
            "Lena",
        ),
    ],
)
def test_what_holds_beside_the_task_is_kept(message: str, word: str) -> None:
    assert any(word.lower() in kept.lower() for kept in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # the cause of a fault of now, against nothing
        ("ok so the timeout errors are the retry loop, it's hammering the API.", "retry loop"),
        ("the nightly failures are the cron timezone, it's running at UTC midnight", "cron"),
        ("ok so the S3 errors are the bucket policy, it's denying PutObject.", "PutObject"),
        # a preference for what was just asked, not for every time
        (
            "split the reducer into three files and update the imports. I'd prefer all of that "
            "in one commit.",
            "one commit",
        ),
        # a limit under a one-off opening is the same once
        (
            "For this PR please leave the auth module alone. Tariq is halfway through a rewrite "
            "on his branch and we'll just collide. Only touch the app code.",
            "app code",
        ),
        # what someone noticed when it went wrong is a story
        ("Dr Haas's office noticed when nobody confirmed the slots.", "slots"),
        # what the person is told a source says stays another's view
        ("The Postgres wiki page says you should never use SELECT *.", "SELECT"),
    ],
)
def test_what_only_looks_lasting_is_not_kept(message: str, word: str) -> None:
    assert not any(word.lower() in kept.lower() for kept in _kept(message)), _kept(message)


def test_a_rule_under_a_one_off_opening_still_holds_when_said_for_good() -> None:
    message = (
        "For this release please don't touch the migrations folder. We never hand-edit "
        "migrations in this repo."
    )
    assert any("hand-edit" in kept for kept in _kept(message))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what is done with the ones that failed, one way ruled out against another
        ("Failed rows are always flagged when the checksum differs, never dropped.", "flagged"),
        ("Rejected invoices are kept for 30 days, never deleted.", "30 days"),
    ],
)
def test_what_is_done_with_the_ones_that_failed_is_heard(message: str, word: str) -> None:
    assert any(word in f.content for f in gapfill.find([message]))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # another's view the person sets aside is not what the sentence says
        (
            "routing in this repo is go_router, not auto_route, so dont add auto_route even if "
            "some blog says so. hook up the settings screen",
            "go_router",
        ),
        (
            "i always write sql keywords in lowercase, whatever the linter's default says. ok now "
            "the orders model — join payments on order_id",
            "lowercase",
        ),
        (
            "I know most tutorials put settings in the inspector, but I'd rather keep tuning "
            "values as constants in the script, I don't lose them when a scene breaks.",
            "constants",
        ),
        # a size is a value, said for the record
        (
            "for the record: the kiosk screen is 1024x600, portrait, no touch. can u make the "
            "layout fit that",
            "1024x600",
        ),
        # the next topic named, then who owns it
        (
            "Next the billing side: Ayumi Sato from finance owns the ledger tables and any write "
            "to them needs her sign-off before merge.",
            "Ayumi Sato",
        ),
    ],
)
def test_what_the_person_holds_beside_another_view_or_a_topic_is_kept(
    message: str, word: str
) -> None:
    assert any(word.lower() in kept.lower() for kept in _kept(message)), gapfill.find([message])


def test_what_is_wanted_under_a_one_off_opening_is_the_persons_to_confirm() -> None:
    message = (
        "just for this pass, don't reformat anything. I want the diff to be only the parser "
        "fix so it's easy to review."
    )
    assert not any("parser fix" in kept for kept in _kept(message))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # how long a rule has held is no story
        (
            "no, the min iOS target is 15, not 14 — the maps SDK needs it and we settled that "
            "months ago. update the podfile and then add the offline banner",
            "15",
        ),
        # the way things go, then what not to do instead, ties a general word to a rule
        (
            "add the retry wrapper (every outbound call goes through the http client in lib/net, "
            "never raw fetch) and log the attempts",
            "lib/net",
        ),
    ],
)
def test_a_rule_settled_long_ago_or_told_with_what_not_to_do_is_kept(
    message: str, word: str
) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


def test_what_the_person_never_knew_stays_a_reaction() -> None:
    assert _kept("ha, cool trick, never knew about pg_stat_statements") == []


@pytest.mark.parametrize(
    "message",
    [
        # delight at what was shown, however long its naming
        "oh nice, the retry budget shared across all three workers, that's just how I like "
        "queues to behave",
        # what the person wants under "for this one" is of that once
        "for this one skip the real sms gateway, just print the message. i don't want to sign "
        "up for twilio at midnight.",
        "for this one leave the styling alone. I want the diff to be only the validation logic.",
    ],
)
def test_a_verdict_on_the_work_or_a_want_of_this_once_is_not_kept(message: str) -> None:
    assert _kept(message) == []


def test_a_rule_told_before_a_question_asking_what_follows_is_kept() -> None:
    message = (
        "honestly we never ship source maps to prod here, so could you turn them off in "
        "vite.config.ts?"
    )
    assert any("source maps" in kept for kept in _kept(message))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what holds, then the story of how it came to be
        (
            "no, we don't talk to the inventory service over SOAP — it's REST only, the SOAP "
            "endpoint got retired last spring.",
            "REST only",
        ),
        (
            "we're a pgx shop here, lib/pq is off the table since the connection leak mess in "
            "2021.",
            "lib/pq",
        ),
        (
            "the metrics db is influx 2.7 on metrics-01.lan, port 8087 (not the default 8086, "
            "infra moved it last year).",
            "8087",
        ),
    ],
)
def test_what_holds_before_the_story_of_how_it_came_to_be_is_heard(message: str, word: str) -> None:
    assert any(word in f.content for f in gapfill.find([message])), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "before, I was building everything by hand in the terminal, one release took me an hour.",
        "every store page looks a bit different, and I'm sure the templates were copied by hand "
        "in 2015.",
    ],
)
def test_a_story_with_a_present_word_in_it_stays_a_story(message: str) -> None:
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a log level named in prose is no pasted log line
        (
            "one more tweak: bold the totals row (oh and no emojis in cli output, not here, not "
            "in anything I write — plain markers like [OK ] and [WARN] are what I want)",
            "emojis",
        ),
        # a setting "fixed at" a value is not a fix done
        (
            "quick note: the audio capture is fixed at 48 kHz on our rigs, independent of the "
            "render rate, so don't resample in the recorder.",
            "48 kHz",
        ),
        # what a question leaves stranded ("what colour a printout is in") is no work landed
        (
            "nice — btw i always export charts as SVG with the dark theme switched off, tired of "
            "guessing what colour a printout is in — next add the legend",
            "SVG",
        ),
    ],
)
def test_words_that_only_look_like_a_log_or_a_status_leave_the_rule(
    message: str, word: str
) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        # what can always be done later is not decided
        "first option — one package. moving it into a monorepo is something we can always do "
        "later if it grows",
        # another project's story, a move in a story of last winter
        "ha, on Night Owl we cached every tile on disk and the phones ran out of space within a "
        "week.",
        "last winter we logged temperatures as strings and when the sensor firmware quietly "
        "switched to floats nobody noticed for a month.",
    ],
)
def test_what_is_put_off_or_told_of_another_time_is_not_kept(message: str) -> None:
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what a rule says of whatever looks wrong is no state of now
        (
            "Dmitri Volkov maintains the pricing tables, so anything that looks wrong in the raw "
            "prices goes to him rather than getting patched in our code.",
            "Dmitri Volkov",
        ),
        # what not to do again, from now on
        (
            "sounds good, I'll test it (btw, from now on just show me the changed lines instead "
            "of pasting the whole file again — much easier to review)",
            "changed lines",
        ),
        # the common claim the person corrects is not their view
        (
            "the payment webhook only listens on /hooks/stripe, not /webhooks like every "
            "tutorial says. can you add the signature check",
            "/hooks/stripe",
        ),
    ],
)
def test_a_rule_beside_words_of_a_state_or_another_source_is_kept(message: str, word: str) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


def test_whatever_the_subject_is_no_dismissal() -> None:
    message = (
        "Whatever the chart, I stick to colourblind-safe palettes like viridis, so please don't "
        "fall back to the default colours."
    )
    assert any("viridis" in f.content for f in gapfill.find([message]))


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # "the previous day's dumps" is a period, no story
        (
            "the backup job runs at 03:00 UTC, since the vendor only uploads the previous day's "
            "dumps around 02:00.",
            "03:00",
        ),
        # what "looks off" under an "if" is a condition
        (
            "Keiko Tanaka owns the customs feed on our side, so if the schema in the pdf looks "
            "off to you she's the one to ask, not me.",
            "Keiko Tanaka",
        ),
        # the rule before "anyway that's context" is kept, the ask after it is not
        (
            "Invoices go out through Postmark, port 587, never their REST api. anyway thats "
            "context, what I actually need: figure out why the retry queue grows every night",
            "Postmark",
        ),
    ],
)
def test_the_rule_is_kept_beside_a_condition_a_period_or_the_ask_after_it(
    message: str, word: str
) -> None:
    kept = _kept(message)
    assert any(word in k for k in kept), kept
    assert not any("retry queue" in k for k in kept), kept


def test_what_is_usually_done_by_a_time_is_a_habit_heard() -> None:
    message = (
        "the export job starts nightly at 01:00 on batch-02 through cron and is usually done by "
        "3, so keep that window in mind for anything heavy."
    )
    assert any("01:00" in f.content for f in gapfill.find([message]))


@pytest.mark.parametrize(
    "message",
    [
        "Now the cron: use schedule_from_partitions and set the timezone explicitly please.",
        "also add TimeoutError... no wait, add our UpstreamGoneError to the retry list, not "
        "TimeoutError",
        "back in 2021 we ran all of it from a crontab on ops-01, and it fell over every DST "
        "change, which is half the reason we moved to airflow in the first place",
    ],
)
def test_an_ask_mended_or_a_story_of_a_move_is_not_kept(message: str) -> None:
    assert _kept(message) == []


def test_a_saying_about_the_moment_is_not_heard() -> None:
    message = "lol, so much shorter than before. always a good day when we get to delete a module"
    assert gapfill.find([message]) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # what holds, then what it explains now
        (
            "Staging Redis for the scheduler sits behind a proxy on 6380, not 6379 — that's why "
            "the worker can't connect. fix REDIS_URL in the env template pls",
            "6380",
        ),
        # a machine held on a version is a pin, not stuck
        (
            "The till is an old Mac mini stuck on macOS 12 and it's not getting upgraded, so "
            "nothing that needs Swift 5.9. bump the deployment target to match please",
            "macOS 12",
        ),
    ],
)
def test_a_fact_beside_its_consequence_or_a_pinned_machine_is_kept(message: str, word: str) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "ok friday I'll hook up the invoices and then maybe look at refunds. commit what we have "
        "with a clear message pls",
        "put the screen in src/desk/app.py and keep render() small",
        "the kiosk keeps getting stuck on the splash screen",
    ],
)
def test_an_ask_on_the_work_at_hand_is_not_kept(message: str) -> None:
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # the reason after a rule is no state of now
        (
            "Alembic migrations in this repo get written by hand, we don't commit the "
            "autogenerate output because it keeps dropping the partial index on orders.",
            "by hand",
        ),
        # a box held on a version is pinned
        (
            "the scanner runs on the warehouse's old thin client and that box is stuck on python "
            "3.8, so keep the syntax compatible with that.",
            "python 3.8",
        ),
        # "a window of 7 days is 1008 steps" is no progress count
        (
            "For the record: sensor data arrives in 10-minute buckets per site, not hourly, so a "
            "window of 7 days is 1008 steps.",
            "10-minute",
        ),
    ],
)
def test_a_rule_beside_its_reason_a_pin_or_a_count_is_kept(message: str, word: str) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        # one more item of the change asked for, cut at its "and"
        "make the overdue badge orange and keep paid green. file is src/Badge.tsx",
        # a plan told without its "I'm"
        "next I'm probably going to add streaks. gonna run it by the club at thursday's meeting "
        "before we build any of it though",
    ],
)
def test_an_item_of_a_change_or_a_plan_is_not_kept(message: str) -> None:
    assert _kept(message) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # "the claims schema" names insurance claims, no one's claim
        (
            "the staging oracle for the claims schema listens on 15210, not the default 1521. can "
            "you fix the datasource config",
            "15210",
        ),
        # what it probably explains is the hedge, not the fact
        (
            "Staging's session Redis listens on 6390, not 6379, which is probably also why the "
            "login tests can't connect. Can you fix the test profile?",
            "6390",
        ),
    ],
)
def test_a_fact_beside_a_noun_claim_or_a_hedged_consequence_is_kept(
    message: str, word: str
) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    "message",
    [
        "The totals diff looks like a timezone thing to me, not a bug.",
        "ok so where we are: the cleaned export is in data/clean/orders_2024.parquet, ~90k rows. "
        "load it and show me the nulls",
        "heads up, the lab printer is pointed at the backup queue until Sam's done with the "
        "firmware update",
    ],
)
def test_a_verdict_a_status_or_a_stopgap_is_not_kept(message: str) -> None:
    assert _kept(message) == []


def test_what_the_person_never_wants_to_see_again_is_kept() -> None:
    message = (
        "then plot the weekly totals — oh and I'd rather not see pie charts ever again, bar charts "
        "for anything you make for me"
    )
    assert any("pie charts" in kept for kept in _kept(message))


def test_a_step_of_the_script_at_hand_is_not_kept_beside_the_rule() -> None:
    kept = _kept(
        "i read your playbook. one thing, step 2 uses apt upgrade. we patch hosts with "
        "unattended-upgrades here, never a manual apt upgrade, because it restarts the db "
        "mid-shift."
    )
    assert any("unattended-upgrades" in k for k in kept), kept
    assert not any("step 2" in k.lower() for k in kept), kept


@pytest.mark.parametrize(
    "message",
    [
        "a friend who does payroll stuff says gusto is always nicer than adp for this. I've never "
        "touched it so can't say",
        "right, to try it live I need the staging bundle. can you build it",
        "if the board ever moves us to their azure tenant we'd have to redo the queues. not "
        "happening this year though, just flagging why I don't want to over-engineer it",
    ],
)
def test_what_the_person_cannot_say_needs_now_or_only_flags_is_not_kept(message: str) -> None:
    assert _kept(message) == []


def test_the_rule_in_an_aside_is_kept_without_the_task_around_it() -> None:
    kept = _kept(
        "write the parser for the lot export (and please, type hints on everything — i'd rather "
        "not read untyped python ever again)"
    )
    assert kept == [
        "Type hints on everything — the user would rather not read untyped python ever again"
    ]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # the verb after a name's role in parentheses is the name's
        (
            "Before I forget, Tomasz Wrona (payments lead) has to approve every change to the "
            "refund flow, so keep the diff small.",
            "Tomasz Wrona",
        ),
        (
            "Priya Raman (our DBA) owns every migration on the billing db, so loop her in on "
            "schema changes.",
            "Priya Raman",
        ),
    ],
)
def test_a_person_named_with_their_role_in_parentheses_is_heard(message: str, word: str) -> None:
    assert any(word in kept for kept in _kept(message)), gapfill.find([message])


def test_a_leads_rule_of_thumb_is_their_view() -> None:
    message = (
        "Ingrid (our lead) has this rule of thumb that every module output gets a register, I'm "
        "not sold on it."
    )
    assert _kept(message) == []
