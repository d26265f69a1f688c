"""Words that look like doubt, a fault or a passing ask but are not, and message openings that
make the rest of the message of the moment (core/sessions: heard, tone, faults, markers,
replies, gapfill)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # a date's format is not a word drawn out in sarcasm ("sooooo")
        ("Backup folders are always named YYYYMMDD-host, never anything else.", "YYYYMMDD"),
        ("Invoice dates in our exports are always dd.mm.yyyy, the auditors insist.", "dd.mm.yyyy"),
        # an abbreviation in capitals is not a shouted word
        (
            "we always keep game settings in an SO asset, any project. so add a ScoreConfig SO "
            "with the three thresholds",
            "SO asset",
        ),
        # a quoted name of the field to add is no scare quote
        (
            "before you add the 'allergen' column: Priya Raman owns the menu schema and every "
            "change to it needs her review first.",
            "Priya Raman",
        ),
        # the person's own next step is decided, and doubts nothing said beside it
        (
            "Tomasz Wrona owns the billing exporter, any change under billing/ needs his review. "
            "I'll open the PR and tag him myself.",
            "Tomasz Wrona",
        ),
        # a lead-in after opening praise is said on purpose
        (
            "great, I'll look at the chart tonight. One thing about style: I always go for "
            "f-strings over .format() in anything I maintain.",
            "f-strings",
        ),
        # a reason the person gives is no ask of theirs
        (
            "I generally go for type hints on public functions, because I want to see what goes in "
            "without opening the body.",
            "type hints",
        ),
        # who signs off is not a value off by some amount
        (
            "Every schema change gets signed off by the data steward, and for the EU region "
            "that's Ines Duarte, nobody else approves there.",
            "Ines Duarte",
        ),
        # who refuses is how things are kept, not a fault
        (
            "we're pinned to Node 18 on this repo, the hosting team won't upgrade the runners, "
            "so nothing that needs Node 20 APIs pls.",
            "Node 18",
        ),
        # "context:" leads in what holds as much as "for context:" does
        (
            "context: the warehouse closes at 18:00 and the scanners get reset every night at "
            "03:00 by the vendor's job, so keep nothing in scanner memory.",
            "03:00",
        ),
        # "eta reduction" is a term, not an estimate of when work is done
        (
            "I can't stand point-free style, even when the linter asks for eta reduction.",
            "point-free",
        ),
    ],
)
def test_a_word_that_only_looks_like_doubt_does_not_hide_a_rule(message, word):
    assert any(word in k for k in _kept(message)), gapfill.find([message])


def test_the_task_after_a_rule_that_says_what_is_used_is_not_joined_to_it():
    message = (
        "we don't use cron on these boxes, every scheduled job runs as a systemd timer. it "
        "should rotate the logs and skip hosts that are still unpatched"
    )
    kept = _kept(message)
    assert any("systemd timer" in k for k in kept), gapfill.find([message])
    assert not any("unpatched" in k for k in kept), kept


@pytest.mark.parametrize(
    "message",
    [
        # a pick among the agent's options, in a lowercase letter: what follows explains it
        "c — keep them in memory. no temp files, ever",
        "b) in the queue. no blocking retries on the request thread, ever",
        # a one-off opens the message: what follows is why, of this once
        "just this once, skip the lint step. Ravi has a huge rebase open on the parser and I "
        "don't want conflicts",
        "for this PR leave the fixtures alone. Wen has a big regeneration open on her branch and "
        "I don't want conflicts",
    ],
)
def test_what_follows_a_pick_or_a_one_off_is_not_stored(message):
    assert _kept(message) == [], gapfill.find([message])


def test_a_rule_said_for_good_after_a_one_off_is_still_stored():
    message = "for this PR skip the e2e suite. we always run it nightly on main anyway."
    assert any("nightly" in k for k in _kept(message)), gapfill.find([message])


def test_an_example_named_after_a_dash_stays_with_what_it_is_an_example_of():
    message = (
        "(note: every commit here carries a trailer of the form -- Refs: OPS-nnnn at the very "
        "end, the release script greps for it) and squash the fixups"
    )
    assert any("trailer of the form" in k and "OPS-nnnn" in k for k in _kept(message)), (
        gapfill.find([message])
    )


@pytest.mark.parametrize(
    "message",
    [
        # a question that goes on with its other choice is still a question
        "wait does terraform always refresh the state when i change a tag? or only when i pass "
        "-refresh-only",
        # a cheer drawn out, then the verdict on what was shown
        "niiice, that's exactly how I like a migration, small and boring",
    ],
)
def test_a_question_with_its_other_choice_or_a_drawn_out_cheer_is_not_stored(message):
    assert _kept(message) == [], gapfill.find([message])


def test_a_rust_question_mark_before_or_is_no_question():
    message = "I'd rather not see .unwrap() in any code of mine, use ? or expect with a message."
    assert any("unwrap" in k for k in _kept(message)), gapfill.find([message])


def test_an_answer_named_like_a_fault_and_an_abbreviation_do_not_hide_a_rule():
    message = (
        "Status codes in this register are 7 for approved and 9 for rejected, every form incl. "
        "the paper ones. so recode them in the loader. file is in etl/forms/"
    )
    kept = _kept(message)
    assert any("9 for rejected" in k and "paper ones" in k for k in kept), gapfill.find([message])
    assert not any("etl/forms" in k for k in kept), kept


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # "the one who needs …" is plain, not a rhetorical "who needs …"
        (
            "Ilse is the lab's safety officer, so she's the one who needs the export of the "
            "incident log — give her role read access, not only admins.",
            "safety officer",
        ),
        # a rule led in "from now on" inside an aside, with its examples between dashes
        (
            "fine, merge it (and from now on please name branches by type — feat/, fix/, "
            "chore/ — it's how I keep them apart in all my repos)",
            "branches by type",
        ),
    ],
)
def test_a_role_or_a_rule_beside_a_relative_clause_or_a_dashed_list_is_heard(message, word):
    assert any(word in k for k in _kept(message)), gapfill.find([message])


def test_a_guard_against_an_accident_is_no_story():
    message = "Our deploy script asks twice before prod so nobody ships a hotfix by accident."
    assert any("asks twice" in k for k in _kept(message)), gapfill.find([message])


def test_a_choice_settled_on_in_the_past_holds_after_a_story():
    message = (
        "no, not requests. We argued about it on the list years ago — the project settled on "
        "httpx because requests never got an async client. Fix the import and leave the rest "
        "alone."
    )
    assert any("settled on httpx" in k for k in _kept(message)), gapfill.find([message])


def test_what_a_change_request_adds_with_also_is_one_more_item_of_it():
    message = (
        "make the status pill green instead of grey and move it under the title. also the "
        "timestamp should read like 'Tue 9 Apr' not the raw iso string"
    )
    assert _kept(message) == [], gapfill.find([message])


def test_a_role_stays_when_what_follows_from_it_is_asked_for_this_pr():
    message = (
        "for the record: Tobiah Lund is the site reliability lead and he signs off on every "
        "alert rule before it ships, so tag him as reviewer on this PR. then merge"
    )
    assert any("Tobiah Lund" in k and "PR" not in k for k in _kept(message)), gapfill.find(
        [message]
    )


def test_a_rule_told_to_last_is_not_doubted_by_how_long_ago_it_was_settled():
    message = (
        "Lessons at this school are 50 minutes, the governors fixed that years ago and it's not "
        "changing. the timetable helper still assumes 45, can you fix it?"
    )
    assert any("50 minutes" in k for k in _kept(message)), gapfill.find([message])


def test_a_range_of_days_is_not_cut_at_its_dash():
    message = "fyi the depot is open mon–fri 07:00–15:00 and every pickup slot is 20 minutes."
    assert any("mon–fri" in k for k in _kept(message)), gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # "totally fine" is sincere
        (
            "quick note: I'd rather not see mocks in any test I own, a real sqlite file is "
            "totally fine for me. so write the repo test against tmp_path",
            "mocks",
        ),
        # "anyone who …" states who a rule is for, not a question
        (
            "Anyone who misses two rehearsals in a row loses their seat, that is the "
            "conductor's rule.",
            "two rehearsals",
        ),
        # blocked at the firewall is how the network is kept, not a status
        (
            "for the record: the lab only lets outbound traffic out through the proxy at "
            "proxy.lab.local:3128, everything else is blocked at the firewall.",
            "proxy.lab.local",
        ),
        # what happens whenever someone slips is no story of once
        (
            "The door reader logs an entry whenever someone brushes it by accident, so anything "
            "under 10 seconds is noise and gets dropped from every report we make.",
            "10 seconds",
        ),
    ],
)
def test_sincere_or_general_words_do_not_hide_a_rule(message, word):
    assert any(word in k for k in _kept(message)), gapfill.find([message])


def test_a_cheer_then_exactly_what_i_prefer_is_a_reaction():
    message = "nice, exactly the layout i prefer to see, tidy and short 👌"
    assert _kept(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("I genuinely can't read them", "the user genuinely can't read them"),
        ("I apply patches by hand", "the user applies patches by hand"),
        ("I usually reply in threads", "the user usually replies in threads"),
    ],
)
def test_an_adverb_or_a_verb_in_ly_is_told_of_the_user_rightly(said, told):
    from memdesk.core.sessions.third_person import person

    assert person(said) == told


def test_a_story_told_after_a_lead_in_colon_is_still_a_story():
    message = (
        "some background on why we're doing this: last spring we sold tickets through a "
        "reseller and lost 7% to fees. the members always gave out about it and in the end "
        "Maeve (secretary back then) pushed for our own app."
    )
    assert _kept(message) == [], gapfill.find([message])


@pytest.mark.parametrize(
    ("message", "word"),
    [
        # who checks a practice and holds to it is no view reported
        (
            "For the record: we keep the signed PDFs next to the parsed rows for every invoice "
            "we import — the tax office insists on it, no exceptions.",
            "signed PDFs",
        ),
        # what is kept as it is, and what is needed on a weekday ahead, are no story
        (
            "Ana at reception signs off on any change to the booking screens, whatever we do "
            "goes past her first — so keep the old layout behind a flag until she's seen it.",
            "Ana at reception",
        ),
        (
            "for the record: the test shop is reset from production every friday night, so "
            "don't leave anything there you still need on monday.",
            "every friday night",
        ),
    ],
)
def test_a_practice_held_to_or_a_week_ahead_does_not_hide_a_rule(message, word):
    assert any(word in k for k in _kept(message)), gapfill.find([message])
