"""A few words first about what is in front of the person ("that won't fly", "pls revert your
edit", "there's no amount field"), then a statement in the same sentence: the statement is
stored without the head (core/sessions/heads_at_hand.py). Read whole, the sentence was about
this change and only proposed. What goes on from the head, or points back at it, is not a
statement of its own."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "stored"),
    [
        (
            "that won't fly, the site ships in Welsh and English, every label goes in both "
            "locale files.",
            "The site ships in Welsh and English, every label goes in both locale files",
        ),
        (
            "pls revert your Gemfile.lock edit, the lockfile is only ever touched by bundler on "
            "CI, nobody edits it by hand.",
            "The lockfile is only ever touched by bundler on CI, nobody edits it by hand",
        ),
        (
            "there's no price field, all the prices are integer pence here, price_pence "
            "everywhere and nothing is a float.",
            "All the prices are integer pence here, price_pence everywhere and nothing is a float",
        ),
    ],
)
def test_a_statement_after_a_head_at_hand_is_stored_without_it(message, stored):
    assert _stored(message) == [stored]


@pytest.mark.parametrize(
    "message",
    [
        # what follows points back at the head
        "those come from data/targets.csv, Niamh owns that file and updates it every quarter",
        # what follows leads in a paste
        "this shows up at startup on the staging box, repeated about every ten seconds:",
    ],
)
def test_what_goes_on_from_the_head_is_not_stored(message):
    assert _stored(message) == []
