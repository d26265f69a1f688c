"""The Timeline's density strip as a place to mark dates: a left drag there is a range."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt


class RangeStrip(pg.ViewBox):
    """The density strip's view box: a left drag marks a date range (what a person tries
    first, and what the README says), where pyqtgraph would pan; the plot below pans, and
    the wheel zooms both."""

    def __init__(self, on_drag: Any) -> None:
        super().__init__(enableMenu=False)
        self._on_drag = on_drag

    def mouseDragEvent(self, ev: Any, axis: Any = None) -> None:  # noqa: N802 (pyqtgraph's)
        if ev.button() != Qt.MouseButton.LeftButton:
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        start = self.mapToView(ev.buttonDownPos()).x()
        here = self.mapToView(ev.pos()).x()
        self._on_drag(min(start, here), max(start, here), ev.isFinish())
