"""Long export/import work on a worker thread, and the dialog frame that shows its progress.

The service is plain Python and safe to call from any thread; each thread has its own
connection, so the worker releases it when it ends.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QThread, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import MemdeskError, MemoryService

log = logging.getLogger(__name__)

Progress = Callable[[int, int], bool]


class JobCancelled(Exception):
    """Raised by work that notices the person pressed Cancel between service calls."""


class TransferJob(QThread):
    """Runs `work(progress)` once on its own thread and reports how it ended.

    `progress(done, total)` is handed to the service; it returns False once cancelled, which
    makes the service abort without writing anything.
    """

    progressed = Signal(int, int)
    succeeded = Signal(object)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(
        self, service: MemoryService, work: Callable[[Progress], Any], parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._work = work
        self._cancel_requested = threading.Event()

    def cancel(self) -> None:
        self._cancel_requested.set()

    def progress(self, done: int, total: int) -> bool:
        self.progressed.emit(done, total)
        return not self._cancel_requested.is_set()

    def run(self) -> None:
        try:
            result = self._work(self.progress)
        except JobCancelled:
            self.cancelled.emit()
        except MemdeskError as exc:
            if exc.code == "cancelled":
                self.cancelled.emit()
            else:
                self.failed.emit(exc.message)
        except OSError as exc:
            self.failed.emit(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        except Exception as exc:
            log.exception("Export/import failed")
            self.failed.emit(f"Unexpected error ({type(exc).__name__}: {exc}); see the log.")
        else:
            self.succeeded.emit(result)
        finally:
            self._service.release_thread()


class HoldsAJob(QDialog):
    """A dialog that never closes behind the job it runs (`_job`): closing it asks the job
    to stop through `reject`, and a dialog that is done waits for the job's thread."""

    _job: TransferJob | None = None

    def is_busy(self) -> bool:
        # busy until the job's `finished` reaches this thread and unlocks the buttons, not
        # merely until the thread stops: in between the window still shows it locked
        return self._job is not None

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.is_busy():
            self.reject()
            event.ignore()
            return
        super().closeEvent(event)

    def done(self, result: int) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job.wait()
            self._job = None
        super().done(result)


class TransferDialog(HoldsAJob):
    """A form above a progress bar and a status line, with one action button and Cancel.

    While a job runs the form is locked, and Cancel (or Esc) cancels the job instead of
    closing the dialog; nothing is written by a cancelled job.
    """

    def __init__(self, service: MemoryService, action: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.service = service
        self._job: TransferJob | None = None
        self.form = QWidget()
        self.progress_bar = QProgressBar()
        self.progress_bar.setVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.action_button: QPushButton = self.buttons.addButton(
            action, QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.accepted.connect(self._on_action_clicked)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.form, 1)
        layout.addWidget(self.progress_bar)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        # made default once in the dialog: set before, Enter in a field clicked nothing
        self.action_button.setDefault(True)

    # -- for subclasses ------------------------------------------------------------------

    def _on_action_clicked(self) -> None:
        raise NotImplementedError

    def start_job(
        self, work: Callable[[Progress], Any], on_success: Callable[[Any], None], busy: str
    ) -> None:
        """Run `work` on a worker thread; `on_success(result)` runs on the GUI thread."""
        self._job = TransferJob(self.service, work, self)
        self._job.progressed.connect(self._on_job_progressed)
        self._job.succeeded.connect(on_success)
        self._job.cancelled.connect(self._on_job_cancelled)
        self._job.failed.connect(self._on_job_failed)
        self._job.finished.connect(self._on_job_finished)
        self.form.setEnabled(False)
        self.action_button.setEnabled(False)
        self.progress_bar.setRange(0, 0)  # busy until the first progress report
        self.progress_bar.setVisible(True)
        self.show_status(busy)
        self._job.start()

    def show_status(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        self.status.setStyleSheet("color: #d9480f;" if error else "")

    def job_ended(self) -> None:
        """Unlock the form; subclasses re-enable their action button as they see fit."""
        self.form.setEnabled(True)
        self.progress_bar.setVisible(False)

    # -- slots ---------------------------------------------------------------------------

    @Slot(int, int)
    def _on_job_progressed(self, done: int, total: int) -> None:
        if total <= 0:
            return
        self.progress_bar.setRange(0, total)
        self.progress_bar.setValue(done)
        self.progress_bar.setFormat(f"{done:,} of {total:,}")

    @Slot()
    def _on_job_cancelled(self) -> None:
        self.show_status("Cancelled. Nothing was written.")

    @Slot(str)
    def _on_job_failed(self, message: str) -> None:
        self.show_status(message, error=True)

    @Slot()
    def _on_job_finished(self) -> None:
        self._job = None
        if self.result() == QDialog.DialogCode.Accepted:
            return
        self.job_ended()

    # -- closing -------------------------------------------------------------------------

    def reject(self) -> None:
        if self._job is not None and self._job.isRunning():
            self._job.cancel()
            self.show_status("Cancelling…")
            return
        super().reject()
