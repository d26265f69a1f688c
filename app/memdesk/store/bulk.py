"""Many new rows of a table in one statement.

With one INSERT per row (`executemany`), the full-text index's trigger does its
per-statement work for each memory: 20,000 memories took 2.9-4.1 s to insert. Staged in a
temporary table and moved with one INSERT … SELECT, the same rows and index took 0.9 s
(bench/sync.py's first pull; docs/benchmarks.md). A table's per-row trigger alone (the link
table's change count) costs as much again per statement: 20,000 links took 0.31 s of CPU
one statement each, 0.09 s staged.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

import peewee

_STAGE = "temp.memdesk_bulk_rows"


def insert_rows(
    database: peewee.Database,
    table: str,
    columns: Sequence[str],
    rows: Sequence[tuple],
    *,
    or_ignore: bool = False,
) -> None:
    """Insert `rows` (values in the order of `columns`) into `table`, in that order. Call it
    inside a transaction: the rows appear together or not at all. `or_ignore`: a row that
    breaks a unique constraint is left out (INSERT OR IGNORE), the others go in."""
    if not rows:
        return
    names = ", ".join(columns)
    cursor = database.cursor()
    cursor.execute(f"DROP TABLE IF EXISTS {_STAGE}")
    cursor.execute(f"CREATE TABLE {_STAGE} ({names})")  # untyped: each value kept as given
    try:
        cursor.executemany(f"INSERT INTO {_STAGE} VALUES ({', '.join('?' * len(columns))})", rows)
        insert = "INSERT OR IGNORE" if or_ignore else "INSERT"
        cursor.execute(
            f"{insert} INTO {table} ({names}) SELECT {names} FROM {_STAGE} ORDER BY rowid"
        )
    finally:
        cursor.execute(f"DROP TABLE {_STAGE}")


def among(values: Collection[object]) -> peewee.Node:
    """`column.in_(among(values))`: the values as one JSON parameter, read by SQLite's
    json_each. A list of thousands of `?` hits SQLite's cap on bound variables, and peewee
    takes ~30 µs to build each (a first pull of 20,000 memories asked for its rows in 0.6 s of
    building alone)."""
    return peewee.SQL("(SELECT value FROM json_each(?))", (json.dumps(list(values)),))
