"""File ▸ Backups…: take a backup, restore one, and the window follows."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from memdesk.core import agent
from memdesk.core.files import backup_rows
from memdesk.store import backup as store_backup
from memdesk.ui.dialogs import backups_dialog
from memdesk.ui.dialogs.backups_dialog import BackupsDialog
from tests.ui.window_helpers import click_row, open_window, settle, shown_texts


@pytest.fixture
def window(qtbot, service, tmp_path):
    for n in range(3):
        service.add(f"Fact {n}: the build takes {n} minutes", dedup=False)
    return open_window(qtbot, service, tmp_path / "settings.ini")


def _in_dialog(monkeypatch, act):
    """Run `act(dialog)` where the person would use the modal dialog, then close it."""

    def fake_exec(dialog: BackupsDialog) -> int:
        act(dialog)
        return dialog.result()

    monkeypatch.setattr(BackupsDialog, "exec", fake_exec)


def _back_up(qtbot, dialog: BackupsDialog) -> None:
    qtbot.mouseClick(dialog.back_up_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_busy())


def test_back_up_then_restore_from_the_window(qtbot, service, window, monkeypatch):
    _in_dialog(monkeypatch, lambda d: _back_up(qtbot, d))
    window.menus.backups.trigger()
    assert [b["kind"] for b in service.backups()] == ["manual"]
    before = shown_texts(window)

    click_row(qtbot, window, 0)
    qtbot.keyClick(window.browser.table, Qt.Key.Key_Delete)
    service.add("Written by an agent after the backup", actor=agent("claude-code"))
    settle(window)
    assert window.undo_stack.canUndo()

    asked = []
    monkeypatch.setattr(backups_dialog, "confirm", lambda _p, _t, text: asked.append(text) or True)

    def restore(dialog: BackupsDialog) -> None:
        assert dialog.table.rowCount() == 1
        assert dialog.table.item(0, 2).text() == "3"
        qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.result() == QDialog.DialogCode.Accepted)

    _in_dialog(monkeypatch, restore)
    window.menus.backups.trigger()
    settle(window)

    assert "3 memories" in asked[0]
    assert sorted(shown_texts(window)) == sorted(before)
    assert not window.undo_stack.canUndo()  # the steps describe a state that is gone
    assert "kept as" in window.status.currentMessage()
    kinds = [b["kind"] for b in service.backups()]
    assert kinds == ["before-restore", "manual"]


def test_cancelling_the_restore_question_changes_nothing(qtbot, service, window, monkeypatch):
    service.backup()
    service.add("Added after the backup")
    monkeypatch.setattr(backups_dialog, "confirm", lambda *_: False)
    dialog = BackupsDialog(service, pytest.fail, window)
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Rejected
    assert service.count() == 4
    assert len(service.backups()) == 1


def test_with_no_backups_restore_is_disabled(qtbot, service, window):
    dialog = BackupsDialog(service, pytest.fail, window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 0
    assert not dialog.restore_button.isEnabled()


def _held(monkeypatch, module, name: str) -> tuple[threading.Event, threading.Event]:
    """`module.name` waits on the worker until let go: (reached, let_go)."""
    reached, let_go = threading.Event(), threading.Event()
    real = getattr(module, name)

    def held(*args, **kwargs):
        reached.set()
        let_go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, held)
    return reached, let_go


def _restoring(qtbot, service, window, monkeypatch) -> BackupsDialog:
    monkeypatch.setattr(backups_dialog, "confirm", lambda *_: True)
    dialog = BackupsDialog(service, pytest.fail, window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    return dialog


def test_the_window_keeps_drawing_while_a_restore_checks_the_backup_and_esc_cancels_it(
    qtbot, service, window, monkeypatch
):
    service.backup()
    service.add("Added after the backup")
    reached, let_go = _held(monkeypatch, backup_rows, "check")
    dialog = _restoring(qtbot, service, window, monkeypatch)
    assert reached.wait(10)
    qtbot.waitUntil(lambda: dialog.status.text() == "Checking every memory in the backup…")
    assert dialog.progress_bar.isVisible()
    assert dialog.progress_bar.text() == "step 2 of 5"
    assert not dialog.restore_button.isEnabled()
    assert not dialog.back_up_button.isEnabled()

    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible()  # Esc asks the restore to stop; the dialog stays to say so
    let_go.set()
    # the thread ends before its signal reaches the dialog: wait for what the person sees
    qtbot.waitUntil(lambda: dialog.status.text() == "Restore cancelled. Nothing was changed.")
    qtbot.waitUntil(lambda: not dialog.is_busy())
    assert service.count() == 4
    assert [b["kind"] for b in service.backups()] == ["manual"]
    assert dialog.restore_button.isEnabled()


def test_once_the_database_is_being_replaced_the_restore_finishes(
    qtbot, service, window, monkeypatch
):
    service.backup()
    service.add("Added after the backup")
    reached, let_go = _held(monkeypatch, store_backup, "restore_into")
    dialog = _restoring(qtbot, service, window, monkeypatch)
    assert reached.wait(10)
    qtbot.waitUntil(lambda: dialog.status.text() == "Replacing every memory…")
    dialog.close()
    assert dialog.isVisible()
    assert "cannot be stopped" in dialog.status.text()
    let_go.set()
    qtbot.waitUntil(lambda: dialog.result() == QDialog.DialogCode.Accepted)
    assert service.count() == 3
    assert dialog.restored["before"]["kind"] == "before-restore"


def test_a_backup_that_fails_its_check_is_said_in_the_dialog(qtbot, service, window, monkeypatch):
    taken = service.backup()
    (service.backup_folder() / taken["name"]).write_bytes(b"SQLite format 3\x00" + b"x" * 4096)
    dialog = _restoring(qtbot, service, window, monkeypatch)
    said = "is not a memdesk backup: file is not a database"
    qtbot.waitUntil(lambda: dialog.status.text().endswith(said))
    assert dialog.status.styleSheet()  # shown as an error
    assert service.count() == 3
    assert dialog.result() != QDialog.DialogCode.Accepted


def test_the_dialog_is_busy_until_the_window_has_heard_the_job_end(qtbot, service, window):
    # the thread can stop before its `finished` reaches the window; until then the buttons
    # are still locked, so "busy" must still be true (CI once saw the two disagree)
    dialog = BackupsDialog(service, pytest.fail, window)
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.back_up_button, Qt.MouseButton.LeftButton)
    assert dialog._job is not None
    dialog._job.wait()
    assert dialog.is_busy() == (not dialog.restore_button.isEnabled())
    qtbot.waitUntil(lambda: not dialog.is_busy())
    assert dialog.restore_button.isEnabled()


def test_back_up_now_says_when_it_is_done(qtbot, service, window):
    """ "Backing up…" stayed after the new backup was listed, as if still running."""
    dialog = BackupsDialog(service, lambda error: None, window)
    _back_up(qtbot, dialog)
    assert dialog.status.text().startswith("Backed up 3 memories (")
    assert dialog.table.rowCount() == 1
