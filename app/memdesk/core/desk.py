"""What every room of rules is given: the database, its write transaction, the change feed,
the undo recording of the window's actions, and the bookkeeping to settle before any write.

A room never opens a transaction, announces a change or looks at the recording by itself:
it asks the desk, so these rules hold for every room alike.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TypeVar

import peewee

from memdesk.core.errors import Busy, DiskFull, ReadOnly, TooSlow
from memdesk.core.events import Change, ChangeFeed
from memdesk.store import not_waiting, time_limit
from memdesk.store.db import write_transaction
from memdesk.store.statistics import optimize as optimize_statistics

T = TypeVar("T")
# An import, a sync or a bulk add this large can change the store's shape: let SQLite look.
BULK_CHANGES = 1000


class Recording(Protocol):
    """The undo recorder of one window action (memory/steps.py holds the real one)."""

    pending: list[Change]

    def touch(self, uuids: Iterable[str]) -> None: ...
    def touch_proposals(self, numbers: Iterable[int], *, created: bool = False) -> None: ...
    def note(self, pending: list[Change]) -> None: ...
    def finish(self) -> object: ...


class Desk:
    def __init__(self, database: peewee.SqliteDatabase) -> None:
        self.database = database
        self.changes = ChangeFeed()
        self._settle: list[Callable[[], None]] = []
        self._forget: list[Callable[[], None]] = []
        self._local = threading.local()  # this thread's Recording while `recording` runs
        # Moves with every write of memories, links or the Inbox, or the store replaced; not
        # with bookkeeping (recall counts, the retrieval log): what counts and views may keep
        # until it moves.
        self.generation = 0

    @property
    def path(self) -> Path:
        return Path(self.database.database)

    def settle_first(self, flush: Callable[[], None]) -> None:
        """Run `flush` (queued bookkeeping) before every write and before reads that show
        what it writes."""
        self._settle.append(flush)

    def settle(self) -> None:
        for flush in self._settle:
            flush()

    def settle_for_reading(self) -> None:
        """Settle what a read shows, unless another writer holds the store: the read then
        shows recall counts a few searches behind rather than wait for that writer (the
        person's `memory.get` waited 1.5 s behind an agent's batch, red team 38). What is
        not written stays queued for the next settle."""
        with contextlib.suppress(Busy), self.not_waiting():
            self.settle()

    def forget_when_replaced(self, forget: Callable[[], None]) -> None:
        """Run `forget` (drop a cache of the store's contents) when the store is replaced."""
        self._forget.append(forget)

    def replaced(self, by: str) -> None:
        """The whole store was replaced (a backup restored): caches go, every view reloads."""
        self.generation += 1
        for forget in self._forget:
            forget()
        self.changes.publish([Change("reset", "", None, by)])

    @property
    def recorder(self) -> Recording | None:
        return getattr(self._local, "recorder", None)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One IMMEDIATE transaction; SQLite's refusals told as what the person can do."""
        try:
            with write_transaction():
                yield
        except (peewee.OperationalError, sqlite3.OperationalError) as exc:
            # Raw statements raise sqlite3's error, the query builder peewee's: both count.
            # SQLite rolls back by itself on a full disk; peewee's own rollback then fails
            # with "no transaction is active", hiding the cause: look at both.
            why = " ".join(str(e) for e in _chain(exc))
            if "locked" in why or "busy" in why:
                raise Busy(
                    "the database is busy with another writer; try again in a moment"
                ) from exc
            if "full" in why:
                raise DiskFull(
                    f"disk full: the disk holding {self.path} has no room, so nothing was "
                    "written; reading still works. Free some space and try again."
                ) from exc
            if "readonly" in why:
                raise ReadOnly(
                    f"{self.path} is read-only (file or folder permissions, or a read-only "
                    "disk), so nothing was written; reading still works"
                ) from exc
            raise

    @contextmanager
    def write(self) -> Iterator[list[Change]]:
        """A write transaction whose changes are announced once it has committed (inside
        `recording`, a savepoint of the recording's transaction, announced when that commits)."""
        self.settle()
        pending: list[Change] = []
        recorder = self.recorder
        with self.transaction():
            yield pending
            if recorder is not None:
                recorder.note(pending)
        self.generation += 1
        if recorder is None:
            self.changes.publish(pending)
        if len(pending) >= BULK_CHANGES:
            optimize_statistics(self.database)

    def touch(self, uuids: Iterable[str]) -> None:
        """About to change these memories: while recording, keep their state from before."""
        recorder = self.recorder
        if recorder is not None:
            recorder.touch(uuids)

    def touch_proposals(self, numbers: list[int], *, created: bool = False) -> None:
        recorder = self.recorder
        if recorder is not None:
            recorder.touch_proposals(numbers, created=created)

    def recording(self, recorder: Recording, action: Callable[[], T]) -> T:
        """Run `action` as one transaction while `recorder` keeps what it changes."""
        self._local.recorder = recorder
        try:
            with self.transaction():
                result = action()
                recorder.finish()
        finally:
            self._local.recorder = None
            self.generation += 1
        self.changes.publish(recorder.pending)
        if len(recorder.pending) >= BULK_CHANGES:
            optimize_statistics(self.database)
        return result

    @contextmanager
    def not_waiting(self) -> Iterator[None]:
        """Writes in the block raise Busy at once while another writer holds the store (idle
        bookkeeping on the server's thread: the person's requests must not queue behind it)."""
        with not_waiting(self.database):
            yield

    @contextmanager
    def time_limit(self, seconds: float, what: str) -> Iterator[None]:
        """Stop `what` once it has run `seconds`: the statement or batch running then is
        rolled back and the caller told, so one request cannot hold the store."""
        try:
            with time_limit.time_limit(seconds):
                yield
        except time_limit.Interrupted:
            raise TooSlow(
                f"{what} was stopped after {seconds:g} s, the longest one request may take; "
                "what it was writing when stopped was rolled back. Ask for less: a narrower "
                "query or filter, a smaller limit, fewer items at once.",
                limit_s=seconds,
            ) from None


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """`exc` and the errors it was raised while handling, however deep: a full disk at COMMIT
    surfaced three errors down, under peewee's and SQLite's failed rollbacks."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__context__
