"""File ▸ Backups…: the database's backups, one taken now on request, and one restored."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService
from memdesk.core.files.backups import KEEP, KINDS, RESTORE_STEPS
from memdesk.ui.ask import confirm
from memdesk.ui.dialogs.transfer_job import HoldsAJob, Progress, TransferJob

COLUMNS = ("Taken", "Kind", "Memories", "Size")
# What the restore is doing once it has told step n (RESTORE_STEPS in all)
RESTORING = (
    "Checking the backup…",
    "Checking every memory in the backup…",
    "Keeping the current state as a backup…",
    "Replacing every memory…",
    "Upgrading and indexing…",
)
# From this step on the current state is being replaced: the restore goes on to the end.
NO_RETURN = 2


class BackupsDialog(HoldsAJob):
    """Lists backups newest first. Restoring replaces every memory, so it asks first, and the
    state it replaces is itself kept as a backup (listed here, restorable the same way).
    Backing up and restoring run on a worker: at 100k memories a restore checks every row
    for a quarter of a minute, and the window keeps drawing meanwhile."""

    def __init__(
        self, service: MemoryService, on_error: Callable[[MemdeskError], None], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._on_error = on_error
        self._backups: list[dict[str, Any]] = []
        self.restored: dict[str, Any] | None = None
        self._job: TransferJob | None = None
        self._step = 0
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
        self.table.setTabKeyNavigation(False)  # Tab goes on to the buttons
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(self.restore_selected)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, RESTORE_STEPS)
        self.progress_bar.setFormat("step %v of %m")
        self.progress_bar.setVisible(False)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
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
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.status)
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
        self._start(lambda _progress: self._service.backup(), self._backed_up, "Backing up…")

    def _backed_up(self, backup: dict[str, Any]) -> None:
        # ("Backing up…" stayed after the new backup was listed, as if it were still running)
        self.reload()
        taken, _, memories, size = _cells(backup)
        self._show(f"Backed up {memories} memories ({size}) at {taken}.")

    @Slot()
    def restore_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or self.is_busy():
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
        self._start(
            lambda progress: self._service.restore_backup(backup["name"], progress=progress),
            self._restored,
            RESTORING[0],
        )

    def _start(
        self, work: Callable[[Progress], Any], on_success: Callable[[Any], None], busy: str
    ) -> None:
        self._step = 0
        self._job = job = TransferJob(self._service, work, self)
        job.progressed.connect(self._on_progressed)
        job.succeeded.connect(on_success)
        job.cancelled.connect(lambda: self._show("Restore cancelled. Nothing was changed."))
        job.failed.connect(lambda message: self._show(message, error=True))
        job.finished.connect(self._on_finished)
        self._lock(True)
        self._show(busy)
        job.start()

    def _restored(self, result: dict[str, Any]) -> None:
        self.restored = result
        self.accept()

    @Slot(int, int)
    def _on_progressed(self, step: int, total: int) -> None:
        self._step = step
        if step < total:  # the step under way, counted from 1
            self.progress_bar.setValue(step + 1)
            self._show(RESTORING[step])

    @Slot()
    def _on_finished(self) -> None:
        self._job = None
        self._lock(False)

    def _lock(self, busy: bool) -> None:
        self.table.setEnabled(not busy)
        for button in (self.back_up_button, self.restore_button):
            button.setEnabled(not busy)
        self.progress_bar.setVisible(busy)
        self.progress_bar.setValue(0)
        if not busy:
            self._update_buttons()

    def _show(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #d9480f;" if error else "")

    def reject(self) -> None:
        """Close, or while a restore checks the backup, cancel it; once it replaces the
        database it finishes (a half-replaced database is not a state to leave)."""
        if self._job is None or not self._job.isRunning():
            super().reject()
        elif self._step >= NO_RETURN:
            self._show("Replacing the database; this cannot be stopped now. Almost done…")
        else:
            self._job.cancel()
            self._show("Cancelling…")

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(
            bool(self.table.selectionModel().selectedRows()) and not self.is_busy()
        )

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
