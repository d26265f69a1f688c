"""A sentence that says nothing without the one before it is never a memory of its own
(core/sessions/later_sentences.py, chunk_judge.py): what goes wrong "otherwise" is the reason of
the statement before it, "same for every repo I work in" carries that statement everywhere, and
"I always mix them up" names nothing at all. Each was stored alone ("Otherwise AU hosts get
confused …", "Same for every repo the user works in …", "The user always mixes them up")."""

from __future__ import annotations

from memdesk.core.sessions import gapfill


def _found(message: str) -> list[gapfill.Finding]:
    return gapfill.find([message])


def _kept(message: str) -> list[str]:
    return [f.content for f in _found(message) if f.confidence == gapfill.HIGH]


def test_what_goes_wrong_otherwise_joins_the_statement_it_is_the_reason_of():
    found = _found(
        "nice. the cache key has to include the locale, any new field goes at the end of the "
        "key. otherwise mobile clients get confused when people upgrade"
    )
    assert not any(f.content.lower().startswith("otherwise") for f in found), found
    assert any("locale" in f.content and "mobile clients" in f.content for f in found), found


def test_same_for_every_repo_carries_the_rule_before_it_everywhere():
    found = _found(
        "can you redo that? I want branch names in kebab-case with the ticket number first. "
        "same for every repo I work in, not just this one"
    )
    assert not any(f.content.lower().startswith("same") for f in found), found
    (rule,) = [f for f in found if "kebab-case" in f.content]
    assert rule.confidence == gapfill.HIGH
    assert rule.scope == gapfill.GLOBAL


def test_a_habit_whose_only_object_is_it_or_them_is_not_kept():
    for message in (
        "quick one, what's the difference between git restore and git reset again, I always "
        "mix them up",
        "how do you spell the oauth callback route again? we always get it wrong",
    ):
        assert _kept(message) == [], message


def test_a_short_sentence_pointing_back_still_joins_the_fact_before_it():
    assert _kept("the deploy script lives in ops/deploy.sh. I like to sanity-check it.") == [
        "The deploy script lives in ops/deploy.sh. The user likes to sanity-check it"
    ]
