"""One app-wide object that turns the service's change events into a Qt signal.

The service calls its listeners on whichever thread wrote (a socket handler, an import
worker, the UI itself). The hub hops onto the GUI thread through a queued signal and
coalesces bursts, so a thousand writes from an agent cause one refresh, not a thousand.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from memdesk.core import Change, MemoryService

COALESCE_MS = 150


class ChangeHub(QObject):
    """Every view listens here, so an agent's write and a person's edit refresh the same way.

    `memories_changed(list[Change])` carries every change since the last emission.
    """

    memories_changed = Signal(list)
    _arrived = Signal(list)  # internal: crosses from the writer's thread to ours

    def __init__(self, service: MemoryService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[Change] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COALESCE_MS)
        self._timer.timeout.connect(self._on_timeout)
        self._arrived.connect(self._on_arrived)
        self._unsubscribe = service.changes.subscribe(self._arrived.emit)

    def close(self) -> None:
        """Stop listening to the service (the window is going away)."""
        self._unsubscribe()
        self._timer.stop()

    def flush(self) -> None:
        """Emit what is pending now instead of after the coalescing delay."""
        if self._pending:
            self._timer.stop()
            self._on_timeout()

    @Slot(list)
    def _on_arrived(self, changes: list[Change]) -> None:
        self._pending.extend(changes)
        if not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _on_timeout(self) -> None:
        changes, self._pending = self._pending, []
        if changes:
            self.memories_changed.emit(changes)
