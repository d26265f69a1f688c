"""The FTS5 index over memories: its definition, its sync triggers and its health check."""

from __future__ import annotations

import sqlite3

import peewee

from memdesk.store.time_limit import interrupted

# Porter stemming over unicode61 with diacritics folded: "running" finds "run", "café" finds
# "cafe". Porter added 0.02-0.05 recall@10 in bench/retrieval.py (see docs/benchmarks.md).
TOKENIZER = "porter unicode61 remove_diacritics 2"
# content: the memory; tags; context: derived text of its neighbours in the same task;
# scope: tokens for status, layer, project and task (memory.scope, a generated column), so
# filters can act inside FTS5 before it ranks, instead of after it has ranked every match.
FTS_COLUMNS = ("content", "tags", "context", "scope")
# The index's settings memdesk writes: FTS5's file format and nothing else. A crafted file may
# carry others (a format FTS5 refuses, a rank function of its own).
SETTINGS = (("version", 4),)
_COLS = ", ".join(FTS_COLUMNS)
_NEW = ", ".join(f"new.{c}" for c in FTS_COLUMNS)
_OLD = ", ".join(f"old.{c}" for c in FTS_COLUMNS)


def scope_token(prefix: str, name: str) -> str:
    """The token memory.scope holds for a project ("p") or task ("t"): hex of its UTF-8."""
    return prefix + name.encode("utf-8").hex()


def status_token(status: str) -> str:
    return "s" + status


CREATE_FTS = f"""
CREATE VIRTUAL TABLE memory_fts USING fts5(
    {_COLS}, content='memory', content_rowid='id', tokenize='{TOKENIZER}'
)"""

# External-content FTS must be told the old values to delete them. The update trigger fires
# only for indexed columns so recall counters do not re-index rows on every search.
CREATE_TRIGGERS = (
    f"""CREATE TRIGGER memory_fts_ai AFTER INSERT ON memory BEGIN
        INSERT INTO memory_fts(rowid, {_COLS}) VALUES (new.id, {_NEW});
    END""",
    f"""CREATE TRIGGER memory_fts_ad AFTER DELETE ON memory BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, {_COLS}) VALUES ('delete', old.id, {_OLD});
    END""",
    f"""CREATE TRIGGER memory_fts_au
    AFTER UPDATE OF content, tags, context, project, task, status, layer ON memory BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, {_COLS}) VALUES ('delete', old.id, {_OLD});
        INSERT INTO memory_fts(rowid, {_COLS}) VALUES (new.id, {_NEW});
    END""",
)


# How the live database is mended; a backup is not (store/backup.py says so).
REBUILD = "; rebuild it with `memdesk check --rebuild`"
REPLACE = "; `memdesk restore-backup` replaces it with a backup"


def check(database: peewee.SqliteDatabase) -> list[str]:
    """Return the problems found (empty when healthy)."""
    return check_connection(database.connection())


def check_connection(connection: sqlite3.Connection) -> list[str]:
    """`check` on a plain sqlite3 connection (a backup being made, for one).

    Only the rank-1 form of FTS5 'integrity-check' compares the index with the content
    table; the bare form checks the index's own structure and misses a stale index.
    """
    try:
        problems = [
            row[0]
            for row in connection.execute("PRAGMA integrity_check").fetchall()
            if row[0] != "ok"
        ]
    except sqlite3.DatabaseError as exc:
        if interrupted(exc):
            raise
        # so damaged SQLite cannot even list what is wrong: nothing further can be read
        return [f"the database file is damaged ({exc}){REPLACE}"]
    problems += [
        f"row {rowid} of {table} points at a {parent} row that does not exist"
        for table, rowid, parent, _ in connection.execute("PRAGMA foreign_key_check").fetchall()
    ]
    foreign = sorted(
        set(connection.execute("SELECT k, v FROM memory_fts_config").fetchall()) - set(SETTINGS)
    )
    if foreign:
        problems.append(
            "search index has settings memdesk never writes "
            f"({', '.join(f'{k}={v}' for k, v in foreign)}){REBUILD}"
        )
    try:
        connection.execute("INSERT INTO memory_fts(memory_fts, rank) VALUES ('integrity-check', 1)")
        missing = _not_found(connection)
        if missing:
            raise sqlite3.DatabaseError(f"a search does not find memory {missing}")
    except sqlite3.DatabaseError as exc:
        # out of time, or another writer holding the lock FTS5's check needs: no damage
        if interrupted(exc) or "locked" in str(exc) or "busy" in str(exc):
            raise
        problems.append(f"search index out of sync with memories ({exc}){REBUILD}")
    return problems


def _not_found(connection: sqlite3.Connection, sample: int = 32) -> int | None:
    """A memory a search for its own scope token does not find, None when all sampled are.
    FTS5's integrity-check passes an index whose lookup table (memory_fts_idx) was emptied,
    though every search then finds nothing."""
    rows = connection.execute(
        "SELECT id, scope FROM memory WHERE id IN "
        "(SELECT id FROM memory ORDER BY random() LIMIT ?)",
        (sample,),
    ).fetchall()
    for memory_id, scope in rows:
        token = (scope or "").split()[:1]
        found = (
            token
            and connection.execute(
                "SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? AND rowid = ?",
                (f'scope : "{token[0]}"', memory_id),
            ).fetchone()
        )
        if token and not found:
            return memory_id
    return None


def rebuild(database: peewee.SqliteDatabase) -> None:
    """The index made again from the memories, its settings and triggers memdesk's own. FTS5
    refuses to open (even to drop or rebuild) an index whose settings name a format it does
    not know, so they are put right in its settings table first."""
    # a sync trigger lost (dropped by hand, a tool) would leave the index drifting again
    present = {name for (name,) in database.execute_sql("SELECT name FROM sqlite_master")}
    for create in CREATE_TRIGGERS:
        if create.split()[2] not in present:
            database.execute_sql(create)
    database.execute_sql("DELETE FROM memory_fts_config")
    database.connection().executemany("INSERT INTO memory_fts_config(k, v) VALUES (?, ?)", SETTINGS)
    database.execute_sql("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')")


def merge_step(database: peewee.SqliteDatabase, pages: int) -> bool:
    """Merge about `pages` pages of the index's b-trees towards a single one; whether there
    was anything to merge. Fewer b-trees make every search read less (~20% on 100k)."""
    before = database.connection().total_changes
    database.execute_sql("INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ?)", (-pages,))
    # FTS5's documented test: a change count that moved by 2 or more means work was done.
    return database.connection().total_changes - before >= 2
