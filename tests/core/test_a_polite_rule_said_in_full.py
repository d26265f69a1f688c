"""A rule asked of the agent with "please" and a general word is the person's rule, and a
sentence ending "don't care which" is said in full (core/sessions): "pls no force unwraps
anywhere, tests included" was only proposed, and "…, don't care which." was taken for a
thought left unfinished. What trails off after "and" still says nothing."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("pls no emojis anywhere in commit messages.", "No emojis anywhere in commit messages"),
        (
            "and pls no wildcard imports anywhere, tests included.",
            "Pls no wildcard imports anywhere, tests included",
        ),
    ],
)
def test_please_with_a_general_word_is_the_persons_rule(message, kept):
    assert [(f.confidence, f.content) for f in gapfill.find([message])] == [(gapfill.HIGH, kept)]


def test_dont_care_which_ends_a_sentence_said_in_full():
    found = gapfill.find(["use ruff or black for the formatting, don't care which."])
    assert [f.content for f in found] == ["Use ruff or black for the formatting, don't care which"]


def test_a_sentence_that_trails_off_after_and_says_nothing():
    assert gapfill.find(["we always deploy the flaky one from CI and"]) == []


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("please no emojis in commit messages", "emojis"),
        ("pls no print statements in library code", "print statements"),
    ],
)
def test_please_no_is_heard_as_no_please(message, word):
    """ "no emojis in commit messages please" was proposed; with "please" first, nothing."""
    assert any(word in f.content for f in gapfill.find([message]))
