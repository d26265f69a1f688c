"""A statement told first, with what other people do or think about it in the comma-clause
after it, is kept without that clause (core/sessions/around.py): "…goes to stderr, people
pipe the output into jq …" was refused whole as someone else's view. A view told of the
clause before it ("…, at least that's what Lukas keeps saying") makes the whole sentence
theirs, and "Gary's convinced …" is Gary's."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _found(message: str) -> list[tuple[str, str]]:
    return [(f.confidence, f.content) for f in gapfill.find([message])]


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "every command prints its table on stdout and anything chatty goes to stderr, people "
            "pipe the output into jq and I don't want that breaking",
            "Every command prints its table on stdout and anything chatty goes to stderr",
        ),
        (
            "all timestamps in the export are UTC, the finance folks say they prefer it that way",
            "All timestamps in the export are UTC",
        ),
    ],
)
def test_what_others_do_after_a_statement_leaves_the_statement(message, kept):
    assert [content for _, content in _found(message)] == [kept]


@pytest.mark.parametrize(
    "message",
    [
        "we should rotate all the keys monthly, at least that's what Lukas keeps saying",
        "every service needs its own db user, according to the security team anyway",
        "we should move the editor code into its own asmdef, Marta thinks that would help",
        "Gary's convinced springs need swapping every 20k targets regardless",
        "Marta's pretty convinced the cache layer should go",
    ],
)
def test_a_view_of_the_whole_sentence_keeps_it_theirs(message):
    assert _found(message) == []
