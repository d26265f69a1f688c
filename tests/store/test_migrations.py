"""Schema versions: a new file is migrated to the current schema, a newer one is refused
untouched, an older one is backed up before it is migrated, a failed step changes nothing."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

import peewee
import pytest

from memdesk.core import MemoryService
from memdesk.store import SchemaError, migrations, open_database


def _rows(path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(path)) as plain:
        return plain.execute(sql).fetchall()


def _user_version(path) -> int:
    return _rows(path, "PRAGMA user_version")[0][0]


def _tables(path) -> set[str]:
    return {r[0] for r in _rows(path, "SELECT name FROM sqlite_master WHERE type='table'")}


def _columns(path) -> set[str]:
    return {r[1] for r in _rows(path, "PRAGMA table_info(memory)")}


def test_an_empty_file_is_migrated_to_the_current_schema(db_path):
    db_path.touch()
    open_database(db_path).close()
    assert _user_version(db_path) == migrations.SCHEMA_VERSION
    assert {"memory", "memory_version", "link", "retrieval_log", "memory_fts"} <= _tables(db_path)
    assert list(db_path.parent.glob("*.bak")) == []


def test_reopening_a_current_file_keeps_its_data_and_makes_no_backup(db_path):
    with_data = MemoryService.open(db_path)
    memory = with_data.add("Kept across restarts")
    with_data.close()
    again = MemoryService.open(db_path)
    try:
        assert again.get(memory["id"])["content"] == "Kept across restarts"
    finally:
        again.close()
    assert list(db_path.parent.glob("*.bak")) == []


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_a_file_from_a_newer_memdesk_is_refused_and_left_untouched(db_path, journal):
    newer = migrations.SCHEMA_VERSION + 1
    plain = sqlite3.connect(db_path)
    plain.execute(f"PRAGMA journal_mode = {journal}")
    plain.execute("CREATE TABLE memory (id INTEGER PRIMARY KEY, future TEXT)")
    plain.execute("INSERT INTO memory (future) VALUES ('from the future')")
    plain.execute(f"PRAGMA user_version = {newer}")
    plain.commit()
    plain.close()
    before = db_path.read_bytes()

    with pytest.raises(SchemaError) as caught:
        open_database(db_path)

    message = str(caught.value)
    assert f"schema {newer}" in message
    assert "newer memdesk" in message
    assert "Upgrade memdesk" in message
    assert db_path.read_bytes() == before
    assert list(db_path.parent.glob("*.bak")) == []


def test_a_file_that_is_not_sqlite_is_refused_with_a_clear_message(db_path):
    db_path.write_text("these are my shopping notes\n" * 100)
    with pytest.raises(SchemaError, match="not a usable memdesk database"):
        open_database(db_path)
    assert db_path.read_text().startswith("these are my shopping notes")


def test_another_programs_database_is_refused_not_filled_with_memdesk_tables(db_path):
    with closing(sqlite3.connect(db_path)) as plain:
        plain.execute("CREATE TABLE places (url TEXT)")
        plain.execute("INSERT INTO places VALUES ('https://example.org')")
        plain.commit()
    with pytest.raises(SchemaError, match="not a memdesk database"):
        open_database(db_path)
    assert _tables(db_path) == {"places"}
    assert _user_version(db_path) == 0


@pytest.fixture
def next_version(monkeypatch):
    """Pretend the code ships one more schema step: a new column on memory."""

    def add_column(db: peewee.SqliteDatabase) -> None:
        db.execute_sql("ALTER TABLE memory ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")

    steps = [*migrations.MIGRATIONS, add_column]
    monkeypatch.setattr(migrations, "MIGRATIONS", steps)
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(steps))
    return len(steps)


def _older_file(db_path) -> str:
    old = MemoryService.open(db_path)
    memory = old.add("Written by the older schema")
    old.close()
    return memory["id"]


def test_an_older_file_is_backed_up_then_migrated(db_path, next_version):
    memory_id = _older_file(db_path)
    database = peewee.SqliteDatabase(str(db_path))
    try:
        migrations.migrate(database, db_path, target=next_version)
    finally:
        database.close()

    backup = db_path.with_name(f"{db_path.name}.v{next_version - 1}.bak")
    assert backup.exists()
    assert _user_version(backup) == next_version - 1
    assert "pinned" not in _columns(backup)
    assert _rows(backup, "SELECT uuid FROM memory") == [(memory_id,)]

    assert _user_version(db_path) == next_version
    assert "pinned" in _columns(db_path)
    assert _rows(db_path, "SELECT uuid, pinned FROM memory") == [(memory_id, 0)]


def test_a_failing_step_leaves_the_file_at_its_old_version(db_path, monkeypatch):
    memory_id = _older_file(db_path)

    def broken(db: peewee.SqliteDatabase) -> None:
        db.execute_sql("ALTER TABLE memory ADD COLUMN half_done TEXT")
        raise RuntimeError("step failed halfway")

    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, broken])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(migrations.MIGRATIONS))
    database = peewee.SqliteDatabase(str(db_path))
    try:
        with pytest.raises(RuntimeError, match="halfway"):
            migrations.migrate(database, db_path, target=migrations.SCHEMA_VERSION)
    finally:
        database.close()

    assert _user_version(db_path) == migrations.SCHEMA_VERSION - 1
    assert "half_done" not in _columns(db_path)
    assert _rows(db_path, "SELECT uuid FROM memory") == [(memory_id,)]


def test_v10_lists_what_earlier_injections_gave_one_row_per_memory(db_path):
    database = peewee.SqliteDatabase(str(db_path))
    try:
        migrations.migrate(database, db_path, target=9)
        database.execute_sql(
            "INSERT INTO session (id, agent, started_at, last_seen_at) VALUES ('s1', 'a', 't', 't')"
        )
        database.execute_sql(
            "INSERT INTO injection (session_id, at, event, memories, chars) "
            "VALUES ('s1', '2026-11-01', 'start', '[\"m1\", \"m2\"]', 40)"
        )
        migrations.migrate(database, db_path, target=10)
    finally:
        database.close()
    assert _rows(db_path, "SELECT session_id, memory, at FROM injected_memory ORDER BY memory") == [
        ("s1", "m1", "2026-11-01"),
        ("s1", "m2", "2026-11-01"),
    ]


def test_a_v12_store_keeps_its_agent_controls_and_takes_the_new_one(db_path):
    """v13 makes agent_control again (SQLite cannot widen a CHECK): no row may be lost."""
    database = peewee.SqliteDatabase(str(db_path))
    try:
        migrations.migrate(database, db_path, target=12)
        database.execute_sql(
            "INSERT INTO agent_control VALUES ('cursor', 'paused', '2026-01-01T00:00:00Z')"
        )
    finally:
        database.close()
    service = MemoryService.open(db_path)
    try:
        assert service.agent_modes() == {"cursor": "paused"}
        service.set_agent_mode("claude-code", "updates_fine")
        assert service.agent_modes()["claude-code"] == "updates_fine"
    finally:
        service.close()
    assert _user_version(db_path) == migrations.SCHEMA_VERSION


def test_processes_backing_up_the_same_file_at_once_all_succeed(tmp_path):
    # Each process opening an old file backs it up first; a partial file shared by all of
    # them was moved away under another's copy (FileNotFoundError in a whole-suite run).
    import subprocess
    import sys
    import time

    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path)) as old:
        old.execute("PRAGMA user_version = 1")
    script = (
        "import sys, time, pathlib, peewee\n"
        "from memdesk.store import migrations\n"
        "db = peewee.SqliteDatabase(sys.argv[1])\n"
        "while time.time() < float(sys.argv[2]): pass\n"
        "for _ in range(30): migrations._backup(db, pathlib.Path(sys.argv[1]), 1)\n"
    )
    start = time.time() + 1.0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), str(start)], stderr=subprocess.PIPE
        )
        for _ in range(6)
    ]
    results = [(p.wait(timeout=60), p.stderr.read().decode()[-300:]) for p in procs]
    for p in procs:
        p.stderr.close()
    assert results == [(0, "")] * 6
    assert (tmp_path / "old.db.v1.bak").is_file()
    assert not list(tmp_path.glob("*.partial"))


def test_a_file_that_is_not_sqlite_keeps_its_mode_and_gets_no_journal(db_path):
    """`--db /dev/null` as root made /dev/null 0600 for every user (red team 67)."""
    db_path.write_text("<html>the person's page</html>")
    db_path.chmod(0o644)
    with pytest.raises(SchemaError, match="not an SQLite file"):
        open_database(db_path)
    assert db_path.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in db_path.parent.iterdir()] == [db_path.name]


def test_a_fifo_given_as_the_database_is_refused_at_once(tmp_path):
    pipe = tmp_path / "memdesk.db"
    os.mkfifo(pipe)
    with pytest.raises(SchemaError, match="not a regular file"):
        open_database(pipe)


def test_a_history_a_sync_numbered_twice_is_numbered_apart_and_reads_back(db_path, tmp_path):
    """Before the sync fix, a store that took an edit over its own deletion held two
    version 2s: its export did not import and no later backup restored."""
    service = MemoryService.open(db_path)
    memory = service.add("Prefers pytest.")
    service.remove(memory["id"])
    service.close()
    with closing(sqlite3.connect(db_path)) as plain, plain:
        # as the sync left it: the edit from elsewhere taken as version 2 over the deletion
        plain.execute(
            "INSERT INTO memory_version (memory_id, version, state, changed_by, changed_at, "
            "change) SELECT memory_id, 2, json_set(state, '$.version', 2), 'system', "
            "'2026-01-01T00:00:00Z', 'sync' FROM memory_version"
        )
        plain.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION - 1}")
    service = MemoryService.open(db_path)
    try:
        versions = [v["version"] for v in service.history(memory["id"])]
        assert versions == [1, 2, 3]  # the past apart, the memory after it
        exported = service.export("json")
    finally:
        service.close()
    other = MemoryService.open(tmp_path / "other.db")
    try:
        assert other.import_json(exported)["added"] == 1
    finally:
        other.close()
