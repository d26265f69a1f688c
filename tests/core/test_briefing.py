"""What a session is given: the briefing at its start, and per prompt only what is new and of
its project or of none (core/sessions/briefing.py, core/sessions/context.py, Sessions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memdesk.core import ValidationError, agent

CLAUDE = agent("claude-code")


def test_a_standing_rule_reaches_the_model_when_the_task_shares_no_word(service):
    service.add("This repo uses pnpm only, never npm install", project="shop")
    service.add("The user prefers pytest over unittest", kind="preference")
    started = service.session_start("s1", actor=CLAUDE, project="shop")
    assert "pnpm only" in started["text"]
    assert "pytest over unittest" in started["text"]
    assert started["more"] == 0
    # Asked for a date library: nothing new to add, and nothing said twice.
    assert service.session_prompt("s1", "install a date library", actor=CLAUDE)["ids"] == []


def test_another_projects_rules_stay_in_that_project(service):
    service.add("Deploy with helm to prod-eu-1", project="infra")
    service.add("Keep functions short", kind="preference")
    started = service.session_start("s1", actor=CLAUDE, project="shop")
    assert "prod-eu-1" not in started["text"]
    assert "Keep functions short" in started["text"]
    assert service.session_prompt("s1", "deploy with helm", actor=CLAUDE)["ids"] == []


def test_the_briefing_keeps_to_its_budget_and_says_how_many_more(service):
    for n in range(60):
        # Sixty services, not one service's changing port: no possible updates marked.
        service.add(
            f"Service number {n} listens on port {9000 + n} in staging", project="p", dedup=False
        )
    started = service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=500)
    briefing = "## Standing rules and facts\n" + started["text"].split(
        "## Standing rules and facts\n", 1
    )[1].removesuffix("\n</memory-context>")
    assert "save it: memory_write action=add" in briefing  # the agent is asked to hear too
    assert 400 < len(briefing) <= 500  # the "more" line is inside the budget
    assert started["more"] == 60 - len(started["briefed"])
    assert f"({started['more']} more stored" in started["text"]
    off = service.session_start("s2", actor=CLAUDE, project="p", briefing_chars=0)
    assert off["text"] == ""
    assert off["briefed"] == []
    # a budget no rule fits: none briefed, and the agent is told all were left out (a red
    # team's read "more: 0")
    tight = service.session_start("s3", actor=CLAUDE, project="p", briefing_chars=50)
    assert (tight["briefed"], tight["more"]) == ([], 60)


def test_a_crowded_project_says_there_are_more_without_counting_them_all(service, monkeypatch):
    """Counting every standing memory of a crowded project read each of them: 40 ms of a
    60 ms SessionStart at 100k memories. The agent is told there are more than the cap."""
    from memdesk.core.sessions import briefing

    monkeypatch.setattr(briefing, "COUNT_CAP", 20)
    service.add_many(
        [{"content": f"Service {n} listens on port {9000 + n}", "project": "p"} for n in range(30)],
        dedup=False,
    )
    started = service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=300)
    assert started["more"] == 20 - len(started["briefed"])
    assert f"({started['more']}+ more stored" in started["text"]


def test_an_agents_private_memory_is_briefed_to_it_alone(service):
    service.add("My scratch notes live in /tmp/cc", actor=CLAUDE, visibility="private")
    other = service.session_start("s1", actor=agent("cursor"), project="p")
    own = service.session_start("s2", actor=CLAUDE, project="p")
    assert "/tmp/cc" not in other["text"]
    assert "/tmp/cc" in own["text"]
    assert other["more"] == 0


def test_the_persons_words_and_preferences_come_before_agents_notes(service):
    service.add("The build cache lives in /var/cache/b", actor=CLAUDE, project="p")
    service.add("Never force-push to main", kind="preference", project="p")
    started = service.session_start("s1", actor=CLAUDE, project="p")
    first, second = started["briefed"]
    assert service.get(first)["content"] == "Never force-push to main"
    assert "(written by agent claude-code)" in started["text"]  # an agent's claim says whose


def test_an_agents_claimed_importance_never_lifts_its_notes_above_the_persons_words(service):
    """A red team's agent wrote 20 project notes of importance 0.99: the briefing held only
    them, none of the person's five rules."""
    rules = [service.add(f"Rule {n}: keep function names short")["id"] for n in range(5)]
    for n in range(20):
        service.add(
            f"Agent note {n}: always clean the build folder first",
            kind="preference",
            importance=0.99,
            project="p",
            actor=agent("evil"),
            dedup=False,
        )
    started = service.session_start("s1", actor=CLAUDE, project="p")
    assert set(started["briefed"][:5]) == set(rules)


def test_a_prompt_is_given_only_what_this_session_was_not(service):
    service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=0)
    service.add("The staging database is reset every Sunday", project="p")
    first = service.session_prompt("s1", "seed the staging database", actor=CLAUDE)
    assert len(first["ids"]) == 1
    assert "Identity" not in first["text"]  # given once, at the start
    again = service.session_prompt("s1", "seed the staging database again", actor=CLAUDE)
    assert again["ids"] == []


def test_everyday_task_words_find_the_tools_they_mean(service):
    service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=0)
    service.add("The user prefers pytest over unittest", kind="preference")
    service.add("This repo uses pnpm only", project="p")
    tests = service.session_prompt("s1", "write tests for the parser", actor=CLAUDE)
    assert "pytest" in tests["text"]
    install = service.session_prompt("s1", "install a date library", actor=CLAUDE)
    assert "pnpm" in install["text"]


def test_an_sql_keyword_does_not_match_an_ordinary_verb(service):
    service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=0)
    service.add("Use SELECT ... FOR UPDATE when reserving stock", project="p")
    assert service.session_prompt("s1", "I updated the readme", actor=CLAUDE)["ids"] == []
    found = service.session_prompt("s1", "how do we update stock rows?", actor=CLAUDE)
    assert len(found["ids"]) == 1


def test_identifier_parts_are_searched(service):
    service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=0)
    service.add("The stream parser must never allocate per event", project="p")
    found = service.session_prompt("s1", "make StreamParser public", actor=CLAUDE)
    assert "allocate" in found["text"]


def test_what_a_session_end_heard_is_known_in_the_next_session_of_the_project(service):
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.session_end(
        "s1",
        actor=CLAUDE,
        transcript=[
            {"role": "user", "content": "Staging is at shop-staging.acme.io. I like tabs."}
        ],
    )
    stored = {m["content"]: m["project"] for m in service.list_memories(tags=["gap-fill"])}
    assert stored == {"Staging is at shop-staging.acme.io": "shop", "The user likes tabs": None}
    assert (
        "shop-staging.acme.io" in service.session_start("s2", actor=CLAUDE, project="shop")["text"]
    )
    elsewhere = service.session_start("s3", actor=CLAUDE, project="blog")["text"]
    assert "shop-staging" not in elsewhere
    assert "likes tabs" in elsewhere


def test_a_restatement_by_the_person_and_by_a_session_end_is_one_fact(service):
    mine = service.add("I prefer pytest over unittest", kind="preference")
    service.session_start("s1", actor=CLAUDE)
    ended = service.session_end(
        "s1",
        actor=CLAUDE,
        transcript=[{"role": "user", "content": "I prefer pytest over unittest."}],
    )
    assert ended["stored"] == []
    assert ended["skipped"][0]["why"] == f"already known as {mine['id']}"


def test_being_recalled_does_not_lift_a_memory_past_the_projects_rules(service):
    # Most recalls are what per-prompt injection showed: counting them fed noise back into
    # every briefing of a crowded store.
    service.add("Reports are built nightly by cron", project="p")
    service.add("Never force-push to main", kind="preference", project="p")
    for _ in range(30):
        service.search("reports nightly cron", actor=CLAUDE)
    started = service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=230)
    assert "Never force-push to main" in started["text"]
    assert "Reports are built" not in started["text"]


def test_rules_about_what_the_repository_uses_rank_above_rules_about_what_it_does_not(service):
    service.add("This repo is pnpm only", project="p")
    service.add("Use yarn workspaces for the packages", project="p")
    for n in range(12):  # newer rules of equal rank
        service.add(f"Module {n} stays small and documented", project="p", dedup=False)
    budget = 420

    plain = service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=budget)
    fitted = service.session_start(
        "s2", actor=CLAUDE, project="p", briefing_chars=budget, signals=["pnpm", "node"]
    )

    assert "pnpm only" not in plain["text"]  # crowded out by rules of equal rank
    assert "pnpm only" in fitted["text"]
    assert "yarn workspaces" not in fitted["text"]


def test_signals_are_bounded(service):
    with pytest.raises(ValidationError):
        service.session_start("s1", actor=CLAUDE, signals=["x"] * 301)
    with pytest.raises(ValidationError):
        service.session_start("s1", actor=CLAUDE, signals="pnpm")


def test_agents_notes_repeating_a_prompts_words_never_take_the_persons_rule_out(service):
    """A red team's six notes repeating a prompt's words filled every place of that prompt's
    memories (k=5), and the person's rule "Never use sudo with the kumquat installer" was
    not given; `context.build` the same."""
    rule = service.add("Never use sudo with the kumquat installer", project="p")["id"]
    for n in range(6):
        service.add(
            f"kumquat installer sudo kumquat installer run kumquat installer {n}",
            project="p",
            actor=agent("evil"),
            dedup=False,
        )
    service.session_start("s1", actor=CLAUDE, project="p", briefing_chars=0)
    given = service.session_prompt("s1", "run the kumquat installer with sudo", actor=CLAUDE)
    built = service.build_context("kumquat installer sudo", project="p", k=5, actor=CLAUDE)
    assert rule in given["ids"]
    assert built["ids"][0] == rule


def test_what_the_person_said_last_session_leads_a_crowded_projects_briefing(service):
    # A year of the person's own preferences in the project, the newest a week old: a fact
    # the person states today must still reach the next session.
    now = datetime.now(UTC)
    service.add_many(
        [
            {
                "content": f"Prefer small focused modules in area {n} of the shop codebase, please",
                "kind": "preference",
                "project": "shop",
                "created_at": (now - timedelta(days=7 + n % 4)).isoformat(),
            }
            for n in range(60)
        ],
        dedup=False,
    )
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.session_end(
        "s1",
        actor=CLAUDE,
        transcript=[{"role": "user", "content": "Our staging database listens on port 5433."}],
    )
    assert "5433" in service.session_start("s2", actor=CLAUDE, project="shop")["text"]


def test_this_projects_facts_are_briefed_before_the_persons_rules_from_other_projects(service):
    # A person with many projects: thirty global preferences heard this week in other
    # repositories, and this project's few facts, all of the same age.
    service.add_many(
        [
            {
                "content": f"The user prefers style rule number {n} in every repo",
                "kind": "preference",
            }
            for n in range(30)
        ],
        dedup=False,
    )
    service.add("Staging runs on the kind cluster preview-east", kind="fact", project="shop")
    service.add("Invoices are stored as integer cents", kind="fact", project="shop")
    started = service.session_start("s1", actor=CLAUDE, project="shop")
    assert "preview-east" in started["text"]
    assert "integer cents" in started["text"]
    assert "style rule number" in started["text"]  # the person's rules still fill the rest


def test_the_first_session_is_asked_to_save_what_the_user_states(service):
    """A tryout with the real Claude Code (stop 86): on an empty store SessionStart gave
    nothing, so the first sessions, with the most to hear, never read "save it"."""
    first = service.session_start("s1", actor=agent("claude-code"), project="shop")["text"]
    assert "save it: memory_write action=add" in first
    assert "None stored yet" in first
    service.add("This repo uses pnpm only", project="shop")
    second = service.session_start("s2", actor=agent("claude-code"), project="shop")["text"]
    assert "pnpm only" in second
    assert "None stored yet" not in second
    silent = service.session_start("s3", actor=agent("claude-code"), briefing_chars=0)
    assert silent["text"] == ""
