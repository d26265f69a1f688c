"""SQLite's statistics: taken when a store has none or outgrew them, never taken from a file."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from memdesk.core import MemoryService


def _stats(path) -> dict[str, str]:
    with closing(sqlite3.connect(path)) as raw:
        return dict(raw.execute("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'memory'"))


def _drop_stats(path) -> None:
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("DELETE FROM sqlite_stat1")


def test_a_store_never_analyzed_is_analyzed_when_opened(db_path):
    service = MemoryService.open(db_path)
    service.add_many([{"content": f"note {n}"} for n in range(300)], dedup=False)
    service.close()
    _drop_stats(db_path)

    MemoryService.open(db_path).close()

    assert _stats(db_path)["memory_status_updated"].split()[0] == "300"


def test_statistics_of_a_store_a_tenth_its_size_are_taken_again(db_path):
    service = MemoryService.open(db_path)
    service.add_many([{"content": f"note {n}"} for n in range(20)], dedup=False)
    service.close()
    with closing(sqlite3.connect(db_path)) as raw, raw:
        raw.execute("UPDATE sqlite_stat1 SET stat = '20 20 20 1' WHERE tbl = 'memory'")
        raw.executemany(
            "INSERT INTO memory (uuid, layer, kind, content, source, created_at, updated_at) "
            "VALUES (?, 'L1', 'fact', 'x', 'user', '2026-01-01', '2026-01-01')",
            [(f"u{n}",) for n in range(400)],
        )

    MemoryService.open(db_path).close()

    assert int(_stats(db_path)["memory_status_updated"].split()[0]) > 100


def test_a_restored_backup_brings_no_statistics_of_its_own(service, db_path):
    service.add_many([{"content": f"note {n}"} for n in range(50)], dedup=False)
    taken = service.backup()
    backup = service.backup_folder() / taken["name"]
    backup.chmod(0o600)
    with closing(sqlite3.connect(backup)) as raw, raw:  # crafted: every index looks useless
        raw.execute("UPDATE sqlite_stat1 SET stat = '1000000000 1000000000'")

    service.restore_backup(taken["name"])

    assert "1000000000" not in str(_stats(db_path))
    assert service.count() == 50
