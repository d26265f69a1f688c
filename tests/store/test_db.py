"""Opening the database: pragmas on every connection, and writes that take the lock up front."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing

import pytest

from memdesk.core import Busy, agent
from memdesk.store import open_database


def _pragmas(database) -> dict[str, object]:
    names = ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
    return {n: database.execute_sql(f"PRAGMA {n}").fetchone()[0] for n in names}


# synchronous 2 = FULL: an acknowledged write survives power loss, not only a crash
EXPECTED = {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 5000, "synchronous": 2}


def test_open_creates_the_file_in_wal_mode(db_path):
    database = open_database(db_path)
    try:
        assert db_path.exists()
        assert _pragmas(database) == EXPECTED
    finally:
        database.close()
    # WAL is a property of the file: a plain connection sees it too.
    with closing(sqlite3.connect(db_path)) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_open_creates_missing_parent_folders(tmp_path):
    database = open_database(tmp_path / "a" / "b" / "memdesk.db")
    database.close()
    assert (tmp_path / "a" / "b" / "memdesk.db").exists()


def test_a_second_thread_gets_its_own_connection_with_the_same_pragmas(service):
    seen: dict[str, object] = {}

    def work() -> None:
        try:
            seen["connection"] = service.database.connection()
            seen.update(_pragmas(service.database))
        finally:
            service.database.close()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen.pop("connection") is not service.database.connection()
    assert seen == EXPECTED


def _write_statements_outside_immediate(statements: list[str]) -> list[str]:
    """Data-changing SQL that did not run inside a BEGIN IMMEDIATE transaction.

    A deferred BEGIN is fine for a read snapshot (export), never for a write.
    """
    bad, immediate = [], False
    for sql in statements:
        if sql.startswith("--") or not sql.strip():
            continue  # statements run by SQLite itself (FTS triggers)
        word = sql.split(None, 1)[0].upper()
        if word == "BEGIN":
            immediate = sql.upper() == "BEGIN IMMEDIATE"
        elif word in ("COMMIT", "ROLLBACK", "END"):
            immediate = False
        elif word in ("INSERT", "UPDATE", "DELETE", "REPLACE") and not immediate:
            bad.append(sql)
    return bad


def test_every_write_runs_in_a_begin_immediate_transaction(service):
    statements: list[str] = []
    service.database.connection().set_trace_callback(statements.append)
    a = service.add("The staging server runs Debian")
    b = service.add("Backups run nightly at two", dedup=False)
    service.add("The staging server runs Debian")  # reinforced
    service.add_many([{"content": "first of many"}, {"content": "second of many"}])
    service.update(a["id"], content="The staging server runs Debian 12")
    service.search("staging server")
    service.link(a["id"], b["id"])
    service.unlink(a["id"], b["id"])
    service.correct(b["id"], "Backups run nightly at three")
    service.remove(a["id"])
    service.restore(a["id"])
    service.revert(a["id"], 1)
    service.set_identity("I am the operator")
    service.archive_session(what="Checked the servers")
    service.remove(a["id"])
    service.purge(a["id"])
    service.import_json(service.export("json"))
    service.rebuild_index()
    service.database.connection().set_trace_callback(None)

    assert statements.count("BEGIN IMMEDIATE") >= 17
    assert _write_statements_outside_immediate(statements) == []


def test_a_second_writer_waits_for_the_lock_instead_of_failing(service, db_path):
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        started = time.monotonic()
        memory = service.add("Written while another process held the lock")
        waited = time.monotonic() - started
    finally:
        release.join()
        other.close()
    assert waited >= 0.2
    assert service.get(memory["id"])["content"] == "Written while another process held the lock"


def test_a_writer_that_waits_too_long_gets_a_busy_error_and_changes_nothing(service, db_path):
    service.database.execute_sql("PRAGMA busy_timeout = 50")
    events = []
    service.changes.subscribe(events.append)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(Busy) as caught:
            service.add("never written")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert caught.value.code == "busy"
    assert "try again" in caught.value.message
    assert service.count(status=None) == 0
    assert events == []


def test_search_answers_while_another_writer_holds_the_lock(service, db_path):
    memory = service.add("Searchable while locked")
    service.database.execute_sql("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        hits = service.search("searchable", actor=agent("a"))["hits"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert [h["id"] for h in hits] == [memory["id"]]
    # The recall is recorded once the lock is free, before anyone can read it.
    assert service.get(memory["id"])["recall_count"] == 1
    assert [entry["query"] for entry in service.retrieval_log()] == ["searchable"]


def test_a_second_database_cannot_be_opened_while_one_is_open(service, tmp_path):
    # Models are bound process-wide: a second file would silently take over the first's queries.
    with pytest.raises(RuntimeError, match="still open"):
        open_database(tmp_path / "other.db")
    service.add("still written to the first file")
    assert service.count() == 1


def test_a_new_database_and_its_folder_are_private(tmp_path):
    folder = tmp_path / "data" / "memdesk"
    database = open_database(folder / "memdesk.db")
    try:
        database.execute_sql("CREATE TABLE IF NOT EXISTS probe (x)")
        files = [folder / "memdesk.db", folder / "memdesk.db-wal", folder / "memdesk.db-shm"]
        assert {f.name: oct(f.stat().st_mode & 0o777) for f in files} == {
            f.name: "0o600" for f in files
        }
        assert oct(folder.stat().st_mode & 0o777) == "0o700"
    finally:
        database.close()


def test_an_existing_world_readable_database_is_narrowed_to_its_owner(tmp_path):
    path = tmp_path / "old.db"
    open_database(path).close()
    path.chmod(0o644)
    open_database(path).close()
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_read_only_database_is_refused_at_the_start_with_the_reason(tmp_path, monkeypatch):
    import os

    from memdesk.store import SchemaError

    path = tmp_path / "ro.db"
    open_database(path).close()
    # Root may write anything, so the test tells memdesk the file is read-only.
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if p == path else real_access(p, mode))
    with pytest.raises(SchemaError, match="read-only for this user"):
        open_database(path)


def test_a_database_file_with_a_second_name_is_refused(tmp_path):
    """A hard link gave one file two names: a second memdesk served the other name, SQLite
    kept a journal per name, and 44 of 100 acknowledged writes vanished (once the file was
    left malformed) while `memdesk check` said all was well."""
    import os

    from memdesk.store import SchemaError

    path = tmp_path / "memdesk.db"
    open_database(path).close()
    os.link(path, tmp_path / "hard.db")
    for name in (path, tmp_path / "hard.db"):
        with pytest.raises(SchemaError, match="2 names"):
            open_database(name)
    os.unlink(tmp_path / "hard.db")
    open_database(path).close()
