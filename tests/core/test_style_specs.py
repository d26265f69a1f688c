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
