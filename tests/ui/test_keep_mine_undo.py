"""Undoing "Keep mine": the memory goes back to exactly the agent's version, and Redo brings
the person's back, as with every other action in the window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from memdesk.core import agent
from tests.ui.window_helpers import click_row, open_window, settle, shown_texts

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = CTRL | Qt.KeyboardModifier.ShiftModifier
# A new version is written by every change, undo and redo included: these move on.
MOVES_ON = ("version", "updated_at")


@pytest.fixture(autouse=True)
def no_unexpected_messages(monkeypatch):
    """A refused undo or save is shown in a message box: here it fails the test instead."""

    def fail(_parent, _title, text, *args):
        raise AssertionError(f"unexpected message: {text}")

    monkeypatch.setattr(QMessageBox, "warning", fail)


def _fields(memory: dict) -> dict:
    return {k: v for k, v in memory.items() if k not in MOVES_ON}


def _history_rows(window) -> list[str]:
    versions = window.detail.history.versions
    return [versions.item(row).text() for row in range(versions.count())]


def test_undo_of_keep_mine_puts_back_the_agents_version_and_redo_mine(qtbot, service, tmp_path):
    service.add("Prefers pytest over unittest", kind="preference", tags=["python"])
    memory_id = service.add(
        "The staging database is Postgres 16",
        tags=["deploy", "db"],
        project="web",
        actor=agent("claude"),
    )["id"]
    window = open_window(qtbot, service, tmp_path / "settings.ini")
    click_row(qtbot, window, shown_texts(window).index("The staging database is Postgres 16"))
    assert window.detail.memory_id == memory_id

    # The person rewords it and retags it in the editor...
    qtbot.keyClick(window, Qt.Key.Key_E, CTRL)
    editor = window.detail.editor
    editor.content.selectAll()
    qtbot.keyClicks(editor.content, "Staging runs Postgres 16.4 on db-2")
    editor.tags.selectAll()
    qtbot.keyClicks(editor.tags, "deploy, reviewed")
    # ...while the agent rewrites its memory: other words, other tags, a new importance.
    service.update(
        memory_id,
        content="Staging moved to Postgres 17",
        tags=["deploy", "db", "pg17"],
        importance=0.9,
        actor=agent("claude"),
    )
    settle(window)
    theirs = service.get(memory_id)
    assert editor.banner.isVisible()

    qtbot.mouseClick(editor.keep_mine, Qt.MouseButton.LeftButton)
    settle(window)
    mine = service.get(memory_id)
    assert (mine["content"], mine["tags"], mine["importance"]) == (
        "Staging runs Postgres 16.4 on db-2",
        ["deploy", "reviewed"],
        0.9,  # the agent's: the person did not touch it
    )
    assert (mine["source"], mine["agent"]) == ("user", None)  # saved, it became the person's
    assert window.menus.undo.text() == "Undo Edit memory"

    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    settle(window)
    undone = service.get(memory_id)
    assert _fields(undone) == _fields(theirs)  # words, tags, owner, everything: the agent's
    assert undone["version"] > mine["version"]  # history kept, not rewritten
    assert window.status.currentMessage() == "Undone: Edit memory"
    assert not window.menus.undo.isEnabled()  # one step; the agent's own write is not undone
    assert window.menus.redo.text() == "Redo Edit memory"
    assert "Staging moved to Postgres 17" in window.detail.browser.toPlainText()
    assert "by agent (claude)" in window.detail.title.text()

    # History tells the whole story, newest first, the person's own version still in it.
    tab_bar = window.detail.tabs.tabBar()
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(1).center())
    rows = _history_rows(window)
    assert [row.split(",")[0] for row in rows] == [
        "v4  undo by user",
        "v3  update by user",
        "v2  update by agent:claude",
        "v1  add by agent:claude",
    ]
    assert window.detail.history.versions.currentRow() == 0
    assert "tags: deploy, reviewed → deploy, db, pg17" in window.detail.history.diff.toPlainText()

    # The memory is the agent's again: editing it says saving would take it over once more.
    window.detail.tabs.setCurrentIndex(0)
    qtbot.keyClick(window, Qt.Key.Key_E, CTRL)
    assert editor.content.toPlainText() == "Staging moved to Postgres 17"
    assert "claude" in editor.taken_note.text()
    qtbot.keyClick(editor.content, Qt.Key.Key_Escape)
    assert not window.detail.editing

    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL_SHIFT)
    settle(window)
    assert _fields(service.get(memory_id)) == _fields(mine)
    assert window.status.currentMessage() == "Redone: Edit memory"
    assert window.menus.undo.text() == "Undo Edit memory"
    assert "Staging runs Postgres 16.4 on db-2" in window.detail.browser.toPlainText()
    assert _history_rows(window)[0].startswith("v5  redo by user")
