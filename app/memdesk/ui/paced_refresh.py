"""When a view the person looks at refreshes for writes: at a pace, and only while shown.

The window's event loop also answers the agents' socket requests. A view that reloaded and
redrew for every write held each request up behind it (the Graph with an agent writing every
300 ms: ping p90 ~250 ms instead of ~8 ms). Paced, a view refreshes at once after a quiet
spell, then at most once a pace while writes keep coming, and once more after the last; a
hidden view refreshes when it is shown. The person's own writes show at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QWidget

from memdesk.core import USER, Change

PACE_MS = 2000


class PacedRefresh(QObject):
    """Calls `refresh` for changes at most once every `PACE_MS` while `view` is shown;
    `loaded()` says the view has just loaded the current state (for any reason)."""

    def __init__(self, view: QWidget, refresh: Callable[[], None]) -> None:
        super().__init__(view)
        self._view, self._refresh = view, refresh
        self.stale = True  # nothing loaded yet
        self._last = -float("inf")  # when the last paced refresh began (monotonic seconds)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._due)

    def changed(self, changes: list[Change]) -> None:
        self.stale = True
        if not self._view.isVisible():
            return  # shown() refreshes it
        if any(c.by == USER.label for c in changes):
            self._timer.start(0)
        elif not self._timer.isActive():
            since_ms = (time.monotonic() - self._last) * 1000
            self._timer.start(int(max(0.0, PACE_MS - since_ms)))

    def shown(self) -> None:
        """Deferred to the event loop: a view shown with new filters loads for those
        (`loaded()`), and this then has nothing left to do."""
        if self.stale:
            self._timer.start(0)

    def loaded(self) -> None:
        self.stale = False

    def flush(self) -> None:
        """Refresh now if one is due (a test or a bench waiting for the view)."""
        if self._timer.isActive():
            self._timer.stop()
            self._due()

    @Slot()
    def _due(self) -> None:
        if self.stale and self._view.isVisible():
            self._last = time.monotonic()
            self._refresh()
