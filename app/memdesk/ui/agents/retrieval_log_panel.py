"""The retrieval log: every search an agent (or the person) ran, and the memories it returned.

Answers "which memories did my agent use this turn": pick a search to see its hits with
their scores; double-click a hit (or press Enter) to open that memory.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QHideEvent, QKeySequence, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QToolBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemoryService, NotFound
from memdesk.ui.plain_text import tip

CAPTION_QUERY_CHARS = 120

SHOWN_SEARCHES = 500  # the newest; older entries stay in the database
LIVE_MS = 1500
# (header, width); the column of width 0 stretches.
SEARCH_COLUMNS = [
    ("When", 130),
    ("By", 110),
    ("Query", 0),
    ("Filters", 170),
    ("Hits", 50),
    ("ms", 55),
]
HIT_COLUMNS = [("Score", 70), ("Memory", 0), ("Layer", 60)]
_ID_ROLE = Qt.ItemDataRole.UserRole
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class RetrievalLogPanel(QWidget):
    """Searches above, the selected search's hits below."""

    memory_activated = Signal(str)

    def __init__(self, service: MemoryService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self._entries: list[dict[str, Any]] = []

        reload_icon = self.style().standardIcon(QStyle.StandardPixmap.SP_BrowserReload)
        self.refresh_action = QAction(reload_icon, "Refresh", self)
        self.refresh_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.refresh_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.refresh_action.setToolTip("Reload the retrieval log (F5)")
        self.refresh_action.triggered.connect(self.refresh)
        toolbar = QToolBar()
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.addAction(self.refresh_action)
        self.addAction(self.refresh_action)

        self.searches = _tree(SEARCH_COLUMNS)
        self.searches.currentItemChanged.connect(self._on_search_selected)
        self.hits = _tree(HIT_COLUMNS)
        self.hits.itemActivated.connect(self._on_hit_activated)
        self.hits_caption = QLabel("Select a search to see the memories it returned.")
        hits_box = QWidget()
        hits_layout = QVBoxLayout(hits_box)
        hits_layout.setContentsMargins(0, 6, 0, 0)
        self.hits_caption.setContentsMargins(4, 0, 0, 0)
        # an agent's query: shown as the text it is, and never the width the window needs (a
        # 4,000-character query widened the window to 3,063 px)
        self.hits_caption.setTextFormat(Qt.TextFormat.PlainText)
        self.hits_caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        hits_layout.addWidget(self.hits_caption)
        hits_layout.addWidget(self.hits)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.searches)
        splitter.addWidget(hits_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.empty_label = QLabel(
            "No searches yet.\n\nWhen an agent or you search memories, each search appears "
            "here with the memories it returned and their scores."
        )
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty_label)
        self.stack.addWidget(splitter)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(toolbar)
        layout.addWidget(self.stack, 1)
        # Searches leave no change event: while shown, the log looks for new ones itself.
        self._live = QTimer(self)
        self._live.setInterval(LIVE_MS)
        self._live.timeout.connect(self._on_live_tick)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._live.start()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self._live.stop()

    @Slot()
    def _on_live_tick(self) -> None:
        newest = self.service.retrieval_log(limit=1)
        if newest and (not self._entries or _key(newest[0]) != _key(self._entries[0])):
            self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Reload the newest searches, keeping the selected one selected."""
        current = self.searches.currentItem()
        keep = _key(self._entries[self.searches.indexOfTopLevelItem(current)]) if current else None
        self._entries = self.service.retrieval_log(limit=SHOWN_SEARCHES)
        self.searches.clear()
        for entry in self._entries:
            self.searches.addTopLevelItem(_search_item(entry))
        self.stack.setCurrentIndex(1 if self._entries else 0)
        keys = [_key(entry) for entry in self._entries]
        if keep in keys:
            self.searches.setCurrentItem(self.searches.topLevelItem(keys.index(keep)))
        else:
            self._show_hits(None)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_search_selected(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        index = self.searches.indexOfTopLevelItem(current) if current else -1
        self._show_hits(self._entries[index] if index >= 0 else None)

    def _show_hits(self, entry: dict[str, Any] | None) -> None:
        self.hits.clear()
        if entry is None:
            self.hits_caption.setText("Select a search to see the memories it returned.")
            return
        count = len(entry["results"])
        query = entry["query"]
        shown = query if len(query) <= CAPTION_QUERY_CHARS else query[:CAPTION_QUERY_CHARS] + "…"
        self.hits_caption.setText(
            f"{count} memor{'y' if count == 1 else 'ies'} returned for “{shown}”"
            if count
            else f"Nothing matched “{shown}”."
        )
        self.hits_caption.setToolTip(tip(query))
        for memory_id, score in entry["results"]:
            self.hits.addTopLevelItem(self._hit_item(memory_id, score))

    def _hit_item(self, memory_id: str, score: float) -> QTreeWidgetItem:
        try:
            memory = self.service.get(memory_id)
        except NotFound:
            item = QTreeWidgetItem([f"{score:.3f}", "(deleted permanently)", ""])
            item.setForeground(1, self.palette().brush(QPalette.ColorRole.PlaceholderText))
            item.setToolTip(1, f"Memory {memory_id} no longer exists.")
            item.setTextAlignment(0, _RIGHT)
            return item
        title = memory["content"].strip().splitlines()[0] if memory["content"].strip() else ""
        if memory["status"] != "active":
            title += f"  ({'in Trash' if memory['status'] == 'deleted' else 'superseded'})"
        item = QTreeWidgetItem([f"{score:.3f}", title, memory["layer"]])
        item.setData(0, _ID_ROLE, memory["id"])
        item.setToolTip(1, tip(memory["content"][:500]))
        item.setTextAlignment(0, _RIGHT)
        return item

    @Slot(QTreeWidgetItem, int)
    def _on_hit_activated(self, item: QTreeWidgetItem, _column: int) -> None:
        memory_id = item.data(0, _ID_ROLE)
        if memory_id:  # a purged memory has nothing to open
            self.memory_activated.emit(memory_id)


def _tree(columns: list[tuple[str, int]]) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setHeaderLabels([title for title, _width in columns])
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.setAllColumnsShowFocus(True)
    header = tree.header()
    header.setStretchLastSection(False)
    for column, (_title, width) in enumerate(columns):
        if width:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(column, width)
        else:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    return tree


def _search_item(entry: dict[str, Any]) -> QTreeWidgetItem:
    item = QTreeWidgetItem(
        [
            _when(entry["at"]),
            _who(entry["client"]),
            entry["query"],
            _filters(entry["filters"]),
            str(len(entry["results"])),
            f"{entry['took_ms']:.1f}",
        ]
    )
    item.setToolTip(0, entry["at"])
    item.setToolTip(2, tip(entry["query"]))
    for column in (4, 5):
        item.setTextAlignment(column, _RIGHT)
    return item


def _key(entry: dict[str, Any]) -> tuple[str, str, str]:
    return entry["at"], entry["client"], entry["query"]


def _when(at: str) -> str:
    """Local time; the date only when it is not today."""
    moment = datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone()
    if moment.date() == datetime.now().astimezone().date():
        return moment.strftime("%H:%M:%S")
    return moment.strftime("%Y-%m-%d %H:%M")


def _who(client: str) -> str:
    if client.startswith("agent:"):
        return client.removeprefix("agent:")
    return {"user": "you", "agent": "an agent"}.get(client, client)


def _filters(filters: dict[str, Any]) -> str:
    # Searching active memories is the default, so it is not worth a mention.
    shown = {k: v for k, v in filters.items() if not (k == "statuses" and v == ["active"])}
    return " · ".join(
        f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in shown.items()
    )
