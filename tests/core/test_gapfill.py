"""Gap-fill patterns: each with sentences that must and must not match (core/gapfill.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memdesk.core import gapfill

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _one(sentence: str) -> gapfill.Finding | None:
    found = gapfill.find([sentence])
    return found[0] if found else None


@pytest.mark.parametrize(
    ("pattern", "sentence", "confidence", "content"),
    [
        ("remember", "Remember that the VPN must be on.", "high", "The VPN must be on"),
        ("remember_to", "Remember to update the docs.", "medium", "Remember to update the docs"),
        (
            "prefer",
            "I prefer pytest over unittest.",
            "high",
            "The user prefers pytest over unittest",
        ),
        ("prefer", "We prefer squash merges.", "high", "The team prefers squash merges"),
        (
            "prefer_choice",
            "I prefer the second option.",
            "medium",
            "The user prefers the second option",
        ),
        (
            "prefer_that",
            "I'd prefer if you ask first.",
            "medium",
            "The user prefers that the agent ask first",
        ),
        ("always_never", "Never push directly to main.", "high", "Never push directly to main"),
        ("from_now_on", "From now on, answer in English.", "high", "Answer in English"),
        (
            "we_use",
            "We use Terraform for infrastructure.",
            "high",
            "The team uses Terraform for infrastructure",
        ),
        (
            "we_always",
            "We always deploy on Tuesdays.",
            "high",
            "The team always deploy on Tuesdays",
        ),
        ("my_is", "My timezone is Europe/Berlin.", "high", "The user's timezone is Europe/Berlin"),
        ("call_me", "Call me Ada.", "high", "The user wants to be called Ada"),
        (
            "i_am_role",
            "I'm a backend engineer on payments.",
            "high",
            "The user is a backend engineer",
        ),
        ("i_use", "I use fish as my shell.", "medium", "The user uses fish as my shell"),
        ("like_hate", "I hate long functions.", "medium", "The user hates long functions"),
        ("dont", "Don't touch the migrations.", "medium", "Don't touch the migrations"),
        (
            "no_its",
            "No, the tests live under src/tests.",
            "medium",
            "Correction: The tests live under src/tests",
        ),
        ("actually", "Actually, the port is 8443.", "medium", "Correction: The port is 8443"),
        (
            "thats_wrong",
            "That's wrong, the limit is per user.",
            "medium",
            "Correction: The limit is per user",
        ),
    ],
)
def test_each_pattern_matches_what_it_is_for(pattern, sentence, confidence, content):
    found = _one(sentence)
    assert found is not None
    assert (found.pattern, found.confidence, found.content) == (pattern, confidence, content)


@pytest.mark.parametrize(
    "sentence",
    [
        "Do you prefer tabs?",  # a question
        "Could you always explain first?",
        "If you prefer, split it.",  # a condition
        "Maybe we should use a queue.",  # a hedge
        "Always check twice, I guess.",
        "Never mind, I found it.",
        "Never seen this error before.",  # describes, does not instruct
        "Always the same error.",
        "We use this helper to parse dates.",  # the code at hand, not the team
        "My test is failing.",  # not a lasting fact about the user
        "Actually, let's keep it.",
        "Don't worry about it.",
        "No thanks.",
    ],
)
def test_what_must_not_be_stored(sentence):
    found = _one(sentence)
    assert found is None or found.confidence != "high"


def test_a_bare_correction_is_dropped():
    found = _one("That's wrong.")
    assert found is not None
    assert found.confidence == "low"


def test_two_statements_in_one_sentence_are_two_findings():
    found = gapfill.find(["I prefer pytest, and we use Poetry for dependencies."])
    assert [f.content for f in found] == [
        "The user prefers pytest",
        "The team uses Poetry for dependencies",
    ]


def test_code_and_quotes_are_not_the_users_words():
    text = "Look:\n```\nI prefer globals\n```\n> Never test anything\nThanks."
    assert gapfill.find([text]) == []


def test_the_labelled_set_keeps_stored_precision_above_0_9():
    # The guard for bench/gapfill.py's figure (docs/benchmarks.md); the set is in the repo.
    text = (BENCH / "data" / "gapfill_labelled.jsonl").read_text()
    rows = [json.loads(line) for line in text.splitlines()]
    stored = [
        r
        for r in rows
        if (_one(r["text"]) or gapfill.Finding("", "", "", "", "")).confidence == "high"
    ]
    assert len(rows) >= 100
    assert sum(r["label"] == "store" for r in stored) / len(stored) >= 0.9
