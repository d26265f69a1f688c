"""What the person marks as told beside a question ("how do I …? btw we …", "…? also, my
terminal is …", "…? I use fish everywhere, so …") is kept; what only says why they ask ("I keep
forgetting", "asking because of the limits") is not (core/sessions/tone.py). All of it was
held back as the tone of a question asked first."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _kept(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "word"),
    [
        (
            "how do I rerun just the failed jobs? btw our CI runs on buildkite, not actions",
            "buildkite",
        ),
        (
            "what's the flag for a dry run again? also, my shell is nushell, so no bash syntax",
            "nushell",
        ),
        (
            "how do I get the env vars into my session? I use fish everywhere, so give me fish "
            "syntax",
            "fish",
        ),
        ("why is the bundle 4MB? fyi we deploy to cloudflare pages from main", "cloudflare"),
    ],
)
def test_what_is_told_beside_a_question_is_kept(message, word):
    assert any(word in kept for kept in _kept(message)), _kept(message)


@pytest.mark.parametrize(
    "message",
    [
        "Is the staging api on 8443 or 9443? I keep forgetting.",
        "does a taskrun always get its own pod? asking because of the pod security limits",
        "does ref.watch always rebuild the whole widget? I always second guess that one",
    ],
)
def test_why_the_person_asks_is_not_kept(message):
    assert _kept(message) == []
