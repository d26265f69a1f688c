"""The "Proposed" view and the agents roster: what session ends left for the person."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from memdesk.core import agent
from memdesk.ui.agents.agents_dialog import AgentsDialog
from tests.ui.window_helpers import open_window, settle

CLAUDE = agent("claude-code")


@pytest.fixture
def window(qtbot, service, tmp_path):
    service.add("Something already known")
    service.session_start("s1", actor=CLAUDE, task="checkout")
    service.session_prompt("s1", "fix the checkout rounding", actor=CLAUDE)
    service.session_end(
        "s1",
        actor=CLAUDE,
        transcript=[
            {"role": "user", "content": "Don't touch the vendored code. I like early returns."}
        ],
    )
    return open_window(qtbot, service, tmp_path / "settings.ini")


def _open_proposed(window):
    window.sidebar.select_key("proposed")
    settle(window)
    assert window.pages.currentWidget() is window.proposals
    return window.proposals


def test_the_sidebar_counts_and_opens_the_proposals(window):
    assert window.sidebar.count_of("proposed") == 2
    view = _open_proposed(window)
    texts = {view.table.item(r, 0).text() for r in range(view.table.rowCount())}
    assert texts == {"Don't touch the vendored code", "The user likes early returns"}
    assert not view.accept_button.isEnabled()  # nothing selected yet


def test_accept_undo_redo_is_exact(qtbot, service, window):
    view = _open_proposed(window)
    view.table.selectRow(0)
    content = view.table.item(0, 0).text()
    qtbot.mouseClick(view.accept_button, Qt.MouseButton.LeftButton)
    settle(window)
    accepted = next(p for p in service.proposals("all") if p["content"] == content)
    memory = accepted["memory"]
    assert service.get(memory)["status"] == "active"
    assert view.table.rowCount() == 1

    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(window)
    assert service.get(memory)["status"] == "deleted"
    assert view.table.rowCount() == 2

    window.undo_stack.redo()
    settle(window)
    assert service.get(memory)["status"] == "active"  # the same memory, not a second one
    assert service.count(tags=["gap-fill"], status="all") == 1


def test_dismiss_several_is_one_step(qtbot, service, window):
    view = _open_proposed(window)
    view.table.selectAll()
    qtbot.mouseClick(view.dismiss_button, Qt.MouseButton.LeftButton)
    assert service.proposals() == []
    window.undo_stack.undo()
    assert len(service.proposals()) == 2


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


def test_a_private_memory_proposed_for_sharing_reads_as_such(qtbot, service, window):
    private = service.add("Staging uses port 8443", visibility="private", actor=CLAUDE)
    service.add("Staging uses port 8443", actor=agent("cursor"))
    view = _open_proposed(window)
    texts = [view.table.item(r, 0).text() for r in range(view.table.rowCount())]
    assert "Share with every agent: Staging uses port 8443" in texts
    window.open_memory(private["id"])
    settle(window)
    assert "only claude-code (private)" in window.detail.browser.toPlainText()
