"""Attaching an agent host from the window: the diff first, then Attach; Detach undoes it;
offered on the welcome page and in View ▸ Agents… (#23.4)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from memdesk.ui.agents.agents_dialog import AgentsDialog
from memdesk.ui.agents.attach_dialog import AttachDialog
from tests.ui.window_helpers import open_window


def test_the_diff_is_shown_before_attach_writes_and_detach_undoes_it(qtbot, service, tmp_path):
    home = tmp_path / "home"
    dialog = AttachDialog(service.path, home=home)
    qtbot.addWidget(dialog)
    dialog.host.setCurrentIndex(dialog.host.findData("cursor"))
    path = home / ".cursor" / "mcp.json"
    assert f"+++ {path}" in dialog.diff.toPlainText()
    assert not path.exists()  # nothing written before Attach
    assert not dialog.detach_button.isEnabled()

    qtbot.mouseClick(dialog.attach_button, Qt.MouseButton.LeftButton)
    server = json.loads(path.read_text())["mcpServers"]["memdesk"]
    assert server["args"][-1] == str(service.path.resolve())
    assert "is attached" in dialog.summary.text()
    assert not dialog.attach_button.isEnabled()

    qtbot.mouseClick(dialog.detach_button, Qt.MouseButton.LeftButton)
    assert not path.exists()


def test_enter_on_the_preview_closes_it_and_writes_nothing(qtbot, service, tmp_path):
    home = tmp_path / "home"
    dialog = AttachDialog(service.path, home=home)
    qtbot.addWidget(dialog)
    dialog.host.setCurrentIndex(dialog.host.findData("cursor"))
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert not (home / ".cursor" / "mcp.json").exists()
    assert not dialog.isVisible()


def test_the_welcome_page_and_the_agents_dialog_offer_it(qtbot, service, tmp_path, monkeypatch):
    opened = []
    monkeypatch.setattr(AttachDialog, "exec", lambda dialog: opened.append(dialog) or 0)
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    assert window.pages.currentWidget() is window.empty_state  # no memory yet
    qtbot.mouseClick(window.empty_state.attach_button, Qt.MouseButton.LeftButton)
    window.menus.attach.trigger()
    agents = AgentsDialog(service, window.undo_stack, window.show_error, window)
    qtbot.addWidget(agents)
    agents.attach_button.click()
    assert len(opened) == 3


def test_attach_carries_the_socket_this_window_serves_on(qtbot, service, tmp_path, monkeypatch):
    """On a socket the person chose (MEMDESK_SOCKET, --socket), the host's server and hooks
    looked for the default one, derived from the database, and found no memdesk there."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    written = []

    def attach_cursor(dialog) -> int:
        dialog.host.setCurrentIndex(dialog.host.findData("cursor"))
        qtbot.mouseClick(dialog.attach_button, Qt.MouseButton.LeftButton)
        written.append(dialog.summary.text())
        return 0

    monkeypatch.setattr(AttachDialog, "exec", attach_cursor)
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    assert window.socket_path == "/tmp/memdesk-test.sock"  # not the one derived from the db
    qtbot.mouseClick(window.empty_state.attach_button, Qt.MouseButton.LeftButton)

    server = json.loads((home / ".cursor" / "mcp.json").read_text())["mcpServers"]["memdesk"]
    assert server["args"][-2:] == ["--socket", "/tmp/memdesk-test.sock"]
    hooks = json.loads((home / ".cursor" / "hooks.json").read_text())["hooks"]
    assert all(
        "--socket /tmp/memdesk-test.sock" in hook["command"]
        for entries in hooks.values()
        for hook in entries
    )
    assert "/tmp/memdesk-test.sock" in written[0]
