"""What the main window remembers between runs: geometry, docks, splitter, list columns,
the sidebar view and the view tab (QSettings). Each function takes memdesk's MainWindow,
typed as the QMainWindow it is so that this module need not import the one importing it."""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QMainWindow

from memdesk.ui.list.memory_table_view import DEFAULT_WIDTHS


def first_layout(window: QMainWindow) -> None:
    """The first run's panes: the list is what a person reads, so it gets the room."""
    side, detail = 170, 320
    window.splitter.setSizes([side, max(400, window.width() - side - detail), detail])


def restore_settings(window: QMainWindow) -> None:
    s = window.settings
    if isinstance(geometry := s.value("window/geometry"), QByteArray):
        window.restoreGeometry(geometry)
    else:
        room = window.screen().availableGeometry()
        window.resize(min(1400, int(room.width() * 0.9)), min(860, int(room.height() * 0.9)))
    if isinstance(state := s.value("window/state"), QByteArray):
        window.restoreState(state)
    if isinstance(state := s.value("window/splitter"), QByteArray):
        window.splitter.restoreState(state)
    else:  # first run: sized when first shown, once the window's own width is known
        window.first_layout = True
    table = window.browser.table
    if isinstance(header := s.value("list/header"), QByteArray):
        table.horizontalHeader().restoreState(header)  # the sort column and its direction
    table.preferred = {}  # what the header held may be widths a narrow window squeezed
    table.set_preferred(dict(DEFAULT_WIDTHS) | _widths(s.value("list/widths")))
    window.sidebar.select_key(str(s.value("view/key", "all")))
    window.browser.set_view_key(window.sidebar.current_key)
    before = window.view_tabs.currentIndex()
    window.view_tabs.setCurrentIndex(int(s.value("view/page", 0)))
    if window.view_tabs.currentIndex() == before:  # no change, so no signal showed it
        window.show_page(before)


def save_settings(window: QMainWindow) -> None:
    s = window.settings
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    s.setValue("window/splitter", window.splitter.saveState())
    s.setValue("list/header", window.browser.table.horizontalHeader().saveState())
    s.setValue("list/widths", json.dumps(window.browser.table.preferred))
    s.setValue("view/key", window.sidebar.current_key)
    s.setValue("view/page", window.view_tabs.currentIndex())
    s.sync()


def _widths(saved: object) -> dict[int, int]:
    """The list's preferred widths as saved ({"column": width} JSON); {} when unreadable."""
    try:
        loaded = json.loads(saved) if isinstance(saved, str) else {}
        return {int(c): int(w) for c, w in loaded.items()}
    except (ValueError, TypeError, AttributeError):
        return {}
