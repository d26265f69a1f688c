"""The Timeline: what agents learned, and when.

A real date axis; one lane per layer (or agent, project, kind); a point per memory, coloured
by kind and shaped by who wrote it; above, a density strip (memories per day, week or month,
adapting to the zoom) with a range you drag to narrow every view to those dates. Hover shows a
memory's first line, a click makes it the current memory everywhere. The points are loaded off
the GUI thread and drawn as one scatter item per (kind, writer): 100,000 points draw at once.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import (
    QRectF,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.control_row import kept_together, wrapping_row
from memdesk.ui.paced_refresh import PacedRefresh
from memdesk.ui.timeline.as_of_controls import AsOfControls
from memdesk.ui.timeline.history_marks import ticks_in
from memdesk.ui.timeline.range_strip import RangeStrip
from memdesk.ui.timeline.timeline_counts import count_line
from memdesk.ui.timeline.timeline_data import DAY, KIND_COLOURS, SYMBOLS, density, lanes
from memdesk.ui.timeline.timeline_loader import WITH_HISTORY, TimelineLoad, TimelineLoader

LANES = {"Layer": "layer", "Agent": "agent", "Project": "project", "Kind": "kind"}
POINT_LIMIT = 20_000  # points drawn one by one; beyond, a heat map (zoom in to see points)
HEAT_ROWS, HEAT_COLUMNS = 6, 400
_HEAT = np.array(  # white to the kind palette's blue
    [
        [255 - (255 - 78) * f, 255 - (255 - 121) * f, 255 - (255 - 167) * f]
        for f in np.linspace(0, 1, 256)
    ],
    dtype=np.uint8,
)


class TimelineView(QWidget):
    """`memory_activated(id)` on a click; `range_selected(since, until)` (ISO texts, or two
    empty strings when cleared) when the person drags or clears the date range."""

    memory_activated = Signal(str)
    range_selected = Signal(str, str)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.loader = TimelineLoader(self)
        self.loader.loaded.connect(self._on_loaded)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._ticket = 0
        self._filters: dict[str, Any] = {}
        self._loaded_filters: dict[str, Any] | None = None
        self.paced = PacedRefresh(self, self.reload)
        self._data: dict[str, list[Any]] | None = None
        self._t = np.zeros(0)
        self._fitted = False
        self._current: str | None = None
        self.lane_names: list[str] = []

        self.lanes = QComboBox(self)
        self.lanes.addItems(list(LANES))
        self.lanes.currentTextChanged.connect(lambda _: self._draw())
        self.clear_range = QPushButton("Clear Range", self)
        self.clear_range.setEnabled(False)
        self.clear_range.clicked.connect(self.clear_date_range)
        # The window's own colours, not pyqtgraph's black.
        background = self.palette().base().color()
        self.plot = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem()}, background=background)
        self.as_of = AsOfControls(
            self, self.plot, self._first_moment, lambda: self._pool.activeThreadCount() > 0
        )
        self.as_of.moment_changed.connect(self._on_moment_changed)
        self.fit = QPushButton("Fit", self)
        self.fit.setToolTip("Show every memory (Home)")
        self.fit.clicked.connect(self.fit_all)
        self.summary = QLabel(self)
        # A symbol and its word never part at a line's end: "●" ended one line, "you" began
        # the next.
        legend = "  ".join(
            f"<span style='color:{c}'>●</span>&nbsp;{k}" for k, c in KIND_COLOURS.items()
        )
        self.legend = QLabel(legend + "   ●&nbsp;you  ▲&nbsp;agent  ■&nbsp;system", self)
        self.legend.setWordWrap(True)
        bar = wrapping_row(
            kept_together(self, "Lanes:", self.lanes),
            kept_together(self, self.as_of.box, self.as_of.edit),
            self.as_of.play,
            self.fit,
            self.clear_range,
            self.summary,
        )

        self.density = pg.PlotWidget(
            viewBox=RangeStrip(self._on_strip_dragged),
            axisItems={"bottom": pg.DateAxisItem()},
            background=background,
        )
        self.density.setMaximumHeight(90)
        self.density.setToolTip("Drag across the strip to narrow every view to those dates")
        self.density.setMouseEnabled(y=False)
        self.density.hideAxis("left")
        self.bars = pg.BarGraphItem(x=[], height=[], width=1, brush="#9aa9c4")
        self.density.addItem(self.bars)
        self.region = pg.LinearRegionItem(brush=(80, 120, 200, 50))
        self.region.setVisible(False)
        self.region.sigRegionChangeFinished.connect(self._on_region_changed)
        self.density.addItem(self.region)
        self.density.scene().sigMouseClicked.connect(self._on_density_clicked)

        self.plot.setMouseEnabled(y=False)
        self.plot.showGrid(x=True, y=False, alpha=0.2)
        self.density.setXLink(self.plot)
        self.plot.getViewBox().sigXRangeChanged.connect(self._schedule_density)
        self.points = pg.ScatterPlotItem(size=8, pen=None, hoverable=True, tip=self._tip)
        self.points.sigClicked.connect(self._on_points_clicked)
        self.plot.addItem(self.points)
        # Edits, with the points: a heat map of 100,000 memories has no rows to tick (10,000
        # ticks over it cost 37 ms a draw and every zoom frame).
        self.ticks = pg.ScatterPlotItem(symbol="|", size=14, pen=pg.mkPen("#333", width=2))
        self.ticks.setZValue(-1)
        self.plot.addItem(self.ticks)
        self.heat = pg.ImageItem(axisOrder="row-major")
        self.heat.setLookupTable(_HEAT)
        self.heat.setZValue(-2)
        self.plot.addItem(self.heat)
        self._all: dict[str, Any] = {}
        self.marker = pg.ScatterPlotItem(size=18, pen=pg.mkPen("#222", width=2), brush=None)
        self.plot.addItem(self.marker)
        self.selection = pg.ScatterPlotItem(size=14, pen=pg.mkPen("#ff7f0e", width=2), brush=None)
        self.plot.addItem(self.selection)
        self._selected: list[str] = []
        self._moment: str | None = None
        self._history: list[Any] = []  # edit ticks, retirement bars, session spans
        self._density_timer = QTimer(self, singleShot=True, interval=60)
        self._density_timer.timeout.connect(self._update_density)
        self._density_timer.timeout.connect(self._show_points)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.density)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)

    # -- data ------------------------------------------------------------------------------------

    def set_filters(self, filters: dict[str, Any]) -> None:
        """Show the memories these (the list's) filters select; the date range is ours."""
        self._filters = {k: v for k, v in filters.items() if k not in ("since", "until")}
        if self.region.isVisible() and not (filters.get("since") or filters.get("until")):
            # the List's Date chip (or Clear filters) took the drawn range away
            self.region.setVisible(False)
            self.clear_range.setEnabled(False)
            self._show_summary()
        # The list's default (active only) would hide history.
        self._filters.setdefault("status", list(WITH_HISTORY))
        # the same again loads nothing: the window passes them on every write, and
        # `paced` refreshes for those
        if self._filters != self._loaded_filters:
            self.reload()

    def reload(self) -> None:
        """Load again in the background; zoom, pan and the current memory are kept."""
        self.paced.loaded()
        self._loaded_filters = dict(self._filters)
        self._ticket += 1
        self._pool.start(
            TimelineLoad(
                self.service,
                self.loader,
                dict(self._filters),
                self._ticket,
                self._moment,
                LANES[self.lanes.currentText()],
            )
        )

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.paced.shown()  # writes while hidden loaded nothing

    def finish(self) -> None:
        """The window is closing: let the query running on the worker end before the
        database closes (it went on after, and failed on a closed store)."""
        self._pool.clear()
        self._pool.waitForDone()

    def wait(self) -> None:
        """Block until loading is done and drawn (tests)."""
        self.paced.flush()
        self._pool.waitForDone()
        QApplication.processEvents()

    @Slot(int, object)
    def _on_loaded(self, ticket: int, data: dict[str, list[Any]] | None) -> None:
        if ticket != self._ticket or data is None:
            return
        self._data = data
        self._t = data["times"]
        self._index = data["index"]
        self._draw()
        if not self._fitted and len(self._t):
            self.fit_all()
            self._fitted = True

    def _draw(self) -> None:
        if self._data is None:
            return
        for item in self._history:
            self.plot.removeItem(item)
        self._history.clear()
        field = LANES[self.lanes.currentText()]
        if field not in self._data["lanes"]:  # another lane choice than the load's
            self._data["lanes"][field] = lanes(self._data, field)
        self.lane_names, lane = self._data["lanes"][field]
        y = lane + self._data["spread"]
        # Shared brush objects, picked by code; the points themselves are drawn by
        # `_show_points` for what is in view (a heat map when that is more than POINT_LIMIT).
        brushes = np.empty(len(KIND_COLOURS), dtype=object)
        brushes[:] = [pg.mkBrush(colour) for colour in KIND_COLOURS.values()]
        symbols = np.array(list(SYMBOLS.values()), dtype=object)
        self._all = {
            "y": y,
            "ids": self._data["ids"],
            "symbols": symbols[self._data["source_code"]],
            "brushes": brushes[self._data["kind_code"]],
        }
        self._show_points()
        for item in self._data["history"].items(self._t, y):
            self._add_history(item)
        axis = self.plot.getAxis("left")
        axis.setTicks([[(n, name) for n, name in enumerate(self.lane_names)]])
        self.plot.setYRange(-0.6, max(0.6, len(self.lane_names) - 0.4), padding=0)
        self._mark_current()
        self._show_summary()
        self._update_density()

    def _show_summary(self) -> None:
        """The points counted, or those the drawn range keeps of them: the List shows those."""
        if self._data is not None:
            drawn = self.region.getRegion() if self.region.isVisible() else None
            self.summary.setText(count_line(self._t, self._data["retired"], drawn))

    def _show_points(self) -> None:
        """The points in view, one by one when they are few enough to draw fast (hover and
        click work on them); otherwise a heat map of where they are, until zoomed in."""
        if not self._all or not len(self._t):
            self.points.clear()
            self.ticks.clear()
            self.heat.hide()
            return
        low, high = self.plot.getViewBox().viewRange()[0]
        chosen = np.nonzero((self._t >= low) & (self._t <= high))[0]
        if len(chosen) <= POINT_LIMIT:
            self.heat.hide()
            self.points.setData(
                x=self._t[chosen],
                y=self._all["y"][chosen],
                data=self._all["ids"][chosen],
                symbol=list(self._all["symbols"][chosen]),
                brush=list(self._all["brushes"][chosen]),
            )
            self.ticks.setData(**ticks_in(self._data["history"], self._all["y"], low, high))
            return
        self.points.clear()
        self.ticks.clear()
        lanes = max(1, len(self.lane_names))
        counts, _, _ = np.histogram2d(
            self._all["y"][chosen],
            self._t[chosen],
            bins=(lanes * HEAT_ROWS, HEAT_COLUMNS),
            range=((-0.5, lanes - 0.5), (low, high)),
        )
        self.heat.setImage(np.log1p(counts), autoLevels=True)
        self.heat.setRect(QRectF(low, -0.5, high - low, lanes))
        self.heat.show()

    def _add_history(self, item: Any) -> None:
        item.setZValue(-1)
        self.plot.addItem(item)
        self._history.append(item)

    # -- density and range ---------------------------------------------------------------------

    def _schedule_density(self) -> None:
        self._density_timer.start()

    def _update_density(self) -> None:
        if not len(self._t):
            self.bars.setOpts(x=[], height=[], width=1)
            return
        low, high = self.plot.getViewBox().viewRange()[0]
        middles, counts, width = density(self._t, low, high)
        self.bars.setOpts(x=middles, height=counts, width=width * 0.9)
        self.density.setYRange(0, max(1, counts.max()), padding=0.05)

    def _on_strip_dragged(self, start: float, end: float, finished: bool) -> None:
        """The range follows the drag; every view narrows once, when the button is let go."""
        self.region.blockSignals(True)
        self.region.setRegion((start, end))
        self.region.blockSignals(False)
        self.region.setVisible(True)
        if finished:
            self._on_region_changed()

    def _on_density_clicked(self, event: Any) -> None:
        """A double click on the strip also starts a range there (then drag its edges)."""
        if not event.double():
            return
        x = self.density.getViewBox().mapSceneToView(event.scenePos()).x()
        low, high = self.plot.getViewBox().viewRange()[0]
        half = (high - low) / 10
        self.set_date_range(x - half, x + half)

    def set_date_range(self, start: float, end: float) -> None:
        """Narrow every view to memories created between two times (seconds since 1970)."""
        self.region.setRegion((start, end))
        self.region.setVisible(True)
        self._on_region_changed()

    @Slot()
    def clear_date_range(self) -> None:
        self.region.setVisible(False)
        self.clear_range.setEnabled(False)
        self._show_summary()
        self.range_selected.emit("", "")

    def _on_region_changed(self) -> None:
        if not self.region.isVisible():
            return
        start, end = self.region.getRegion()
        self.clear_range.setEnabled(True)
        self._show_summary()
        self.range_selected.emit(_iso(start), _iso(end))

    # -- selection -------------------------------------------------------------------------------

    def _tip(self, x: float, y: float, data: str) -> str:
        states = (self._data or {}).get("states")
        try:
            content = states[data]["content"] if states else self.service.get(data)["content"]
        except (MemdeskError, KeyError):
            return ""
        first = next((ln for ln in content.splitlines() if ln.strip()), "")
        when = datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d %H:%M")
        return f"{first[:120]}\n{when} UTC"

    def _on_points_clicked(self, _item: Any, points: Any, *_: Any) -> None:
        if len(points):
            self.memory_activated.emit(points[0].data())

    def set_current(self, memory_id: str | None) -> None:
        """Ring the current memory (chosen in any view)."""
        self._current = memory_id
        self._mark_current()

    def set_selected(self, memory_ids: list[str]) -> None:
        """Ring the memories selected in the List (its multi-selection, seen here too)."""
        self._selected = list(memory_ids)
        self._mark_current()

    def _mark_current(self) -> None:
        index = getattr(self, "_index", {})
        chosen = [index[i] for i in self._selected if i in index] if self._all else []
        if chosen:
            self.selection.setData(x=self._t[chosen], y=self._all["y"][chosen])
        else:
            self.selection.setData(x=[], y=[])
        if self._current in index and self._all:
            position = index[self._current]
            self.marker.setData(x=[self._t[position]], y=[self._all["y"][position]])
        else:
            self.marker.setData(x=[], y=[])

    # -- as of -----------------------------------------------------------------------------------

    def set_moment(self, seconds: float | None) -> None:
        """Show the memories active at `seconds` (since 1970, UTC) as they were; None: now."""
        self.as_of.set_moment(seconds)

    @Slot(object)
    def _on_moment_changed(self, seconds: float | None) -> None:
        self._moment = None if seconds is None else _iso(seconds)
        self.reload()

    def _first_moment(self) -> float | None:
        """When the first memory these filters select (any status) was written."""
        first = self.service.list_memories(
            limit=1, order="created_at", **{**self._filters, "status": None}
        )
        if not first:
            return None
        return datetime.fromisoformat(first[0]["created_at"].replace("Z", "+00:00")).timestamp()

    # -- zoom and pan ----------------------------------------------------------------------------

    @Slot()
    def fit_all(self) -> None:
        if len(self._t):
            low, high = float(self._t.min()), float(self._t.max())
            pad = max((high - low) * 0.03, DAY / 2)
            self.plot.setXRange(low - pad, high + pad, padding=0)
            self._show_points()  # now, not after the range-change timer

    def keyPressEvent(self, event: QKeyEvent) -> None:
        box = self.plot.getViewBox()
        low, high = box.viewRange()[0]
        step = (high - low) / 5
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            box.scaleBy(x=0.5)
        elif key == Qt.Key.Key_Minus:
            box.scaleBy(x=2.0)
        elif key == Qt.Key.Key_Left:
            box.setXRange(low - step, high - step, padding=0)
        elif key == Qt.Key.Key_Right:
            box.setXRange(low + step, high + step, padding=0)
        elif key == Qt.Key.Key_Home:
            self.fit_all()
        elif key == Qt.Key.Key_Escape:
            self.clear_date_range()
        else:
            super().keyPressEvent(event)


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
