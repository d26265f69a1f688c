"""The List page: search box, filter chips and the memory table, for one sidebar view."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from memdesk.core import MemdeskError, MemoryService
from memdesk.ui.list.filter_bar import FilterBar
from memdesk.ui.list.list_query import SEARCH_K
from memdesk.ui.list.memory_table_model import MemoryTableModel
from memdesk.ui.list.memory_table_view import MemoryTableView
from memdesk.ui.list.search_box import SearchBox
from memdesk.ui.sidebar import filters_for
from memdesk.ui.stats_loader import StatsLoader


class MemoryBrowser(QWidget):
    """Shows the memories of a sidebar view, narrowed by chips or by a search.

    `current_changed(id)` follows the current row; `error_raised(error)` reports a refused
    filter or query so the window can show it.
    """

    current_changed = Signal(str)
    error_raised = Signal(object)
    shown_changed = Signal()
    narrowed = Signal()  # the filters or the search changed: other views follow
    view_left = Signal()  # the sidebar's project or tag chip was cleared or changed

    def __init__(
        self, service: MemoryService, stats: StatsLoader, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._view_key = "all"
        self.model = MemoryTableModel(service, self)
        self.table = MemoryTableView(self.model, self)
        self.table.current_changed.connect(self.current_changed)
        # The memory last made current: a search or a filter cleared brings it back (it is the
        # same memory in every view), where the list it narrowed had dropped it.
        self._last_current = ""
        self.table.current_changed.connect(self._remember_current)
        self.model.modelReset.connect(self._on_model_reset)
        self.model.searched.connect(self._on_new_list)
        self.model.search_failed.connect(self.error_raised)
        self.search = SearchBox()
        self.search.query_changed.connect(self._on_query_changed)
        self.search.query_settled.connect(self._on_query_settled)
        self.chips = FilterBar(stats)
        self.chips.filters_changed.connect(self._on_filters_changed)
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        # The search and the chips narrow every view (List, Timeline, Graph): the window shows
        # this header above all of them, not inside the List page.
        self.header = QWidget(parent)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.summary)
        heading = QVBoxLayout(self.header)
        heading.setContentsMargins(0, 0, 0, 0)
        heading.addLayout(top)
        heading.addWidget(self.chips)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        # From the search box, Tab (or Down) goes to the results; the chips come after them.
        QWidget.setTabOrder(self.search, self.table)
        QWidget.setTabOrder(self.table, self.chips)
        self.search.down_pressed.connect(self._on_search_down)

    def set_view_key(self, key: str) -> None:
        left = _view_chip(self._view_key)
        if left is not None and self.chips.value(left[0]) == left[1]:
            self.chips.show_value(left[0], None)
        self._view_key = key
        self._show_view_chip()
        self._reload()

    def _show_view_chip(self) -> None:
        """A project or tag chosen in the sidebar is also its chip, seen above every view and
        cleared with its ✕ like any filter: it narrowed the list with no sign of it."""
        chip = _view_chip(self._view_key)
        if chip is not None:
            self.chips.show_value(*chip)

    def set_time_range(self, since: str | None, until: str | None) -> None:
        """Narrow the list to memories created in a range (the Timeline's), shown as the Date
        chip so it can be seen and cleared like any filter (it was invisible: the list showed
        1 memory and nothing said why); None clears it."""
        chosen = {k: v for k, v in (("since", since), ("until", until)) if v}
        label = f"created {since[:10] if since else '…'} – {until[:10] if until else '…'}"
        self.chips.set_value("since", chosen or None, label)

    def filters(self) -> dict[str, Any]:
        """Sidebar view and chips together; a chip wins over the sidebar for the same field."""
        combined = filters_for(self._view_key)
        chips = self.chips.filters()
        tags = list(dict.fromkeys(combined.get("tags", []) + chips.pop("tags", [])))
        combined.update(chips)
        if tags:
            combined["tags"] = tags
        if "layer" in chips and self._view_key in ("inactive", "trash"):
            combined["status"] = filters_for(self._view_key)["status"]
        return combined

    def refresh(self, follow: bool = False) -> None:
        """Someone wrote: reload in the background, keeping selection and scroll position
        (`follow`: scrolled to the current memory, which the person changed)."""
        self.model.configure(self.filters(), self.search.text())
        self.table.refresh_keeping_place(follow)

    def reset_narrowing(self) -> None:
        """Clear the search and the chips without reloading (the caller reloads once)."""
        self.search.reset()
        self.chips.reset()
        self._show_view_chip()

    def _reload(self) -> None:
        self.model.configure(self.filters(), self.search.text())
        self.table.show_order(self.model.order)
        try:
            self.model.refresh()
        except MemdeskError as exc:
            self.error_raised.emit(exc)
        self._on_new_list()

    @Slot(str)
    def _remember_current(self, memory_id: str) -> None:
        if memory_id:
            self._last_current = memory_id

    @Slot()
    def _on_new_list(self) -> None:
        # A new list starts with no current row: the detail panel must not keep showing a
        # memory this view does not hold. Unless searching, the last current one, if shown, is
        # current again (while typing, Down goes to the first match).
        if not self.search.text() and not self.table.current_id() and self._last_current:
            self.table.select_id(self._last_current)
        self.current_changed.emit(self.table.current_id())
        self.narrowed.emit()

    @Slot()
    def _on_model_reset(self) -> None:
        self._update_summary()
        self.table.empty_text = self._empty_text()
        self.table.viewport().update()
        self.shown_changed.emit()

    def _empty_text(self) -> str:
        if self.model.query:
            return "No memory matches the search."
        if self._view_key == "trash":
            return "The Trash is empty."
        # (an empty store shows the welcome page instead)
        return "" if self._view_key == "all" and not self.chips.filters() else "None here."

    def _update_summary(self) -> None:
        shown = self.model.rowCount()
        if self.model.query:
            more = "+" if shown >= SEARCH_K else ""
            self.summary.setText(f"{shown}{more} {'match' if shown == 1 else 'matches'}")
        else:
            self.summary.setText(f"{shown:,} {'memory' if shown == 1 else 'memories'}")

    @Slot(str)
    def _on_query_changed(self, _query: str) -> None:
        # Off the GUI thread: a keystroke must appear at once, whatever the search costs.
        self.model.configure(self.filters(), self.search.text())
        self.table.show_order(self.model.order)
        self.model.search_in_background()

    @Slot(str)
    def _on_query_settled(self, _query: str) -> None:
        # Logged once per pause, so the retrieval log shows what the person looked for without
        # every keystroke counting as a recall.
        try:
            self.model.record_search()
        except MemdeskError:
            return  # the visible search already reported it

    @Slot()
    def _on_search_down(self) -> None:
        self.table.setFocus(Qt.FocusReason.TabFocusReason)
        if not self.table.currentIndex().isValid() and self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(0, 0))

    @Slot(dict)
    def _on_filters_changed(self, _filters: dict) -> None:
        own = _view_chip(self._view_key)
        if own is not None and self.chips.value(own[0]) != own[1]:
            self._view_key = "all"  # the sidebar's choice, cleared or changed on its chip
            self.view_left.emit()
        self._reload()


def _view_chip(key: str) -> tuple[str, str] | None:
    """The chip a sidebar view key is (("tag", "python") for "tag:python"), if any."""
    field, _, value = key.partition(":")
    return (field, value) if value and field in ("project", "tag") else None
