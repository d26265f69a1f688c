"""The Stats dashboard: counts (each a link into the filtered list), activity per day, what
agents recall and never recall, search latency, the file, and its last integrity check.

Everything is computed off the GUI thread (`service.stats()` and `service.dashboard()`).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, QRunnable, QSettings, Qt, QThreadPool, Signal, Slot
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from superqt import QFlowLayout

from memdesk.core import MemoryService
from memdesk.core.rules import LAYER_NAMES
from memdesk.ui.stats_loader import StatsLoader

PERIODS = {"30 days": 30, "90 days": 90, "365 days": 365}
SHOWN = 10  # projects, tags and agents listed; the rest are in the sidebar and chips
TILE_WIDTH = 200  # a figure's box: three side by side from ~660 px, fewer below


class _Job(QRunnable):
    def __init__(self, work: Callable[[], Any], done: Signal) -> None:
        super().__init__()
        self._work, self._done = work, done

    def run(self) -> None:
        self._done.emit(self._work())


class _Signals(QObject):
    loaded = Signal(object)
    checked = Signal(object)


class StatsView(QScrollArea):
    """`filter_requested(field, value)` when a count is clicked (field: layer, kind, source,
    agent, status, project, tag); `memory_activated(id)` for a listed memory."""

    filter_requested = Signal(str, str)
    memory_activated = Signal(str)

    def __init__(
        self,
        service: MemoryService,
        settings: QSettings,
        counts: StatsLoader,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        # The counts the sidebar already keeps fresh (computed once per change, not twice).
        self._counts = counts
        counts.loaded.connect(self._on_counts)
        self._settings = settings
        self._signals = _Signals(self)
        self._signals.loaded.connect(self._on_loaded)
        self._signals.checked.connect(self._on_checked)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self.figures: dict[str, Any] = {}
        self.setWidgetResizable(True)
        # Everything wraps to the width it is given: at 1,024 px the counts needed a
        # horizontal scroll and the Agent and Project columns were cut.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page = QWidget(self)
        self.setWidget(page)
        column = QVBoxLayout(page)

        tiles = QFlowLayout()
        self.total = self._tile(tiles, "Memories")
        self.identity = self._tile(tiles, "Identity (L0)")
        self.latency = self._tile(tiles, "Search time")
        self.file = self._tile(tiles, "Database")
        self.integrity = self._tile(tiles, "Integrity")
        self.check_button = QPushButton("Check Now", self)
        self.check_button.clicked.connect(self.check_now)
        tiles.addWidget(self.check_button)
        column.addLayout(tiles)

        self.counts = QGroupBox("Counts (click one to list those memories)", self)
        self._counts_grid = QFlowLayout(self.counts)
        column.addWidget(self.counts)

        activity = QGroupBox("Activity", self)
        box = QVBoxLayout(activity)
        self.period = QComboBox(self)
        self.period.addItems(list(PERIODS))
        self.period.currentTextChanged.connect(lambda _: self.request())
        choose = QHBoxLayout()
        choose.addWidget(QLabel("Last", self))
        choose.addWidget(self.period)
        choose.addStretch(1)
        box.addLayout(choose)
        background = self.palette().base().color()
        self.added_plot = pg.PlotWidget(title="Memories added per day", background=background)
        self.recalled_plot = pg.PlotWidget(
            title="Memories recalled by agents per day", background=background
        )
        self.injected_plot = pg.PlotWidget(
            title="Characters given to agents per day (View ▸ Injections…)", background=background
        )
        self.injected_plot.addLegend(offset=(-10, 10))
        for plot in (self.added_plot, self.recalled_plot, self.injected_plot):
            plot.setFixedHeight(170)
            plot.setMouseEnabled(x=False, y=False)
            box.addWidget(plot)
        self.injected_by = QComboBox(self)
        self.injected_by.addItems(["By agent", "By project"])
        self.injected_by.currentTextChanged.connect(lambda _: self._plot_injected())
        by = QHBoxLayout()
        by.addWidget(self.injected_by)
        by.addStretch(1)
        box.addLayout(by)
        column.addWidget(activity)

        lists = QHBoxLayout()
        self.most = QLabel(self)
        self.stale = QLabel(self)
        for label, title in ((self.most, "Most recalled"), (self.stale, "Prune candidates")):
            group = QGroupBox(title, self)
            QVBoxLayout(group).addWidget(label)
            label.setWordWrap(True)
            label.linkActivated.connect(self._on_memory_link)
            lists.addWidget(group)
        column.addLayout(lists)
        column.addStretch(1)
        self._show_last_check()

    def _tile(self, tiles: QFlowLayout, title: str) -> QLabel:
        group = QGroupBox(title, self)
        group.setMinimumWidth(TILE_WIDTH)
        label = QLabel("…", group)
        label.setWordWrap(True)
        QVBoxLayout(group).addWidget(label)
        tiles.addWidget(group)
        return label

    # -- loading -------------------------------------------------------------------------------

    def request(self) -> None:
        days = PERIODS[self.period.currentText()]
        service = self.service

        def work() -> dict[str, Any]:
            try:
                return {"activity": service.dashboard(days)}
            finally:
                service.release_thread()

        self._pool.start(_Job(work, self._signals.loaded))

    @Slot(dict)
    def _on_counts(self, _stats: dict[str, Any]) -> None:
        if self.figures:
            self._on_loaded({"activity": self.figures["activity"]})

    def finish(self) -> None:
        """The window is closing: let the query running on the worker end before the
        database closes (it went on after, and failed on a closed store)."""
        self._pool.clear()
        self._pool.waitForDone()

    def wait(self) -> None:
        """Block until what was requested is shown (tests)."""
        self._counts.wait()
        self._pool.waitForDone()
        QApplication.processEvents()

    @Slot(object)
    def _on_loaded(self, figures: dict[str, Any]) -> None:
        figures = {**figures, "stats": self._counts.latest}
        self.figures = figures
        stats, activity = figures["stats"], figures["activity"]
        self.total.setText(
            f"<b>{stats['by_status'].get('active', 0):,}</b> active of {stats['total']:,}"
        )
        size, limit = stats["identity"]["size"], stats["identity"]["limit"]
        self.identity.setText(f"<b>{size * 100 // limit}%</b> — {size:,} / {limit:,}")
        latency = activity["latency_ms"]
        self.latency.setText(
            f"p50 <b>{latency['p50']} ms</b>, p95 {latency['p95']} ms "
            f"({latency['searches']:,} searches)"
            if latency["searches"]
            else "no searches yet"
        )
        self.file.setText(
            f"<b>{_mb(activity['file_bytes'])}</b> + WAL {_mb(activity['wal_bytes'])}"
        )
        self._fill_counts(stats)
        self._plot(self.added_plot, activity["added"])
        self._plot(self.recalled_plot, activity["recalled"])
        self._plot_injected()
        self.most.setText(_memory_links(activity["most_recalled"], "recall_count") or "none yet")
        stale = activity["prune_candidates"]
        self.stale.setText(
            f"{stale['count']:,} knowledge memories older than {stale['days']} days that no "
            f"agent ever recalled: yours to keep or delete. Oldest:<br>"
            f"{_memory_links(stale['oldest'], None)}"
            if stale["count"]
            else f"no knowledge memory is both older than {stale['days']} days and never recalled"
        )

    def _fill_counts(self, stats: dict[str, Any]) -> None:
        while self._counts_grid.count():
            item = self._counts_grid.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        groups = [
            ("Layer", "layer", stats["by_layer"], lambda v: f"{v} {LAYER_NAMES.get(v, '')}"),
            ("Kind", "kind", stats["by_kind"], str),
            ("Written by", "source", stats["by_source"], str),
            ("Status", "status", stats["by_status"], str),
            ("Agent", "agent", _top(stats["agents"]), str),
            ("Project", "project", _top(stats["projects"]), str),
            ("Tag", "tag", _top(stats["tags"]), str),
        ]
        for title, field, counts, name in groups:
            lines = [
                f"<a href='{field}\x1f{html.escape(value)}'>{html.escape(name(value))}</a> "
                f"{count:,}"
                for value, count in counts.items()
            ]
            group = QWidget(self.counts)
            stacked = QVBoxLayout(group)
            stacked.setContentsMargins(0, 0, 12, 0)
            stacked.addWidget(QLabel(f"<b>{html.escape(title)}</b>", group))
            label = QLabel("<br>".join(lines) or "—", group)
            label.setObjectName(f"counts_{field}")
            label.linkActivated.connect(self._on_count_link)
            stacked.addWidget(label, 0, Qt.AlignmentFlag.AlignTop)
            stacked.addStretch(1)
            self._counts_grid.addWidget(group)

    def _plot(self, plot: pg.PlotWidget, values: list[int]) -> None:
        plot.clear()
        colour = self.palette().highlight().color()
        plot.addItem(
            pg.BarGraphItem(x=list(range(len(values))), height=values, width=0.8, brush=colour)
        )
        _from_zero(plot, max(values, default=0))
        days = self.figures["activity"]["days"]
        step = max(1, len(days) // 6)
        plot.getAxis("bottom").setTicks([[(n, days[n][5:]) for n in range(0, len(days), step)]])

    def _plot_injected(self) -> None:
        """One line per agent (or project): how much memdesk put into its models each day."""
        plot = self.injected_plot
        plot.clear()
        if not self.figures:
            return
        by = "agent" if self.injected_by.currentText() == "By agent" else "project"
        series = self.figures["activity"]["injected"][by]
        for n, (name, values) in enumerate(sorted(series.items(), key=lambda p: -sum(p[1]))):
            colour = pg.intColor(n, hues=max(len(series), 6))
            plot.plot(list(range(len(values))), values, pen=pg.mkPen(colour, width=2), name=name)
        _from_zero(plot, max((max(v, default=0) for v in series.values()), default=0))
        days = self.figures["activity"]["days"]
        step = max(1, len(days) // 6)
        plot.getAxis("bottom").setTicks([[(n, days[n][5:]) for n in range(0, len(days), step)]])

    @Slot(str)
    def _on_count_link(self, link: str) -> None:
        field, value = link.split("\x1f", 1)
        self.filter_requested.emit(field, html.unescape(value))

    @Slot(str)
    def _on_memory_link(self, link: str) -> None:
        self.memory_activated.emit(link)

    # -- integrity -----------------------------------------------------------------------------

    @Slot()
    def check_now(self) -> None:
        self.check_button.setEnabled(False)
        self.integrity.setText("checking…")
        service = self.service

        def work() -> list[str]:
            try:
                return service.check()
            finally:
                service.release_thread()

        self._pool.start(_Job(work, self._signals.checked))

    @Slot(object)
    def _on_checked(self, problems: list[str]) -> None:
        self.check_button.setEnabled(True)
        at = datetime.now(UTC).isoformat(timespec="seconds")
        self._settings.setValue(self._check_key(), [at, "; ".join(problems)])
        self._show_last_check()

    def _check_key(self) -> str:
        return f"checks/{self.service.path}"

    def _show_last_check(self) -> None:
        last = self._settings.value(self._check_key())
        if not last:
            self.integrity.setText("not checked yet")
            return
        at, problems = last
        when = at[:16].replace("T", " ")
        self.integrity.setText(
            f"<b>ok</b> ({when} UTC)" if not problems else f"<b>problems</b> ({when}): {problems}"
        )


def _top(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:SHOWN])


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _memory_links(memories: list[dict[str, Any]], count: str | None) -> str:
    lines = []
    for m in memories:
        first = next((ln for ln in m["content"].splitlines() if ln.strip()), "")[:80]
        times = f" — {m[count]}×" if count else ""
        lines.append(f"<a href='{m['id']}'>{html.escape(first)}</a>{times}")
    return "<br>".join(lines)


def _from_zero(plot: pg.PlotWidget, highest: float) -> None:
    """Counts start at 0: days of nothing drew an axis from -0.4 to 0.4."""
    plot.setYRange(0, max(1, highest) * 1.05, padding=0)
