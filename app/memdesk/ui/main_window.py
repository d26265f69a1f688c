"""The main window: sidebar, memory list, detail panel; menus, undo, live refresh, settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QCloseEvent, QShowEvent, QUndoStack
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import USER, Change, MemdeskError, MemoryService
from memdesk.ui import window_settings
from memdesk.ui.agents.retrieval_log_panel import RetrievalLogPanel
from memdesk.ui.ask import confirm, warn
from memdesk.ui.busy import wait_cursor
from memdesk.ui.change_hub import ChangeHub
from memdesk.ui.detail.detail_panel import DetailPanel
from memdesk.ui.graph.graph_view import GraphView
from memdesk.ui.inbox.inbox_view import InboxView
from memdesk.ui.list.demo_data import load_demo
from memdesk.ui.list.empty_state import EmptyStatePanel
from memdesk.ui.list.memory_browser import MemoryBrowser
from memdesk.ui.memory_actions import MemoryActions
from memdesk.ui.sidebar import Sidebar
from memdesk.ui.stats.stats_view import StatsView
from memdesk.ui.stats_loader import StatsLoader
from memdesk.ui.status_bar import StatusBar
from memdesk.ui.sync.sync_control import SyncControl
from memdesk.ui.timeline.timeline_view import TimelineView
from memdesk.ui.undo_commands import perform
from memdesk.ui.window_dialogs import WindowDialogs
from memdesk.ui.window_menus import WindowMenus
from memdesk.ui.window_views import WindowViews

VIEWS = ("List", "Timeline", "Graph", "Stats")
T = TypeVar("T")


class MainWindow(MemoryActions, WindowDialogs, WindowViews, QMainWindow):
    """Browse, search, correct and remove what agents remember; refreshed live as they write."""

    def __init__(
        self,
        service: MemoryService,
        *,
        settings: QSettings | None = None,
        socket_path: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.service = service
        self.settings = settings or QSettings()
        self.first_layout = False  # set by restore_settings on a first run
        self.setWindowTitle("memdesk")
        self.undo_stack = QUndoStack(self)
        self.agent_names: list[str] = []  # the connected agents, by name
        self.agent_count = 0
        self.tray: Any = None  # the system tray icon, where the desktop has a tray (app.run)
        self._quitting = False
        self.hub = ChangeHub(service, self)
        self.hub.memories_changed.connect(self._on_memories_changed)
        self.stats = StatsLoader(service, self)
        self.sidebar = Sidebar(self.stats, self)
        self.browser = MemoryBrowser(service, self.stats, self)
        self.detail = DetailPanel(service, self)
        self.status = StatusBar(service.path, self, over_budget=service.over_budget)
        self.setStatusBar(self.status)
        self.socket_path = socket_path  # where agents reach this window's memdesk
        self.status.set_socket(socket_path)
        self._build_central(socket_path or "")
        self._build_log_dock()
        self.sync = SyncControl(service, self)
        self.menus = WindowMenus(self)
        self._connect()
        window_settings.restore_settings(self)
        self._on_selection_changed()

    # -- building ----------------------------------------------------------------------------

    def _build_central(self, socket_path: str) -> None:
        self.view_tabs = QTabBar(self)
        for name in VIEWS:
            self.view_tabs.addTab(name)
        self.view_tabs.setDrawBase(False)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.browser)
        self.timeline = TimelineView(self.service, self)
        self.pages.addWidget(self.timeline)
        self.graph = GraphView(self.service, self)
        self.pages.addWidget(self.graph)
        self.stats_view = StatsView(self.service, self.settings, self.stats, self)
        self.pages.addWidget(self.stats_view)
        self.empty_state = EmptyStatePanel(socket_path, self.service.path, self)
        self.pages.addWidget(self.empty_state)
        self.inbox = InboxView(self.service, self.run, self.show_error, self)
        self.pages.addWidget(self.inbox)
        center = QWidget(self)
        column = QVBoxLayout(center)
        column.setContentsMargins(6, 6, 6, 0)
        column.addWidget(self.view_tabs, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.browser.header)
        column.addWidget(self.pages, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(center)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(1, 1)
        # A pane dragged (or restored from another screen's settings) to nothing stays lost.
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([200, 820, 380])
        self.setCentralWidget(self.splitter)

    def _build_log_dock(self) -> None:
        self.retrieval_log = RetrievalLogPanel(self.service, self)
        self.retrieval_log.memory_activated.connect(self.open_memory)
        self.log_dock = QDockWidget("Retrieval log", self)
        self.log_dock.setObjectName("retrieval_log_dock")
        self.log_dock.setWidget(self.retrieval_log)
        self.log_dock.visibilityChanged.connect(self._on_log_dock_visibility_changed)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.log_dock.hide()

    def _connect(self) -> None:
        self.view_tabs.currentChanged.connect(self.show_page)
        self.view_tabs.tabBarClicked.connect(self._on_tab_clicked)
        self.empty_state.demo_requested.connect(self._on_demo_requested)
        self.empty_state.attach_requested.connect(self.show_attach)
        self.sidebar.view_selected.connect(self._on_view_selected)
        self.browser.current_changed.connect(self._on_current_changed)
        self.browser.error_raised.connect(self.show_error)
        self.browser.shown_changed.connect(self._update_counts)
        self.stats.loaded.connect(self._update_counts)
        self.sidebar.counts_changed.connect(self._on_selection_changed)  # Empty Trash's count
        self.browser.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.browser.table.doubleClicked.connect(self.detail.start_editing)
        self.detail.edit_requested.connect(self._on_edit_requested)
        self.detail.revert_requested.connect(self._on_revert_requested)
        self.detail.restore_and_save_requested.connect(self._on_restore_and_save_requested)
        self.detail.save_as_new_requested.connect(self._on_save_as_new_requested)
        self.detail.memory_link_activated.connect(self.open_memory)
        self.undo_stack.indexChanged.connect(self._on_undo_index_changed)
        self.inbox.decided.connect(self.hub.flush)
        self.inbox.memory_activated.connect(self._open_from_elsewhere)
        self.inbox.concerns.connect(self._on_inbox_concerns)
        self.inbox.shown_changed.connect(self._update_counts)
        self.timeline.memory_activated.connect(self._on_timeline_activated)
        self.timeline.range_selected.connect(self._on_time_range)
        self.browser.current_changed.connect(self.timeline.set_current)
        self.browser.narrowed.connect(self._on_narrowed)
        self.browser.view_left.connect(lambda: self.sidebar.mark("all"))
        self.stats_view.filter_requested.connect(self.show_filtered)
        self.graph.memory_activated.connect(self._on_graph_activated)
        self.graph.link_requested.connect(self.link_memories)
        self.graph.unlink_requested.connect(self.unlink_memories)
        self.browser.current_changed.connect(self.graph.set_current)
        self.stats_view.memory_activated.connect(self._open_from_elsewhere)

    # -- state -------------------------------------------------------------------------------

    def selected_ids(self) -> list[str]:
        # the List's actions (Delete, Restore, …) are not for the Inbox shown over it
        return [] if self.pages.currentWidget() is self.inbox else self.browser.table.selected_ids()

    @property
    def in_trash(self) -> bool:
        return self.sidebar.current_key == "trash"

    def set_agent_count(self, count: int) -> None:
        self.agent_count = count
        self.status.set_agents(count)

    def show_error(self, error: MemdeskError) -> None:
        warn(self, "memdesk", error.message)

    # -- actions (menus and shortcuts call these) --------------------------------------------

    def run(self, text: str, action: Callable[[], T]) -> T | None:
        """Perform one undoable action (a single service call); a refusal is shown as a
        message and returns None."""
        self.status.showMessage(f"{text}…")
        try:
            with wait_cursor():  # thousands take ~0.5 s
                result = perform(self.undo_stack, self.service, text, action, self.show_error)
        except MemdeskError as exc:
            self.status.clearMessage()
            self.show_error(exc)
            return None
        self.status.showMessage(f"{text}: done", 3000)
        self.hub.flush()
        return result

    @Slot()
    def undo_last(self) -> None:
        self._step(self.undo_stack.undo, self.undo_stack.undoText(), "Undone")

    @Slot()
    def redo_last(self) -> None:
        self._step(self.undo_stack.redo, self.undo_stack.redoText(), "Redone")

    def _step(self, move: Callable[[], None], title: str, done: str) -> None:
        """Undo or redo, and say so where an action says it was done ("Delete 1 memory:
        done" stayed there after its undo). A step refused is taken off the stack, and its
        refusal shown instead."""
        steps = self.undo_stack.count()
        with wait_cursor():
            move()
        if self.undo_stack.count() == steps and title:
            self.status.showMessage(f"{done}: {title.replace('&&', '&')}", 3000)
        self.hub.flush()

    KEEP_SERVING = "agents/keep_serving_after_close"

    @property
    def keep_serving(self) -> bool:
        """Whether closing the window with agents attached leaves `memdesk serve` for them."""
        return self.settings.value(self.KEEP_SERVING, False, type=bool)

    def set_keep_serving(self, on: bool) -> None:
        self.settings.setValue(self.KEEP_SERVING, on)

    @Slot(list)
    def show_agent_names(self, names: list[str]) -> None:
        """The connected agents in the status bar, each paused or read-only one marked."""
        self.agent_names = list(names)
        self.status.set_agent_names(names, self.service.agent_modes())
        if self.tray is not None:
            self.tray.refresh()

    @Slot()
    def bring_to_front(self) -> None:
        """Another `memdesk` was started on this database: show this window instead."""
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.show()
        self.raise_()
        self.activateWindow()

    # -- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_demo_requested(self) -> None:
        self.run("Load demo data", lambda: load_demo(self.service))

    @Slot(str)
    def _on_current_changed(self, memory_id: str) -> None:
        detail = self.detail
        if detail.editing and memory_id == detail.memory_id:
            return
        if detail.has_unsaved_edit():
            if self.browser.model.row_of(detail.memory_id) < 0:
                return  # its row left the list (an agent removed it): the banner says so
            if not self._confirm_discard():
                # After the click's own handling, which goes on to select the row under the
                # pointer once the question closes: Delete must act on the memory edited.
                edited = detail.memory_id
                QTimer.singleShot(0, self, lambda: self.browser.table.select_id(edited))
                return
        detail.show_memory(memory_id)
        self._on_selection_changed()  # Edit and Correct follow the panel's memory

    def _confirm_discard(self) -> bool:
        question = "Discard your unsaved changes to this memory?"
        return confirm(self, "Unsaved edit", question, QMessageBox.StandardButton.Discard)

    @Slot()
    @Slot(str)
    def _on_inbox_concerns(self, memory_id: str) -> None:
        """The detail panel beside the Inbox shows what the chosen item is about, not the
        memory chosen before in the List (a deleted one, with Restore enabled)."""
        if self.pages.currentWidget() is self.inbox and not self.detail.has_unsaved_edit():
            self.detail.show_memory(memory_id)
            self._on_selection_changed()

    def _on_selection_changed(self) -> None:
        restorable = self.sidebar.current_key in ("trash", "inactive")
        self.menus.update_enabled(bool(self.selected_ids()), self.in_trash, restorable)
        self._share_selection()

    @Slot(bool)
    def _on_log_dock_visibility_changed(self, visible: bool) -> None:
        if visible:
            self.retrieval_log.refresh()

    @Slot(int)
    def _on_undo_index_changed(self, _index: int) -> None:
        if self.pages.currentWidget() is self.inbox:
            self.inbox.reload(after_undo=True)
        # Undo and redo write through the service; show the result now, not after the delay.
        self.hub.flush()

    @Slot(list)
    def _on_memories_changed(self, changes: list[Change]) -> None:
        if any(c.event == "reset" for c in changes):
            # A backup was restored: no recorded step describes the memories any more.
            self.undo_stack.clear()
        if self.pages.currentWidget() is self.inbox:
            self.inbox.reload()  # a session end may have proposed more
        current = self.browser.table.current_id()
        self.browser.refresh(follow=any(c.by == USER.label and c.id == current for c in changes))
        if self.pages.currentWidget() is self.stats_view:
            self.stats_view.request()
        # only while shown, at a pace: agents' requests wait on this loop
        self.timeline.paced.changed(changes)  # (keeps zoom, pan and the current memory)
        self.graph.paced.changed(changes)
        self.stats.request()
        self.show_page(self.view_tabs.currentIndex())
        self.detail.on_changes(changes)
        self._on_selection_changed()

    @Slot()
    def _update_counts(self) -> None:
        active = self.sidebar.count_of("all") if self.stats.ready else None
        inbox = self.pages.currentWidget() is self.inbox  # its items, not the List's rows
        shown = self.inbox.table.rowCount() if inbox else self.browser.model.rowCount()
        self.status.set_counts(shown, active)

    def save_settings(self) -> None:
        window_settings.save_settings(self)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self.stats.ready:  # the first counts, off the GUI thread, once there is a window
            self.stats.request()
        if self.first_layout:
            self.first_layout = False
            window_settings.first_layout(self)

    def quit_for_real(self) -> None:
        """Close the window and end memdesk, agents connected or not (the tray's Quit)."""
        self._quitting = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if (
            self.tray is not None
            and self.tray.isVisible()
            and self.agent_count
            and not self._quitting
        ):
            # Agents still connected: the window goes, memdesk stays for them in the tray.
            event.ignore()
            self.save_settings()
            self.hide()
            self.tray.still_serving()
            return
        if self.detail.has_unsaved_edit() and not self._confirm_discard():
            event.ignore()  # Ctrl+Q closed the window and the words typed were gone
            self._quitting = False
            return
        self.save_settings()
        self.sync.stop()  # one last sync, when sync is set up
        self.browser.search.finish()
        self.hub.close()
        self.stats.close()
        self.browser.model.close()
        for view in (self.stats_view, self.graph, self.timeline):
            view.finish()
        super().closeEvent(event)
