"""The process-wide database handle, its settings, and how writes take the lock."""

from __future__ import annotations

import logging
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
    _thread.not_waiting = True
    try:
        yield
    finally:
        _thread.not_waiting = False
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


@contextmanager
def write_transaction() -> Iterator[None]:
    """Every write takes the write lock up front.

    A deferred transaction that reads and then writes gets SQLITE_BUSY at once when another
    connection wrote meanwhile, whatever the busy timeout; IMMEDIATE waits its turn instead.
    Its turn comes when the writer before it ends, not at SQLite's next try: SQLite's own
    wait sleeps longer each time (100 ms a try after the first 200 ms), and the person's
    write queued behind an agent's batch took 235 ms at p95 for a lock held 100 ms.
    """
    if DB.in_transaction():  # a savepoint of the transaction that holds the lock
        with DB.atomic():
            yield
        return
    transaction = _begun()
    try:
        yield
    except BaseException:
        if not transaction.__exit__(*sys.exc_info()):
            raise
    else:
        transaction.__exit__(None, None, None)
    finally:
        with _writer_done:
            _writer_done.notify_all()


def _begun() -> Any:
    """An IMMEDIATE transaction begun, once the lock is free (within BUSY_TIMEOUT_MS)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    connection = DB.connection()
    waits = not getattr(_thread, "not_waiting", False)
    while True:
        transaction = DB.atomic(lock_type="IMMEDIATE")
        if waits:
            connection.execute("PRAGMA busy_timeout = 0")
        try:
            transaction.__enter__()
            return transaction
        except (peewee.OperationalError, sqlite3.OperationalError) as exc:
            left = deadline - time.monotonic()
            if not waits or left <= 0 or not ("locked" in str(exc) or "busy" in str(exc)):
                raise
        finally:
            if waits:
                connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # woken when a writer of this process ends; another process's, looked for each turn
        with _writer_done:
            _writer_done.wait(min(left, _ANOTHER_PROCESS_S))


_writer_done = threading.Condition()
_ANOTHER_PROCESS_S = 0.005
_thread = threading.local()
