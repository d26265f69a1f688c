"""The Graph's memory nodes as one scatter item that also takes the person's drags."""

from __future__ import annotations

from typing import Any, Protocol

import pyqtgraph as pg
from PySide6.QtCore import Qt, SignalInstance


class Canvas(Protocol):
    """What the nodes draw on and report to (the GraphView)."""

    positions: dict[str, tuple[float, float]]
    rubber: pg.PlotDataItem
    link_requested: SignalInstance

    def move_node(self, node: str, position: tuple[float, float]) -> None: ...


class GraphNodes(pg.ScatterPlotItem):
    """The memory nodes; a drag from one node to another asks to link them."""

    def __init__(self, view: Canvas) -> None:
        super().__init__(pxMode=True, hoverable=True)
        self._view = view
        self._from: str | None = None
        self._moving = False

    def mouseClickEvent(self, ev: Any) -> None:  # noqa: N802 (pyqtgraph's name)
        """A right-click on a memory is the view's (its links' menu): pyqtgraph reports
        left-clicks only and leaves the right button to its own plot menu."""
        if ev.button() == Qt.MouseButton.RightButton:
            points = self.pointsAt(ev.pos())
            if len(points):
                ev.accept()
                self.sigClicked.emit(self, points, ev)
                return
        super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev: Any) -> None:  # noqa: N802 (pyqtgraph's name)
        """Drag from a memory to another to link them; with Shift held, move a node."""
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        if ev.isStart():
            found = [p.data() for p in self.pointsAt(ev.buttonDownPos())]
            self._moving = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            self._from = next((i for i in found if self._moving or ":" not in i), None)
            if self._from is None:
                ev.ignore()  # not on a node: the view pans
                return
        if self._from is None:
            ev.ignore()
            return
        ev.accept()
        start = self._view.positions[self._from]
        self._view.rubber.setData(x=[start[0], ev.pos().x()], y=[start[1], ev.pos().y()])
        if not ev.isFinish():
            return
        self._view.rubber.setData(x=[], y=[])
        if self._moving:
            self._view.move_node(self._from, (ev.pos().x(), ev.pos().y()))
        else:
            found = [p.data() for p in self.pointsAt(ev.pos())]
            target = next((i for i in found if i != self._from and ":" not in i), None)
            if target is not None:
                self._view.link_requested.emit(self._from, target)
        self._from = None
