"""File ▸ Backups…: take a backup, restore one, and the window follows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from memdesk.core import agent
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


def test_back_up_then_restore_from_the_window(qtbot, service, window, monkeypatch):
    _in_dialog(monkeypatch, lambda d: qtbot.mouseClick(d.back_up_button, Qt.MouseButton.LeftButton))
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
