"""Moving between the window's views: the tabs, the sidebar's choice, the Inbox, and a memory
opened from a link, the Timeline, the Graph or a Stats count."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Slot

from memdesk.core import MemdeskError

STATUS_VIEWS = {"active": "all", "inactive": "inactive", "deleted": "trash"}


class WindowViews:
    """Mixin of MainWindow (its sidebar, view tabs, pages, browser, detail panel and views)."""

    def open_memory(self, memory_id: str) -> None:
        """Make a memory (e.g. a link target) the current one: selected in the list, switching
        to the view that holds it (its status's, search and chips cleared) when needed."""
        if self.browser.table.select_id(memory_id):
            return
        try:
            status = self.service.get(memory_id)["status"]
        except MemdeskError as exc:
            self.show_error(exc)
            return
        key = STATUS_VIEWS[status]
        self.browser.reset_narrowing()
        if self.sidebar.current_key == key:
            self.browser.set_view_key(key)
        else:
            self.sidebar.select_key(key)  # its view_selected reloads the list
        if not self.browser.table.find_and_select(memory_id):
            # tens of thousands of newer memories above it: shown all the same, unselected
            # (a link, the graph or the timeline opened nothing but an error before)
            self.browser.table.clearSelection()
            self.detail.show_memory(memory_id)
            self.status.showMessage(
                f"Memory {memory_id[:8]} is too far down the list to select there; it is shown "
                "here. Search for its words to find it in the list.",
                8000,
            )

    @Slot(int)
    def show_page(self, index: int) -> None:
        """The chosen view; on a database without any memory, the welcome page instead."""
        inbox = index == 0 and self.sidebar.current_key == "inbox"
        self.browser.header.setVisible(not inbox)  # the search narrows memories, not the inbox
        if inbox:
            self.pages.setCurrentWidget(self.inbox)
            return
        empty = index == 0 and self.service.count(status=None) == 0
        self.pages.setCurrentWidget(self.empty_state if empty else self.pages.widget(index))
        if self.pages.currentWidget() is self.timeline:
            self.timeline.set_filters(self._view_filters())
        elif self.pages.currentWidget() is self.graph:
            self.graph.set_filters(self._view_filters())
        elif self.pages.currentWidget() is self.stats_view:
            self.stats_view.request()
        self._share_selection()

    @Slot(int)
    def _on_tab_clicked(self, index: int) -> None:
        if self.sidebar.current_key == "inbox" and index >= 0:
            self.choose_view(index)

    @Slot(int)
    def choose_view(self, index: int) -> None:
        """A view the person chose (a tab clicked, Ctrl+1–4): from the Inbox it leaves for
        all memories and shows that view, even when its tab already looked current."""
        if self.sidebar.current_key == "inbox":
            self.sidebar.select_key("all")
        self.view_tabs.setCurrentIndex(index)
        self.show_page(index)

    def open_inbox(self) -> None:
        """The Inbox, from whichever view is showing (Ctrl+0 twice, or after Ctrl+2)."""
        if self.sidebar.current_key == "inbox":
            self._on_view_selected("inbox")
        else:
            self.sidebar.select_key("inbox")
        self.inbox.table.setFocus()

    @Slot(str)
    def _on_view_selected(self, key: str) -> None:
        if key == "inbox":
            self.inbox.reload()
            self.view_tabs.setCurrentIndex(0)
            self.show_page(0)
            self._on_inbox_concerns(self.inbox.concerned_id())
            self._update_counts()
            return
        self.browser.set_view_key(key)
        self.view_tabs.setCurrentIndex(0)
        self.show_page(0)
        self._on_selection_changed()
        self._update_counts()

    @Slot()
    def _on_narrowed(self) -> None:
        if self.pages.currentWidget() is self.timeline:
            self.timeline.set_filters(self._view_filters())
        elif self.pages.currentWidget() is self.graph:
            self.graph.set_filters(self._view_filters())

    @Slot(str)
    def _on_graph_activated(self, memory_id: str) -> None:
        self._open_from_elsewhere(memory_id)
        self.graph.set_current(memory_id)

    def _view_filters(self) -> dict[str, Any]:
        """What the List shows, for the other views: its filters, and during a search the
        memories it found."""
        filters = self.browser.filters()
        found = self.browser.model.hit_ids()
        if found is not None:
            filters["ids"] = found
        return filters

    @Slot(str)
    def _on_timeline_activated(self, memory_id: str) -> None:
        """A point clicked: the current memory in every view, without leaving the Timeline."""
        self._open_from_elsewhere(memory_id)
        self.timeline.set_current(memory_id)

    @Slot(str)
    def _open_from_elsewhere(self, memory_id: str) -> None:
        """The current memory (in the list if it shows it, always in the detail panel),
        chosen from a view other than the list, which stays in front."""
        if not self.browser.table.select_id(memory_id):
            self.detail.show_memory(memory_id)

    @Slot(str, str)
    def show_filtered(self, field: str, value: str) -> None:
        """The List, narrowed to what a Stats count counted (the same filters, so the same
        number of rows)."""
        self.browser.reset_narrowing()
        key = {
            "layer": value,
            "status": STATUS_VIEWS.get(value, "all"),
            "project": f"project:{value}",
            "tag": f"tag:{value}",
        }.get(field, "all")
        if self.sidebar.current_key == key:
            self.browser.set_view_key(key)
        else:
            self.sidebar.select_key(key)
        if field in ("kind", "source", "agent"):
            self.browser.chips.set_value(field, value)
        self.view_tabs.setCurrentIndex(0)

    @Slot(str, str)
    def _on_time_range(self, since: str, until: str) -> None:
        self.browser.set_time_range(since or None, until or None)
        label = f"{since[:10]} – {until[:10]}" if since else ""
        self.status.showMessage(f"Showing memories created {label}" if label else "", 5000)

    def _share_selection(self) -> None:
        """The List's selection, ringed in the Timeline or Graph when that is in view."""
        page = self.pages.currentWidget()
        if page is self.timeline or page is self.graph:
            page.set_selected(self.selected_ids())
