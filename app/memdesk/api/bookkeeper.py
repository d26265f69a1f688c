"""Writing searches' bookkeeping (recall counts, retrieval log) once searches pause.

A search only queues its record. Writing the records costs a page write per memory recalled,
and now and then a WAL checkpoint. Written while requests keep coming, that stalls them; written
from a second thread, it slows every query running beside it (SQLite work on two threads of
one process contends) and empties the server connection's page cache. So the records are
written on the server's own thread once a tick passes with no new search; besides, the service
writes them before anything reads recall counts, before every write, and at the latest every
RECALL_BATCH searches.
"""

from __future__ import annotations

import logging

from memdesk.core import MemdeskError, MemoryService

logger = logging.getLogger(__name__)


class Bookkeeper:
    def __init__(self, service: MemoryService) -> None:
        self._service = service
        self._queued_at_last_tick = 0

    def tick(self) -> None:
        """Write the queued records if no search came since the last tick."""
        queued = self._service.queued_recalls()
        if queued and queued == self._queued_at_last_tick:
            self.flush()
            queued = self._service.queued_recalls()
        self._queued_at_last_tick = queued

    def flush(self) -> None:
        try:
            self._service.flush_recalls()
        except MemdeskError as exc:  # busy: another writer held the lock too long
            logger.info("search bookkeeping not written yet: %s", exc.message)
        except Exception:
            logger.exception("search bookkeeping failed")
