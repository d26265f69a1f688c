"""Runs the memory list's queries on a worker thread, so a slow one never freezes the window.

At 100,000 memories a page deep in a list sorted by content costs ~0.3 s (SQLite sorts every
row to honour OFFSET); on the GUI thread that stalled every scroll and every live refresh.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from memdesk.core import MemdeskError, MemoryService

log = logging.getLogger(__name__)


class _Job(QRunnable):
    def __init__(self, loader: PageLoader, ticket: object, work: Callable[[], Any]) -> None:
        super().__init__()
        self._loader = loader
        self._ticket = ticket
        self._work = work

    def run(self) -> None:
        result = None
        try:
            result = self._work()
        except MemdeskError as exc:
            # The list keeps what it shows; the next refresh or scroll asks again.
            log.warning("loading the memory list failed: %s", exc.message)
        finally:
            self._loader.service.release_thread()  # each thread has its own connection
        self._loader.finished.emit(self._ticket, result)


class PageLoader(QObject):
    """`run(ticket, work)` calls `work()` on one worker thread; `finished(ticket, result)`
    arrives on the GUI thread (result None if the service refused). The newest request runs
    first: after a fast scroll, the page the person stopped at matters, not those passed."""

    finished = Signal(object, object)

    def __init__(self, service: MemoryService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._order = itertools.count()
        self._closed = False

    def run(self, ticket: object, work: Callable[[], Any]) -> None:
        if not self._closed:
            self._pool.start(_Job(self, ticket, work), next(self._order))

    def close(self) -> None:
        """Start nothing more and wait for what runs: a late page request (a queued result, a
        last paint) must not query a service that is being closed."""
        self._closed = True
        self._pool.waitForDone()

    def wait(self) -> None:
        """Block until no query is running (closing the window, tests)."""
        self._pool.waitForDone()
