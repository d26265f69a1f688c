"""SQLite's table statistics, kept fresh so its query planner can choose well.

Without them SQLite guesses that any indexed equality matches ten rows: `status = 'active'`
then looks selective, and plans that walk every memory once per row asked about follow. A
store that was never analyzed opened in 1,006 s at 100k memories with links. SQLite advises
ANALYZE with a bounded sample when opening and `PRAGMA optimize` before closing.
"""

from __future__ import annotations

import logging

import peewee

logger = logging.getLogger(__name__)

# Rows sampled per index: enough for the shape of a store (~20 ms at 100k), bounded at 1M.
ANALYSIS_LIMIT = 1000
# Statistics taken at a tenth or ten times today's size mislead as much as none.
DRIFT = 4


def refresh_if_stale(database: peewee.SqliteDatabase) -> None:
    """Analyze when the statistics are missing or were taken at a very different size."""
    analyzed = _analyzed_rows(database)
    (rows,) = database.execute_sql("SELECT COALESCE(MAX(id), 0) FROM memory").fetchone()
    if analyzed is None or analyzed * DRIFT < rows or rows * DRIFT < analyzed:
        analyze(database)


def analyze(database: peewee.SqliteDatabase) -> None:
    """Statistics taken anew, replacing whatever the file held."""
    _run(database, "ANALYZE")


def optimize(database: peewee.SqliteDatabase) -> None:
    """After bulk writes and before closing: SQLite re-analyzes what changed enough."""
    _run(database, "PRAGMA optimize")


def _analyzed_rows(database: peewee.SqliteDatabase) -> int | None:
    has_table = database.execute_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'"
    ).fetchone()
    if not has_table:
        return None
    row = database.execute_sql(
        "SELECT stat FROM sqlite_stat1 WHERE tbl = 'memory' AND stat IS NOT NULL LIMIT 1"
    ).fetchone()
    return int(row[0].split()[0]) if row else None


def _run(database: peewee.SqliteDatabase, statement: str) -> None:
    """Statistics are an aid: another writer holding the lock, or a full disk, must not stop
    memdesk from opening or closing. The next open tries again."""
    try:
        database.execute_sql(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        database.execute_sql(statement)
    except peewee.OperationalError as exc:
        logger.info("%s skipped: %s", statement, exc)
