"""View ▸ Injections…: what each agent session was given, opened like a person would (#22.17)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.core import agent
from tests.ui.window_helpers import open_window, settle

CLAUDE = agent("claude-code")


def test_a_session_shows_its_injections_and_a_memory_opens_in_the_window(qtbot, service, tmp_path):
    rule = service.add("This repo uses pnpm only, never npm install", project="shop")
    service.session_start("s-42", actor=CLAUDE, project="shop")
    service.observe("s-42", "Bash", {"command": "pnpm install"}, actor=CLAUDE)
    window = open_window(qtbot, service, tmp_path / "settings.ini")

    settle(window)  # the window becomes active once its first events are handled
    qtbot.keyClick(window, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    dialog = window.injections_dialog
    qtbot.waitExposed(dialog)
    assert "claude-code" in dialog.summary.text()
    session = dialog.tree.topLevelItem(0)
    assert session.text(0).startswith("claude-code — session s-42 (shop)")
    start = session.child(0)
    assert start.text(0) == "Session start: briefing — 1 memory"
    assert int(start.text(2).replace(",", "")) > len(rule["content"])
    memory = start.child(0)
    assert "pnpm only" in memory.text(0)
    assert (start.text(4), memory.text(4)) == ("1 of 1", "✓ acted on")

    dialog.tree.itemActivated.emit(memory, 0)
    settle(window)
    assert window.detail.memory_id == rule["id"]
    shown = window.detail.browser.toPlainText()
    assert "Given to agents" in shown
    assert "1 time in 1 session (acted on in 1)" in shown
    assert "claude-code, session s-42" in shown
    dialog.close()


def test_with_no_sessions_the_dialog_says_how_to_get_some(qtbot, service, tmp_path):
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    window.menus.injections.trigger()
    assert "memdesk hook install" in window.injections_dialog.summary.text()
    window.injections_dialog.close()
