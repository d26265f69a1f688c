"""Work the server does when nobody is waiting: writing searches' bookkeeping (recall counts,
retrieval log) and merging the search index.

A search only queues its record. Writing the records costs a page write per memory recalled,
and now and then a WAL checkpoint. Written while requests keep coming, that stalls them; written
from a second thread, it slows every query running beside it (SQLite work on two threads of
one process contends) and empties the server connection's page cache. So the records are
written on the server's own thread once a tick passes with no new search or change; besides,
the service writes them before anything reads recall counts, before every write, and at the
latest every RECALL_BATCH searches. Agents' searches are written on the agents' own thread every
lanes.AGENTS_BOOKKEEPING_ROWS rows: the person's next write never has a flood of them to write
first.

Writes leave the FTS5 index as many b-trees; merged into one, a search on 100k memories takes
~20% less. Once after start and after every TIDY_AFTER_CHANGES changes, idle time merges it in
short steps, with requests let in between them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from memdesk.core import MemdeskError, MemoryService

logger = logging.getLogger(__name__)
T = TypeVar("T")

TIDY_AFTER_CHANGES = 1000
MERGE_PAGES = 100  # ~10 ms of work per idle tick
MAX_STEP_S = 0.1


class Bookkeeper:
    def __init__(self, service: MemoryService) -> None:
        self._service = service
        self._queued_at_last_tick = 0
        self._changes = 0  # memory changes since the index was last merged whole
        self._changes_at_last_tick = 0
        self._untidy = True  # the file may come from anywhere: merge once after start
        # What idle work failed with, logged once: a damaged index failed every tick and wrote
        # 2,400 tracebacks to the log in 15 s
        self._failed: set[str] = set()

    def note_changes(self, count: int) -> None:
        self._changes += count

    def tick(self) -> bool:
        """Do one piece of idle work if no search or change came since the last tick; whether
        more is waiting (the caller may tick again at once, letting requests in between)."""
        queued, changes = self._service.queued_recalls(), self._changes
        idle = queued == self._queued_at_last_tick and changes == self._changes_at_last_tick
        more = False
        if idle and queued:
            self.flush()
        elif idle and (self._untidy or changes >= TIDY_AFTER_CHANGES):
            more = self._tidy()
        self._queued_at_last_tick = self._service.queued_recalls()
        self._changes_at_last_tick = self._changes
        return more

    def flush(self) -> None:
        self._guarded(self._service.flush_recalls)

    def _tidy(self) -> bool:
        started = time.monotonic()
        more = self._guarded(self._service.tidy_index, MERGE_PAGES)
        # A step is one SQLite statement no time limit can stop: on a store of agents' 60 KB
        # memories of random words each took ~0.5 s whatever its size, and step after step
        # held every client for a minute. Past MAX_STEP_S the merging waits for the next
        # TIDY_AFTER_CHANGES changes (searches there read a few more b-trees meanwhile).
        if more is False or time.monotonic() - started > MAX_STEP_S:
            self._untidy = False
            self._changes = 0
            return False
        return bool(more)

    def _guarded(self, work: Callable[..., T], *args: Any) -> T | None:
        try:
            # On the server's thread: waiting for another writer's lock here kept the
            # person's requests waiting too (seconds, behind a sync taking a remote's files).
            with self._service.not_waiting():
                return work(*args)
        except MemdeskError as exc:  # busy: another writer holds the lock; a later tick
            logger.debug("idle work not done yet: %s", exc.message)
        except Exception as exc:
            if str(exc) not in self._failed:
                self._failed.add(str(exc))
                logger.exception("idle work failed (said once; it is retried)")
        return None
