"""A rule that says how far it reaches ("…in logs, ever", "out for good", "we don't use
Control Tower at all", "anything that touches X needs Marcus's sign-off", "Priya owns …")
is stored whatever the tone of the message around it: a groan, a question or a step of the
task beside it made such rules only proposed (core/sessions/tone.py)."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "hmm maybe, but don't touch that one today. anything that touches revenue "
            "recognition needs a sign-off from Marcus in accounting before it merges. I'll ask "
            "him about the unknown bucket myself",
            "Marcus",
        ),
        (
            "ugh, that one. discount_code is out for good — retention offers only go to people "
            "who already hit the cancel flow, so it's pure leakage. take it out of "
            "CATEGORICAL_COLS and leave a comment saying why",
            "out for good",
        ),
        (
            "no, we don't use Control Tower at all here, everything is plain aws_organizations "
            "resources. and if we ever go multi-region for the sandboxes it'd get even messier "
            "anyway. maybe just a PR template with the account file pre-filled?",
            "Control Tower",
        ),
        (
            "backoff how? pls don't put real sleeps in tests, ever, use tokio::time::pause and "
            "advance. the last guy's test suite took 4 minutes because of thread::sleep "
            "everywhere",
            "real sleeps",
        ),
    ],
)
def test_the_rule_is_stored_whatever_the_tone(message, evidence):
    assert any(evidence in content for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "docker images eating 400GB on a single runner because nobody ever prunes anything. "
        "i'm losing my mind",
        "Classic. Every interpreter I have ever written had exactly this captured-environment "
        "bug. Every last one.",
        "wit-bindgen versions, I swear. upgrade one crate and suddenly everything needs "
        "matching versions everywhere. pesadilla",
    ],
)
def test_a_vent_saying_ever_or_everything_is_still_not_stored(message):
    assert _stored(message) == []
