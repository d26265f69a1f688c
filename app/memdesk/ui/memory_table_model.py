"""The memory list as a Qt item model: pages fetched on demand, sorting done in SQL.

Only the row count and the pages a person actually scrolls to are loaded, so 100,000
memories open as fast as ten. In search mode the rows are the (at most k) search hits.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from memdesk.core import MemoryService

COL_CONTENT, COL_LAYER, COL_KIND, COL_TAGS, COL_PROJECT, COL_AGENT, COL_UPDATED, COL_RECALLS = (
    range(8)
)
HEADERS = ("Content", "Layer", "Kind", "Tags", "Project", "Source / agent", "Updated", "Recalls")
# The SQL sort key behind each column.
SORT_KEYS = (
    "content",
    "layer",
    "kind",
    "tags",
    "project",
    "agent",
    "updated_at",
    "recall_count",
)
PAGE_SIZE = 200
SEARCH_K = 100  # search shows the best hits, not everything that matches a word
MAX_CACHED_PAGES = 50  # ~10,000 rows: enough for smooth scrolling, bounded memory
ID_ROLE = Qt.ItemDataRole.UserRole + 1
RECORD_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


class MemoryTableModel(QAbstractTableModel):
    """Rows of memories matching the current filters, or the hits of the current search."""

    def __init__(self, service: MemoryService, parent: Any = None) -> None:
        super().__init__(parent)
        self._service = service
        self._filters: dict[str, Any] = {}
        self._order = "-updated_at"
        self._count = 0
        self._pages: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()
        self._hits: list[dict[str, Any]] | None = None  # search mode when not None
        self._query = ""

    # -- what to show ------------------------------------------------------------------------

    @property
    def filters(self) -> dict[str, Any]:
        return dict(self._filters)

    @property
    def query(self) -> str:
        return self._query

    def configure(self, filters: dict[str, Any], query: str) -> None:
        """Set what to show; takes effect on the next `refresh()`."""
        self._filters = dict(filters)
        self._query = query.strip()

    def refresh(self) -> None:
        """Reload from the service (after a change, a new filter or a new query)."""
        self.beginResetModel()
        self._pages.clear()
        if self._query:
            self._hits = self._search()
            self._count = len(self._hits)
        else:
            self._hits = None
            self._count = self._service.count(**self._filters)
        self.endResetModel()

    def record_search(self) -> None:
        """Run the current search once more, this time written to the retrieval log."""
        if self._query:
            self._search_hits(record=True)

    def _search_hits(self, *, record: bool) -> list[dict[str, Any]]:
        filters = dict(self._filters)
        status = filters.pop("status", "active")
        if status == "deleted":
            return []  # the Trash is not searchable: retrieval never returns deleted memories
        found = self._service.search(
            self._query, k=SEARCH_K, record=record, include_inactive=status != "active", **filters
        )
        return found["hits"]

    def _search(self) -> list[dict[str, Any]]:
        status = self._filters.get("status", "active")
        ids = [h["id"] for h in self._search_hits(record=False)]
        if not ids:
            return []
        # Hits carry only the searchable fields; fetch whole rows (and sort them in SQL if asked).
        rows = self._service.list_memories(ids=ids, status=None, limit=len(ids), order=self._order)
        if self._order_is_default():
            by_id = {r["id"]: r for r in rows}
            rows = [by_id[i] for i in ids if i in by_id]
        if status == "inactive":
            rows = [r for r in rows if r["status"] == "inactive"]
        return rows

    def _order_is_default(self) -> bool:
        return self._order == "-updated_at"

    # -- reading rows ------------------------------------------------------------------------

    def record(self, row: int) -> dict[str, Any] | None:
        if not 0 <= row < self._count:
            return None
        if self._hits is not None:
            return self._hits[row]
        page, within = divmod(row, PAGE_SIZE)
        rows = self._page(page)
        return rows[within] if within < len(rows) else None

    def _page(self, page: int) -> list[dict[str, Any]]:
        if page in self._pages:
            self._pages.move_to_end(page)
            return self._pages[page]
        rows = self._service.list_memories(
            offset=page * PAGE_SIZE, limit=PAGE_SIZE, order=self._order, **self._filters
        )
        self._pages[page] = rows
        while len(self._pages) > MAX_CACHED_PAGES:
            self._pages.popitem(last=False)
        return rows

    def row_of(self, memory_id: str, near: int = 0) -> int:
        """The row showing `memory_id`, looked for around row `near` first; -1 if not shown."""
        if self._hits is not None:
            return next((n for n, r in enumerate(self._hits) if r["id"] == memory_id), -1)
        first = max(0, near // PAGE_SIZE - 1)
        for page in (*range(first, first + 3), *list(self._pages)):
            if page * PAGE_SIZE >= self._count:
                continue
            for n, rec in enumerate(self._page(page)):
                if rec["id"] == memory_id:
                    return page * PAGE_SIZE + n
        return -1

    # -- Qt model interface ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        rec = self.record(index.row()) if index.isValid() else None
        if rec is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(rec, index.column())
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == COL_CONTENT:
            return rec["content"][:500]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == COL_RECALLS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ID_ROLE:
            return rec["id"]
        if role == RECORD_ROLE:
            return rec
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        prefix = "-" if order == Qt.SortOrder.DescendingOrder else ""
        new_order = prefix + SORT_KEYS[column]
        if new_order != self._order:
            self._order = new_order
            self.refresh()


def _display(rec: dict[str, Any], column: int) -> str:
    if column == COL_CONTENT:
        return first_line(rec["content"])
    if column == COL_LAYER:
        return rec["layer"]
    if column == COL_KIND:
        return rec["kind"]
    if column == COL_TAGS:
        return ", ".join(rec["tags"])
    if column == COL_PROJECT:
        return rec["project"] or ""
    if column == COL_AGENT:
        return rec["agent"] or rec["source"]
    if column == COL_UPDATED:
        return short_time(rec["updated_at"])
    return str(rec["recall_count"])


def first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:300]


def short_time(stamp: str | None) -> str:
    """'2026-05-01T14:30:12.345Z' (UTC, as stored) -> '2026-05-01 16:30' in local time."""
    if not stamp:
        return ""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
