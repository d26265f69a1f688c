"""The FTS5 index over memories: its definition, its sync triggers and its health check."""

from __future__ import annotations

import peewee

# Porter stemming over unicode61 with diacritics folded: "running" finds "run", "café" finds
# "cafe". Chosen by bench/retrieval.py (see docs/benchmarks.md).
TOKENIZER = "porter unicode61 remove_diacritics 2"
FTS_COLUMNS = ("content", "tags", "context")

CREATE_FTS = f"""
CREATE VIRTUAL TABLE memory_fts USING fts5(
    {", ".join(FTS_COLUMNS)},
    content='memory', content_rowid='id', tokenize='{TOKENIZER}'
)"""

# External-content FTS must be told the old values to delete them. The update trigger fires
# only for indexed columns so recall counters do not re-index rows on every search.
CREATE_TRIGGERS = (
    """CREATE TRIGGER memory_fts_ai AFTER INSERT ON memory BEGIN
        INSERT INTO memory_fts(rowid, content, tags, context)
        VALUES (new.id, new.content, new.tags, new.context);
    END""",
    """CREATE TRIGGER memory_fts_ad AFTER DELETE ON memory BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, content, tags, context)
        VALUES ('delete', old.id, old.content, old.tags, old.context);
    END""",
    """CREATE TRIGGER memory_fts_au AFTER UPDATE OF content, tags, context ON memory BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, content, tags, context)
        VALUES ('delete', old.id, old.content, old.tags, old.context);
        INSERT INTO memory_fts(rowid, content, tags, context)
        VALUES (new.id, new.content, new.tags, new.context);
    END""",
)


def check(database: peewee.SqliteDatabase) -> list[str]:
    """Return the problems found (empty when healthy).

    Only the rank-1 form of FTS5 'integrity-check' compares the index with the content
    table; the bare form checks the index's own structure and misses a stale index.
    """
    problems = [
        row[0]
        for row in database.execute_sql("PRAGMA integrity_check").fetchall()
        if row[0] != "ok"
    ]
    try:
        database.execute_sql(
            "INSERT INTO memory_fts(memory_fts, rank) VALUES ('integrity-check', 1)"
        )
    except peewee.DatabaseError as exc:
        problems.append(f"search index out of sync with memories ({exc}); run rebuild")
    return problems


def rebuild(database: peewee.SqliteDatabase) -> None:
    database.execute_sql("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')")
