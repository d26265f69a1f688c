"""Writing searches' bookkeeping (recall counts, retrieval log) beside the server, not in it.

A search only queues its record; committing those records can take SQLite's automatic WAL
checkpoint, tens of milliseconds that would stall every request behind it. On a thread of its
own, with its own connection, that work never delays a search: WAL readers do not wait for
a writer.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from memdesk.core import MemdeskError, MemoryService

logger = logging.getLogger(__name__)


class Bookkeeper:
    def __init__(self, service: MemoryService) -> None:
        self._service = service
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memdesk-bookkeeping")
        self._running: Future[None] | None = None

    def tick(self) -> None:
        """Start a flush unless one is still running (the next tick catches up)."""
        if self._running is None or self._running.done():
            self._running = self._pool.submit(self._flush)

    def close(self) -> None:
        """Write what is queued, then end the thread and its connection."""
        self._pool.submit(self._flush)
        self._pool.submit(self._service.release_thread)
        self._pool.shutdown(wait=True)

    def _flush(self) -> None:
        try:
            self._service.flush_recalls()
        except MemdeskError as exc:  # busy: another writer held the lock too long
            logger.info("search bookkeeping not written yet: %s", exc.message)
        except Exception:
            logger.exception("search bookkeeping failed")
