"""Layers by writer: agents keep identity and knowledge; the archive is the system's and the
user's. The user may do anything."""

from __future__ import annotations

import pytest

from memdesk.core import SYSTEM, USER, NotAllowed, agent

CLAUDE = agent("claude")


def test_an_agent_may_write_knowledge(service):
    memory = service.add("Prefers concise answers", layer="L1", actor=CLAUDE)
    assert (memory["layer"], memory["source"], memory["agent"]) == ("L1", "agent", "claude")


def test_an_agent_may_not_write_the_archive(service, dump):
    before = dump()
    with pytest.raises(NotAllowed) as caught:
        service.add("A summary the agent made up", layer="L2", actor=CLAUDE)
    assert caught.value.code == "not_allowed"
    assert caught.value.field == "layer"
    assert "L2" in caught.value.message
    assert dump() == before


@pytest.mark.parametrize("actor", [USER, SYSTEM])
def test_the_user_and_the_system_may_write_the_archive(service, actor):
    memory = service.add("Session summary", layer="L2", kind="summary", actor=actor)
    assert (memory["layer"], memory["source"]) == ("L2", actor.source)


@pytest.fixture
def archived(service):
    return service.add("Session summary: we migrated", layer="L2", kind="summary", actor=SYSTEM)


@pytest.mark.parametrize(
    "change",
    [
        lambda s, m: s.update(m, content="Rewritten by an agent", actor=CLAUDE),
        lambda s, m: s.correct(m, "Corrected by an agent", actor=CLAUDE),
        lambda s, m: s.remove(m, actor=CLAUDE),
    ],
    ids=["update", "correct", "remove"],
)
def test_an_agent_may_not_change_an_archived_memory(service, archived, dump, change):
    before = dump()
    with pytest.raises(NotAllowed):
        change(service, archived["id"])
    assert dump() == before


def test_an_agent_may_not_move_knowledge_into_the_archive(service, dump):
    memory = service.add("Knowledge", actor=CLAUDE)
    before = dump()
    with pytest.raises(NotAllowed):
        service.update(memory["id"], layer="L2", actor=CLAUDE)
    assert dump() == before


def test_an_agent_may_not_purge_an_archived_memory_from_the_trash(service, archived, dump):
    service.remove(archived["id"])  # the user moved it to the Trash
    before = dump()
    with pytest.raises(NotAllowed):
        service.purge(archived["id"], actor=CLAUDE)
    assert dump() == before
    service.purge(archived["id"])  # the user may
    assert service.count(status=None) == 0


def test_the_user_may_change_anything(service, archived):
    service.update(archived["id"], content="Session summary: we migrated twice")
    moved = service.update(archived["id"], layer="L1")
    assert moved["layer"] == "L1"
    service.remove(archived["id"])
    service.restore(archived["id"])


def test_an_agent_files_a_session_summary_through_the_archive_call_as_its_own(service):
    """Filed as memdesk's ("system"), an agent's summary was searched and exported with the
    trust of what a session end heard the person say (red team, stop 70)."""
    summary = service.archive_session(what="Refactored the store", actor=CLAUDE)
    assert (summary["layer"], summary["kind"]) == ("L2", "summary")
    assert (summary["source"], summary["agent"]) == ("agent", "claude")
    with pytest.raises(NotAllowed):
        service.add("Refactored the store again", layer="L2", actor=CLAUDE)
