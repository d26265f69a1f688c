"""Adding and changing memories: versions, history, corrections, Trash, revert and links."""

from __future__ import annotations

import pytest

from memdesk.core import NotAllowed, NotFound, ValidationError, VersionConflict, agent


def test_add_stores_every_field_and_get_returns_it(service):
    memory = service.add(
        "Deploys go out on Thursdays",
        kind="decision",
        tags=["ops", "deploy"],
        project="web",
        task="release-12",
        importance=0.8,
        created_at="2025-03-01T09:30:00Z",
        actor=agent("claude"),
    )
    assert memory["content"] == "Deploys go out on Thursdays"
    assert (memory["layer"], memory["kind"], memory["status"]) == ("L1", "decision", "active")
    assert (memory["source"], memory["agent"]) == ("agent", "claude")
    assert memory["tags"] == ["ops", "deploy"]
    assert (memory["project"], memory["task"], memory["importance"]) == ("web", "release-12", 0.8)
    assert memory["created_at"] == "2025-03-01T09:30:00.000Z"
    assert memory["version"] == 1
    assert service.get(memory["id"]) == {**memory, "links": [], "more_links": False, "stale": None}


def test_get_accepts_a_unique_id_prefix(service):
    memory = service.add("Prefixes are handy")
    assert service.get(memory["id"][:8])["id"] == memory["id"]


def test_get_of_an_unknown_id_names_the_id(service):
    with pytest.raises(NotFound, match="deadbeef") as caught:
        service.get("deadbeef")
    assert caught.value.code == "not_found"


def test_update_makes_a_new_version_and_history_keeps_the_old_one(service):
    memory = service.add("The API listens on port 8080", tags=["api"], actor=agent("claude"))
    changed = service.update(
        memory["id"],
        content="The API listens on port 9090",
        tags=["api", "ports"],
        reason="config changed",
        actor=agent("claude"),
    )
    assert changed["version"] == 2
    assert changed["content"] == "The API listens on port 9090"
    assert changed["tags"] == ["api", "ports"]
    assert changed["source"] == "agent"

    history = service.history(memory["id"])
    assert [(v["version"], v["content"]) for v in history] == [
        (1, "The API listens on port 8080"),
        (2, "The API listens on port 9090"),
    ]
    assert (history[0]["change"], history[0]["by"], history[0]["reason"]) == (
        "add",
        "agent:claude",
        None,
    )
    assert (history[1]["change"], history[1]["by"]) == ("update", "agent:claude")
    assert history[1]["reason"] == "config changed"
    assert history[1]["at"] == changed["updated_at"]
    assert history[0]["tags"] == ["api"]


def test_history_keeps_every_state_oldest_first(service):
    memory = service.add("draft one")
    for text in ("draft two", "draft three", "draft four"):
        service.update(memory["id"], content=text)
    assert [v["content"] for v in service.history(memory["id"])] == [
        "draft one",
        "draft two",
        "draft three",
        "draft four",
    ]
    assert [v["version"] for v in service.history(memory["id"])] == [1, 2, 3, 4]


def test_an_update_that_changes_nothing_makes_no_version(service):
    memory = service.add("Unchanged", tags=["a"])
    same = service.update(memory["id"], content="Unchanged", tags=["a"])
    assert same["version"] == 1
    assert len(service.history(memory["id"])) == 1


def test_a_stale_expected_version_is_a_conflict_and_changes_nothing(service, dump):
    memory = service.add("Lunch is at noon")
    service.update(memory["id"], content="Lunch is at one", expected_version=1)
    before = dump()
    with pytest.raises(VersionConflict) as caught:
        service.update(memory["id"], content="Lunch is at two", expected_version=1)
    assert caught.value.code == "version_conflict"
    assert caught.value.data["current_version"] == 2
    assert "version 2" in caught.value.message
    assert dump() == before


def test_correct_replaces_a_wrong_memory_and_keeps_the_old_one_for_the_audit(service):
    old = service.add("The office is in Berlin", tags=["office"], project="hr")
    new = service.correct(old["id"], "The office is in Munich", reason="we moved")

    assert new["id"] != old["id"]
    assert new["supersedes"] == old["id"]
    assert (new["tags"], new["project"], new["status"]) == (["office"], "hr", "active")
    assert service.get(old["id"])["status"] == "inactive"
    assert {"id": old["id"], "relation": "supersedes", "direction": "out"} in service.get(
        new["id"]
    )["links"]
    assert {"id": new["id"], "relation": "supersedes", "direction": "in"} in service.get(old["id"])[
        "links"
    ]

    found = [h["id"] for h in service.search("office", record=False)["hits"]]
    assert found == [new["id"]]
    everything = service.search("office", include_inactive=True, record=False)["hits"]
    assert {h["id"] for h in everything} == {old["id"], new["id"]}

    last = service.history(old["id"])[-1]
    assert (last["status"], last["change"], last["reason"]) == ("inactive", "correct", "we moved")
    assert service.history(old["id"])[0]["content"] == "The office is in Berlin"


def test_only_an_active_memory_can_be_corrected(service):
    memory = service.add("Something wrong")
    service.remove(memory["id"])
    with pytest.raises(NotAllowed, match="restore it first"):
        service.correct(memory["id"], "Something right")
    assert service.count(status=None) == 1


def test_remove_moves_to_the_trash_and_restore_brings_it_back(service):
    memory = service.add("Temporary thought about caching")
    removed = service.remove(memory["id"], reason="not needed")
    assert removed["status"] == "deleted"
    assert service.count() == 0
    assert service.count(status="deleted") == 1
    assert service.search("caching", include_inactive=True, record=False)["hits"] == []

    restored = service.restore(memory["id"])
    assert restored["status"] == "active"
    assert [h["id"] for h in service.search("caching", record=False)["hits"]] == [memory["id"]]
    history = service.history(memory["id"])
    assert [(v["change"], v["status"]) for v in history] == [
        ("add", "active"),
        ("remove", "deleted"),
        ("restore", "active"),
    ]
    assert history[1]["reason"] == "not needed"


def test_purge_only_deletes_from_the_trash(service):
    memory = service.add("Keep me")
    with pytest.raises(NotAllowed, match="Trash"):
        service.purge(memory["id"])
    assert service.get(memory["id"])["status"] == "active"


def test_purge_deletes_a_memory_its_history_and_its_links_for_good(service):
    other = service.add("A neighbour")
    memory = service.add("Soon gone for good", dedup=False)
    service.link(other["id"], memory["id"])
    service.update(memory["id"], content="Soon gone forever")
    service.remove(memory["id"])
    service.purge(memory["id"])
    with pytest.raises(NotFound):
        service.get(memory["id"])
    with pytest.raises(NotFound):
        service.history(memory["id"])
    assert service.get(other["id"])["links"] == []
    assert service.stats()["versions"] == 0
    assert service.search("gone", include_inactive=True, record=False)["hits"] == []


def test_empty_trash_purges_only_deleted_memories(service):
    keep = service.add("Keep this one")
    for text in ("Trash one", "Trash two about other things"):
        service.remove(service.add(text, dedup=False)["id"])
    assert service.empty_trash() == 2
    assert [m["id"] for m in service.list_memories(status=None)] == [keep["id"]]
    assert service.empty_trash() == 0


def test_revert_brings_back_an_earlier_version_as_a_new_version(service):
    memory = service.add("Version A", tags=["a"], kind="fact")
    service.update(memory["id"], content="Version B", tags=["b"])
    service.update(memory["id"], content="Version C", kind="decision")
    reverted = service.revert(memory["id"], 1, expected_version=3)
    assert (reverted["content"], reverted["tags"], reverted["kind"]) == ("Version A", ["a"], "fact")
    assert reverted["version"] == 4
    last = service.history(memory["id"])[-1]
    assert (last["change"], last["reason"]) == ("revert", "reverted to version 1")
    assert [v["content"] for v in service.history(memory["id"])] == [
        "Version A",
        "Version B",
        "Version C",
        "Version A",
    ]


def test_revert_to_a_version_that_does_not_exist_is_refused(service):
    memory = service.add("Only one version")
    with pytest.raises(NotFound, match="no earlier version 5") as caught:
        service.revert(memory["id"], 5)
    assert caught.value.field == "version"


def test_revert_with_a_stale_expected_version_is_a_conflict(service):
    memory = service.add("One")
    service.update(memory["id"], content="Two")
    with pytest.raises(VersionConflict):
        service.revert(memory["id"], 1, expected_version=1)
    assert service.get(memory["id"])["content"] == "Two"


def test_link_and_unlink(service):
    a = service.add("Postgres is the main database")
    b = service.add("Backups of the main database run nightly", dedup=False)
    assert service.link(a["id"], b["id"], "derived_from") == {
        "from": a["id"],
        "to": b["id"],
        "relation": "derived_from",
    }
    assert service.get(a["id"])["links"] == [
        {"id": b["id"], "relation": "derived_from", "direction": "out"}
    ]
    assert service.get(b["id"])["links"] == [
        {"id": a["id"], "relation": "derived_from", "direction": "in"}
    ]
    assert service.unlink(a["id"], b["id"]) == 1
    assert service.get(a["id"])["links"] == []
    assert service.get(b["id"])["links"] == []


def test_a_memory_cannot_be_linked_to_itself(service):
    a = service.add("Self reference")
    with pytest.raises(ValidationError, match="itself") as caught:
        service.link(a["id"], a["id"])
    assert caught.value.field == "to"
    assert service.get(a["id"])["links"] == []


def test_link_names_the_bad_end_and_the_bad_relation(service):
    a = service.add("Linked")
    with pytest.raises(NotFound) as caught:
        service.link(a["id"], "00000000-0000-0000-0000-000000000000")
    assert caught.value.field == "to"
    b = service.add("Also linked but different words", dedup=False)
    with pytest.raises(ValidationError) as caught:
        service.link(a["id"], b["id"], "friends_with")
    assert caught.value.field == "relation"
    assert service.get(a["id"])["links"] == []


def test_permanent_deletion_is_the_persons_alone(service, dump):
    bot = agent("bot")
    own = service.add("an agent's note", actor=bot)
    persons = service.add("the person's rule")
    service.remove(own["id"], actor=bot)
    service.remove(persons["id"])
    before = dump()
    for attempt in (
        lambda: service.purge(persons["id"], actor=bot),
        lambda: service.purge(own["id"], actor=bot),
        lambda: service.empty_trash(actor=bot),
    ):
        with pytest.raises(NotAllowed) as refused:
            attempt()
        assert "only the person may" in refused.value.message
        assert "memory.remove" in refused.value.message
    assert dump() == before
    assert service.empty_trash() == 2


def test_a_full_disk_is_said_plainly_reads_go_on_and_writes_resume(service):
    from memdesk.core import DiskFull

    kept = service.add("written before the disk filled up")
    pages = service.database.execute_sql("PRAGMA page_count").fetchone()[0]
    service.database.execute_sql(f"PRAGMA max_page_count = {pages}")  # as if the disk were full
    with pytest.raises(DiskFull, match="disk full"):
        service.add_many([{"content": "x" * 3000 + str(n)} for n in range(50)], dedup=False)
    assert service.get(kept["id"])["content"] == "written before the disk filled up"
    assert service.count() == 1
    service.database.execute_sql("PRAGMA max_page_count = 1073741823")  # space is back
    assert service.add("written after")["content"] == "written after"


def test_a_full_disk_at_commit_is_said_plainly_however_deep_sqlite_buries_it(service, dump):
    """A red team's disk filled at COMMIT: peewee's and SQLite's failed rollbacks buried the
    cause three errors down, and the CLI printed a 66-line traceback."""
    import sqlite3

    import peewee

    from memdesk.core import DiskFull
    from memdesk.core.desk import Desk

    def failed_commit():
        try:
            try:
                raise sqlite3.OperationalError("database or disk is full")
            except sqlite3.OperationalError:
                raise sqlite3.OperationalError("cannot rollback - no transaction is active")  # noqa: B904
        except sqlite3.OperationalError as exc:
            raise peewee.OperationalError(str(exc)) from None

    before = dump()
    with pytest.raises(DiskFull, match="disk full"), Desk(service.database).transaction():
        failed_commit()
    assert dump() == before


def test_a_read_only_database_refuses_writes_with_the_reason(service):
    from memdesk.core import ReadOnly

    kept = service.add("readable")
    service.database.execute_sql("PRAGMA query_only = 1")
    with pytest.raises(ReadOnly, match="read-only"):
        service.add("refused")
    assert service.get(kept["id"])["content"] == "readable"
    service.database.execute_sql("PRAGMA query_only = 0")


def test_the_persons_edit_of_a_memory_replaced_or_trashed_meanwhile_says_so(service):
    """An agent corrected a memory (or trashed it) while the person was about to edit it: the
    person's edit landed on the retired one, "saved", and agents kept the agent's version."""
    claude = agent("claude-code")
    replaced = service.add("Build with make all", actor=claude)
    newer = service.correct(replaced["id"], "Build with ninja", actor=claude)
    with pytest.raises(NotAllowed, match=f"replaced by agent:claude-code.*edit {newer['id']}"):
        service.update(replaced["id"], content="Build with make -j8, never ninja")
    trashed = service.add("Deploy on Fridays", actor=claude)
    service.remove(trashed["id"], actor=claude)
    with pytest.raises(NotAllowed, match="moved to the Trash.*restore it first"):
        service.update(trashed["id"], content="Deploy on Thursdays")
    assert service.get(replaced["id"])["content"] == "Build with make all"
    service.restore(trashed["id"])
    assert service.update(trashed["id"], content="Deploy on Thursdays")["content"] == (
        "Deploy on Thursdays"
    )


def test_check_under_another_writers_lock_says_busy_not_damaged(service):
    """A red team held BEGIN EXCLUSIVE in another process: `check` reported the search index
    out of sync (exit 1, "problems found") for a healthy file."""
    import sqlite3
    from contextlib import closing

    from memdesk.core import Busy

    service.add("a healthy store")
    service.database.execute_sql("PRAGMA busy_timeout = 50")
    with closing(sqlite3.connect(service.path, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(Busy, match="busy"):
            service.check()
        other.execute("ROLLBACK")
    assert service.check() == []


def test_calls_that_would_change_nothing_are_refused_not_answered_as_done(service):
    """An MCP tryout: an agent's revert of another agent's memory to the same words, an
    update naming no field, and a correction repeating the words were all answered as done
    (the correction retired the memory for a copy of itself)."""
    theirs = service.add("Uses pnpm.", actor=agent("agent-a"))
    service.update(theirs["id"], tags=["js"], actor=agent("agent-a"))
    service.update(theirs["id"], tags=[], actor=agent("agent-a"))  # as version 1 again
    with pytest.raises(NotAllowed, match="agent agent-a's"):
        service.revert(theirs["id"], 1, actor=agent("agent-b"))
    with pytest.raises(ValidationError, match="nothing to change: give one or more of content"):
        service.update(theirs["id"], actor=agent("agent-a"))
    with pytest.raises(ValidationError, match="already says; give the corrected text"):
        service.correct(theirs["id"], "Uses pnpm.", actor=agent("agent-a"))
    assert service.get(theirs["id"])["status"] == "active"
    assert service.get(theirs["id"])["version"] == 3
