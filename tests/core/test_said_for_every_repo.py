"""A statement the person marks as theirs wherever they work is kept whatever the message
around it does (gives work, vents); its own sentence limiting it to now still holds it back
(core/sessions/everywhere.py)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _confidences(message: str, word: str) -> list[str]:
    return [
        f.confidence for f in gapfill.find([message]) if word.casefold() in f.content.casefold()
    ]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "ok push this. I rebase onto main in every repo I touch, so no merge commits please, "
            "and keep the css change in its own commit",
            "rebase",
        ),
        (
            "ugh that print again. no print debugging left in committed code, goes for any repo, "
            "use the logger",
            "print debugging",
        ),
    ],
)
def test_a_statement_said_for_every_repo_is_kept_inside_a_task_or_a_vent(message, word):
    assert _confidences(message, word) == [gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        "ok push this. for now I rebase onto main in every repo I touch, merges later maybe",
        "do you rebase onto main in every repo you touch, or merge?",
    ],
)
def test_said_for_every_repo_but_only_for_now_or_asked_is_not_kept(message):
    assert gapfill.HIGH not in _confidences(message, "rebase")
