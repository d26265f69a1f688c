"""A memory nobody confirmed for half a year, or with a possible update waiting, reaches
agents marked as possibly outdated (core/memory/staleness.py); the rest is given as it is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memdesk.core import agent, clock
from memdesk.store import Memory

CLAUDE = agent("claude-code")


def _last_confirmed(memory_id: str, days_ago: int) -> str:
    at = clock.format_time(datetime.now(UTC) - timedelta(days=days_ago))
    Memory.update(updated_at=at).where(Memory.uuid == memory_id).execute()
    return at[:10]


def test_a_memory_unconfirmed_for_half_a_year_is_marked_where_agents_get_it(service):
    old = service.add("The staging cluster runs Kubernetes 1.24", project="shop")
    fresh = service.add("The shop's checkout uses Stripe", project="shop")
    since = _last_confirmed(old["id"], 200)
    _last_confirmed(fresh["id"], 100)

    started = service.session_start("s1", actor=CLAUDE, project="shop")
    assert f"- [may be outdated: not confirmed since {since}] The staging" in started["text"]
    assert "- The shop's checkout uses Stripe" in started["text"]

    block = service.build_context("kubernetes staging cluster", project="shop", actor=CLAUDE)
    assert f"may be outdated: not confirmed since {since}] " in block["text"]
    assert service.get(old["id"], actor=CLAUDE)["stale"] == f"not confirmed since {since}"
    assert service.get(fresh["id"], actor=CLAUDE)["stale"] is None


def test_restating_a_memory_confirms_it(service):
    old = service.add("The staging cluster runs Kubernetes 1.24")
    _last_confirmed(old["id"], 400)
    service.add("The staging cluster runs Kubernetes 1.24")  # said again by the person
    assert service.get(old["id"])["stale"] is None


def test_an_agent_restating_the_persons_rule_confirms_nothing(service):
    """A red team's agent cleared "may be outdated" from the person's year-old rule by saying
    it again, and chose which of the person's rules filled every briefing by restating the
    others."""
    old = service.add("The staging cluster runs Kubernetes 1.24")
    since = _last_confirmed(old["id"], 400)
    again = service.add("The staging cluster runs Kubernetes 1.24", actor=CLAUDE)
    assert again["duplicate_of"] == old["id"]
    assert service.get(old["id"])["stale"] == f"not confirmed since {since}"
    assert service.get(old["id"])["reinforce_count"] == 0


def test_a_possible_update_waiting_marks_the_older_memory_until_the_person_decides(service):
    old = service.add("The API listens on port 8080", actor=CLAUDE)
    new = service.add("The API listens on port 9090", actor=CLAUDE)
    assert new["possible_update_of"] == old["id"]
    assert service.get(old["id"])["stale"] == "a possible update awaits review"
    block = service.build_context("which port does the API listen on", actor=CLAUDE)
    assert (
        'may be outdated: a possible update awaits review] "The API listens on port 8080"'
        in (block["text"])
    )

    [item] = service.inbox()
    service.reject([item["key"]], reason="both are true: two APIs")
    assert service.get(old["id"])["stale"] is None


def test_identity_and_archive_never_go_stale(service):
    profile = service.add("Name: Sam", layer="L0")
    summary = service.archive_session(what="Moved the shop to Postgres 16", actor=CLAUDE)
    for memory in (profile, summary):
        _last_confirmed(memory["id"], 900)
        assert service.get(memory["id"])["stale"] is None


def test_an_agents_near_opposite_does_not_cast_doubt_on_the_persons_rule(service):
    """A red team's agent wrote "Always force push …" beside the person's "Never force push
    …": every other agent was then given the person's rule as "may be outdated", before the
    person decided anything."""
    rule = service.add("Never force push to the main branch of the api repo")
    opposite = service.add("Always force push to the main branch of the api repo", actor=CLAUDE)
    assert opposite["possible_update_of"] == rule["id"]
    assert [i["type"] for i in service.inbox()] == ["update"]  # the person is asked
    other = agent("cursor")
    assert service.get(rule["id"], actor=other)["stale"] is None
    started = service.session_start("s1", actor=other)
    assert "- Never force push to the main branch" in started["text"]
    assert "may be outdated" not in started["text"]


def test_an_agent_casts_no_doubt_on_a_note_another_machines_agent_of_its_name_wrote(service):
    older = service.add("The API listens on port 8080", actor=CLAUDE)
    Memory.update(writer="bo@work").where(Memory.uuid == older["id"]).execute()  # as synced
    newer = service.add("The API listens on port 9090", actor=CLAUDE)
    assert newer["possible_update_of"] == older["id"]
    assert service.get(older["id"])["stale"] is None


def test_a_correction_naming_the_value_it_replaces_marks_the_memory_holding_it(service):
    """A new user's correction ("5432, not 5433"), worded otherwise than the memory it set right,
    was stored beside it unlinked: the next sessions were briefed both ports, neither marked."""
    from memdesk.core import Actor, agent

    port = service.add("Local postgres runs on 5433 here, not the default", project="web")
    other = service.add("The redis cache runs on 6380 here", project="web")
    heard = service.add(
        "Local postgres is on port 5432, not 5433", project="web", actor=Actor("system", "cc")
    )
    assert heard["possible_update_of"] == port["id"]
    reader = agent("claude-code")
    assert service.get(port["id"], actor=reader)["stale"] == "a possible update awaits review"
    assert service.get(other["id"], actor=reader)["stale"] is None
    context = service.build_context("postgres port", project="web", actor=reader)["text"]
    assert (
        "may be outdated: a possible update awaits review] Local postgres runs on 5433" in context
    )
    # the same value said of something else is no correction of it
    elsewhere = service.add("The metrics exporter is on 9100, not 5433", project="web")
    assert "possible_update_of" not in elsewhere


def test_a_correction_in_a_project_sets_right_what_holds_everywhere(service):
    """A red team's "Postgres runs on port 5433", told with no project, was not marked by the
    correction heard in a session of a project, nor by "5432 (not 5433)"."""
    from memdesk.core import Actor, agent

    port = service.add("Postgres runs on port 5433")
    heard = service.add(
        "The local postgres port is 5432 now, not 5433", project="web", actor=Actor("system", "cc")
    )
    assert heard["possible_update_of"] == port["id"]
    other = service.add("The dev box's redis listens on port 6380")
    typed = service.add("Redis for the dev box is on 6379 (not 6380)")
    assert typed["possible_update_of"] == other["id"]
    assert service.get(port["id"], actor=agent("cursor"))["stale"] is not None


def test_a_correction_naming_who_or_what_it_replaces_marks_the_memory_holding_it(service):
    """A new user's "Priya owns billing now, not Marta" and "we moved hosting from Fly.io to
    Render" were stored beside the old facts, unlinked: the next session was briefed both."""
    from memdesk.core import Actor

    owner = service.add("Marta owns the billing service")
    host = service.add("We host everything on Fly.io")
    unrelated = service.add("Ask Marta about the release calendar")
    heard = Actor("system", "claude-code")
    assert (
        service.add("Priya owns billing now, not Marta", actor=heard)["possible_update_of"]
        == (owner["id"])
    )
    moved = service.add("We moved hosting from Fly.io to Render last week", actor=heard)
    assert moved["possible_update_of"] == host["id"]
    assert service.get(unrelated["id"])["stale"] is None
    assert "possible_update_of" not in service.add("Use the default config, not the custom one")


def test_a_value_set_right_without_naming_the_old_one_marks_the_memory_holding_it(service):
    """ "correction: the CI timeout is 30 minutes" named no old value, so nothing linked it to
    "the CI timeout is 20 minutes …": both reached the next sessions unmarked."""
    from memdesk.core import Actor, agent

    old = service.add("The CI timeout is 20 minutes for the integration job", project="web")
    service.add("The staging deploy timeout is 10 minutes", project="web")
    heard = service.add("The CI timeout is 30 minutes", project="web", actor=Actor("system", "cc"))
    assert heard["possible_update_of"] == old["id"]
    assert service.get(old["id"], actor=agent("cursor"))["stale"] is not None
    # another thing's value, or one that says the same number, is no correction of it
    assert "possible_update_of" not in service.add("Prod has 6 replicas", project="web")
    assert "possible_update_of" not in service.add("Staging has 4 replicas", project="web")
    same = service.add("The CI timeout is 20 minutes, set in the pipeline", project="web")
    assert same.get("possible_update_of") in (None, old["id"])
