"""The Graph: how memories connect, and a place to connect them.

Nodes are memories (size by how often agents recalled them, colour by layer or kind, a ring
for the new and a grey one for the retired) and, optionally, hubs for projects and tags so
unlinked memories still have a place. Edges are the typed links, drawn distinctly, counted in
the legend. The layout (igraph's Fruchterman-Reingold) runs in a worker process; live writes,
paced, only place the new nodes beside their neighbours, so the settled picture never jumps.

Editable: drag from one memory to another to link them (choose the relation); right-click a
memory to remove one of its links. Both go through the service and Ctrl+Z undoes them.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot
from PySide6.QtGui import QCursor, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.views.graph import BUDGET
from memdesk.ui.control_row import kept_together, wrapping_row
from memdesk.ui.graph.graph_data import edge_lines, node_points, place
from memdesk.ui.graph.graph_labels import draw_labels
from memdesk.ui.graph.graph_nodes import GraphNodes
from memdesk.ui.paced_refresh import PacedRefresh
from memdesk.ui.timeline.timeline_data import KIND_COLOURS

LAYER_COLOURS = {"L0": "#e15759", "L1": "#4e79a7", "L2": "#59a14f"}
HUB_COLOUR = "#bab0ac"
FADED = "#e6e6e6"  # nodes outside the focus
HUBS = {
    "None": (),
    "Projects and tags": ("project", "tag"),
    "Projects, tags, tasks, agents": ("project", "tag", "task", "agent"),
}
EDGE_STYLES = {  # relation -> (colour, Qt pen style)
    "related": ("#7f7f7f", Qt.PenStyle.SolidLine),
    "supersedes": ("#d62728", Qt.PenStyle.SolidLine),
    "duplicate_of": ("#9467bd", Qt.PenStyle.DashLine),
    "derived_from": ("#2ca02c", Qt.PenStyle.DashDotLine),
    "possible_update": ("#ff7f0e", Qt.PenStyle.DotLine),
    "hub": ("#dddddd", Qt.PenStyle.SolidLine),
}


class _Layout(QRunnable):
    """Loads the graph and lays it out, keeping the positions of nodes already placed."""

    def __init__(
        self, view: GraphView, ticket: int, known: dict[str, tuple[float, float]], full: bool
    ) -> None:
        super().__init__()
        self._view, self._ticket, self._known, self._full = view, ticket, known, full

    def run(self) -> None:
        service = self._view.service
        try:
            data = service.graph(
                budget=self._view.budget,
                hubs=HUBS[self._view.hubs.currentText()],
                **self._view.filters,
            )
        except MemdeskError:
            self._view.signals.laid_out.emit(self._ticket, None)
            return
        finally:
            service.release_thread()
        least = self._view.importance.value()
        if least > 0:
            kept = {n["id"] for n in data["nodes"] if n.get("hub") or n["importance"] >= least}
            data["nodes"] = [n for n in data["nodes"] if n["id"] in kept]
            data["edges"] = [e for e in data["edges"] if e[0] in kept and e[1] in kept]
        data["positions"] = place(data, {} if self._full else self._known)
        data["lines"] = edge_lines(data)
        data["points"] = node_points(data)
        data["full"] = self._full
        self._view.signals.laid_out.emit(self._ticket, data)


class _Signals(QObject):
    laid_out = Signal(int, object)


class GraphView(QWidget):
    """`memory_activated(id)`; `link_requested(from, to)`; `unlink_requested(from, to,
    relation)`."""

    memory_activated = Signal(str)
    link_requested = Signal(str, str)
    unlink_requested = Signal(str, str, str)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.signals = _Signals(self)
        self.signals.laid_out.connect(self._on_laid_out)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._ticket = 0
        self.filters: dict[str, Any] = {}
        self.budget = BUDGET
        self.data: dict[str, Any] = {"nodes": [], "edges": [], "left_out": 0}
        self.positions: dict[str, tuple[float, float]] = {}
        self.current: str | None = None
        self.paced = PacedRefresh(self, self.reload)
        self._moved_by_person = False  # zoomed or panned: a refresh leaves the view where it is

        self.hubs = QComboBox(self)
        self.hubs.addItems(list(HUBS))
        self.hubs.setCurrentText("Projects and tags")
        self.hubs.setToolTip("Hub nodes give memories without links a place")
        self.hubs.currentTextChanged.connect(lambda _: self.reload(full=True))
        self.importance = QDoubleSpinBox(self)
        self.importance.setRange(0.0, 1.0)
        self.importance.setSingleStep(0.1)
        self.importance.setPrefix("Importance ≥ ")
        self.importance.valueChanged.connect(lambda _: self.reload(full=True))
        self.colour = QComboBox(self)
        self.colour.addItems(["Layer", "Kind"])
        self.colour.currentTextChanged.connect(lambda _: self._draw())
        self.focus_hops = QSpinBox(self)
        self.focus_hops.setRange(0, 3)
        self.focus_hops.setPrefix("Focus: ")
        self.focus_hops.setSpecialValueText("Focus: off")
        self.focus_hops.setToolTip("Dim everything further than N links from the current memory")
        self.focus_hops.valueChanged.connect(lambda _: self._draw())
        self.more = QPushButton("Show More", self)
        self.more.clicked.connect(self.show_more)
        relayout = QPushButton("Re-layout", self)
        relayout.clicked.connect(lambda: self.reload(full=True))
        fit = QPushButton("Fit", self)
        fit.setToolTip("Show the whole graph (Z)")
        fit.clicked.connect(self.fit)
        self.left_out = QLabel(self)
        bar = wrapping_row(
            kept_together(self, "Hubs:", self.hubs),
            self.importance,
            kept_together(self, "Colour:", self.colour),
            self.focus_hops,
            self.more,
            relayout,
            fit,
            self.left_out,
        )
        self.legend = QLabel(self)
        self.legend.setWordWrap(True)

        self.plot = pg.PlotWidget(background=self.palette().base().color())
        self.plot.hideAxis("left")
        self.plot.hideAxis("bottom")
        self.plot.setAspectLocked(True)
        # pyqtgraph's own menu (View All, Plot Options, Export…) is not this view's.
        self.plot.getPlotItem().setMenuEnabled(False)
        self.plot.getPlotItem().hideButtons()  # its "A" (auto-range) corner button; Fit is ours
        # One item per relation, kept: adding and removing them on each draw cost as much as
        # drawing, GUI time agents' requests waited behind.
        self._edge_items: dict[str, pg.PlotDataItem] = {}
        for relation, (colour, style) in EDGE_STYLES.items():
            width = 1 if relation == "hub" else 2
            item = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(colour, width=width, style=style))
            item.setZValue(-1)
            self.plot.addItem(item)
            self._edge_items[relation] = item
        self._draw_when_shown = False
        self.nodes = GraphNodes(self)
        self.nodes.sigClicked.connect(self._on_clicked)
        self.plot.addItem(self.nodes)
        self.marker = pg.ScatterPlotItem(size=26, pen=pg.mkPen("#222", width=2), brush=None)
        self.plot.addItem(self.marker)
        self.selection = pg.ScatterPlotItem(size=22, pen=pg.mkPen("#ff7f0e", width=2), brush=None)
        self.plot.addItem(self.selection)
        self._selected: list[str] = []
        self.rubber = pg.PlotDataItem(pen=pg.mkPen("#d62728", width=2, style=Qt.PenStyle.DashLine))
        self.plot.addItem(self.rubber)
        self.labels: list[pg.TextItem] = []
        # Labels are placed in screen space: a resize without a range change moves them too.
        self.plot.getViewBox().sigRangeChanged.connect(lambda *_: self._update_labels())
        self.plot.getViewBox().sigResized.connect(lambda *_: self._update_labels())
        self.plot.getViewBox().sigRangeChangedManually.connect(self._on_moved_by_person)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.legend)

    # -- data --------------------------------------------------------------------------------------

    def set_filters(self, filters: dict[str, Any]) -> None:
        """New filters load now; the same again load nothing (the window passes them on every
        change, and `paced` handles those)."""
        if filters != self.filters:
            self.filters = dict(filters)
            self.reload(full=True)

    def reload(self, full: bool = False) -> None:
        """Load in the background; unless `full`, nodes already placed keep their place."""
        self.paced.loaded()
        self._ticket += 1
        self._pool.start(_Layout(self, self._ticket, dict(self.positions), full))

    def show_more(self) -> None:
        self.budget += BUDGET
        self.reload()

    def finish(self) -> None:
        """The window is closing: let the query running on the worker end before the
        database closes (it went on after, and failed on a closed store)."""
        self._pool.clear()
        self._pool.waitForDone()

    def wait(self) -> None:
        self.paced.flush()
        self._pool.waitForDone()
        QApplication.processEvents()

    @Slot(int, object)
    def _on_laid_out(self, ticket: int, data: dict[str, Any] | None) -> None:
        if ticket != self._ticket or data is None:
            return
        self.data = data
        self.positions = data["positions"]
        if data["full"]:
            self._moved_by_person = False  # laid out anew: where they were is gone
        self._draw()
        if not self._moved_by_person:
            self._fit_range()  # new nodes go to the rim, past the settled picture

    # -- drawing -----------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.paced.shown()
        if self._draw_when_shown:
            self._draw()

    def _draw(self) -> None:
        # Hidden (another view showing), it draws when next shown: the List's current row
        # and selection move with every search result, and each redraw of a hidden graph was
        # GUI time between the person's keystrokes.
        self._draw_when_shown = not self.isVisible()
        if self._draw_when_shown:
            return
        nodes = self.data["nodes"]
        near = self._focus_set()
        lines = self.data.get("lines", {})
        counts = {r: len(lines[r][0]) // 2 if r in lines else 0 for r in EDGE_STYLES if r != "hub"}
        for relation, item in self._edge_items.items():
            item.setData(*lines.get(relation, ([], [])), connect="pairs")
        by = "layer" if self.colour.currentText() == "Layer" else "kind"
        palette = LAYER_COLOURS if by == "layer" else KIND_COLOURS
        # One brush and pen per colour, shared: building one per node cost more than drawing.
        brushes = {c: pg.mkBrush(c) for c in (*palette.values(), HUB_COLOUR, "#888", FADED)}
        pens = {"retired": pg.mkPen("#9e9e9e", width=2), "new": pg.mkPen("#2ca02c", width=2)}
        pens["plain"] = pg.mkPen("w", width=0.5)
        pens[None] = None
        fills = [
            brushes[
                FADED
                if near is not None and node["id"] not in near
                else HUB_COLOUR
                if node.get("hub")
                else palette.get(node[by], "#888")
            ]
            for node in nodes
        ]
        points = self.data.get("points")
        if points is not None:
            self.nodes.setData(
                x=points["x"],
                y=points["y"],
                size=points["size"],
                symbol=points["symbol"],
                brush=fills,
                pen=[pens[r] for r in points["ring"]],
                data=points["ids"],
            )
        else:
            self.nodes.clear()
        self._draw_marks()
        self.legend.setText(
            "Links: "
            + "  ".join(
                f"<span style='color:{EDGE_STYLES[r][0]}'>━</span> {r} {n}"
                for r, n in counts.items()
            )
            + "   ·   size: recalls   ring: green new (24 h), grey retired"
        )
        shown = sum(1 for n in nodes if not n.get("hub"))
        left = self.data["left_out"]
        self.left_out.setText(
            f"{shown:,} memories shown; {left:,} more not shown (Show More)"
            if left
            else f"{shown:,} memories"
        )
        self.more.setEnabled(left > 0)
        self._update_labels()

    def _draw_marks(self) -> None:
        """The rings of the List's selection and of the current memory: all that a change of
        either draws (a whole redraw for each was GUI time agents' requests waited behind)."""
        if not self.isVisible():
            self._draw_when_shown = True
            return
        positions = self.positions
        chosen = [positions[i] for i in self._selected if i in positions]
        self.selection.setData(x=[p[0] for p in chosen], y=[p[1] for p in chosen])
        here = positions.get(self.current) if self.current else None
        self.marker.setData(x=[here[0]] if here else [], y=[here[1]] if here else [])

    def _update_labels(self) -> None:
        draw_labels(self.plot, self.font(), self.data, self.positions, self.labels)

    def _focus_set(self) -> set[str] | None:
        hops = self.focus_hops.value()
        if not hops or self.current is None:
            return None
        near = {self.current}
        for _ in range(hops):
            near |= {b for a, b, _ in self.data["edges"] if a in near} | {
                a for a, b, _ in self.data["edges"] if b in near
            }
        return near

    # -- interaction -------------------------------------------------------------------------------

    def _on_clicked(self, _item: Any, points: Any, event: Any = None) -> None:
        if not len(points):
            return
        node = points[0].data()
        if event is not None and event.button() == Qt.MouseButton.RightButton:
            self._link_menu(node)
            return
        if ":" not in node:  # hubs are "kind:name"; memories are UUIDs
            self.memory_activated.emit(node)

    def _link_menu(self, node: str) -> None:
        labels = {n["id"]: n["label"] for n in self.data["nodes"]}
        menu = QMenu(self)
        for a, b, relation in self.data["edges"]:
            if relation != "hub" and node in (a, b):
                other = b if a == node else a
                quoted = textwrap.shorten(labels.get(other, other), 40, placeholder="…")
                action = menu.addAction(f"Remove link: {relation} “{quoted}”")
                action.triggered.connect(
                    lambda _=False, x=(a, b, relation): self.unlink_requested.emit(*x)
                )
        if menu.isEmpty():
            menu.addAction("No links (drag to another memory to link them)").setEnabled(False)
        menu.popup(QCursor.pos())
        self.link_menu = menu

    def set_selected(self, memory_ids: list[str]) -> None:
        """Ring the memories selected in the List (its multi-selection, seen here too)."""
        if list(memory_ids) != self._selected:
            self._selected = list(memory_ids)
            self._draw_marks()

    def move_node(self, node: str, position: tuple[float, float]) -> None:
        """Put a node where the person dropped it; later layouts of new nodes keep it there
        (until Re-layout)."""
        self.positions[node] = position
        self.data["positions"] = self.positions
        self.data["lines"] = edge_lines(self.data)
        self.data["points"] = node_points(self.data)
        self._draw()

    def set_current(self, memory_id: str | None) -> None:
        if memory_id == self.current:
            return
        self.current = memory_id
        if self.focus_hops.value():
            self._draw()  # what is dimmed follows the current memory
        else:
            self._draw_marks()

    def neighbour(self, direction: tuple[float, float]) -> str | None:
        """The linked memory lying most in `direction` from the current one."""
        if self.current not in self.positions:
            return None
        cx, cy = self.positions[self.current]
        best, best_score = None, 0.0
        for a, b, _relation in self.data["edges"]:
            if self.current not in (a, b):
                continue
            other = b if a == self.current else a
            if ":" in other or other not in self.positions:
                continue
            dx, dy = self.positions[other][0] - cx, self.positions[other][1] - cy
            length = math.hypot(dx, dy) or 1.0
            score = (dx * direction[0] + dy * direction[1]) / length
            if score > best_score:
                best, best_score = other, score
        return best

    @Slot()
    def fit(self) -> None:
        """Show the whole graph, now and after later refreshes."""
        self._moved_by_person = False
        self._fit_range()

    @Slot()
    def _on_moved_by_person(self) -> None:
        self._moved_by_person = True

    def _fit_range(self) -> None:
        if self.positions:
            xs = [p[0] for p in self.positions.values()]
            ys = [p[1] for p in self.positions.values()]
            self.plot.setRange(xRange=(min(xs), max(xs)), yRange=(min(ys), max(ys)), padding=0.05)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        directions = {
            Qt.Key.Key_Left: (-1.0, 0.0),
            Qt.Key.Key_Right: (1.0, 0.0),
            Qt.Key.Key_Up: (0.0, 1.0),
            Qt.Key.Key_Down: (0.0, -1.0),
        }
        key = event.key()
        if key == Qt.Key.Key_Z:
            self.fit()
        elif key == Qt.Key.Key_Escape:
            self.focus_hops.setValue(0)
        elif key in directions:
            found = self.neighbour(directions[key])
            if found:
                self.memory_activated.emit(found)
        else:
            super().keyPressEvent(event)
