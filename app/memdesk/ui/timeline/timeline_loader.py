"""The Timeline's points, loaded off the GUI thread (100,000 memories take ~0.5 s)."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QRunnable, Signal

from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.timeline.timeline_data import as_of, prepare

# The statuses drawn when the List asks for active memories only: the retired ones too, as
# the history the Timeline draws (bars up to their successor).
WITH_HISTORY = ["active", "inactive"]


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
                retired = self._retired()
            else:
                data = as_of(self._service, self._filters, self._moment)
                retired = set()  # what was active then, every one of them
            prepare(data, self._lane_field)
            data["retired"] = np.fromiter(
                (i in retired for i in data["id"]), dtype=bool, count=len(data["id"])
            )
            self._loader.loaded.emit(self._ticket, data)
        except MemdeskError:
            self._loader.loaded.emit(self._ticket, None)
        finally:
            self._service.release_thread()

    def _retired(self) -> set[str]:
        """Which of the points are retired memories: the List does not count them, and the
        Timeline's summary, of all points or of a drawn range, must say how its number
        differs from the List's."""
        if self._filters["status"] != WITH_HISTORY:
            return set()  # a status the List chose: it shows these very memories
        return self._service.memory_ids(**{**self._filters, "status": "inactive"})
