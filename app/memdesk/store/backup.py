"""Copies of the database file through SQLite's online backup API, checked before they count.

A copy is one backup step: one read snapshot of the source, so in WAL mode writers go on
while it is taken and the copy is consistent to one moment. It is written beside its final
name and renamed only once both integrity checks pass, so a half-written or broken copy is
never listed as a backup.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from memdesk.store import fts
from memdesk.store.db import BUSY_TIMEOUT_MS


class BackupError(Exception):
    """A copy could not be made, or a file is not a backup that can be restored."""


def snapshot(source: Path, dest: Path) -> None:
    """Copy the database `source` into the new file `dest` (mode 0600)."""
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        os.close(os.open(partial, os.O_CREAT | os.O_WRONLY, 0o600))
        with (
            closing(sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)) as src,
            closing(sqlite3.connect(partial)) as copy,
        ):
            src.backup(copy)
            # One self-contained file: no -wal beside it, readable from a read-only place.
            copy.execute("PRAGMA journal_mode=DELETE")
            problems = fts.check_connection(copy)
        if problems:
            raise BackupError(f"the copy of {source} failed its integrity check: {problems[0]}")
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)


def inspect(path: Path) -> dict[str, int]:
    """Schema version and memory count of a backup file, read without changing it."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as peek:
            version = peek.execute("PRAGMA user_version").fetchone()[0]
            memories = peek.execute("SELECT COUNT(*) FROM memory").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a memdesk backup: {exc}") from None
    return {"schema": version, "memories": memories}


def verify(path: Path, newest_schema: int) -> dict[str, int]:
    """Refuse a file that is not a healthy memdesk database this version can read."""
    if not path.is_file():
        raise BackupError(f"no backup file {path}")
    facts = inspect(path)
    if not 1 <= facts["schema"] <= newest_schema:
        raise BackupError(
            f"{path} holds schema {facts['schema']}; this memdesk reads 1..{newest_schema}"
        )
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as peek:
        problems = [r[0] for r in peek.execute("PRAGMA integrity_check") if r[0] != "ok"]
    if problems:
        raise BackupError(f"{path} is damaged: {problems[0]}")
    return facts


def restore_into(connection: sqlite3.Connection, backup: Path) -> None:
    """Replace the whole content of the open database behind `connection` with `backup`'s,
    as one write: other connections see the old state or the new, never a mix."""
    try:
        with closing(sqlite3.connect(f"file:{backup}?mode=ro", uri=True)) as src:
            src.backup(connection)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"could not restore {backup}: {exc}") from None
