"""The Timeline's points, loaded off the GUI thread (100,000 memories take ~0.5 s)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal

from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.timeline.timeline_data import as_of, prepare


class TimelineLoader(QObject):
    """`loaded(ticket, data)` on the GUI thread; data None when the service refused."""

    loaded = Signal(int, object)


class TimelineLoad(QRunnable):
    """One load: the memories `filters` select, now or as they were at `moment`."""

    def __init__(
        self,
        service: MemoryService,
        loader: TimelineLoader,
        filters: dict[str, Any],
        ticket: int,
        moment: str | None,
        lane_field: str,
    ) -> None:
        super().__init__()
        self._service, self._loader = service, loader
        self._filters, self._ticket, self._moment = filters, ticket, moment
        self._lane_field = lane_field

    def run(self) -> None:
        try:
            if self._moment is None:
                data = self._service.timeline(**self._filters)
            else:
                data = as_of(self._service, self._filters, self._moment)
            prepare(data, self._lane_field)
            self._loader.loaded.emit(self._ticket, data)
        except MemdeskError:
            self._loader.loaded.emit(self._ticket, None)
        finally:
            self._service.release_thread()
