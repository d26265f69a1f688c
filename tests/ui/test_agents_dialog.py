"""The agents roster: who connected, what they last did, and the person's controls."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from memdesk.core import agent
from memdesk.ui.agents.agents_dialog import AgentsDialog
from tests.ui.window_helpers import open_window

CLAUDE = agent("claude-code")


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.session_start("s1", actor=CLAUDE, task="checkout")
    service.session_prompt("s1", "fix the checkout rounding", actor=CLAUDE)
    return open_window(qtbot, service, tmp_path / "settings.ini")


def test_the_agents_roster(qtbot, service, window):
    dialog = AgentsDialog(service, window.undo_stack, pytest.fail, window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == 1
    assert dialog.table.item(0, 0).text() == "claude-code"
    assert dialog.table.item(0, 4).text() == "checkout"


def test_pausing_an_agent_from_the_roster_is_undoable_and_shown(qtbot, service, window):
    dialog = AgentsDialog(service, window.undo_stack, pytest.fail, window)
    qtbot.addWidget(dialog)
    dialog.controls["claude-code"].setCurrentText("Paused")
    assert service.agent_modes() == {"claude-code": "paused"}
    window.show_agent_names(["claude-code"])
    assert "claude-code (paused)" in window.status.agents.text()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert service.agent_modes() == {}
    window.undo_stack.redo()
    assert service.agent_modes() == {"claude-code": "paused"}


def test_an_agents_updates_can_be_let_through_from_the_roster_and_undone(qtbot, service, window):
    """#31 item 4: the person can say an agent's updates of its own notes are fine."""
    dialog = AgentsDialog(service, window.undo_stack, pytest.fail, window)
    qtbot.addWidget(dialog)
    dialog.controls["claude-code"].setCurrentText("Active, its updates fine")
    assert service.agent_modes() == {"claude-code": "updates_fine"}
    service.add("The nightly build 41 is green on main", actor=CLAUDE)
    service.add("The nightly build 42 is green on main", actor=CLAUDE)
    assert service.inbox() == []
    window.undo_stack.undo()
    assert service.agent_modes() == {}
    service.add("The nightly build 43 is green on main", actor=CLAUDE)
    assert [item["type"] for item in service.inbox()] == ["update"]
