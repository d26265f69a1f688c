"""Numbered schema migrations, tracked in PRAGMA user_version.

Each step is frozen SQL run in its own IMMEDIATE transaction. An existing file is copied
aside before it is migrated, and a file written by a newer memdesk is refused. Steps 1 to 7
are in `migrations_v1_to_v7`; the later ones, and running them, here.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import peewee

from memdesk import paths
from memdesk.store import unspaced
from memdesk.store.db import SchemaError
from memdesk.store.migrations_v1_to_v7 import MIGRATIONS_V1_TO_V7

logger = logging.getLogger(__name__)


# Knowledge that stands whatever the task: what a session's briefing draws from.
STANDING = (
    "layer = 'L1' AND status = 'active' AND flag IS NULL "
    "AND kind IN ('preference', 'decision', 'fact', 'learning')"
)


def _v8_injections(db: peewee.SqliteDatabase) -> None:
    """What each session was given (so a prompt does not repeat the briefing, and the person
    can see it), and the process of the agent host that opened a session (a session whose host
    still runs is live, not crashed)."""
    for sql in (
        "ALTER TABLE session ADD COLUMN host_pid INTEGER",
        """CREATE TABLE injection (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES session (id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            event TEXT NOT NULL,
            memories TEXT NOT NULL DEFAULT '[]',
            chars INTEGER NOT NULL
        )""",
        "CREATE INDEX injection_session ON injection (session_id, id)",
        # The briefing's candidates: a project's (or no project's) standing knowledge, by
        # writer, best first, without sorting every memory of a big store.
        f"""CREATE INDEX memory_standing ON memory
            (project, source, importance DESC, updated_at DESC, visibility, agent)
            WHERE {STANDING}""",
    ):
        db.execute_sql(sql)


def _v9_inject(db: peewee.SqliteDatabase) -> None:
    """Whether memdesk may bring a memory up unasked (session briefing, per-prompt block): the
    person's "don't bring this up again" keeps it, searchable, out of injection."""
    db.execute_sql(
        "ALTER TABLE memory ADD COLUMN inject INTEGER NOT NULL DEFAULT 1 CHECK (inject IN (0, 1))"
    )


def _v10_injected_memory(db: peewee.SqliteDatabase) -> None:
    """Each memory an injection gave, one row each and indexed: how often a memory was given
    is asked on every click in the window, and reading every injection's JSON list for it took
    ~100 ms at 30,000 injections."""
    for sql in (
        """CREATE TABLE injected_memory (
            injection_id INTEGER NOT NULL REFERENCES injection (id) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            memory TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        "CREATE INDEX injected_memory_memory ON injected_memory (memory, at, session_id)",
        "CREATE INDEX injected_memory_injection ON injected_memory (injection_id)",
        """INSERT INTO injected_memory (injection_id, session_id, memory, at)
        SELECT i.id, i.session_id, given.value, i.at
        FROM injection AS i, json_each(i.memories) AS given""",
    ):
        db.execute_sql(sql)


def _v11_writer(db: peewee.SqliteDatabase) -> None:
    """Who wrote a memory that came through sync (person@machine, as its file says); None for
    one made here. A team's memories keep their writer on every machine."""
    db.execute_sql("ALTER TABLE memory ADD COLUMN writer TEXT")


def _v12_forgotten(db: peewee.SqliteDatabase) -> None:
    """What the person deleted for good, by id only: a sync sends it on as a tombstone, or a
    memory trashed and purged between two syncs would live on on every other machine."""
    db.execute_sql(
        "CREATE TABLE forgotten (uuid TEXT PRIMARY KEY, version INTEGER NOT NULL, at TEXT NOT NULL)"
    )


def _v13_updates_fine(db: peewee.SqliteDatabase) -> None:
    """A third control: an agent whose updates of its own notes replace them unasked. SQLite
    cannot change a CHECK: the table is made again with every row it held."""
    db.execute_sql(
        """CREATE TABLE agent_control_v13 (
            agent TEXT PRIMARY KEY,
            mode TEXT NOT NULL CHECK (mode IN ('paused', 'read_only', 'updates_fine')),
            changed_at TEXT NOT NULL
        )"""
    )
    db.execute_sql(
        "INSERT INTO agent_control_v13 SELECT agent, mode, changed_at FROM agent_control"
    )
    db.execute_sql("DROP TABLE agent_control")
    db.execute_sql("ALTER TABLE agent_control_v13 RENAME TO agent_control")


def _v14_change_count(db: peewee.SqliteDatabase) -> None:
    """A count of every change to what a sync sends (a memory's synced columns, links, what
    was deleted for good): a sync with nothing to do compares it instead of reading every
    memory again (0.9 s of Python at 100,000 memories, in the window's process, on every
    scheduled sync). The columns are those sync/local.py reads, as of this step."""
    db.execute_sql(
        "CREATE TABLE change_count (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)"
    )
    db.execute_sql("INSERT INTO change_count VALUES (1, 0)")
    columns = (
        "uuid, layer, kind, status, source, agent, project, task, tags, importance, "
        "confidence, inject, version, supersedes, created_at, updated_at, content, "
        "visibility, flag, writer"
    )
    for table, update in (("memory", f"UPDATE OF {columns}"), ("link", ""), ("forgotten", "")):
        for event in ("INSERT", "DELETE", update or "UPDATE"):
            db.execute_sql(
                f"CREATE TRIGGER change_count_{table}_{event.split()[0].lower()} AFTER {event} "
                f"ON {table} BEGIN UPDATE change_count SET n = n + 1; END"
            )


def _v15_edits_index(db: peewee.SqliteDatabase) -> None:
    """The edits of every memory, and when: the Timeline draws them as ticks. Asked per
    memory they were 100,000 probes of the version index at 100,000 memories (35-90 ms of
    the Timeline's load); read from this index alone they cost what there are edits."""
    db.execute_sql(
        "CREATE INDEX memory_version_edits ON memory_version (memory_id, changed_at) "
        "WHERE change IN ('update', 'revert')"
    )


def _v16_proposal_project(db: peewee.SqliteDatabase) -> None:
    """The project a session end heard a statement in: accepted from the Inbox, "this repo is
    pnpm only" became every project's rule, and refused `npm install` in an npm repository."""
    db.execute_sql("ALTER TABLE proposal ADD COLUMN project TEXT")


def _v17_counters_bounded(db: peewee.SqliteDatabase) -> None:
    """Counters an import once took up to SQLite's largest integer: the next search made
    one a REAL, and the store's own export no longer imported, nor its backups restored.
    The bound is models.MAX_COUNT as of this step."""
    for column in ("recall_count", "reinforce_count"):
        db.execute_sql(
            f"UPDATE memory SET {column} = MIN(MAX(CAST({column} AS INTEGER), 0), "
            f"1000000000000) WHERE typeof({column}) != 'integer' "
            f"OR {column} NOT BETWEEN 0 AND 1000000000000"
        )


def _v18_session_by_host(db: peewee.SqliteDatabase) -> None:
    """Whether a host's hooks (holding the person's key) opened the session: an agent naming
    itself "claude-code" acted in the person's Claude Code sessions, read their last prompt and
    planted a "recovered" plan in the next one (red team, stop 86). Sessions a hook opened
    before this step told it the host's process."""
    if "by_host" not in {c.name for c in db.get_columns("session")}:
        db.execute_sql("ALTER TABLE session ADD COLUMN by_host INTEGER NOT NULL DEFAULT 0")
    db.execute_sql("UPDATE session SET by_host = 1 WHERE host_pid IS NOT NULL")


def _v19_unspaced_context(db: peewee.SqliteDatabase) -> None:
    """Chinese, Japanese and Korean found by a word inside them: FTS5 had read a run of them
    as one word, so "安装" or "pnpm" in "我们用pnpm安装依赖" found nothing; full-width or
    decomposed text was found by no word typed the usual way. A memory holding such text gets
    it as the index can read it after its derived context (a task's neighbours' text), as
    core/search/neighbours.py writes it as of this step."""
    after = 0
    while rows := db.execute_sql(  # a page at a time: a million texts at once fill memory
        "SELECT id, content, context FROM memory WHERE id > ? ORDER BY id LIMIT 5000", (after,)
    ).fetchall():
        for memory_id, content, context in rows:
            if own := unspaced.indexable(content):
                text = "\n".join(p for p in (context, own) if p)
                db.execute_sql("UPDATE memory SET context = ? WHERE id = ?", (text, memory_id))
        after = rows[-1][0]


def _v20_versions_apart(db: peewee.SqliteDatabase) -> None:
    """Past versions numbered apart and below the memory's own: a sync took an edit from
    elsewhere under the number of a change made here (deleted here, edited there: two
    version 2s), and the store's export no longer imported, nor its backups restored. Each
    such history is numbered again in the order it was kept, the memory next after it."""
    tangled = db.execute_sql(
        "SELECT memory_id FROM memory_version GROUP BY memory_id "
        "HAVING count(*) != count(DISTINCT version) "
        "UNION SELECT v.memory_id FROM memory_version v JOIN memory m ON m.id = v.memory_id "
        "WHERE v.version >= m.version"
    ).fetchall()
    for (memory_id,) in tangled:
        kept = db.execute_sql(
            "SELECT id FROM memory_version WHERE memory_id = ? ORDER BY changed_at, id",
            (memory_id,),
        ).fetchall()
        for number, (version_id,) in enumerate(kept, 1):
            db.execute_sql(
                "UPDATE memory_version SET version = ?, state = json_set(state, '$.version', ?) "
                "WHERE id = ?",
                (number, number, version_id),
            )
        db.execute_sql(
            "UPDATE memory SET version = max(version, ?) WHERE id = ?", (len(kept) + 1, memory_id)
        )


# Append new steps; never edit or reorder a step that has shipped.
MIGRATIONS: list[Callable[[peewee.SqliteDatabase], None]] = [
    *MIGRATIONS_V1_TO_V7,
    _v8_injections,
    _v9_inject,
    _v10_injected_memory,
    _v11_writer,
    _v12_forgotten,
    _v13_updates_fine,
    _v14_change_count,
    _v15_edits_index,
    _v16_proposal_project,
    _v17_counters_bounded,
    _v18_session_by_host,
    _v19_unspaced_context,
    _v20_versions_apart,
]
SCHEMA_VERSION = len(MIGRATIONS)


def refuse_newer(path: Path) -> None:
    """Look at an existing file read-only first: opening it for real switches it to WAL,
    and a file from a newer memdesk must be left exactly as it was."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        with closing(sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)) as peek:
            found = peek.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise SchemaError(paths.unusable(path, exc)) from exc
    if found > SCHEMA_VERSION:
        raise SchemaError(_newer_message(path, found))


def _newer_message(path: Path, found: int) -> str:
    return (
        f"{path} was written by a newer memdesk (schema {found}; this version reads up to "
        f"{SCHEMA_VERSION}). Upgrade memdesk to open it."
    )


def current_version(db: peewee.SqliteDatabase) -> int:
    return db.execute_sql("PRAGMA user_version").fetchone()[0]


def migrate(db: peewee.SqliteDatabase, path: Path, target: int = SCHEMA_VERSION) -> None:
    # One statement, one snapshot: read apart, another process's first migration could
    # commit in between (tables seen, version not).
    found, tables = db.execute_sql(
        "SELECT (SELECT user_version FROM pragma_user_version), "
        "(SELECT COUNT(*) FROM sqlite_master)"
    ).fetchone()
    if found > SCHEMA_VERSION:
        raise SchemaError(_newer_message(path, found))
    if found == 0 and tables:
        # Schema 0 with tables: another program's database, given by mistake as --db.
        raise SchemaError(
            f"{path} is not a memdesk database: it holds tables but no memdesk schema "
            "version. Choose another file (--db or MEMDESK_DB)."
        )
    if found >= target:
        return
    if found > 0:
        _backup(db, path, found)
    for number in range(found + 1, target + 1):
        with db.atomic(lock_type="IMMEDIATE"):
            # Read again under the write lock: another process opening the same new file at
            # the same moment may have applied this step while this one waited for the lock.
            if current_version(db) >= number:
                continue
            logger.info("migrating %s to schema %d", path, number)
            MIGRATIONS[number - 1](db)
            db.execute_sql(f"PRAGMA user_version = {number}")


def _backup(db: peewee.SqliteDatabase, path: Path, version: int) -> None:
    """The file as it is, copied by SQLite itself. A plain copy opened and closed the
    database file in this process, and closing any descriptor of a file drops every POSIX
    lock the process holds on it: another process reading the store then took itself for
    the last one, checkpointed and removed the -wal under this one, and the next writes
    here corrupted the file."""
    backup = path.with_name(f"{path.name}.v{version}.bak")
    # One partial file per process: processes opening the same file at once each back it up,
    # and a shared partial was moved away under another's copy (FileNotFoundError).
    partial = backup.with_name(f"{backup.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_CREAT | os.O_WRONLY, 0o600))  # memories are private
    with closing(sqlite3.connect(partial)) as copy:
        db.connection().backup(copy)
    os.replace(partial, backup)
    logger.info("backed up %s to %s before migrating", path, backup)
