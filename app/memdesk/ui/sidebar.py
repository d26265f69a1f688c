"""The sidebar: layers, inactive, trash, then projects and tags, each with its count.

Each entry is a view key ("L1", "trash", "project:web", "tag:python"); `filters_for(key)`
turns it into the service filters the list uses.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from memdesk.ui.stats_loader import StatsLoader

KEY_ROLE = Qt.ItemDataRole.UserRole + 1
FIXED_VIEWS = (
    ("inbox", "Inbox"),  # not memories: what waits for the person's decision (its own page)
    ("all", "All memories"),
    ("L0", "Identity (L0)"),
    ("L1", "Knowledge (L1)"),
    ("L2", "Archive (L2)"),
    ("inactive", "Inactive"),
    ("trash", "Trash"),
)
MAX_LISTED = 200  # projects or tags beyond this are reachable through the filter chips


def filters_for(key: str) -> dict[str, Any]:
    """The list filters behind a sidebar entry."""
    if key in ("L0", "L1", "L2"):
        return {"layer": key}
    if key == "inactive":
        return {"status": "inactive"}
    if key == "trash":
        return {"status": "deleted"}
    if key.startswith("project:"):
        return {"project": key.removeprefix("project:")}
    if key.startswith("tag:"):
        return {"tags": [key.removeprefix("tag:")]}
    return {}


class Sidebar(QTreeWidget):
    """Where a person picks what the list shows. Emits `view_selected(key)`."""

    view_selected = Signal(str)
    counts_changed = Signal()  # after each refresh of the entries' counts

    def __init__(self, stats: StatsLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stats = stats
        self._key = "all"
        self._wanted: str | None = None  # a project or tag to show once the counts name it
        self.setHeaderHidden(True)
        self.setColumnCount(2)
        self.setRootIsDecorated(False)
        self.setIndentation(12)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setUniformRowHeights(True)
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        # Never squeezed below its layers and a six-figure count ("Kno…" told a person nothing).
        metrics = self.fontMetrics()
        self.setMinimumWidth(metrics.horizontalAdvance("Knowledge (L1) 100,000") + 28)
        self.currentItemChanged.connect(self._on_current_item_changed)
        stats.loaded.connect(self.refresh)
        self.refresh()

    @property
    def current_key(self) -> str:
        return self._key

    def select_key(self, key: str) -> None:
        """Show `key` (falls back to all memories when that project or tag is gone; before
        the first counts arrive, all memories until they name it)."""
        item = self._find(key)
        self._wanted = key if item is None and not self._stats.ready else None
        self.setCurrentItem(item or self._find("all"))

    def mark(self, key: str) -> None:
        """Highlight `key` without announcing it: the List shows it already."""
        self._key = key
        self.setCurrentItem(self._find(key))

    @Slot()
    def refresh(self) -> None:
        """Rebuild the entries and counts from the latest stats, keeping the current entry."""
        stats = self._stats.latest
        counts = {
            "all": sum(stats["by_layer"].values()),
            **stats["by_layer"],
            "inactive": stats["by_status"].get("inactive", 0),
            "trash": stats["by_status"].get("deleted", 0),
            "inbox": stats.get("inbox", 0),
        }
        self.blockSignals(True)
        try:
            self.clear()
            for key, label in FIXED_VIEWS:
                self._add(self, key, label, counts.get(key, 0))
            self._add_group("Projects", "project", stats["projects"])
            self._add_group("Tags", "tag", stats["tags"])
            self.expandAll()
            self.setCurrentItem(self._find(self._key) or self._find("all"))
        finally:
            self.blockSignals(False)
        if self._wanted is not None and self._stats.ready:
            wanted, self._wanted = self._wanted, None
            self.select_key(wanted)
        self.counts_changed.emit()

    def _add_group(self, title: str, prefix: str, counts: dict[str, int]) -> None:
        if not counts:
            return
        group = QTreeWidgetItem(self, [title.upper()])
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)
        font = group.font(0)
        font.setPointSizeF(font.pointSizeF() * 0.85)
        font.setBold(True)
        group.setFont(0, font)
        group.setForeground(0, self.palette().placeholderText())
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_LISTED]
        for name, count in ranked:
            self._add(group, f"{prefix}:{name}", name, count)

    def _add(self, parent: Any, key: str, label: str, count: int) -> QTreeWidgetItem:
        shown = f"{count:,}" if self._stats.ready else "…"  # counting, off the GUI thread
        item = QTreeWidgetItem(parent, [label, shown])
        item.setData(0, KEY_ROLE, key)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setForeground(1, self.palette().placeholderText())
        if key == "inbox" and count:  # a badge: something waits for the person
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
            item.setFont(1, font)
            item.setForeground(1, self.palette().highlight())
        return item

    def _find(self, key: str) -> QTreeWidgetItem | None:
        for item in self.findItems("*", Qt.MatchFlag.MatchWildcard | Qt.MatchFlag.MatchRecursive):
            if item.data(0, KEY_ROLE) == key:
                return item
        return None

    def count_of(self, key: str) -> int:
        item = self._find(key)
        text = item.text(1).replace(",", "") if item else ""
        return int(text) if text.isdigit() else 0

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_current_item_changed(self, current: QTreeWidgetItem | None, _previous: Any) -> None:
        key = current.data(0, KEY_ROLE) if current else None
        if key and key != self._key:
            self._key = key
            self.view_selected.emit(key)
