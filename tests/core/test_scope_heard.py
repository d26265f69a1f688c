"""Where a statement heard at a session end holds: an instruction about the code is the
repository's, one about how the agent talks to the person holds wherever they work. Stored
without a project, "use named exports" was briefed in every other project of a year's store,
pushing that project's own rules out (bench/roundtrip.py --year: 38 -> 45 of 60 delivered)."""

from __future__ import annotations

import pytest

from memdesk.core import agent
from memdesk.core.sessions import gapfill


def _scopes(message: str) -> list[str]:
    return [f.scope for f in gapfill.find([message]) if f.confidence == gapfill.HIGH]


@pytest.mark.parametrize(
    "message",
    [
        "Use named exports",
        "Use the v2 API base URL https://api.transit.example/v2 for everything",
        "Use freezed for any new model class",
        "please use pnpm for installs",
    ],
)
def test_an_instruction_about_the_code_is_the_projects(message):
    assert _scopes(message) == [gapfill.PROJECT]


@pytest.mark.parametrize(
    "message",
    [
        "Keep your answers short, code first",
        "Use British spelling in your replies",
        "please always explain a regex before you use it on me",
        "I prefer tabs over spaces",
    ],
)
def test_how_the_agent_talks_to_the_person_holds_everywhere(message):
    assert _scopes(message) == [gapfill.GLOBAL]


def test_a_projects_convention_is_not_briefed_in_another_project(service):
    claude = agent("claude-code")
    service.session_start("s1", actor=claude, project="shop-web")
    transcript = [{"role": "user", "content": "Use named exports. Add the cart badge."}]
    service.session_end("s1", transcript=transcript, actor=claude)
    elsewhere = service.session_start("s2", actor=claude, project="ledger-api")
    here = service.session_start("s3", actor=claude, project="shop-web")
    assert "named exports" not in elsewhere["text"]
    assert "named exports" in here["text"]


@pytest.mark.parametrize(
    ("message", "where"),
    [
        ("I always use pnpm here, never npm or yarn.", gapfill.PROJECT),
        ("I stick to ruff in this repo, not black.", gapfill.PROJECT),
        ("across all my projects, commit messages are imperative and under 72 chars", None),
        ("Never run git push for me, in any repo, I push by hand.", None),
        ("Conventional commits please, whatever the repo, that is how I write them.", None),
    ],
)
def test_where_the_person_says_a_statement_holds_is_where_it_holds(message, where):
    """A tryout with the real Claude Code (stop 86): "I always use pnpm here" was briefed in
    every project, and "across all my projects, …" only in the one it was said in."""
    assert _scopes(message) == [where or gapfill.GLOBAL]
