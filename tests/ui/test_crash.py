"""Crash handling: errors land in the log file and in a readable dialog, never a vanishing app."""

from __future__ import annotations

import logging
import sys
import threading

import pytest
from PySide6.QtWidgets import QMessageBox

from memdesk.ui import crash


@pytest.fixture
def log_folder(tmp_path):
    folder = tmp_path / "logs"
    yield folder
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, crash._HANDLER_TAG, False)]:
        root.removeHandler(handler)
        handler.close()


@pytest.fixture
def shown(qapp, monkeypatch, log_folder):
    """Install the hook with logging set up; collect the dialogs instead of showing them."""
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    crash.setup_logging(folder=log_folder)
    dialogs: list[dict[str, str]] = []

    def fake_exec(box):
        dialogs.append(
            {"text": box.text(), "info": box.informativeText(), "details": box.detailedText()}
        )
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    crash.install_excepthook()
    return dialogs


def _raise(exc: BaseException) -> None:
    try:
        raise exc
    except BaseException as caught:
        sys.excepthook(type(caught), caught, caught.__traceback__)


def test_setup_logging_writes_to_the_log_folder(log_folder):
    path = crash.setup_logging(folder=log_folder)
    logging.getLogger("memdesk.test").info("hello from the test")
    assert path == log_folder / "memdesk.log"
    assert "hello from the test" in path.read_text(encoding="utf-8")


def test_setting_up_twice_does_not_write_lines_twice(log_folder):
    crash.setup_logging(folder=log_folder)
    path = crash.setup_logging(folder=log_folder)
    logging.getLogger("memdesk.test").warning("once")
    assert path.read_text(encoding="utf-8").count("once") == 1


def test_an_uncaught_error_shows_a_dialog_with_the_log_path(shown, log_folder):
    _raise(ValueError("the tag list is broken"))
    assert len(shown) == 1
    assert "ValueError: the tag list is broken" in shown[0]["info"]
    assert str(log_folder / "memdesk.log") in shown[0]["info"]
    assert "Traceback" in shown[0]["details"]
    logged = (log_folder / "memdesk.log").read_text(encoding="utf-8")
    assert "the tag list is broken" in logged
    assert "Traceback" in logged


def test_an_error_while_the_dialog_is_up_does_not_open_another(shown, monkeypatch):
    def exec_that_fails_again(box):
        shown.append({"text": box.text()})
        _raise(RuntimeError("second error inside the dialog"))

    monkeypatch.setattr(QMessageBox, "exec", exec_that_fails_again)
    _raise(ValueError("first"))
    assert len(shown) == 1


def test_a_dialog_that_itself_fails_is_logged_and_the_next_error_still_shows(
    shown, monkeypatch, log_folder
):
    def broken_exec(box):
        raise OSError("no display")

    monkeypatch.setattr(QMessageBox, "exec", broken_exec)
    _raise(ValueError("first"))
    assert "Could not show the error dialog" in (log_folder / "memdesk.log").read_text("utf-8")

    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append({"text": box.text()}))
    _raise(ValueError("second"))
    assert len(shown) == 1


def test_an_error_in_a_worker_thread_is_shown_on_the_gui_thread(shown, qtbot):
    worker = threading.Thread(target=lambda: 1 / 0)
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=2000)
    assert "ZeroDivisionError" in shown[0]["info"]
