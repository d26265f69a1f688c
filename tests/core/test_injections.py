"""What each session's model was given, as the person reviews it (core/views/injections.py)."""

from __future__ import annotations

import pytest

from memdesk.core import NotAllowed, agent

CLAUDE = agent("claude-code")


def test_each_session_lists_what_it_was_given_in_order_with_its_size(service):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    # Not standing knowledge (an observation): given when a prompt asks, not at the start.
    date = service.add("Dates are formatted with date-fns", project="shop", kind="observation")
    started = service.session_start("s1", actor=CLAUDE, project="shop")
    prompt = service.session_prompt("s1", "format the dates with date-fns", actor=CLAUDE)
    service.session_start("quiet", actor=CLAUDE, project="empty")  # given nothing

    [session] = [s for s in service.injections() if s["session"] == "s1"]
    assert (session["agent"], session["project"]) == ("claude-code", "shop")
    start, asked = session["events"]
    assert start["event"] == "start"
    assert [m["id"] for m in start["memories"]] == started["briefed"]
    assert rule["id"] in [m["id"] for m in start["memories"]]
    assert asked["event"] == "prompt"
    assert asked["chars"] == prompt["size"]
    assert asked["tokens"] == prompt["size"] // 4
    assert session["chars"] == start["chars"] + asked["chars"]
    assert asked["memories"] == [
        {
            "id": date["id"],
            "line": "Dates are formatted with date-fns",
            "layer": "L1",
            "status": "active",
            "acted_on": False,
            "went_against": False,
        }
    ]


def test_a_tool_call_after_the_injection_that_repeats_the_memory_counts_as_acting_on_it(service):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.observe("s1", "Bash", {"command": "pnpm add date-fns"}, {"exit_code": 0}, actor=CLAUDE)
    service.session_start("s2", actor=CLAUDE, project="shop")
    service.observe("s2", "Read", {"file_path": "/repo/src/app.ts"}, actor=CLAUDE)

    by_session = {s["session"]: s for s in service.injections()}
    [given] = by_session["s1"]["events"][0]["memories"]
    assert given["acted_on"] is True
    [given] = by_session["s2"]["events"][0]["memories"]
    assert given["acted_on"] is False
    injected = service.injected(rule["id"])
    assert (injected["given"], injected["acted_on"]) == (2, 1)


def test_running_what_a_rule_forbids_went_against_it_and_is_not_acting_on_it(service):
    rule = service.add("Use podman compose, not docker compose", project="shop")
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.observe(
        "s1", "Bash", {"command": "docker compose up -d"}, {"exit_code": 0}, actor=CLAUDE
    )

    [given] = service.injections()[0]["events"][0]["memories"]
    assert given["acted_on"] is False
    assert given["went_against"] is True
    assert service.injected(rule["id"])["acted_on"] == 0


def test_a_command_on_what_the_rule_rules_out_is_not_acting_on_it(service):
    """After "listens on 6543, not the default 5432", `psql -p 5432` was marked as acting on
    the rule."""
    service.add("The staging Postgres listens on port 6543, not the default 5432", project="shop")
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.observe(
        "s1", "Bash", {"command": "psql -p 5432 -h staging"}, {"exit_code": 0}, actor=CLAUDE
    )
    [given] = service.injections()[0]["events"][0]["memories"]
    assert given["acted_on"] is False


def test_a_memory_says_how_often_agents_were_given_it(service):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    never = service.add("Lunch is at noon", project="other")
    for n in range(3):
        service.session_start(f"s{n}", actor=CLAUDE, project="shop")
    given = service.injected(rule["id"])
    assert (given["given"], given["sessions"]) == (3, 3)
    assert (given["last_session"], given["last_agent"]) == ("s2", "claude-code")
    assert service.injected(never["id"])["given"] == 0


def test_a_purged_memory_stays_in_the_record_as_gone(service):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    service.session_start("s1", actor=CLAUDE, project="shop")
    service.remove(rule["id"])
    service.empty_trash()
    [session] = service.injections()
    [memory] = session["events"][0]["memories"]
    assert memory["status"] == "purged"


def test_dont_bring_this_up_again_keeps_a_memory_out_of_injection_but_searchable(service):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    service.update(rule["id"], inject=False)
    started = service.session_start("s1", actor=CLAUDE, project="shop")
    assert "pnpm only" not in started["text"]
    block = service.build_context("install packages with pnpm", project="shop", actor=CLAUDE)
    assert rule["id"] not in block["ids"]
    found = service.search("pnpm", project="shop", actor=CLAUDE)["hits"]
    assert [h["id"] for h in found] == [rule["id"]]  # asked for, it is still there
    assert found[0]["inject"] is False

    service.update(rule["id"], inject=True)
    assert "pnpm only" in service.session_start("s2", actor=CLAUDE, project="shop")["text"]


def test_only_the_person_chooses_what_is_brought_up(service):
    rule = service.add("This repo uses pnpm only, never npm install", actor=CLAUDE)
    with pytest.raises(NotAllowed, match="only the person"):
        service.update(rule["id"], inject=False, actor=CLAUDE)
    assert service.get(rule["id"])["inject"] is True
    assert service.get(rule["id"])["version"] == 1


def test_the_choice_survives_export_and_import(service):
    rule = service.add("This repo uses pnpm only, never npm install")
    service.update(rule["id"], inject=False)
    exported = service.export("json")
    service.remove(rule["id"])
    service.empty_trash()
    service.import_json(exported)
    assert service.get(rule["id"])["inject"] is False


def test_a_long_sessions_calls_are_read_once_per_memory_given(service, monkeypatch):
    """Asked again for each event's later calls, a session of 200 actions and 200 tool calls
    took the person's Injections view 42 s, the server answering no one."""
    from memdesk.core.sessions import acted_on

    service.add("Use podman compose, never docker compose", project="web")
    service.add("Deploys go through `make release`", project="web")
    service.session_start("s1", actor=CLAUDE, project="web")
    for n in range(30):
        for command in (f"docker compose up {n}", f"make release {n}"):
            service.session_action("s1", "Bash", {"command": command}, actor=CLAUDE)
            service.observe("s1", "Bash", {"command": command}, "ok", actor=CLAUDE)
    reads = []
    real = acted_on._Cues
    monkeypatch.setattr(acted_on, "_Cues", lambda memory: reads.append(1) or real(memory))
    (session,) = service.injections()
    marked = [m for e in session["events"] for m in e["memories"]]
    assert any(m["went_against"] for m in marked)
    assert any(m["acted_on"] for m in marked)
    assert len(reads) <= 2  # once per memory given, whatever the number of events
