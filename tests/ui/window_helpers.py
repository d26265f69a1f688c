"""Helpers for the main-window tests: a window on a temporary database and settings file."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from memdesk.core import MemoryService
from memdesk.ui.list.memory_table_model import ID_ROLE
from memdesk.ui.main_window import MainWindow


def open_window(qtbot, service: MemoryService, settings_file: Path) -> MainWindow:
    settings = QSettings(str(settings_file), QSettings.Format.IniFormat)
    window = MainWindow(service, settings=settings, socket_path="/tmp/memdesk-test.sock")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    counted(window)
    return window


def counted(window: MainWindow) -> None:
    """Wait for the window's first counts (made off the GUI thread once it is shown)."""
    window.stats.wait()
    QApplication.processEvents()


def recorded_import(service: MemoryService, document: dict):
    """An ImportDialog.exec stand-in that imports `document` as the dialog does (recorded, for
    the window's undo) and accepts."""

    def fake_exec(dialog) -> int:
        dialog.applied, dialog.step = service.record(
            lambda: service.import_json(json.dumps(document))
        )
        return 1

    return fake_exec


def shown_ids(window: MainWindow) -> list[str]:
    model = window.browser.model
    return [model.data(model.index(r, 0), ID_ROLE) for r in range(model.rowCount())]


def shown_texts(window: MainWindow) -> list[str]:
    model = window.browser.model
    return [model.data(model.index(r, 0)) for r in range(model.rowCount())]


def click_row(qtbot, window: MainWindow, row: int, modifier=None) -> None:
    from PySide6.QtCore import Qt

    table = window.browser.table
    rect = table.visualRect(window.browser.model.index(row, 0))
    qtbot.mouseClick(
        table.viewport(),
        Qt.MouseButton.LeftButton,
        modifier or Qt.KeyboardModifier.NoModifier,
        rect.center(),
    )


def settle(window: MainWindow) -> None:
    """Deliver pending change events now instead of after the coalescing delay, and wait for
    what the window loads in the background (the list's rows, the sidebar counts)."""
    QApplication.processEvents()
    window.hub.flush()
    for _ in range(2):  # a refresh asked for while another ran follows it
        window.browser.model.wait()
        window.stats.wait()
        QApplication.processEvents()


def typed_in_new_memory(fields_for_layer) -> classmethod:
    """A stand-in for `NewMemoryDialog.ask` that submits, without showing the dialog, the
    fields `fields_for_layer(layer)` gives, as Save in the dialog does."""
    return classmethod(
        lambda _cls, _parent, layer, _project, submit: submit(fields_for_layer(layer))
    )
