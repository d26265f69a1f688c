"""Copies of the database file through SQLite's online backup API, checked before they count.

A copy is one backup step: one read snapshot of the source, so in WAL mode writers go on
while it is taken and the copy is consistent to one moment. It is written beside its final
name and renamed only once both integrity checks pass, so a half-written or broken copy is
never listed as a backup.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import peewee

from memdesk.store import fts
from memdesk.store.db import BUSY_TIMEOUT_MS
from memdesk.store.migrations import migrate


class BackupError(Exception):
    """A copy could not be made, or a file is not a backup that can be restored."""


def snapshot(source: Path, dest: Path, *, checked: bool = True) -> None:
    """Copy the database `source` into the new file `dest` (mode 0600). Unless `checked` is
    False (the copy of whatever state a restore replaces: kept even when that state is
    broken, or a broken state could never be left), a copy failing its check is not kept."""
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
        if problems and checked:
            raise BackupError(f"the copy of {source} failed its integrity check: {problems[0]}")
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)


def read_only(path: Path) -> str:
    """The URI that opens `path` read-only. Made by hand (`file:{path}?mode=ro`), SQLite read
    a "%2e" in the name as ".", and all after a "#" or a "?" as its own: restoring
    "memories%2ebackup" opened the FIFO "memories.backup" beside it, and "bk#1.sqlite3"
    installed "bk"."""
    return f"{Path(path).absolute().as_uri()}?mode=ro"


# What SQLite opens beside a database file it reads (a hot journal, a WAL and its index).
_COMPANIONS = ("-journal", "-wal", "-shm")


def _refuse_all_but_a_file(path: Path) -> None:
    """Opening a FIFO waits until someone writes to it: a "backup" that was one held the
    server's thread, every client's answers with it, for as long as nobody did; so did a
    FIFO named `<backup>-journal` beside a real backup, which SQLite opens on its own."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise BackupError(f"{path} is not a regular file")
    for suffix in _COMPANIONS:
        beside = path.with_name(path.name + suffix)
        try:
            mode = os.stat(beside).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise BackupError(
                f"{beside} beside the backup is not a regular file (SQLite would read it as "
                "part of the backup); remove it, or copy the backup file alone elsewhere"
            )


def _copy_alone(path: Path, copy: Path) -> None:
    """`path`'s bytes into `copy`, read from one descriptor opened without waiting, found
    regular and of a believable size on that very descriptor. Opened again by name, a file
    swapped for a FIFO in between held the server (SIGTERM with it); read by SQLite, a -wal
    beside it went into the restore; an 8 GB sparse "backup" was copied whole before its
    check failed. SQLite reads only the copy, alone in a private folder."""
    _refuse_all_but_a_file(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as source:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise BackupError(f"{path} is not a regular file")
        _refuse_an_impossible_size(path, status, os.pread(fd, 100, 0))
        with copy.open("xb") as out:
            shutil.copyfileobj(source, out, _CHUNK)


_CHUNK = 1 << 20


_HEADER = b"SQLite format 3\x00"


def _refuse_an_impossible_size(path: Path, status: os.stat_result, header: bytes) -> None:
    """A database file is its pages: one larger than the pages its header counts, or mostly
    holes, is no backup SQLite wrote."""
    size = status.st_size
    if header[:16] == _HEADER and header[24:28] == header[92:96]:  # the count is current
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        if pages and size > pages * page_size:
            raise BackupError(
                f"{path} is {size:,} bytes, but the database it holds is {pages * page_size:,}: "
                "not a file SQLite wrote"
            )
    if size > _HOLES_FROM and status.st_blocks * 512 < size // 2:
        raise BackupError(f"{path} is {size:,} bytes, mostly holes: not a file SQLite wrote")


_HOLES_FROM = 64 * 1024 * 1024


def inspect(path: Path) -> dict[str, int]:
    """Schema version and memory count of a backup file, read without changing it."""
    try:
        _refuse_all_but_a_file(path)
        with closing(sqlite3.connect(read_only(path), uri=True)) as peek:
            version = peek.execute("PRAGMA user_version").fetchone()[0]
            memories = peek.execute("SELECT COUNT(*) FROM memory").fetchone()[0]
    except (sqlite3.DatabaseError, OSError) as exc:
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
    with closing(sqlite3.connect(read_only(path), uri=True)) as peek:
        problems = [r[0] for r in peek.execute("PRAGMA integrity_check") if r[0] != "ok"]
        if problems:
            raise BackupError(f"{path} is damaged: {problems[0]}")
        if dangling := peek.execute("PRAGMA foreign_key_check").fetchone():
            # a link to a row that does not exist: the next memory given that row id would
            # have been born linked ("supersedes" something) by the file
            table, rowid, parent, _ = dangling
            raise BackupError(
                f"{path} is damaged: row {rowid} of {table} points at a {parent} row that "
                "does not exist"
            )
        foreign = schema_differences(_schema(peek), expected_schema(facts["schema"]))
        spent = _spent_counters(peek)
    if foreign:
        # A crafted file can carry a trigger that deletes rows on every insert, a view, or an
        # FTS table whose tokenizer does not exist: any of them would act after the restore.
        raise BackupError(
            f"{path} is not a database memdesk made (schema {facts['schema']}): "
            + "; ".join(foreign[:3])
            + (f"; and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        )
    if spent:
        # the next row of that table would need an id past SQLite's largest: every later
        # write failed, reported as "disk full"
        raise BackupError(
            f"{path} is not a database memdesk made: the row counter of {spent[0]} is past "
            f"what any store reaches ({MAX_COUNTER:,})"
        )
    _check_search_index(path)
    return facts


MAX_COUNTER = 2**53  # ids given by AUTOINCREMENT; a store of a million rows a day lasts ages


def _spent_counters(connection: sqlite3.Connection) -> list[str]:
    exists = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ).fetchone()
    if not exists:
        return []
    rows = connection.execute("SELECT name FROM sqlite_sequence WHERE seq > ?", (MAX_COUNTER,))
    return [name for (name,) in rows]


def match_page_size(copy: Path, like: sqlite3.Connection) -> None:
    """Rewrite the private `copy` with the page size of the database behind `like`: SQLite
    copies a backup into a database in WAL mode only page size for page size ("attempt to
    write a readonly database" was all a person was told)."""
    wanted = like.execute("PRAGMA page_size").fetchone()[0]
    with closing(sqlite3.connect(copy)) as connection:
        if connection.execute("PRAGMA page_size").fetchone()[0] == wanted:
            return
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute(f"PRAGMA page_size = {int(wanted)}")
        connection.execute("VACUUM")


@contextmanager
def private_copy(path: Path, near: Path | None = None) -> Iterator[Path]:
    """A writable copy of the database file `path` (in a private folder in `near`, else the
    system's temporary folder), deleted after: what checks that write (FTS5's, a migration)
    run on, leaving the file untouched."""
    if near is not None:
        _clear_abandoned_copies(near)
    with tempfile.TemporaryDirectory(prefix=_COPIES, dir=near) as folder:
        copy = Path(folder) / "copy.sqlite3"
        _copy_alone(path, copy)
        yield copy


_COPIES = "memdesk-verify-"
# A check runs for minutes at most: a copy older than this was left by a process killed
# mid-way, a full copy of someone's backup that nothing listed.
_ABANDONED_S = 3600


def _clear_abandoned_copies(folder: Path) -> None:
    cutoff = time.time() - _ABANDONED_S
    for left in folder.glob(f"{_COPIES}*"):
        with contextlib.suppress(OSError):
            held = os.lstat(left)
            if stat.S_ISDIR(held.st_mode) and held.st_mtime < cutoff:
                shutil.rmtree(left)


def _check_search_index(path: Path) -> None:
    """Refuse a file whose search index does not match its memories, or whose index internals
    (format version, b-tree pages) are not FTS5's: restored, every add and search would fail.
    FTS5 checks only on a writable connection, so on a private copy: the file is untouched."""
    with private_copy(path) as copy, closing(sqlite3.connect(copy)) as connection:
        try:
            problems = fts.check_connection(connection)
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
    if problems:
        # (`memdesk check --rebuild` mends the live database's index, not this file's)
        broken = problems[0].removesuffix(fts.REBUILD).removesuffix(fts.REPLACE)
        raise BackupError(
            f"{path} has a broken search index: {broken}; it cannot be restored as it is: "
            "choose another backup (`memdesk backup --list`)"
        )


_Schema = dict[str, tuple[str, str, str]]


def _schema(connection: sqlite3.Connection) -> _Schema:
    """Every table, index, trigger and view by name: (type, table, SQL with spaces folded).
    SQLite's own statistics tables are not memdesk's schema; what they hold is analyzed anew
    after a restore, so a crafted file cannot steer the query planner."""
    # (by name: in LIKE an underscore is any character, and a trigger "sqliteXstat_poison"
    # went in unchecked; and only as tables: a trigger written into the schema by hand under
    # the name sqlite_stat3 went in unchecked too, and made every new memory an identity line)
    rows = connection.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE NOT (type = 'table' AND "
        "name IN ('sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3', 'sqlite_stat4'))"
    )
    return {name: (kind, table, " ".join((sql or "").split())) for kind, name, table, sql in rows}


def foreign_schema(connection: sqlite3.Connection) -> list[str]:
    """What the open database holds that memdesk does not make at its schema version (a
    trigger that rewrites every new memory, a view): the check a restore makes, for `check`."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    return schema_differences(_schema(connection), expected_schema(version))


@functools.cache
def expected_schema(version: int) -> _Schema:
    """The schema memdesk itself makes at `version`: its migrations run on an empty database."""
    reference = peewee.SqliteDatabase(":memory:")
    try:
        migrate(reference, Path(":memory:"), target=version)
        return _schema(reference.connection())
    finally:
        reference.close()


def schema_differences(found: _Schema, expected: _Schema) -> list[str]:
    """What `found` has that `expected` has not, lacks, or defines otherwise, in words."""
    out = [f"{found[n][0]} {n} is not memdesk's" for n in sorted(found.keys() - expected.keys())]
    out += [f"{expected[n][0]} {n} is missing" for n in sorted(expected.keys() - found.keys())]
    out += [
        f"{found[n][0]} {n} is defined otherwise ({found[n][2][:120]})"
        for n in sorted(found.keys() & expected.keys())
        if found[n] != expected[n]
    ]
    return out


def restore_into(connection: sqlite3.Connection, backup: Path) -> None:
    """Replace the whole content of the open database behind `connection` with `backup`'s,
    as one write: other connections see the old state or the new, never a mix."""
    try:
        with closing(sqlite3.connect(read_only(backup), uri=True)) as src:
            src.backup(connection)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"could not restore {backup}: {exc}") from None
