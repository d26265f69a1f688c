"""How a thing the agent writes should look, told as a spec without a verb of preference
(core/sessions/style_specs.py): "for commit messages: lowercase, imperative, no feat:/fix:
prefixes" gave nothing, its "for commit messages:" read as a lead-in and dropped. A colon
after anything else ("error: …", "tests: 3 failed") names no such thing."""

from __future__ import annotations

import pytest

from memdesk.core.sessions import gapfill


def _found(message: str) -> list[tuple[str, str]]:
    return [(f.confidence, f.content) for f in gapfill.find([message])]


@pytest.mark.parametrize(
    ("message", "evidence"),
    [
        ("for commit messages: lowercase, imperative, no feat:/fix:/perf: prefixes", "perf"),
        ("commit msgs: short imperative line, none of that feat:/fix: prefix stuff", "line"),
        ("docstrings: google style, no types in them", "google style"),
        ("money amounts are int64 minor units plus an ISO currency code, no floats", "int64"),
        ("I do commit messages in lowercase imperative, no emoji, no period at the end", "emoji"),
    ],
)
def test_a_spec_for_what_the_agent_writes_is_stored(message, evidence):
    assert any(c == gapfill.HIGH and evidence in content for c, content in _found(message))


@pytest.mark.parametrize(
    "message",
    [
        "error: connection refused",
        "tests: 3 failed, 12 passed",
        "comments: none yet",
        "branch names: feature/<ticket>-<slug>",  # how, not said: proposed at most
    ],
)
def test_a_colon_after_anything_else_stores_nothing(message):
    assert all(c != gapfill.HIGH for c, _ in _found(message))


def test_every_kind_a_finding_takes_is_a_kind_of_memory():
    """Specs were found as "convention", which no memory is: the session end that heard one
    failed whole."""
    from memdesk.core.rules import KINDS
    from memdesk.core.sessions import style_specs
    from memdesk.core.sessions.gapfill_patterns import PATTERNS

    assert {p.kind for p in PATTERNS} <= set(KINDS)
    assert style_specs.read("docstrings: google style, no types in them").kind in KINDS


def test_a_finding_that_cannot_be_filed_leaves_the_rest_of_the_session_filed(service, monkeypatch):
    from dataclasses import replace

    from memdesk.core import agent

    real = gapfill.find

    def with_a_bad_one(messages, each=None):
        found = real(messages, each)
        return [replace(found[0], kind="bogus"), *found[1:]]

    monkeypatch.setattr(gapfill, "find", with_a_bad_one)
    claude = agent("claude-code")
    service.session_start("s1", actor=claude)
    transcript = [
        {"role": "user", "content": "I prefer pytest over unittest."},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": "Our staging database listens on port 5433."},
    ]
    ended = service.session_end("s1", actor=claude, transcript=transcript)
    assert [s["content"] for s in ended["stored"]] == ["Our staging database listens on port 5433"]
    assert "kind" in ended["skipped"][0]["why"]
    assert ended["summary"]["id"]
