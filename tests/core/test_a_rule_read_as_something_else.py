"""Rules a word of theirs made read as something else (core/sessions/heard.py, faults.py):
"do everything in …" as a question, "when you run tests just give me …" as a question,
"whatever comes back from …" as a dismissal, "… hangs off ctx.loaders" as what is wrong
now."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill, heard


def _stored(message: str) -> list[str]:
    return [f.content for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        (
            "do everything in integer millivolts as int32, we keep CONFIG_FPU off because it "
            "costs us power",
            "integer millivolts",
        ),
        (
            "when you run tests just give me the failing ones, I don't need the list of 200 "
            "green checkmarks ever",
            "failing ones",
        ),
    ],
)
def test_the_rule_is_stored(message, evidence):
    assert any(evidence in content for content in _stored(message))


@pytest.mark.parametrize(
    "message",
    [
        "whatever comes back from the go service gets parsed with a zod schema before we touch it",
        "every loader gets created per request in buildContext and hangs off ctx.loaders, no "
        "module-level instances anywhere",
    ],
)
def test_the_rule_is_a_statement(message):
    assert heard.not_a_statement(message) is None


@pytest.mark.parametrize(
    "message",
    [
        "whatever works",
        "whatever, just do it",
        "when you get a chance can you look at the logs",
        "when do you run the tests",
        "the worker hangs on startup everywhere since the bump",
    ],
)
def test_what_it_was_read_as_is_still_not_stored(message):
    assert _stored(message) == []
