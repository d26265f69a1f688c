"""Logging to a rotating file, and an excepthook that shows a dialog instead of vanishing.

Call `setup_logging()` first thing in the app, then `install_excepthook()` once the
QApplication exists. An unexpected error is written to the log with its traceback and shown
as a readable message that says where the log is, so a person can report it.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox

from memdesk import paths

log = logging.getLogger(__name__)

LOG_NAME = "memdesk.log"
_HANDLER_TAG = "_memdesk_handler"  # marks our handlers so a second setup does not double them
_log_file: Path | None = None
_reporter: CrashReporter | None = None


def setup_logging(level: int = logging.INFO, folder: Path | None = None) -> Path:
    """Log to `<log folder>/memdesk.log` (rotated at 1 MB, 3 kept) and to stderr.

    Returns the log file path. Calling it again replaces the handlers it added before.
    """
    global _log_file
    folder = folder or paths.log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    _log_file = folder / LOG_NAME

    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _HANDLER_TAG, False)]:
        root.removeHandler(handler)
        handler.close()

    file_handler = RotatingFileHandler(
        _log_file, maxBytes=1_000_000, backupCount=3, encoding="utf-8"
    )
    file_handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s [%(threadName)s] %(message)s")
    )
    stderr_handler = logging.StreamHandler(sys.stderr)
    stderr_handler.setFormatter(logging.Formatter("memdesk: %(levelname)s: %(message)s"))
    stderr_handler.setLevel(logging.WARNING)  # the terminal gets problems, the file everything
    for handler in (file_handler, stderr_handler):
        setattr(handler, _HANDLER_TAG, True)
        root.addHandler(handler)
    root.setLevel(level)
    return _log_file


def log_file() -> Path | None:
    """The file `setup_logging` writes to, or None if logging was not set up."""
    return _log_file


class CrashReporter(QObject):
    """Shows the error dialog on the GUI thread, whichever thread the error happened on."""

    error_reported = Signal(str, str)  # summary, traceback text

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._showing = False
        # Queued when emitted from a worker thread, so the dialog is always built on the GUI one.
        self.error_reported.connect(self._on_error_reported)

    def report(
        self,
        exc_type: type[BaseException],
        exc: BaseException,
        tb: TracebackType | None,
    ) -> None:
        log.critical("Unexpected error", exc_info=(exc_type, exc, tb))
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        summary = f"{exc_type.__name__}: {exc}".strip().rstrip(":")
        self.error_reported.emit(summary, details)

    @Slot(str, str)
    def _on_error_reported(self, summary: str, details: str) -> None:
        # An error raised while the dialog is up (or by the dialog itself) is only logged:
        # re-entering here would stack dialogs or loop forever.
        if self._showing:
            return
        self._showing = True
        try:
            self._show(summary, details)
        except Exception:
            log.exception("Could not show the error dialog")
        finally:
            self._showing = False

    def _show(self, summary: str, details: str) -> None:
        where = str(_log_file) if _log_file else "the terminal (logging to a file is not set up)"
        box = QMessageBox(QApplication.activeWindow())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle("memdesk: unexpected error")
        box.setText("Something went wrong, and the last action may not have finished.")
        box.setInformativeText(
            f"{summary}\n\nYour memories are safe: every change is saved as it is made. "
            f"Details were written to:\n{where}"
        )
        box.setDetailedText(details)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.exec()


def install_excepthook() -> CrashReporter:
    """Route uncaught errors (GUI thread and worker threads) to the log and a dialog."""
    global _reporter
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("install_excepthook() needs a QApplication")
    if QThread.currentThread() is not app.thread():
        raise RuntimeError("install_excepthook() must be called on the GUI thread")
    _reporter = CrashReporter(app)
    sys.excepthook = _excepthook
    threading.excepthook = _thread_excepthook
    return _reporter


def _excepthook(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    if issubclass(exc_type, KeyboardInterrupt) or _reporter is None:
        sys.__excepthook__(exc_type, exc, tb)
        return
    try:
        _reporter.report(exc_type, exc, tb)
    except Exception:  # e.g. the application is already gone: at least print it
        sys.__excepthook__(exc_type, exc, tb)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None:
        return
    _excepthook(args.exc_type, args.exc_value, args.exc_traceback)
