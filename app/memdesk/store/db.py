"""The process-wide database handle, its settings, and how writes take the lock."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import peewee

from memdesk import paths
from memdesk.store.statistics import optimize

logger = logging.getLogger(__name__)

DB = peewee.DatabaseProxy()

BUSY_TIMEOUT_MS = 5000
PRAGMAS = {
    "journal_mode": "wal",
    # FULL: an acknowledged write survives power loss too (NORMAL only a process crash);
    # it costs ~0.25 ms per commit here (bench/durability.py).
    "synchronous": "full",
    "foreign_keys": 1,
    "busy_timeout": BUSY_TIMEOUT_MS,
    "cache_size": -16000,
    "temp_store": "memory",
}


class SchemaError(Exception):
    """The file cannot be used: a newer schema, or not a memdesk database."""


def close_database(database: peewee.SqliteDatabase) -> None:
    """Close this thread's connection and let the process open another database."""
    if not database.is_closed():
        optimize(database)
    database.close()
    paths.release_database(database.database)


@contextmanager
def not_waiting(database: peewee.SqliteDatabase) -> Iterator[None]:
    """This thread's writes in the block fail at once ("database is locked") while another
    writer holds the lock, instead of waiting up to BUSY_TIMEOUT_MS for it."""
    connection = database.connection()
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def write_transaction() -> peewee._atomic:
    """Every write takes the write lock up front.

    A deferred transaction that reads and then writes gets SQLITE_BUSY at once when another
    connection wrote meanwhile, whatever the busy timeout; IMMEDIATE waits its turn instead.
    """
    return DB.atomic(lock_type="IMMEDIATE")
