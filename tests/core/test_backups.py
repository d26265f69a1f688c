"""Backups: taken on demand and daily, rotated, checked, and restored exactly."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from datetime import UTC, datetime, timedelta

import pytest

from memdesk.core import MemoryService, NotAllowed, NotFound, ValidationError, agent
from memdesk.core.backups import KEEP, BackupSchedule
from memdesk.store import fts

CLAUDE = agent("claude-code")


def _healthy(path: str) -> list[str]:
    with closing(sqlite3.connect(path)) as copy:
        return fts.check_connection(copy)


def test_restoring_a_backup_brings_back_exactly_that_state_and_keeps_the_current_one(service, dump):
    kept = service.add("The deploy script lives in ops/deploy.sh", tags=["ops"])
    service.link(kept["id"], service.add("CI runs on the new runners")["id"], relation="related")
    service.search("deploy script")
    before = dump()
    taken = service.backup()
    assert (taken["kind"], taken["memories"]) == ("manual", 2)

    service.update(kept["id"], content="The deploy script moved to tools/deploy.sh")
    service.add("Staging runs Debian 12")
    service.remove(kept["id"])
    after = dump()
    heard = []
    service.changes.subscribe(heard.extend)

    result = service.restore_backup(taken["name"])

    assert dump() == before
    assert service.search("deploy script")["hits"][0]["id"] == kept["id"]
    assert service.check() == []
    assert [(c.event, c.by) for c in heard] == [("reset", "user")]
    # The state the restore replaced is a backup of its own: restoring it takes the restore back.
    assert result["before"]["kind"] == "before-restore"
    service.restore_backup(result["before"]["name"])
    assert dump() == after


def test_a_restored_database_still_works_after_reopening(service, db_path):
    service.add("Ports below 1024 need root")
    taken = service.backup()
    service.add("Added after the backup")
    service.restore_backup(taken["name"])
    service.close()
    reopened = MemoryService.open(db_path)
    try:
        assert [m["content"] for m in reopened.list_memories()] == ["Ports below 1024 need root"]
        assert reopened.check() == []
        assert reopened.search("ports root")["hits"]
    finally:
        reopened.close()


def test_automatic_backups_rotate_but_the_persons_own_are_kept(service):
    service.add("something to keep")
    mine = service.backup()
    for _ in range(KEEP + 2):
        service.backup(automatic=True)
    kinds = [b["kind"] for b in service.backups()]
    assert kinds.count("auto") == KEEP
    assert mine["name"] in [b["name"] for b in service.backups()]


def test_the_list_is_newest_first(service):
    first = service.backup()
    second = service.backup(automatic=True)
    assert [b["name"] for b in service.backups()] == [second["name"], first["name"]]


def test_a_backup_is_due_when_none_is_younger_than_a_day(service):
    assert service.backup_due()
    service.backup(automatic=True)
    assert not service.backup_due()
    assert service.backup_due(datetime.now(UTC) + timedelta(days=1, seconds=1))


def test_the_schedule_backs_up_at_start_when_one_is_due(service):
    schedule = BackupSchedule(service, check_every_s=3600)
    schedule.start()
    try:
        deadline = datetime.now(UTC) + timedelta(seconds=10)
        while not service.backups() and datetime.now(UTC) < deadline:
            threading.Event().wait(0.02)
    finally:
        schedule.stop()
    assert [b["kind"] for b in service.backups()] == ["auto"]


def test_agents_may_neither_take_nor_restore_backups(service, dump):
    service.add("a memory")
    taken = service.backup()
    before = dump()
    with pytest.raises(NotAllowed, match="only the person"):
        service.backup(actor=CLAUDE)
    with pytest.raises(NotAllowed, match="only the person"):
        service.restore_backup(taken["name"], actor=CLAUDE)
    assert dump() == before
    assert len(service.backups()) == 1


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (None, NotFound, "no backup named"),
        (b"not a database at all, just some bytes" * 100, ValidationError, "not a memdesk"),
        ("newer", ValidationError, "schema 99"),
    ],
)
def test_a_bad_backup_is_refused_and_nothing_changes(
    service, dump, tmp_path, content, error, message
):
    service.add("the state that must survive")
    before = dump()
    name = "missing.sqlite3"
    if content == "newer":
        path = tmp_path / "newer.sqlite3"
        with closing(sqlite3.connect(path)) as other:
            other.execute("CREATE TABLE memory (id INTEGER)")
            other.execute("PRAGMA user_version = 99")
        name = str(path)
    elif content is not None:
        path = tmp_path / "junk.sqlite3"
        path.write_bytes(content)
        name = str(path)
    with pytest.raises(error, match=message):
        service.restore_backup(name)
    assert dump() == before
    assert [b["kind"] for b in service.backups()] == []  # nothing was even backed up first


def test_a_backup_taken_under_write_load_passes_both_integrity_checks(db_path):
    writer_service = MemoryService.open(db_path)
    stop = threading.Event()
    written = []

    def write() -> None:
        n = 0
        while not stop.is_set():
            written.append(writer_service.add(f"load memory {n} about topic{n % 97}", dedup=False))
            n += 1
        writer_service.release_thread()

    thread = threading.Thread(target=write)
    thread.start()
    try:
        while len(written) < 50:
            threading.Event().wait(0.01)
        taken = [writer_service.backup() for _ in range(5)]
    finally:
        stop.set()
        thread.join()
    try:
        counts = [b["memories"] for b in taken]
        assert counts == sorted(counts)
        assert counts[0] >= 50
        for backup in taken:
            assert _healthy(backup["path"]) == []
    finally:
        writer_service.close()
