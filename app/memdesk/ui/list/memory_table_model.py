"""The memory list as a Qt item model: pages fetched on demand, sorting done in SQL.

Only the row count and the pages a person actually scrolls to are loaded, so 100,000
memories open as fast as ten. In search mode the rows are the (at most k) search hits.

A change of view, filter, query or sort loads the count and the first page at once (the
person is waiting for exactly that). Everything else runs on a worker thread: a page scrolled
to shows blank rows until it arrives, and a live refresh keeps showing the current rows until
the fresh ones are ready, then swaps them in (`reload_ready`, see `apply_reload`).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal, Slot

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.display import visible, writer
from memdesk.ui.list.list_query import PAGE_SIZE, RELEVANCE, Follow, Query, Snapshot
from memdesk.ui.list.page_loader import PageLoader
from memdesk.ui.plain_text import tip

COL_CONTENT, COL_LAYER, COL_KIND, COL_TAGS, COL_PROJECT, COL_AGENT, COL_UPDATED, COL_RECALLS = (
    range(8)
)
# Short words, as the detail panel says them: a narrow column still reads its header.
HEADERS = ("Content", "Layer", "Kind", "Tags", "Project", "Writer", "Updated", "Recalls")
# Shorter still, whole where the full word would be cut ("La…", "Proj…", "Re…" at 1,024 px);
# the header's tooltip says the full word.
SHORT_HEADERS = ("Content", "L", "Kind", "Tags", "Proj", "By", "Date", "Used")
TOOLTIPS = (
    "What the memory says",
    "Layer: L0 identity, L1 knowledge, L2 archive",
    "Kind",
    "Tags",
    "Project",
    "Writer: you, an agent or memdesk",
    "Updated: when it last changed (local time)",
    "Recalls: how often it was given to an agent or found by a search",
)
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
MAX_CACHED_PAGES = 50  # ~10,000 rows: enough for smooth scrolling, bounded memory
ID_ROLE = Qt.ItemDataRole.UserRole + 1
STALE_MARK = "⚠ "  # before a memory that may be outdated; its tooltip says why
RECORD_ROLE = Qt.ItemDataRole.UserRole + 2
# Roles asked for by code that needs the answer now (selection, actions), not by painting.
_NEEDED_NOW = (ID_ROLE, RECORD_ROLE)
_ANSWERED = frozenset(
    (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.TextAlignmentRole,
        *_NEEDED_NOW,
    )
)

Index = QModelIndex | QPersistentModelIndex


class MemoryTableModel(QAbstractTableModel):
    """Rows of memories matching the current filters, or the hits of the current search."""

    reload_ready = Signal()  # a background refresh is ready: call apply_reload()
    searched = Signal()  # a search typed was answered and is shown
    search_failed = Signal(object)  # the MemdeskError a search typed was refused with

    def __init__(self, service: MemoryService, parent: Any = None) -> None:
        super().__init__(parent)
        self._service = service
        self._filters: dict[str, Any] = {}
        self._order = "-updated_at"
        self._order_before = self._order
        self._query = ""
        self._count = 0
        self._pages: OrderedDict[int, list[dict[str, Any]]] = OrderedDict()
        self._hits: list[dict[str, Any]] | None = None  # search mode when not None
        # Bumped whenever the shown rows are replaced: answers for an older one are dropped.
        self._generation = 0
        self._requested: set[int] = set()  # pages asked of the worker, not yet arrived
        self._reloading = False
        self._followed_left = False
        # a refresh asked for while one runs: its rows and the memory it keeps
        self._reload_rows: tuple[set[int], Sequence[tuple[str, int]]] | None = None
        self._ready: Snapshot | None = None
        self._searches = 0  # searches started as the person types; only the last is shown
        self._loader = PageLoader(service, self)
        self._loader.finished.connect(self._on_loaded)
        self._short: frozenset[int] = frozenset()  # columns too narrow for their header
        self._dates_only = False  # the Updated column too narrow for a time after the date

    # -- what to show ------------------------------------------------------------------------

    @property
    def filters(self) -> dict[str, Any]:
        return dict(self._filters)

    @property
    def query(self) -> str:
        return self._query

    @property
    def order(self) -> str:
        return self._order

    def configure(self, filters: dict[str, Any], query: str) -> None:
        """Set what to show; takes effect on the next `refresh()` or `reload_in_background()`.
        A search starts in relevance order; clearing it returns to the column order before."""
        query = query.strip()
        if query and not self._query:
            self._order_before, self._order = self._order, RELEVANCE
        elif not query and self._order == RELEVANCE:
            self._order = self._order_before
        self._filters = dict(filters)
        self._query = query

    def _current_query(self) -> Query:
        return Query(self._service, dict(self._filters), self._order, self._query)

    def refresh(self) -> None:
        """Reload now from the service (a new filter, query or sort), back at the top."""
        snapshot = Snapshot.load(self._current_query())  # may raise: then nothing changes
        self._searches += 1  # a search still running would show an older question
        self._show(snapshot)

    def search_in_background(self) -> None:
        """Show the current search once the worker has run it (`searched` follows); the
        rows shown stay meanwhile, so typing never waits on SQLite. A search typed over
        before it starts is skipped, and one answered after a newer began is dropped."""
        self._searches += 1
        number, query = self._searches, self._current_query()

        def work() -> Snapshot | MemdeskError | None:
            if number != self._searches:
                return None
            try:
                return Snapshot.load(query)
            except MemdeskError as exc:
                return exc

        self._loader.run(("search", number), work)

    def reload_in_background(
        self, rows: Iterable[int], keep: Sequence[tuple[str, int]] = ()
    ) -> None:
        """Reload on the worker thread (someone wrote), including the pages holding `rows`
        and wherever each memory of `keep` (its id, its row now) has moved to; `reload_ready`
        follows. Current rows stay shown meanwhile."""
        rows = set(rows)
        if self._reloading:
            # one more after the running one, with the latest rows
            self._reload_rows = (rows, keep)
            return
        self._reloading = True
        query, pages = self._current_query(), {r // PAGE_SIZE for r in rows if r >= 0}
        follow = [Follow(memory_id, row, self._count) for memory_id, row in keep if memory_id]
        self._loader.run(("reload", self._generation), lambda: Snapshot.load(query, pages, follow))

    def left_list(self) -> bool:
        """Whether the first memory the last refresh followed is no longer in this list."""
        return self._followed_left

    def apply_reload(self) -> None:
        """Show the refresh announced by `reload_ready` (the view keeps its place around it)."""
        if self._ready is not None:
            snapshot, self._ready = self._ready, None
            self._show(snapshot)

    def _show(self, snapshot: Snapshot) -> None:
        self._followed_left = snapshot.followed_left
        self.beginResetModel()
        self._generation += 1
        self._requested.clear()
        self._count, self._hits = snapshot.count, snapshot.hits
        self._pages = OrderedDict(snapshot.pages)
        self.endResetModel()

    def wait(self) -> None:
        """Block until the worker is idle; its answers arrive with the next events (tests)."""
        self._loader.wait()

    def close(self) -> None:
        """Stop loading for good (the window is closing)."""
        self._loader.close()

    def record_search(self) -> None:
        """Run the current search once more, this time written to the retrieval log."""
        if self._query:
            self._current_query().hits(record=True)

    # -- reading rows ------------------------------------------------------------------------

    def record(self, row: int, *, wait: bool = True) -> dict[str, Any] | None:
        """The memory on `row`. A page not loaded yet is fetched now, or with `wait=False`
        asked of the worker (None until it arrives)."""
        if not 0 <= row < self._count:
            return None
        if self._hits is not None:
            return self._hits[row]
        page, within = divmod(row, PAGE_SIZE)
        if page in self._pages:
            self._pages.move_to_end(page)
            rows = self._pages[page]
        elif wait:
            rows = self._current_query().page(page)
            self._keep(page, rows)
        else:
            self._request(page)
            return None
        return rows[within] if within < len(rows) else None

    def _keep(self, page: int, rows: list[dict[str, Any]]) -> None:
        self._pages[page] = rows
        while len(self._pages) > MAX_CACHED_PAGES:
            self._pages.popitem(last=False)

    def _request(self, page: int) -> None:
        if page in self._requested:
            return
        self._requested.add(page)
        query = self._current_query()
        self._loader.run(("page", self._generation, page), lambda: query.page(page))

    @Slot(object, object)
    def _on_loaded(self, ticket: tuple, result: Any) -> None:
        kind, generation, *rest = ticket
        if kind == "search":
            if generation != self._searches or result is None:
                return
            if isinstance(result, MemdeskError):
                self.search_failed.emit(result)
            else:
                self._show(result)
                self.searched.emit()
            return
        if kind == "reload":
            self._reloading = False
            if generation == self._generation and result is not None:
                self._ready = result
                self.reload_ready.emit()
            if self._reload_rows is not None:
                (rows, keep), self._reload_rows = self._reload_rows, None
                self.reload_in_background(rows, keep)
            return
        if generation != self._generation:
            return  # rows for a list no longer shown
        (page,) = rest
        self._requested.discard(page)
        if result is not None:
            self._keep(page, result)
            first, last = page * PAGE_SIZE, min(self._count, (page + 1) * PAGE_SIZE) - 1
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(HEADERS) - 1))

    def hit_ids(self) -> list[str] | None:
        """The ids a search found, best first; None when no search is shown."""
        return None if self._hits is None else [r["id"] for r in self._hits]

    def row_of(self, memory_id: str) -> int:
        """The row showing `memory_id` among the rows loaded (those in view are); -1 if none."""
        if self._hits is not None:
            return next((n for n, r in enumerate(self._hits) if r["id"] == memory_id), -1)
        for page, rows in self._pages.items():
            for n, rec in enumerate(rows):
                if rec["id"] == memory_id:
                    return page * PAGE_SIZE + n
        return -1

    # -- Qt model interface ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return (SHORT_HEADERS if section in self._short else HEADERS)[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return TOOLTIPS[section]
        return None

    def fit_to_widths(self, short: frozenset[int], dates_only: bool) -> None:
        """What the view's column widths leave room for: the short header of each column in
        `short`, and the dates without their time when `dates_only`."""
        if short != self._short:
            self._short = short
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(HEADERS) - 1)
        if dates_only != self._dates_only:
            self._dates_only = dates_only
            if self._count:
                last = self.index(self.rowCount() - 1, COL_UPDATED)
                self.dataChanged.emit(self.index(0, COL_UPDATED), last)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Painting asks about a dozen roles per cell; answer the ones we never set first.
        if role not in _ANSWERED or not index.isValid():
            return None
        rec = self.record(index.row(), wait=role in _NEEDED_NOW)
        if rec is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == COL_UPDATED and self._dates_only:
                return short_time(rec["updated_at"])[:10]
            return _display(rec, index.column())
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == COL_CONTENT:
            doubt = f"\n\nMay be outdated: {rec['stale']}" if rec.get("stale") else ""
            return tip(rec["content"][:500] + doubt)
        if role == Qt.ItemDataRole.ToolTipRole:  # a narrow column's cut text, whole
            return tip(_display(rec, index.column()))
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
        return (STALE_MARK if rec.get("stale") else "") + first_line(rec["content"])
    if column == COL_LAYER:
        return rec["layer"]
    if column == COL_KIND:
        return rec["kind"]
    if column == COL_TAGS:
        return ", ".join(rec["tags"])
    if column == COL_PROJECT:
        return rec["project"] or ""
    if column == COL_AGENT:
        return writer(rec)
    if column == COL_UPDATED:
        return short_time(rec["updated_at"])
    return str(rec["recall_count"])


def first_line(text: str) -> str:
    """What a memory says, on one line: a Markdown heading is its title, so the line after it
    follows ("## Runbook note" named several memories alike, in the list and in dialogs)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    line = lines[0]
    if heading := _HEADING.fullmatch(line):
        line = heading.group(1) + (f" — {lines[1]}" if len(lines) > 1 else "")
    return visible(line[:300])


_HEADING = re.compile(r"#{1,6}\s+(.+?)\s*#*")


def short_time(stamp: str | None) -> str:
    """'2026-05-01T14:30:12.345Z' (UTC, as stored) -> '2026-05-01 16:30' in local time."""
    if not stamp:
        return ""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
