"""A time limit on the SQL one caller may run: SQLite stops the statement, the transaction
rolls back, and the caller gets `Interrupted` instead of holding the one database connection
(and with it every other client of a single-threaded server) for as long as it likes.

SQLite calls the progress handler every PROGRESS_STEPS virtual-machine instructions; at
10,000 that is every few hundred microseconds of work; with setting it up, a search at 20k
memories went from 0.77 to 0.80 ms.
The count starts afresh with each statement, so short statements (one row's bookkeeping)
never reach it: only a long one is stopped. Loops whose length the caller chooses (the
memories of one add_many, the findings of one transcript) call `checkpoint` at each step.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import peewee

from memdesk.store.db import DB

PROGRESS_STEPS = 10_000
_limit = threading.local()  # this thread's (deadline, seconds) while a limit is on


class Interrupted(Exception):
    """The SQL ran past its time limit and was stopped; its transaction was rolled back."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped after {seconds:g} s of database work")
        self.seconds = seconds


def interrupted(exc: BaseException | None) -> bool:
    """Whether a database error is SQLite's answer to a progress handler that said stop. An
    interrupted write rolls its transaction back by itself, so peewee's own rollback then fails
    with "no transaction is active": the cause is in its context."""
    while exc is not None:
        if isinstance(exc, (sqlite3.OperationalError, peewee.OperationalError)) and (
            "interrupted" in str(exc)
        ):
            return True
        exc = exc.__context__
    return False


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop the statement this thread is running once `seconds` have passed since entering."""
    deadline = time.monotonic() + seconds
    passed = False

    def check() -> int:
        nonlocal passed
        passed = passed or time.monotonic() > deadline
        return int(passed)

    _install(check)
    _limit.on = (deadline, seconds)
    try:
        yield
    except (sqlite3.OperationalError, peewee.OperationalError) as exc:
        if passed and interrupted(exc):
            raise Interrupted(seconds) from exc
        raise
    finally:
        _limit.on = None
        _install(None)


def checkpoint() -> None:
    """Raise `Interrupted` if this thread's time limit has passed (a no-op without one)."""
    on = getattr(_limit, "on", None)
    if on is not None and time.monotonic() > on[0]:
        raise Interrupted(on[1])


def _install(check: Callable[[], int] | None) -> None:
    if not DB.is_closed():  # a handover may have closed it meanwhile: never reopen it here
        DB.connection().set_progress_handler(check, PROGRESS_STEPS if check else 0)
