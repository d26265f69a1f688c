"""File ▸ Backups…: the database's backups, one taken now on request, and one restored."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.files.backups import KEEP, KINDS
from memdesk.ui.ask import confirm
from memdesk.ui.busy import wait_cursor

COLUMNS = ("Taken", "Kind", "Memories", "Size")


class BackupsDialog(QDialog):
    """Lists backups newest first. Restoring replaces every memory, so it asks first, and the
    state it replaces is itself kept as a backup (listed here, restorable the same way)."""

    def __init__(
        self, service: MemoryService, on_error: Callable[[MemdeskError], None], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._on_error = on_error
        self._backups: list[dict[str, Any]] = []
        self.restored: dict[str, Any] | None = None
        self.setWindowTitle("Backups")
        self.resize(640, 360)
        intro = QLabel(
            f"memdesk backs up this database once a day and keeps the newest {KEEP} daily "
            "backups. Backups you take yourself, and the one taken before each restore, stay "
            f"until you delete them. Folder: {service.backup_folder()}",
            self,
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(self.restore_selected)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.back_up_button = QPushButton("&Back Up Now", self)
        self.restore_button = QPushButton("&Restore…", self)
        self.folder_button = QPushButton("Show &Folder", self)
        for button in (self.back_up_button, self.restore_button, self.folder_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        self.back_up_button.clicked.connect(self.back_up)
        self.restore_button.clicked.connect(self.restore_selected)
        self.folder_button.clicked.connect(self._show_folder)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.reload()

    def reload(self) -> None:
        self._backups = self._service.backups()
        self.table.setRowCount(len(self._backups))
        for row, backup in enumerate(self._backups):
            for column, text in enumerate(_cells(backup)):
                self.table.setItem(row, column, QTableWidgetItem(text))
        if self._backups:
            self.table.selectRow(0)
        self._update_buttons()

    @Slot()
    def back_up(self) -> None:
        with wait_cursor():
            try:
                self._service.backup()
            except MemdeskError as exc:
                self._on_error(exc)
                return
        self.reload()

    @Slot()
    def restore_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return
        backup = self._backups[rows[0].row()]
        taken, _, memories, _ = _cells(backup)
        if not confirm(
            self,
            "Restore Backup",
            f"Replace every memory with the backup taken {taken} ({memories} memories)?\n\n"
            "Everything changed since is replaced. The current state is backed up first, so "
            "you can restore it again from this list. Undo history is cleared.",
        ):
            return
        with wait_cursor():
            try:
                self.restored = self._service.restore_backup(backup["name"])
            except MemdeskError as exc:
                self._on_error(exc)
                return
        self.accept()

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    @Slot()
    def _show_folder(self) -> None:
        folder = self._service.backup_folder()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def _cells(backup: dict[str, Any]) -> tuple[str, str, str, str]:
    taken = datetime.fromisoformat(backup["taken_at"]).astimezone()
    memories = "?" if backup["memories"] is None else f"{backup['memories']:,}"
    return (
        taken.strftime("%Y-%m-%d %H:%M:%S"),
        KINDS[backup["kind"]],
        memories,
        f"{backup['bytes'] / 1e6:.1f} MB",
    )
