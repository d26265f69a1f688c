"""Edit ▸ Don't Bring Up Unasked: a memory kept and searchable, never injected; undoable."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.core import agent
from tests.ui.window_helpers import click_row, open_window, settle

CLAUDE = agent("claude-code")


def test_dont_bring_up_unasked_then_undo(qtbot, service, tmp_path):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    settle(window)  # the window becomes active once its first events are handled
    click_row(qtbot, window, 0)
    shortcut = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_U, shortcut)
    settle(window)
    assert service.get(rule["id"])["inject"] is False
    assert "pnpm" not in service.session_start("s1", actor=CLAUDE, project="shop")["text"]
    assert "Brought up unasked" in window.detail.browser.toPlainText()
    assert window.undo_stack.undoText() == "Don't bring up unasked (1 memory)"

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    assert service.get(rule["id"])["inject"] is True
    assert "Brought up unasked" not in window.detail.browser.toPlainText()
